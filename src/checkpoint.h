/* checkpoint.h - activation checkpointing as a curve: the memory a backward pass holds and
 * the forward FLOPs it repeats, against the checkpoint interval k (the lecture: every layer
 * stored, O(L) memory and no recompute; nothing stored, O(1) memory and O(L^2) recompute;
 * every sqrt(L) layers, O(sqrt L) of each). */
#ifndef ROOFTOP_CHECKPOINT_H
#define ROOFTOP_CHECKPOINT_H

#include <stdbool.h>

enum ckpt_kind {
    CKPT_ALL,      /* no checkpointing: every layer's activations kept */
    CKPT_EVERY,    /* a checkpoint every k layers */
    CKPT_NONE,     /* nothing stored: each layer recomputed from the input */
};

struct ckpt_row {
    enum ckpt_kind kind;
    double k;          /* CKPT_EVERY: the interval */
    bool sqrt_l;       /* the interval nearest sqrt(L) */
    double memory;     /* bytes held at the peak of the backward pass */
    double recompute;  /* layer forwards repeated (times the per-layer forward FLOPs) */
};

/*
 * Memory and recompute of L layers, each storing A bytes for its backward and taking I bytes
 * of input. A checkpoint every k layers keeps ceil(L/k) inputs and, while a segment's
 * backward runs, its k layers' activations: ceil(L/k) I + min(k, L) A. It re-runs each layer
 * once (L forwards); when a layer's stored activations are its output (A == I, the lecture's
 * toy) the checkpointed ones need no re-run (L - L/k). Nothing stored holds one layer's
 * input and activations and re-runs L (L - 1) / 2 forwards.
 */
double checkpoint_memory(double L, double A, double I, double k);
double checkpoint_recompute(double L, double A, double I, double k);
/* The interval of least memory, sqrt(L I / A): sqrt(L) when A == I. */
double checkpoint_best_k(double L, double A, double I);
/* The curve: store all, k = 1, 2, 4, ... (and ceil(sqrt(L)), as recompute sqrt) up to L, store
 * nothing. Returns the rows written (at most max). */
int checkpoint_curve(double L, double A, double I, struct ckpt_row *rows, int max);

#endif
