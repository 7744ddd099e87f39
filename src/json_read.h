/* json_read.h - a JSON file's fields read with their types and bounds, every error one line
 * "FILE: KEY: what is wrong". One reader for the spec files (spec.c) and Hugging Face
 * config.json files (hfconfig.c). */
#ifndef ROOFTOP_JSON_READ_H
#define ROOFTOP_JSON_READ_H

#include <cJSON.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_READ_ERR_MAX 512
#define JSON_READ_FILE_MAX (1024 * 1024) /* the largest file read */
#define JSON_READ_SHOW_MAX 48            /* longest piece of user text quoted in a message */

/* One read: the file's name (made safe to print), what goes before each key in messages
 * ("text_config." for a nested config), the values of keys the object lacks, and where the
 * one-line message goes. */
struct json_read {
    char origin[320];
    const char *prefix;     /* NULL or "": none */
    const cJSON *defaults;  /* NULL: none */
    bool null_absent;       /* a key set to null reads as absent (how configs write "unused") */
    char *err;
    size_t errlen;
};

/* Starts a read of origin (NULL: "<input>"): no prefix, no defaults, null is a value. */
void json_read_init(struct json_read *r, const char *origin, char *err, size_t errlen);

/* Writes "ORIGIN: PREFIXFIELD: message" (without a field "ORIGIN: message"); returns false. */
bool json_read_fail(const struct json_read *r, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool json_read_vfail(const struct json_read *r, const char *field, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* True when s is printable UTF-8 without control characters. */
bool json_read_printable(const char *s);
/* Copies src into dst (cap bytes) to print safely on one line: invalid or control bytes
 * become '?'; longer than max bytes (or than dst holds) it is cut to end in "...". */
void json_read_safe(char *dst, size_t cap, const char *src, size_t max);

/* Parses text (at most JSON_READ_FILE_MAX bytes) into a JSON object; the caller deletes *root. */
bool json_read_object(const struct json_read *r, const char *json, size_t len, cJSON **root);
/* Where JSON text holds a \u0000 escape inside a string (the offset of its backslash), or len
 * when it holds none. cJSON keeps C strings, so such a string would silently end at the NUL:
 * every JSON reader (specs, scenarios, points, lecture demos) refuses it. */
size_t json_read_nul_at(const char *json, size_t len);
/* Refuses keys not in names (with the nearest name) and keys given twice. */
bool json_read_keys(const struct json_read *r, const cJSON *obj, const char *field_prefix,
                    const char *const *names, size_t n);

/* The value of key name: obj's, else the defaults'; NULL when absent (or null, null_absent). */
const cJSON *json_read_get(const struct json_read *r, const cJSON *obj, const char *name);

/* Values: a finite number; a whole number in [lo, hi]; a number in [lo, hi] (or 0 when
 * zero_ok: "unknown"); true or false; a printable string shorter than cap (empty only when
 * empty_ok); one of names (*out its index). */
bool json_read_number(const struct json_read *r, const char *field, const cJSON *v, double *out);
bool json_read_int(const struct json_read *r, const char *field, const cJSON *v, int64_t lo,
                   int64_t hi, int64_t *out);
bool json_read_range(const struct json_read *r, const char *field, const cJSON *v, double lo,
                     double hi, bool zero_ok, double *out);
bool json_read_bool(const struct json_read *r, const char *field, const cJSON *v, bool *out);
bool json_read_text(const struct json_read *r, const char *field, const cJSON *v, char *buf,
                    size_t cap, bool empty_ok);
bool json_read_enum(const struct json_read *r, const char *field, const cJSON *v,
                    const char *const *names, size_t n, int *out);

/* Keys of obj: required ("missing" when absent), or optional with a default; a count where
 * null means 0 ("not used"); a string (*out NULL when absent, pointing into obj). */
bool json_read_req_int(const struct json_read *r, const cJSON *obj, const char *name, int64_t lo,
                       int64_t hi, int64_t *out);
bool json_read_opt_int(const struct json_read *r, const cJSON *obj, const char *name, int64_t lo,
                       int64_t hi, int64_t def, int64_t *out);
bool json_read_opt_count(const struct json_read *r, const cJSON *obj, const char *name,
                         int64_t hi, int64_t *out);
bool json_read_opt_bool(const struct json_read *r, const cJSON *obj, const char *name, bool def,
                        bool *out);
bool json_read_req_enum(const struct json_read *r, const cJSON *obj, const char *name,
                        const char *const *names, size_t n, int *out);
bool json_read_opt_str(const struct json_read *r, const cJSON *obj, const char *name,
                       const char **out);

#endif
