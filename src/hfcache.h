/* hfcache.h - a model in the local Hugging Face hub cache, found by its repo id, offline. */
#ifndef ROOFTOP_HFCACHE_H
#define ROOFTOP_HFCACHE_H

#include <stdbool.h>
#include <stddef.h>

/* The longest repo id ("ORG/NAME") looked up. */
#define HFCACHE_ID_MAX 256

/* True for a text shaped like a hub repo id: "ORG/NAME", one '/', both parts non-empty, of
 * letters, digits and "-_.", not "." or "..", not ending in ".json". */
bool hfcache_is_repo_id(const char *s);

/*
 * The hub cache directory, as huggingface_hub resolves it: $HF_HUB_CACHE, else $HF_HOME/hub,
 * else $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub. Malloc'ed; NULL when
 * none can be named (no HOME) or out of memory.
 */
char *hfcache_dir(void);

/*
 * The config.json of repo_id's main revision in the cache:
 * DIR/models--ORG--NAME/refs/main holds the revision, DIR/models--ORG--NAME/snapshots/REV/
 * config.json the file. Malloc'ed path; NULL when it is not there, with one line in err
 * saying where rooftop looked and what was missing (never a network lookup).
 */
char *hfcache_config(const char *repo_id, char *err, size_t errlen);

/*
 * The checkpoint's bytes: metadata.total_size of the model.safetensors.index.json in the same
 * directory as config_path. 0 when there is none; -1 when there is one but it is not such an
 * index (err says why, naming the file).
 */
double hfcache_checkpoint_bytes(const char *config_path, char *err, size_t errlen);

/* The repo ids of every model in the cache with a main revision holding a config.json,
 * sorted; *out malloc'ed (each string too), the count returned (0 and *out NULL when none).
 * Free with hfcache_list_free. */
size_t hfcache_list(char ***out);
void hfcache_list_free(char **ids, size_t n);

#endif
