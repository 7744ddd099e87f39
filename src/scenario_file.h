/* scenario_file.h - scenarios saved as JSON, and JSON objects of overrides onto a scenario. */
#ifndef ROOFTOP_SCENARIO_FILE_H
#define ROOFTOP_SCENARIO_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "scenario.h"

/*
 * File format: one JSON object whose keys match the command-line flags (with '_' for '-'):
 *   name, model (preset id string, or a full model object as in specs/models),
 *   params, gpu (preset id string, or a full GPU object as in specs/gpus), gpus, tp, pp, sp,
 *   zero, dtype, master_weights, optimizer, batch, micro_batch, seq, tokens, mfu, recompute,
 *   flash, dropout, flops ("detailed"|"6nd"), and model field overrides layers, d_model,
 *   heads, kv_heads, ffn, vocab, context, mlp, norm, tied_embeddings, bias, qkv_bias,
 *   positional, experts, experts_active, shared_experts, moe_ffn, dense_layers.
 * Numbers may be JSON numbers or strings in human units ("70B", "15T", "4k").
 * Booleans may be true/false or "on"/"off". Unknown keys are errors (a typo must not pass
 * silently), except "caption", "title", "description" and keys starting with '_'
 * (comments), which are ignored, so a lecture-demo step object can be applied as it is.
 */

/*
 * Sets one input by its key (the names above; "model" and "gpu" take NAME|FILE, "params" a
 * count) from its text form, as the command line gives it ("70B", "on", "bf16").
 * Returns 1 when set, 0 when key is not a scenario key, -1 when the value is wrong, with
 * "'12x' is not a number" (what is wrong, without key or file) in err.
 * A model field clears an exact --params count (the shape then decides the counts).
 */
int scenario_set_option(struct scenario *s, const char *key, const char *value, char *err,
                        size_t errlen);

/* A scenario as a JSON object (all inputs). The model and GPU are written as their preset id
 * when they equal the preset; otherwise the full object inline. Caller frees with
 * cJSON_Delete. Returns NULL on allocation failure. */
cJSON *scenario_to_json(const struct scenario *s);

/*
 * Applies a JSON object of overrides onto s, in a fixed order whatever the key order:
 * model, then params, then the model fields, then gpu, then the rest. `origin` names the
 * file (or "file step 3") in errors. On error writes one line "ORIGIN: KEY: what is wrong" to
 * err, returns false and leaves s unchanged. Does not run scenario_validate.
 * When "model" is a preset name or file and "tokens" is absent, the model file's "tokens"
 * (if any) is used.
 */
bool scenario_apply_json(struct scenario *s, const cJSON *obj, const char *origin, char *err,
                         size_t errlen);

/* Parses JSON text and applies it as scenario_apply_json does (the fuzz target's entry). */
bool scenario_parse(const char *json, size_t len, const char *origin, struct scenario *s,
                    char *err, size_t errlen);

/* Reads FILE and applies it onto s (start s with inputs_defaults for a fresh scenario). */
bool scenario_load(const char *path, struct scenario *s, char *err, size_t errlen);

/* Writes s to path atomically: a temporary file in the same directory, fsync, rename. On
 * error writes one line naming the file to err and returns false; no partial file remains. */
bool scenario_save(const char *path, const struct scenario *s, char *err, size_t errlen);

#endif
