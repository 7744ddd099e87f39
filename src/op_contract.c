/* op_contract.c - the operations' einops contracts. */
#include "op_contract.h"

#include "analysis.h"

static const struct {
    const char *spec;
    bool matmul;
} contracts[OP_KIND_COUNT] = {
    [OP_NORM] = {"b s h -> b s h", false},
    [OP_QKV] = {"b s h, h e -> b s e", true},
    [OP_ROPE] = {"b s e, s e -> b s e", false},
    [OP_SCORES] = {"b a s d, b a t d -> b a s t", true},
    [OP_SOFTMAX] = {"b a s t -> b a s t", false},
    [OP_ATTN_V] = {"b a s t, b a t d -> b a s d", true},
    /* scores, softmax and A.V in one kernel: two contractions, not one */
    [OP_FLASH_ATTN] = {"b a s d, b a t d, b a t d -> b a s d", false},
    [OP_OUT_PROJ] = {"b s c, c h -> b s h", true},
    [OP_RESIDUAL] = {"b s h, b s h -> b s h", false},
    [OP_ROUTER] = {"b s h, h x -> b s x", true},
    [OP_MLP_UP] = {"b s h, h f -> b s f", true},
    [OP_MLP_GATE] = {"b s h, h f -> b s f", true},
    [OP_ACT] = {"b s f -> b s f", false},
    [OP_MLP_DOWN] = {"b s f, f h -> b s h", true},
    [OP_FINAL_NORM] = {"b s h -> b s h", false},
    [OP_LM_HEAD] = {"b s h, h v -> b s v", true},
    [OP_LOSS] = {"b s v -> b s", false},
    [OP_OPTIMIZER] = {"p, p, p, p -> p", false},
};

const char *op_contract(enum op_kind k, bool gated, bool *matmul)
{
    *matmul = false;
    if ((unsigned)k >= OP_KIND_COUNT || contracts[k].spec == NULL)
        return "";
    *matmul = contracts[k].matmul;
    /* A gated activation multiplies the gate's output by the up projection's. */
    if (k == OP_ACT && gated)
        return "b s f, b s f -> b s f";
    return contracts[k].spec;
}

void op_contract_write(FILE *out, const struct analysis *a, bool gated)
{
    fprintf(out, "Contracts (einops, forward; b sequences, s tokens, t keys, h d_model, a heads,\n"
                 "d head size, e Q/K/V width, c a x d, f MLP width, x experts, v vocab, p params)\n");
    for (int k = 0; k < a->n_ops; k++) {
        bool mm;
        const char *c = op_contract(a->ops[k].kind, gated, &mm);
        fprintf(out, "  %-14s %-38s %s\n", a->ops[k].name ? a->ops[k].name : "?", c,
                mm ? "2 x product of its dims"
                : a->ops[k].kind == OP_FLASH_ATTN ? "fused: two contractions and a softmax"
                                                  : "per element");
    }
    fputc('\n', out);
}
