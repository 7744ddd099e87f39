/* spec.h - loading GPU and model spec files (JSON) and finding presets by name. */
#ifndef ROOFTOP_SPEC_H
#define ROOFTOP_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "gpu.h"
#include "model.h"

#define SPEC_ERR_MAX 512

/*
 * Parses a GPU spec from JSON text. `origin` names the file in error messages. On error
 * writes one line "FILE: FIELD: what is wrong" to err and returns false; never crashes on
 * any input.
 */
bool spec_parse_gpu(const char *json, size_t len, const char *origin, struct gpu_spec *out,
                    char *err, size_t errlen);
bool spec_parse_model(const char *json, size_t len, const char *origin, struct model_arch *out,
                      char *err, size_t errlen);

/* Reads and parses a file. The preset id is set to the file's stem. */
bool spec_load_gpu_file(const char *path, struct gpu_spec *out, char *err, size_t errlen);
bool spec_load_model_file(const char *path, struct model_arch *out, char *err, size_t errlen);

/*
 * Resolves NAME|FILE: a value containing '/' or ending in ".json" is a file; otherwise a
 * preset looked up as NAME.json in, in order: $XDG_CONFIG_HOME/rooftop/{gpus,models}
 * (~/.config when unset), $ROOFTOP_SPECS/{gpus,models}, ./specs, the installed
 * $(PREFIX)/share/rooftop/specs.
 */
bool spec_find_gpu(const char *name_or_file, struct gpu_spec *out, char *err, size_t errlen);
bool spec_find_model(const char *name_or_file, struct model_arch *out, char *err, size_t errlen);

/*
 * True when the file at path is a model file: a JSON object with a "model_type" key (a
 * Hugging Face config.json) or a "d_model" key (rooftop's model schema). False for anything
 * else (a scenario, a demo) and for a file that cannot be read or parsed: its own reader then
 * says why. What opens "a file" (the dashboard's o) asks this to choose the reader.
 */
bool spec_file_is_model(const char *path);

/*
 * Facts a model file may carry beyond the architecture: "tokens" (what the model was
 * trained on) and "source". Zero / empty when the file does not give them.
 */
struct spec_model_meta {
    double tokens;
    char source[GPU_SOURCE_MAX];
};
/* As spec_parse_model / spec_find_model, also filling meta (which may be NULL). */
bool spec_parse_model_meta(const char *json, size_t len, const char *origin,
                           struct model_arch *out, struct spec_model_meta *meta, char *err,
                           size_t errlen);
bool spec_find_model_meta(const char *name_or_file, struct model_arch *out,
                          struct spec_model_meta *meta, char *err, size_t errlen);

/*
 * Writing, in the format of the files in specs/ (what the readers above read back to the
 * same figures): spec_gpu_to_json writes unknown figures (0) and formats the GPU lacks as
 * null, and its node and efficiency groups when it has them; spec_model_to_json writes every
 * field (the attention extras only when used), and meta's tokens and source when given (meta
 * may be NULL: then the model's own trained_tokens). NULL when out of memory; the caller frees with cJSON_Delete. No "id": a file's
 * id is its name.
 */
cJSON *spec_gpu_to_json(const struct gpu_spec *g);
cJSON *spec_model_to_json(const struct model_arch *m, const struct spec_model_meta *meta);
/* Writes a GPU spec file with the atomic writer (files.h); one line naming the file on error. */
bool spec_save_gpu(const char *path, const struct gpu_spec *g, char *err, size_t errlen);
/* Writes o (NULL: out of memory) as indented JSON and a newline, the whole of path, with the
 * atomic writer: every JSON file rooftop saves goes through here. */
bool spec_save_json(const char *path, const cJSON *o, char *err, size_t errlen);
/* Adds key: v to object o, with a non-finite v as null (the one rule for NaN and infinities
 * in every file rooftop writes, which its readers refuse rather than take as 0). False when
 * out of memory. */
bool spec_json_add_number(cJSON *o, const char *key, double v);

/* Spec files larger than this are refused before parsing. */
#define SPEC_FILE_MAX (1024 * 1024)

/* Lists preset ids (sorted, unique across the search path). Caller frees with spec_list_free. */
struct spec_list {
    char **ids;
    size_t count;
};
bool spec_list_gpus(struct spec_list *out);
bool spec_list_models(struct spec_list *out);
bool spec_list_scenarios(struct spec_list *out);
void spec_list_free(struct spec_list *l);

#endif
