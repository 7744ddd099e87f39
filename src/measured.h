/* measured.h - the scenario's own GEMM shapes, and their measured times from probe points. */
#ifndef ROOFTOP_MEASURED_H
#define ROOFTOP_MEASURED_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "dtype.h"
#include "points.h"
#include "scenario.h"

#define MEASURED_MAX_GEMMS 12
#define MEASURED_LABEL_MAX 24
/* What `rooftop probe --shapes` takes: dimensions up to 2^20, operands up to 2^34 elements
 * (allocatable on an 80 GB GPU). */
#define MEASURED_DIM_MAX (1L << 20)
#define MEASURED_ELEMS_MAX 17179869184.0

/*
 * One matmul of the scenario as one tensor-parallel rank runs it for one micro-batch:
 * C[M x N] = A[M x K] B[K x N], exactly as src/flops.c counts it (M = micro-batch x sequence
 * tokens, or k x that in a MoE layer whose tokens visit k experts; widths divided by tp,
 * rounded up where tp does not divide them). The label is the op's name ("qkv", "mlp_up"),
 * with "_moe" added for the MoE half of a model that has both dense and MoE MLP layers: the
 * probe measures it as "shape.LABEL.MxNxK".
 */
struct measured_gemm {
    enum op_kind kind;
    char label[MEASURED_LABEL_MAX];
    long m, n, k;
    double layers;              /* times it runs per forward pass of the whole model */
    /* Filled by measured_match: */
    bool found;                 /* a valid point with this label exists */
    long pm, pn, pk;            /* the shape that point measured (the CPU probe scales it down) */
    enum dtype dtype;           /* the point's dtype */
    double flops_per_s;         /* the point's achieved rate */
};

/* measured_clear sets every field but the two arrays: a field added here goes there too. */
struct measured {
    struct measured_gemm gemm[MEASURED_MAX_GEMMS];
    int n_gemms;
    int n_found;                /* gemms with a point */
    /* Per analysis op (the same index as a->ops): measured seconds per step on one GPU
     * (op FLOPs / measured FLOP/s, summed over its shapes), or -1 when not measured. */
    double op_seconds[ANALYSIS_MAX_OPS];
    int n_ops;                  /* a->n_ops */
    int n_gemm_ops;             /* ops that are one of the GEMMs */
    int n_ops_measured;
    double flops;               /* FLOPs per step of the measured ops */
    double seconds;             /* their measured seconds per step */
    double peak;                /* dense FLOP/s of the scenario's dtype on its GPU */
    double efficiency;          /* flops / seconds / peak; 0 when no op was measured */
    bool shape_differs;         /* a matched point measured another shape than its op's */
    bool dtype_differs;         /* a matched point's dtype is not the scenario's */
    enum dtype point_dtype;     /* the dtype of the first matched point not in the scenario's
                                   (the scenario's when none differs) */
    char device[128];           /* the points' device name */
    bool other_device;          /* the points were measured on another device than the
                                   scenario's GPU (measured_device_matches) */
    char device_why[256];       /* when other_device: one line saying so */
};

/* The scenario's matmul shapes (qkv, out_proj, router, mlp_up, mlp_gate, mlp_down, lm_head).
 * s must be valid. Returns the count written (at most max). */
int measured_shapes(const struct scenario *s, struct measured_gemm *out, int max);
/* The same shapes without their labels (label ""): for what needs only their kinds and
 * dimensions (the step-time model's wave quantisation), not a match to points. */
int measured_dims(const struct scenario *s, struct measured_gemm *out, int max);

/* The shapes as `rooftop probe --shapes` takes them: "qkv=4096,6144,4096;..." (LABEL=M,N,K).
 * Returns false when buf is too small. */
bool measured_shapes_arg(const struct scenario *s, char *buf, size_t n);

/* Parses a point name "shape.LABEL.MxNxK"; false for any other name (also "shape.MxNxK",
 * which has no label to match). */
bool measured_parse_name(const char *name, char *label, size_t label_n, long *m, long *n,
                         long *k);

/*
 * Whether points measured on dev apply to GPU g: the same device. True when g was saved from
 * such points (its name is the device's, "(measured)" added), or for a GPU device when the
 * GPU's model word (the first word of its name with a digit: "H100", "A100", "4090") is a
 * word of the device's name, their PCIe/NVL variants agree and their memories are within
 * 25%. A CPU matches only a spec saved from its own points; a device without a name never.
 */
bool measured_device_matches(const struct probe_device *dev, const struct gpu_spec *g);

/*
 * Matches the valid shape points of d to the scenario's GEMMs by label (a point of the exact
 * shape first, else the largest measured one of that label), and fills the measured time of
 * each op whose shapes all have a point, and the FLOP-weighted efficiency of those ops.
 * a = analysis_run(s). d may be NULL (nothing measured). Points from another device than
 * the scenario's GPU set other_device and device_why and match nothing, unless any_device
 * (the user said they know: --points-any-device).
 */
void measured_match(const struct scenario *s, const struct analysis *a,
                    const struct points_doc *d, bool any_device, struct measured *out);

/* The match of no points: no GEMMs, no ops, nothing measured, no device. The arrays gemm and
 * op_seconds are left unwritten, as every reader stops at n_gemms and n_ops. */
void measured_clear(struct measured *m);

/*
 * The measured efficiency as the utilisation of the time estimate. False with the reason
 * (no flag prefix) when the points come from another device (device_why), nothing matched,
 * or it is above 1 (points from a device faster than the scenario's GPU).
 */
bool measured_mfu(const struct measured *m, double *mfu, char *why, size_t n);


/* One line: "measured GEMM efficiency 0.623 of the bf16 peak (6 of 6 GEMM ops, 3.2 s vs
 * ...) on NVIDIA H200", with what differs ("; measured at other shapes than the scenario's",
 * "; fp32 points against the bf16 peak"). Empty when nothing matched. */
void measured_describe(const struct measured *m, const struct scenario *s, char *buf,
                       size_t n);

#endif
