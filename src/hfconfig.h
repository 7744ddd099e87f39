/* hfconfig.h - a Hugging Face config.json read into rooftop's model architecture. */
#ifndef ROOFTOP_HFCONFIG_H
#define ROOFTOP_HFCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "model.h"

/* True when a parsed JSON object is a Hugging Face config (it has a "model_type" key, or
 * another key only such configs have: architectures, num_hidden_layers, ...): the one test
 * every reader of model files uses to choose this reader over rooftop's schema. */
bool hfconfig_is(const cJSON *root);

/*
 * Reads a Hugging Face config.json (parsed, root an object) into *out, recognised by its
 * model_type; the conventions such a file leaves implicit (which norms exist and where, the
 * QK-norm's shape, tied embeddings, gated MLP, biases, parallel blocks) come from the type's
 * row in hfconfig.c's table. origin names the file in messages and, when the config has no
 * "_name_or_path", gives the model its name (the file's directory). source (may be NULL)
 * receives where the model came from, for the model file's "source". The result passes
 * model_validate(). On error writes one line "ORIGIN: KEY: what is wrong" to err (an unknown
 * model_type lists the supported ones) and returns false; never guesses a value a key lacks
 * except the config class's documented default.
 */
bool hfconfig_read(const cJSON *root, const char *origin, struct model_arch *out, char *source,
                   size_t source_len, char *err, size_t errlen);

/* The supported model_type values, "llama, mistral, ...", for messages and --help. */
void hfconfig_types(char *buf, size_t len);

#endif
