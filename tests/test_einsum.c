/* test_einsum.c - named-dimension contracts (src/einsum.c, src/op_contract.c) and
 * `rooftop einsum`, against the lecture's figures: a 1024^3 matmul moves 6,291,456 bytes
 * in bf16 (reference.md section 1), its FLOPs 2 x the product of its dimensions; GPT-3's
 * feed-forward matrix is 2,415,919,104 bytes in fp32; the ops table's contractions give its
 * FLOPs. */
#include <check.h>

#include "analysis.h"
#include "check_util.h"
#include "einsum.h"
#include "inputs.h"
#include "op_contract.h"
#include "scenario.h"

#define ERRN 256

static void cost_of(const char *spec, enum einsum_kind k, const char *dims, double e,
                    struct einsum_spec *sp, struct einsum_cost *c)
{
    char err[ERRN];
    double size[EINSUM_MAX_NAMES];
    ck_assert_msg(einsum_parse(spec, k, sp, err, sizeof err), "%s: %s", spec, err);
    ck_assert_msg(einsum_dims(sp, dims, size, err, sizeof err), "%s: %s", dims, err);
    einsum_cost(sp, size, e, c);
}

START_TEST(matmul_as_contract)
{
    struct einsum_spec sp;
    struct einsum_cost c;
    cost_of("x y, y z -> x z", EINSUM_CONTRACT, "x=1024,y=1024,z=1024", 2, &sp, &c);
    ck_assert(c.flops == 2.0 * 1024 * 1024 * 1024);
    ck_assert(c.bytes == 6291456); /* the lecture's 3 x 2n^2 */
    ck_assert_rel(c.intensity, 1024.0 / 3, 1e-12);
    ck_assert(c.summed == 2u); /* y, the second name */
    /* torch.einsum's letters read the same */
    cost_of("ij,jk->ik", EINSUM_CONTRACT, "i=1024,j=1024,k=1024", 2, &sp, &c);
    ck_assert(c.flops == 2.0 * 1024 * 1024 * 1024);
    /* rectangular: 2 B D K */
    cost_of("b d, d k -> b k", EINSUM_CONTRACT, "b=64,d=1024,k=4096", 2, &sp, &c);
    ck_assert(c.flops == 2.0 * 64 * 1024 * 4096);
    ck_assert(c.out_elems == 64 * 4096);
    ck_assert(c.out_shape[0] == 64 && c.out_shape[1] == 4096);
    /* batched, as the lecture's b s h, h o -> b s o */
    cost_of("b s h, h o -> b s o", EINSUM_CONTRACT, "b=2,s=8,h=4,o=16", 2, &sp, &c);
    ck_assert(c.flops == 2.0 * 2 * 8 * 4 * 16);
    ck_assert(c.bytes == 2.0 * (2 * 8 * 4 + 4 * 16 + 2 * 8 * 16));
    /* GPT-3's feed-forward matrix, 12288 x 4 x 12288 in fp32 */
    cost_of("t h, h f -> t f", EINSUM_CONTRACT, "t=1,h=12288,f=49152", 4, &sp, &c);
    ck_assert(c.in_elems[1] * 4 == 2415919104.0);
    /* an elementwise product sums nothing: one multiply per element */
    cost_of("b s, b s -> b s", EINSUM_CONTRACT, "b=3,s=5", 2, &sp, &c);
    ck_assert(c.flops == 15);
    ck_assert(c.summed == 0);
}
END_TEST

START_TEST(reduce_and_rearrange)
{
    struct einsum_spec sp;
    struct einsum_cost c;
    cost_of("b s h -> b s", EINSUM_REDUCE, "b=2,s=8,h=4", 2, &sp, &c);
    ck_assert(c.flops == 64 - 16);
    ck_assert(c.bytes == 2.0 * (64 + 16));
    /* splitting heads out of the hidden size and keeping the order: a view */
    cost_of("b s (a d) -> b s a d", EINSUM_REARRANGE, "b=2,s=8,a=4,d=16", 2, &sp, &c);
    ck_assert(c.view);
    ck_assert(c.flops == 0 && c.bytes == 0);
    /* moving heads before the sequence: a copy, read and written */
    cost_of("b s (a d) -> b a s d", EINSUM_REARRANGE, "b=2,s=8,a=4,d=16", 2, &sp, &c);
    ck_assert(!c.view);
    ck_assert(c.flops == 0);
    ck_assert(c.bytes == 2.0 * 2 * 1024);
    /* the lecture's 8 as 2 x 4 and back */
    cost_of("(i j) -> i j", EINSUM_REARRANGE, "i=2,j=4", 4, &sp, &c);
    ck_assert(c.view && c.out_elems == 8);
}
END_TEST

START_TEST(bad_contracts)
{
    struct einsum_spec sp;
    char err[ERRN];
    double size[EINSUM_MAX_NAMES];
    ck_assert(!einsum_parse("a b, b c", EINSUM_CONTRACT, &sp, err, sizeof err));
    ck_assert(strstr(err, "->") != NULL);
    ck_assert(!einsum_parse("a b -> a c", EINSUM_CONTRACT, &sp, err, sizeof err));
    ck_assert(strstr(err, "'c'") != NULL);
    ck_assert(!einsum_parse("a a -> a", EINSUM_CONTRACT, &sp, err, sizeof err));
    ck_assert(!einsum_parse("a b, b -> a", EINSUM_REDUCE, &sp, err, sizeof err));
    ck_assert(!einsum_parse("a b -> a", EINSUM_REARRANGE, &sp, err, sizeof err));
    ck_assert(!einsum_parse("(a b -> a b", EINSUM_REARRANGE, &sp, err, sizeof err));
    ck_assert(!einsum_parse("(a b) c, c d -> a d", EINSUM_CONTRACT, &sp, err, sizeof err));
    ck_assert(!einsum_parse("... a -> a", EINSUM_REDUCE, &sp, err, sizeof err));
    ck_assert(einsum_parse("a b, b c -> a c", EINSUM_CONTRACT, &sp, err, sizeof err));
    ck_assert(!einsum_dims(&sp, "a=3,b=4", size, err, sizeof err));
    ck_assert(strstr(err, "no size for 'c'") != NULL);
    ck_assert(!einsum_dims(&sp, "a=3,b=4,c=5,z=2", size, err, sizeof err));
    ck_assert(!einsum_dims(&sp, "a=3,b=0,c=5", size, err, sizeof err));
    ck_assert(!einsum_dims(&sp, "a3,b=1,c=5", size, err, sizeof err));
}
END_TEST

/* Every operation's contract parses, and the matmuls' 2 x product of dimensions, per layer and
 * micro-batch, times 3 (forward + backward) and the layers, is the ops table's FLOPs. */
START_TEST(ops_table_contracts)
{
    struct scenario s;
    inputs_defaults(&s);
    struct analysis *a = malloc(sizeof *a);
    ck_assert(a != NULL);
    analysis_run(&s, a);
    ck_assert_int_eq((int)s.tp, 1);
    const double L = (double)s.model.layers, b = (double)s.batch / (double)scenario_dp(&s);
    for (int k = 0; k < a->n_ops; k++) {
        bool mm;
        const char *c = op_contract(a->ops[k].kind, model_mlp_gated(s.model.mlp), &mm);
        struct einsum_spec sp;
        char err[ERRN], dims[256];
        enum einsum_kind kind = a->ops[k].kind == OP_LOSS ? EINSUM_REDUCE : EINSUM_CONTRACT;
        ck_assert_msg(einsum_parse(c, kind, &sp, err, sizeof err), "%s: %s: %s",
                      a->ops[k].name, c, err);
        if (a->ops[k].kind != OP_MLP_UP && a->ops[k].kind != OP_MLP_DOWN &&
            a->ops[k].kind != OP_LM_HEAD)
            continue;
        ck_assert(mm);
        snprintf(dims, sizeof dims, "b=%.0f,s=%lld,h=%lld,%s=%lld", b, (long long)s.seq,
                 (long long)s.model.d_model, a->ops[k].kind == OP_LM_HEAD ? "v" : "f",
                 (long long)(a->ops[k].kind == OP_LM_HEAD ? s.model.vocab : s.model.ffn));
        double size[EINSUM_MAX_NAMES];
        ck_assert_msg(einsum_dims(&sp, dims, size, err, sizeof err), "%s", err);
        struct einsum_cost cost;
        einsum_cost(&sp, size, 2, &cost);
        double layers = a->ops[k].kind == OP_LM_HEAD ? 1 : L;
        ck_assert_rel(3 * layers * cost.flops, a->ops[k].flops, 1e-12);
    }
    free(a);
}
END_TEST

START_TEST(cli_einsum)
{
    struct check_run r;
    check_run_bin(&r, "einsum 'b s h, h o -> b s o' --dims b=2,s=8,h=4,o=16");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "b s o = [2, 8, 16], 256 elements") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "(2048 = 2 x 1024") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "768 B") != NULL, "%s", r.out);
    check_run_free(&r);
    check_run_bin(&r, "einsum rearrange 'b s (a d) -> b s a d' --dims b=2,s=8,a=4,d=16");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "a view") != NULL, "%s", r.out);
    check_run_free(&r);
    check_run_bin(&r, "einsum 'b s h -> b x' --dims b=2");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "rooftop einsum: ") == r.err, "%s", r.err);
    check_run_free(&r);
    check_run_bin(&r, "einsum 'a b, b c -> a c' --dims a=2,b=3,c=4 --format xml");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "rooftop einsum: --format: ") == r.err, "%s", r.err);
    check_run_free(&r);
    check_run_bin(&r, "einsum 'a b, b c -> a c' --dims a=2,b=3");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "no size for 'c'") != NULL, "%s", r.err);
    check_run_free(&r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("einsum");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, matmul_as_contract);
    tcase_add_test(tc, reduce_and_rearrange);
    tcase_add_test(tc, bad_contracts);
    tcase_add_test(tc, ops_table_contracts);
    tcase_add_test(tc, cli_einsum);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(suite());
}
