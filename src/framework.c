/* framework.c - the training frameworks' schedules as the step time models them. */
#include "framework.h"

#include "gpu.h"

static const struct framework_profile PROFILES[FRAMEWORK_COUNT] = {
    /* Megatron-LM (megatron/core/distributed): --overlap-grad-reduce reduces each gradient
     * bucket as the backward pass of the last micro-batch finishes it (the earlier
     * micro-batches accumulate without a sync); --overlap-param-gather gathers the
     * distributed optimizer's updated weights bucket by bucket under the next step's first
     * forward. Buckets hold max(40M, 1M x dp) parameters (DistributedDataParallelConfig).
     * --tp-comm-overlap on Hopper. ZeRO-3 as Megatron-FSDP: one gather per layer. */
    [FRAMEWORK_MEGATRON] = {FRAMEWORK_MEGATRON, "Megatron-LM",
                            "--overlap-grad-reduce --overlap-param-gather (distributed "
                            "optimizer), --tp-comm-overlap on Hopper and later",
                            true, true, false, 40e6, 1.0, false, true, 0.0, true, 0.838},
    /* DeepSpeed: ZeRO 2 and 3 reduce-scatter gradients in reduce_bucket_size (5e8) buckets
     * after every micro-batch; overlap_comm defaults to true for ZeRO-3 only
     * (DeepSpeedZeroConfig's validator), false below it. ZeRO-3 fetches each submodule's
     * parameters in its pre-forward and pre-backward hooks and releases them after: a
     * recomputed forward fetches again. Its gathers as Narayanan et al. 2021 measured them
     * (Table 2): one all-gather per parameter tensor (a GPT layer's 12: four matrices, their
     * biases, two norms' weights and biases), on the compute's critical path: the model with
     * prefetching off reproduces that table's collapse (3.3x from 384 to 1536 GPUs), which
     * a hidden gather would not. Each gather went through torch.distributed.all_gather's
     * list of per-rank outputs, which PyTorch fills by one copy per rank out of NCCL's flat
     * buffer (what _all_gather_base, PyTorch 1.10, was added to avoid): n launches of about
     * 5 us (CUDA's kernel launch overhead) a call, growing with the ranks. Later releases
     * coalesce a module's gathers into one flat buffer: rooftop's DeepSpeed is the measured
     * one, pessimistic for them. Doubtful: v0.3.13's stage3_param_persistence_threshold
     * (1e5 elements by default, zero/constants.py) keeps tensors smaller than that (a GPT
     * layer's biases and norms) whole on every rank, which would leave 4 gathers a layer,
     * while zarzen's v0.3.16 profile (DeepSpeed issue #1069) shows 320-element gathers; with
     * 4 the model's 175B falls 2.1x from 384 to 1536 GPUs where the table's falls 3.3x. */
    [FRAMEWORK_DEEPSPEED] = {FRAMEWORK_DEEPSPEED, "DeepSpeed",
                             "overlap_comm (true under ZeRO-3, false below), "
                             "reduce_bucket_size 5e8, ZeRO-3 gathers per parameter tensor "
                             "unprefetched (as measured by Narayanan et al. 2021)",
                             false, false, true, 5e8, 0.0, true, false, 5e-6, false, 0.676},
    /* PyTorch FSDP (FULL_SHARD, one unit per transformer block): one all-gather of the
     * unit's flat parameter before its forward and again before its backward (a
     * checkpointed block recomputes inside that backward, with the gathered weights), one
     * reduce-scatter after it, every micro-batch; backward_prefetch BACKWARD_PRE and the
     * CPU running ahead issue the next unit's gather under this one's compute. Below ZeRO-3
     * (NO_SHARD, DDP): the all-reduce in 25 MB buckets under the backward pass. */
    [FRAMEWORK_FSDP] = {FRAMEWORK_FSDP, "PyTorch FSDP",
                        "FULL_SHARD per transformer block, backward_prefetch BACKWARD_PRE, "
                        "limit_all_gathers; DDP buckets of 25 MB below ZeRO-3",
                        true, false, true, 12.5e6, 1.0, false, true, 0.0, false, 0.821},
};

double framework_layer_tensors(const struct model_arch *m)
{
    double matrices = 2.0 + (model_mlp_gated(m->mlp) ? 3.0 : 2.0) + (model_is_moe(m) ? 1.0 : 0.0);
    double norm_tensors = m->norm == NORM_LAYERNORM ? 2.0 : m->norm == NORM_NONPARAMETRIC ? 0.0 : 1.0;
    return matrices * (m->bias ? 2.0 : 1.0) + (double)model_layer_norms(m) * norm_tensors;
}

const struct framework_profile *framework_profile(enum framework f)
{
    return &PROFILES[(unsigned)f < FRAMEWORK_COUNT ? f : FRAMEWORK_MEGATRON];
}

bool framework_tp_overlap(const struct scenario *s)
{
    /* Hopper and later: the GPUs with an fp8 tensor rate and an NVLink domain. */
    return framework_profile(s->framework)->tp_overlap && gpu_has_dtype(&s->gpu, DTYPE_FP8_E4M3) &&
           s->gpu.node.domain > 1;
}
