/* json_kind.h - what a JSON value is, in words: the spec reader's and the config.json reader's
 * "must be a number, got a string". */
#ifndef ROOFTOP_JSON_KIND_H
#define ROOFTOP_JSON_KIND_H

#include <cjson/cJSON.h>

/* "a string", "a number", "a boolean", "null", "an array", "an object" or "something else". */
const char *json_kind(const cJSON *v);

#endif
