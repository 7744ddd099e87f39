/* warnings.c - inputs that do nothing or make no sense together. */
#include "warnings.h"

#include <stdarg.h>
#include <stdio.h>

#include "memory.h"
#include "predict.h"
#include "units.h"

static void add(struct warnings *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct warnings *w, const char *fmt, ...)
{
    if (w->n >= WARNINGS_MAX)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->line[w->n], WARNING_LEN, fmt, ap);
    va_end(ap);
    w->n++;
}

static const char *model_name(const struct scenario *s)
{
    return s->model.name[0] ? s->model.name : s->model.id[0] ? s->model.id : "the model";
}

void warnings_collect(const struct scenario *s, const struct analysis *a, struct warnings *w)
{
    /* The count alone: every reader stops at it, and add writes each line whole; zeroing
     * the lines (2 KB) cost some 260 instructions an evaluation, every key of the dashboard. */
    w->n = 0;
    if (s->sp && s->tp == 1)
        add(w, "sequence parallelism (sp) does nothing with tp 1: it splits the norms' and "
               "dropouts' activations over tensor-parallel ranks");
    if (s->recompute == RECOMPUTE_SELECTIVE && s->flash)
        add(w, "selective recomputation does nothing with flash on: FlashAttention already "
               "recomputes the attention core in its backward pass and stores no scores");
    if (s->model.positional == POS_LEARNED && s->seq > s->model.context)
        add(w, "seq %lld is longer than %s's %lld learned positions: it has no position "
               "embedding past token %lld",
            (long long)s->seq, model_name(s), (long long)s->model.context,
            (long long)s->model.context);
    if (s->tp > s->model.kv_heads)
        add(w, "tp %lld is above %s's %lld KV heads: K and V cannot split %lld ways (real "
               "runs replicate them), and the counts here split them anyway",
            (long long)s->tp, model_name(s), (long long)s->model.kv_heads, (long long)s->tp);
    /* Context parallelism (issue 9): a chunk this short keeps the ring's K/V exchange in the
     * open and runs the attention kernels on slivers the step-time model does not slow down;
     * plan never chooses it. */
    if (s->cp > 1 && s->seq / s->cp < PREDICT_CP_TOKENS_MIN)
        add(w, "cp %lld leaves %lld tokens of each sequence per GPU (under %d): context "
               "parallelism pays for long sequences, and the step time here does not charge "
               "such short chunks' slower kernels",
            (long long)s->cp, (long long)(s->seq / s->cp), PREDICT_CP_TOKENS_MIN);
    /* 16-bit gradients under an fp32 master copy: Megatron-LM and DeepSpeed accumulate and
     * reduce in fp32 there (what --grad-dtype auto does); a typed bf16/fp16 trades the sums'
     * precision for the bytes. */
    if (s->grad_dtype != SCENARIO_DTYPE_AUTO && scenario_master_copy(s)) {
        enum mem_grad_why why;
        enum dtype gd = memory_grad_dtype(s, &why);
        if (dtype_bytes(gd) < 4)
            add(w, "gradients in %s with fp32 master weights: Megatron-LM and DeepSpeed keep "
                   "them in fp32 there (--grad-dtype auto), as 16-bit sums over micro-batches "
                   "and ranks lose precision",
                dtype_name(gd));
    }
    /* --vocab-pad on a vocabulary that is already a multiple: nothing to pad. */
    if (s->vocab_pad > 0 && scenario_vocab(s) == s->model.vocab)
        add(w, "--vocab-pad %lld does nothing here: %s's vocabulary of %lld is already a "
               "multiple of %lld x tp %lld",
            (long long)s->vocab_pad, model_name(s), (long long)s->model.vocab,
            (long long)s->vocab_pad, (long long)s->tp);
    /* A Hugging Face checkpoint whose safetensors are not the count x its dtype. */
    double per = 0;
    if (s->model.checkpoint_bytes > 0 && !model_checkpoint_explained(&s->model, &per)) {
        char b[32];
        units_bytes(s->model.checkpoint_bytes, b, sizeof b);
        if (s->model.checkpoint_dtype_bytes > 0)
            add(w, "the checkpoint holds %s (model.safetensors.index.json), %.3g bytes a "
                   "counted parameter where its torch_dtype has %d: quantized weights, or a "
                   "config.json that does not describe them",
                b, per, s->model.checkpoint_dtype_bytes);
        else
            add(w, "the checkpoint holds %s (model.safetensors.index.json), %.3g bytes a "
                   "counted parameter, which no dtype of 1, 2 or 4 bytes explains: quantized "
                   "weights, or a config.json that does not describe them",
                b, per);
    }
    double step_tokens = (double)s->batch * (double)s->seq;
    if (s->tokens < step_tokens) {
        char d[32], st[32];
        units_count(s->tokens, d, sizeof d);
        units_count(step_tokens, st, sizeof st);
        add(w, "%s training tokens are fewer than one step's %s (batch %lld x seq %lld): the "
               "run is %.3g of a step",
            d, st, (long long)s->batch, (long long)s->seq, s->tokens / step_tokens);
    }
    /* The step time comes from the MFU in use (a->time.hfu: typed, measured or predicted),
     * the roofline's from the ops: one faster than the other is an MFU no GPU reaches on
     * these ops. */
    if (a != NULL && a->roofline.step_seconds > 0 &&
        a->time.step_seconds < a->roofline.step_seconds * (1.0 - 1e-9)) {
        char t[32], r[32];
        units_duration(a->time.step_seconds, t, sizeof t);
        units_duration(a->roofline.step_seconds, r, sizeof r);
        add(w, "step time %s at MFU %.3g is faster than the roofline allows (%s per step, MFU "
               "at most %.3g)",
            t, a->time.hfu, r, a->roofline.mfu_bound);
    }
}
