/* framework.h - what each training framework does that the step time depends on: which
 * communication it overlaps with compute and under what bounds, how ZeRO-3 gathers and
 * reduces, and the one constant fitted per framework. */
#ifndef ROOFTOP_FRAMEWORK_H
#define ROOFTOP_FRAMEWORK_H

#include <stdbool.h>

#include "model.h"
#include "scenario.h"

struct framework_profile {
    enum framework id;
    const char *label;          /* "Megatron-LM" */
    /* The flags (or config keys) whose defaults the model assumes, as the report states
     * them. */
    const char *assumed;
    /* Data parallelism, ZeRO 0-2. */
    bool grad_overlap;          /* gradient reduce in buckets under the backward pass */
    bool param_overlap;         /* ZeRO 1/2's weight all-gather under the next forward */
    bool reduce_every_micro;    /* gradients reduced after every micro-batch (DeepSpeed's
                                   ZeRO 2 and 3, FSDP), not once per step */
    double bucket_params;       /* gradient bucket, parameters (Megatron: at least this, and
                                   1M x the data-parallel ranks) */
    /* ZeRO-3 / FSDP. */
    double gathers_per_layer;   /* all-gather calls per layer per pass: one flat unit (FSDP);
                                   0: one per parameter tensor (DeepSpeed) */
    bool regather_recompute;    /* a recomputed forward gathers the weights again */
    bool prefetch;              /* the next module's gather under this module's compute */
    /* Seconds each all-gather call spends per rank after NCCL: a gather into a list of
     * per-rank tensors (torch.distributed.all_gather before _all_gather_base) copies each
     * rank's shard out of the flat buffer, one device copy of a kernel launch's cost each. */
    double gather_copy_per_rank;
    /* Tensor parallelism: its all-gathers and reduce-scatters pipelined with the GEMMs
     * (Megatron's --tp-comm-overlap, Transformer Engine's userbuffers, Hopper and later). */
    bool tp_overlap;
    /* Kernel time is divided by this (launches, synchronisation, unfused kernels, the data
     * loader): the one constant fitted per framework (tests/test_predict.c fits it and shows
     * each published run held out of the fit). */
    double derate;
};

/* The profile of f (FRAMEWORK_MEGATRON for an unknown value). */
const struct framework_profile *framework_profile(enum framework f);

/* Parameter tensors of one layer (matrices, their biases, the norms' weights and biases):
 * a GPT layer 12, a Llama layer 7 (QKV fused, as Megatron-LM holds it). */
double framework_layer_tensors(const struct model_arch *m);

/* Whether the scenario's GPU runs --tp-comm-overlap: Megatron's userbuffers overlap needs
 * Hopper's copy engines and SM count (the README's H100 table runs it). */
bool framework_tp_overlap(const struct scenario *s);

#endif
