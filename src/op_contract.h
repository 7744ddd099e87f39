/* op_contract.h - each operation of the ops table as a named-dimension contract (einops):
 * "b s h, h f -> b s f" for mlp_up. Letters: b sequences, s tokens of each (t the keys they
 * attend to), h d_model, a heads, d head size, e the Q/K/V width ((a + 2 kv) d), c the
 * attention output width (a d), f the MLP width, x experts, v vocabulary, p parameters. */
#ifndef ROOFTOP_OP_CONTRACT_H
#define ROOFTOP_OP_CONTRACT_H

#include <stdbool.h>
#include <stdio.h>

#include "flops.h"

/* The forward contract of operation k (its output named after '->'); "" for none. *matmul is
 * true for a contraction whose FLOPs are 2 x the product of its dimensions (per layer and
 * micro-batch; the backward pass is twice that), false for an elementwise or fused operation
 * whose FLOPs are counted per element. */
const char *op_contract(enum op_kind k, bool gated, bool *matmul);

/* The report's contracts section: each operation of a's table with its contract. */
struct analysis;
void op_contract_write(FILE *out, const struct analysis *a, bool gated);

#endif
