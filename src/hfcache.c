/* hfcache.c - a model in the local Hugging Face hub cache, found by its repo id, offline.
 *
 * The layout is huggingface_hub's (file_download.py, constants.py): a repo "ORG/NAME" lives in
 * CACHE/models--ORG--NAME, refs/main holds the commit of the main revision and
 * snapshots/COMMIT/ the files of that revision (links into blobs/). Nothing here reaches the
 * network: a model that is not downloaded is an error naming where rooftop looked. */
#include "hfcache.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "files.h"
#include "json_kind.h"

#define REF_MAX 128           /* a commit hash is 40 hex digits; refs/main holds one line */
#define INDEX_MAX (64u << 20) /* an index of a very large checkpoint is a few MB */

static bool id_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_' || c == '.';
}

static bool id_part(const char *s, size_t n)
{
    if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!id_char(s[i]))
            return false;
    return true;
}

bool hfcache_is_repo_id(const char *s)
{
    if (s == NULL)
        return false;
    size_t n = strlen(s);
    const char *slash = strchr(s, '/');
    if (n == 0 || n >= HFCACHE_ID_MAX || slash == NULL || strchr(slash + 1, '/') != NULL)
        return false;
    if (n >= 5 && strcmp(s + n - 5, ".json") == 0)
        return false;
    return id_part(s, (size_t)(slash - s)) && id_part(slash + 1, strlen(slash + 1));
}

/* The value of an environment variable, or NULL when unset or empty. */
static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && v[0] != '\0' ? v : NULL;
}

char *hfcache_dir(void)
{
    const char *v;
    if ((v = env("HF_HUB_CACHE")) != NULL)
        return strdup(v);
    if ((v = env("HF_HOME")) != NULL)
        return files_join(v, "hub");
    if ((v = env("XDG_CACHE_HOME")) != NULL)
        return files_join(v, "huggingface/hub");
    if ((v = env("HOME")) != NULL)
        return files_join(v, ".cache/huggingface/hub");
    return NULL;
}

/* CACHE/models--ORG--NAME, malloc'ed. */
static char *repo_dir(const char *cache, const char *repo_id)
{
    size_t n = strlen(repo_id);
    char *name = malloc(n + 16);
    if (name == NULL)
        return NULL;
    const char *slash = strchr(repo_id, '/');
    snprintf(name, n + 16, "models--%.*s--%s", (int)(slash - repo_id), repo_id, slash + 1);
    char *dir = files_join(cache, name);
    free(name);
    return dir;
}

/* The one-line commit in DIR/refs/main (a hex hash), into rev. */
static bool read_ref(const char *dir, char *rev, size_t cap, char *err, size_t errlen)
{
    char *ref = files_join(dir, "refs/main");
    char *data = NULL;
    size_t len = 0;
    char sub[FILES_ERR_MAX];
    bool ok = ref != NULL && files_read(ref, REF_MAX, &data, &len, sub, sizeof sub);
    if (!ok) {
        snprintf(err, errlen, "%s: not in the Hugging Face cache (no refs/main there; rooftop "
                 "looks offline only, download it first)", dir);
        free(ref);
        return false;
    }
    while (len > 0 && (data[len - 1] == '\n' || data[len - 1] == '\r' || data[len - 1] == ' '))
        data[--len] = '\0';
    ok = len > 0 && len < cap && id_part(data, len);
    if (ok)
        memcpy(rev, data, len + 1);
    else
        snprintf(err, errlen, "%s: is not a revision", ref);
    free(data);
    free(ref);
    return ok;
}

char *hfcache_config(const char *repo_id, char *err, size_t errlen)
{
    char dummy[8];
    if (err == NULL || errlen == 0) {
        err = dummy;
        errlen = sizeof dummy;
    }
    err[0] = '\0';
    if (!hfcache_is_repo_id(repo_id)) {
        snprintf(err, errlen, "%s: not a Hugging Face repo id (ORG/NAME)", repo_id ? repo_id : "");
        return NULL;
    }
    char *cache = hfcache_dir();
    if (cache == NULL) {
        snprintf(err, errlen, "%s: no Hugging Face cache (HF_HUB_CACHE, HF_HOME and HOME are "
                 "unset)", repo_id);
        return NULL;
    }
    char *dir = repo_dir(cache, repo_id);
    free(cache);
    char rev[REF_MAX];
    if (dir == NULL || !read_ref(dir, rev, sizeof rev, err, errlen)) {
        free(dir);
        return NULL;
    }
    char rel[REF_MAX + 32];
    snprintf(rel, sizeof rel, "snapshots/%s/config.json", rev);
    char *path = files_join(dir, rel);
    struct stat st;
    if (path != NULL && (stat(path, &st) != 0 || !S_ISREG(st.st_mode))) {
        snprintf(err, errlen, "%s: missing (the cached revision %s has no config.json)", path,
                 rev);
        free(path);
        path = NULL;
    }
    free(dir);
    return path;
}

double hfcache_checkpoint_bytes(const char *config_path, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    const char *slash = strrchr(config_path, '/');
    char *dir = slash != NULL ? strndup(config_path, (size_t)(slash - config_path)) : strdup(".");
    char *index = dir != NULL ? files_join(dir, "model.safetensors.index.json") : NULL;
    free(dir);
    struct stat st;
    if (index == NULL || stat(index, &st) != 0) {
        free(index);
        return 0;
    }
    char *data = NULL;
    size_t len = 0;
    char sub[FILES_ERR_MAX];
    if (!files_read(index, INDEX_MAX, &data, &len, sub, sizeof sub)) {
        snprintf(err, errlen, "%s", sub);
        free(index);
        return -1;
    }
    cJSON *root = cJSON_ParseWithLength(data, len);
    free(data);
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(root, "metadata");
    const cJSON *total = cJSON_GetObjectItemCaseSensitive(meta, "total_size");
    double bytes = -1;
    if (root == NULL)
        snprintf(err, errlen, "%s: not JSON", index);
    else if (!cJSON_IsNumber(total))
        snprintf(err, errlen, "%s: metadata.total_size: must be a number, got %s", index,
                 json_kind(total));
    else if (!isfinite(total->valuedouble) || total->valuedouble <= 0)
        snprintf(err, errlen, "%s: metadata.total_size: must be positive, got %.15g", index,
                 total->valuedouble);
    else
        bytes = total->valuedouble;
    cJSON_Delete(root);
    free(index);
    return bytes;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "models--ORG--NAME" as "ORG/NAME" into id; false for any other name. */
static bool dir_to_id(const char *name, char *id, size_t cap)
{
    if (strncmp(name, "models--", 8) != 0)
        return false;
    const char *org = name + 8, *sep = strstr(org, "--");
    if (sep == NULL || (size_t)snprintf(id, cap, "%.*s/%s", (int)(sep - org), org, sep + 2) >= cap)
        return false;
    return hfcache_is_repo_id(id);
}

size_t hfcache_list(char ***out)
{
    *out = NULL;
    char *cache = hfcache_dir();
    DIR *d = cache != NULL ? opendir(cache) : NULL;
    free(cache);
    if (d == NULL)
        return 0;
    size_t n = 0, cap = 0;
    char **ids = NULL;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char id[HFCACHE_ID_MAX], err[8];
        if (!dir_to_id(e->d_name, id, sizeof id))
            continue;
        char *path = hfcache_config(id, err, sizeof err);
        if (path == NULL)
            continue;
        free(path);
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 8;
            char **grown = realloc(ids, ncap * sizeof *grown);
            if (grown == NULL)
                break;
            ids = grown;
            cap = ncap;
        }
        if ((ids[n] = strdup(id)) != NULL)
            n++;
    }
    closedir(d);
    if (n > 0)
        qsort(ids, n, sizeof *ids, cmp_str);
    else {
        free(ids);
        ids = NULL;
    }
    *out = ids;
    return n;
}

void hfcache_list_free(char **ids, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(ids[i]);
    free(ids);
}
