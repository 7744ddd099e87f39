/* model_summary.h - one line that names a model's architecture, fitted to a width. */
#ifndef ROOFTOP_MODEL_SUMMARY_H
#define ROOFTOP_MODEL_SUMMARY_H

#include <stddef.h>

#include "model.h"

/*
 * The architecture of m on one line, at most width display columns, e.g.
 *   "36 layers · d 4096 · 32/8 heads × 128 · swiglu ffn 12288 · rmsnorm, QK-norm per head ·
 *    vocab 151936 · 8.19B" (Qwen3-8B)
 * Parts, in this order: layers, d_model, attention (heads/KV heads × head size, or MLA's
 * ranks), MLP kind and width, norm (placement, QK-norm), sliding window, experts, block,
 * biases and other flags, vocabulary, and the count (active and MTP apart where they exist).
 * When the whole line is wider than width it gives way a step at a time: the vocabulary and
 * flags leave, parts take their short forms ("36L", "window 4096", "rmsnorm, QK-norm"), then
 * parts leave, the least telling first; what is left stays in order. A width too small for
 * the layers alone cuts them at a character. dot and times are
 * the separators ("·" and "×" in UTF-8, "." and "x" in ASCII); a dot is drawn with a space
 * either side. Returns the line's width in columns (UTF-8 characters).
 */
int model_summary_line(const struct model_arch *m, int width, const char *dot, const char *times,
                       char *buf, size_t n);

/* Display columns of a UTF-8 string (one per character; the line holds no wide ones). */
int model_summary_width(const char *utf8);

#endif
