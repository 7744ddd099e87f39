/* einsum.c - named-dimension contracts: parsing, checking, and their FLOPs and bytes. */
#include "einsum.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

static int name_index(struct einsum_spec *sp, const char *name, size_t len, char *err,
                      size_t errlen)
{
    for (int i = 0; i < sp->n_names; i++)
        if (strlen(sp->names[i]) == len && strncmp(sp->names[i], name, len) == 0)
            return i;
    if (len >= EINSUM_NAME_MAX) {
        snprintf(err, errlen, "'%.*s': a name has at most %d characters", (int)len, name,
                 EINSUM_NAME_MAX - 1);
        return -1;
    }
    if (sp->n_names >= EINSUM_MAX_NAMES) {
        snprintf(err, errlen, "more than %d dimension names", EINSUM_MAX_NAMES);
        return -1;
    }
    memcpy(sp->names[sp->n_names], name, len);
    sp->names[sp->n_names][len] = '\0';
    return sp->n_names++;
}

/* One term from [p, end): names (letters when `letters`), groups in parentheses. */
static bool parse_term(struct einsum_spec *sp, const char *p, const char *end, bool letters,
                       struct einsum_term *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    int depth = 0;
    while (p < end) {
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (*p == '(' || *p == ')') {
            if ((*p == '(') == (depth == 1)) {
                snprintf(err, errlen, "unbalanced or nested parentheses");
                return false;
            }
            if (*p == ')' && t->slot_len[t->n_slots - 1] == 0) {
                snprintf(err, errlen, "an empty group ()");
                return false;
            }
            if (*p == '(' && t->n_slots >= EINSUM_MAX_SLOTS) {
                snprintf(err, errlen, "more than %d axes in a term", EINSUM_MAX_SLOTS);
                return false;
            }
            if (*p == '(')
                t->slot_len[t->n_slots++] = 0;
            depth = *p == '(';
            p++;
            continue;
        }
        const char *q = p;
        while (q < end && (isalnum((unsigned char)*q) || *q == '_') && (!letters || q == p))
            q++;
        if (q == p) {
            snprintf(err, errlen, "'%c' is not part of a dimension name", *p);
            return false;
        }
        int id = name_index(sp, p, (size_t)(q - p), err, errlen);
        if (id < 0)
            return false;
        if (depth == 0) {
            if (t->n_slots >= EINSUM_MAX_SLOTS) {
                snprintf(err, errlen, "more than %d axes in a term", EINSUM_MAX_SLOTS);
                return false;
            }
            t->slot_len[t->n_slots++] = 0;
        }
        int s = t->n_slots - 1;
        if (t->slot_len[s] >= EINSUM_MAX_GROUP) {
            snprintf(err, errlen, "more than %d names in a group", EINSUM_MAX_GROUP);
            return false;
        }
        t->slot_name[s][t->slot_len[s]++] = id;
        p = q;
    }
    if (depth != 0) {
        snprintf(err, errlen, "unbalanced parentheses");
        return false;
    }
    return true;
}

/* Bit i set: name i appears in t; *twice when one appears more than once. */
static unsigned term_names(const struct einsum_term *t, bool *twice)
{
    unsigned m = 0;
    *twice = false;
    for (int s = 0; s < t->n_slots; s++)
        for (int k = 0; k < t->slot_len[s]; k++) {
            unsigned b = 1u << t->slot_name[s][k];
            *twice = *twice || (m & b);
            m |= b;
        }
    return m;
}

static bool has_group(const struct einsum_term *t)
{
    for (int s = 0; s < t->n_slots; s++)
        if (t->slot_len[s] != 1)
            return true;
    return false;
}

static bool check_kind(const struct einsum_spec *sp, char *err, size_t errlen)
{
    bool twice;
    unsigned in = 0, out = term_names(&sp->out, &twice);
    if (twice) {
        snprintf(err, errlen, "a name appears twice in the output");
        return false;
    }
    for (int i = 0; i < sp->n_in; i++) {
        in |= term_names(&sp->in[i], &twice);
        if (twice) {
            snprintf(err, errlen, "a name appears twice in input %d (a diagonal; not supported)",
                     i + 1);
            return false;
        }
        if (sp->kind != EINSUM_REARRANGE && has_group(&sp->in[i])) {
            snprintf(err, errlen, "groups in parentheses are rearrange's");
            return false;
        }
    }
    if (sp->kind != EINSUM_REARRANGE && has_group(&sp->out)) {
        snprintf(err, errlen, "groups in parentheses are rearrange's");
        return false;
    }
    if (sp->kind != EINSUM_CONTRACT && sp->n_in != 1) {
        snprintf(err, errlen, "%s takes one input",
                 sp->kind == EINSUM_REDUCE ? "reduce" : "rearrange");
        return false;
    }
    for (int i = 0; i < sp->n_names; i++)
        if ((out >> i & 1u) && !(in >> i & 1u)) {
            snprintf(err, errlen, "'%s' is in the output but in no input", sp->names[i]);
            return false;
        }
    if (sp->kind == EINSUM_REARRANGE && in != out) {
        for (int i = 0; i < sp->n_names; i++)
            if (!(out >> i & 1u)) {
                snprintf(err, errlen, "rearrange keeps every name: '%s' is not in the output",
                         sp->names[i]);
                break;
            }
        return false;
    }
    return true;
}

bool einsum_parse(const char *text, enum einsum_kind kind, struct einsum_spec *sp, char *err,
                  size_t errlen)
{
    memset(sp, 0, sizeof *sp);
    sp->kind = kind;
    const char *arrow = strstr(text, "->");
    if (arrow == NULL || strstr(arrow + 2, "->") != NULL) {
        snprintf(err, errlen, "want one '->' between the inputs and the output");
        return false;
    }
    if (strstr(text, "...") != NULL) {
        snprintf(err, errlen, "'...' is not supported: name every dimension");
        return false;
    }
    bool letters = strchr(text, ' ') == NULL && strchr(text, '(') == NULL;
    const char *p = text;
    while (p <= arrow) {
        const char *c = memchr(p, ',', (size_t)(arrow - p));
        const char *end = c ? c : arrow;
        if (sp->n_in >= EINSUM_MAX_INPUTS) {
            snprintf(err, errlen, "more than %d inputs", EINSUM_MAX_INPUTS);
            return false;
        }
        if (!parse_term(sp, p, end, letters, &sp->in[sp->n_in], err, errlen))
            return false;
        if (sp->in[sp->n_in].n_slots == 0) {
            snprintf(err, errlen, "input %d is empty", sp->n_in + 1);
            return false;
        }
        sp->n_in++;
        p = end + 1;
    }
    if (!parse_term(sp, arrow + 2, arrow + 2 + strlen(arrow + 2), letters, &sp->out, err,
                    errlen))
        return false;
    return check_kind(sp, err, errlen);
}

bool einsum_dims(const struct einsum_spec *sp, const char *text, double *size, char *err,
                 size_t errlen)
{
    for (int i = 0; i < sp->n_names; i++)
        size[i] = 0;
    const char *p = text;
    while (*p) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        char val[64];
        if (eq == NULL || eq == p || (size_t)(p + len - eq - 1) >= sizeof val) {
            snprintf(err, errlen, "--dims: '%.*s' is not NAME=SIZE", (int)len, p);
            return false;
        }
        size_t nl = (size_t)(eq - p), vl = (size_t)(p + len - eq - 1);
        memcpy(val, eq + 1, vl);
        val[vl] = '\0';
        int id = -1;
        for (int i = 0; i < sp->n_names; i++)
            if (strlen(sp->names[i]) == nl && strncmp(sp->names[i], p, nl) == 0)
                id = i;
        long long v;
        if (id < 0) {
            snprintf(err, errlen, "--dims: '%.*s' is not a name of the contract", (int)nl, p);
            return false;
        }
        if (!units_parse_count(val, &v)) {
            snprintf(err, errlen, "--dims: %s: '%s' is not a whole number of at least 1",
                     sp->names[id], val);
            return false;
        }
        size[id] = (double)v;
        p += len + (c != NULL);
    }
    for (int i = 0; i < sp->n_names; i++)
        if (!(size[i] > 0)) {
            snprintf(err, errlen, "--dims: no size for '%s'", sp->names[i]);
            return false;
        }
    return true;
}

static double term_elems(const struct einsum_term *t, const double *size)
{
    double n = 1;
    for (int s = 0; s < t->n_slots; s++)
        for (int k = 0; k < t->slot_len[s]; k++)
            n *= size[t->slot_name[s][k]];
    return n;
}

/* Whether out lists the names in the order in (elementary names, groups dissolved). */
static bool same_order(const struct einsum_term *in, const struct einsum_term *out)
{
    int a[EINSUM_MAX_SLOTS * EINSUM_MAX_GROUP], b[EINSUM_MAX_SLOTS * EINSUM_MAX_GROUP];
    int na = 0, nb = 0;
    for (int s = 0; s < in->n_slots; s++)
        for (int k = 0; k < in->slot_len[s]; k++)
            a[na++] = in->slot_name[s][k];
    for (int s = 0; s < out->n_slots; s++)
        for (int k = 0; k < out->slot_len[s]; k++)
            b[nb++] = out->slot_name[s][k];
    return na == nb && memcmp(a, b, (size_t)na * sizeof a[0]) == 0;
}

void einsum_cost(const struct einsum_spec *sp, const double *size, double elem_bytes,
                 struct einsum_cost *c)
{
    memset(c, 0, sizeof *c);
    bool twice;
    unsigned in = 0, out = term_names(&sp->out, &twice);
    double in_total = 0;
    for (int i = 0; i < sp->n_in; i++) {
        in |= term_names(&sp->in[i], &twice);
        c->in_elems[i] = term_elems(&sp->in[i], size);
        in_total += c->in_elems[i];
    }
    c->out_elems = term_elems(&sp->out, size);
    for (int s = 0; s < sp->out.n_slots; s++) {
        c->out_shape[s] = 1;
        for (int k = 0; k < sp->out.slot_len[s]; k++)
            c->out_shape[s] *= size[sp->out.slot_name[s][k]];
    }
    c->all = 1;
    for (int i = 0; i < sp->n_names; i++)
        c->all *= size[i];
    c->summed = in & ~out;
    c->bytes = (in_total + c->out_elems) * elem_bytes;
    if (sp->kind == EINSUM_CONTRACT)
        c->flops = (double)(sp->n_in - 1 + (c->summed != 0)) * c->all;
    else if (sp->kind == EINSUM_REDUCE)
        c->flops = c->in_elems[0] - c->out_elems;
    else {
        c->view = same_order(&sp->in[0], &sp->out);
        if (c->view)
            c->bytes = 0;
    }
    c->intensity = c->bytes > 0 ? c->flops / c->bytes : 0;
}

void einsum_term_text(const struct einsum_spec *sp, const struct einsum_term *t, char *buf,
                      size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int s = 0; s < t->n_slots && used < n; s++) {
        int w = snprintf(buf + used, n - used, "%s%s", s ? " " : "", t->slot_len[s] > 1 ? "(" : "");
        used += w > 0 ? (size_t)w : 0;
        for (int k = 0; k < t->slot_len[s] && used < n; k++) {
            w = snprintf(buf + used, n - used, "%s%s", k ? " " : "", sp->names[t->slot_name[s][k]]);
            used += w > 0 ? (size_t)w : 0;
        }
        if (t->slot_len[s] > 1 && used < n) {
            w = snprintf(buf + used, n - used, ")");
            used += w > 0 ? (size_t)w : 0;
        }
    }
}
