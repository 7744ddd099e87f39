/* model_summary.c - a model's architecture on one line, for the model picker. */
#include "model_summary.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

/* The parts in the order they are shown. */
enum part { P_LAYERS, P_WIDTH, P_ATTN, P_MLP, P_NORM, P_WINDOW, P_MOE, P_BLOCK, P_FLAGS,
            P_VOCAB, P_COUNT, P_PARTS };

/* How the line gives way when it is too wide, one step at a time: first what tells least
 * (vocabulary, flags), then the short forms, then whole parts. The layers stay (cut when
 * even they do not fit). */
static const struct {
    enum part part;
    int state; /* 1: short form, 2: left out */
} steps[] = {
    {P_VOCAB, 2}, {P_FLAGS, 2},  {P_WINDOW, 1}, {P_NORM, 1},  {P_MOE, 1},    {P_MLP, 1},
    {P_COUNT, 1}, {P_LAYERS, 1}, {P_ATTN, 1},   {P_BLOCK, 1}, {P_BLOCK, 2},  {P_WINDOW, 2},
    {P_NORM, 2},  {P_MLP, 2},    {P_COUNT, 2},  {P_MOE, 2},   {P_ATTN, 2},   {P_WIDTH, 2},
};

#define PART_MAX 320

struct part_text {
    char full[PART_MAX], brief[PART_MAX]; /* brief: "" when the part has no short form */
    bool shown;                           /* the model has this part */
};

int model_summary_width(const char *utf8)
{
    int w = 0;
    for (const unsigned char *p = (const unsigned char *)utf8; *p; p++)
        w += (*p & 0xC0) != 0x80; /* continuation bytes share their character's column */
    return w;
}

/* "2nd", "3rd", "6th": which layers are global in a sliding-window pattern. */
static void ordinal(long long k, char *buf, size_t n)
{
    const char *suf = "th";
    if (k % 100 < 11 || k % 100 > 13)
        suf = k % 10 == 1 ? "st" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd" : "th";
    snprintf(buf, n, "%lld%s", k, suf);
}

/* Appends ", what" (or what, when buf is empty) to a comma list. */
static void list_add(char *buf, size_t n, const char *what)
{
    size_t at = strlen(buf);
    if (at < n)
        snprintf(buf + at, n - at, "%s%s", at ? ", " : "", what);
}

/* Attention: heads (and KV heads) x head width, or MLA's latent ranks. */
static void describe_attn(const struct model_arch *m, const char *times, struct part_text *p)
{
    const long long a = m->heads, kv = m->kv_heads;
    const long long hd = model_head_dim(m);
    if (model_is_mla(m)) {
        char q[48] = "";
        if (m->q_lora_rank > 0)
            snprintf(q, sizeof q, " q %lld", (long long)m->q_lora_rank);
        snprintf(p->full, PART_MAX, "%lld heads, MLA kv %lld%s", a, (long long)m->kv_lora_rank,
                 q);
        snprintf(p->brief, PART_MAX, "%lld heads MLA", a);
    } else if (kv == a) {
        snprintf(p->full, PART_MAX, "%lld heads %s %lld", a, times, hd);
        snprintf(p->brief, PART_MAX, "%lld heads", a);
    } else {
        snprintf(p->full, PART_MAX, "%lld/%lld heads %s %lld", a, kv, times, hd);
        snprintf(p->brief, PART_MAX, "%lld/%lld heads", a, kv);
    }
}

/* The MLP's kind and its width; a MoE model's expert width is with its experts, and
 * the width here is its dense layers' (when it has any). */
static void describe_mlp(const struct model_arch *m, struct part_text *p)
{
    const char *mlp = model_mlp_name(m->mlp);
    if (!model_is_moe(m))
        snprintf(p->full, PART_MAX, "%s ffn %lld", mlp, (long long)m->ffn);
    else if (model_moe_layers(m) < m->layers)
        snprintf(p->full, PART_MAX, "%s, dense ffn %lld", mlp, (long long)m->ffn);
    else
        snprintf(p->full, PART_MAX, "%s", mlp);
    snprintf(p->brief, PART_MAX, "%s", mlp);
}

/* The norm, where it sits and any QK-norm. */
static void describe_norm(const struct model_arch *m, struct part_text *p)
{
    const char *place = m->norm_place == NORM_POST       ? " after"
                        : m->norm_place == NORM_SANDWICH ? " sandwich"
                                                         : "";
    const char *qk = m->qk_norm == QK_NORM_HEAD   ? ", QK-norm per head"
                     : m->qk_norm == QK_NORM_FULL ? ", QK-norm full"
                                                  : "";
    snprintf(p->full, PART_MAX, "%s%s%s", model_norm_name(m->norm), place, qk);
    snprintf(p->brief, PART_MAX, "%s%s", model_norm_name(m->norm),
             m->qk_norm != QK_NORM_NONE ? ", QK-norm" : "");
}

/* A sliding window and which layers are global (shown only with a window). */
static void describe_window(const struct model_arch *m, struct part_text *p)
{
    if (m->sliding_window <= 0)
        return;
    p->shown = true;
    if (m->sliding_window_pattern > 0) {
        char nth[24];
        ordinal(m->sliding_window_pattern, nth, sizeof nth);
        snprintf(p->full, PART_MAX, "window %lld, every %s global", (long long)m->sliding_window,
                 nth);
    } else {
        snprintf(p->full, PART_MAX, "window %lld", (long long)m->sliding_window);
    }
    snprintf(p->brief, PART_MAX, "window %lld", (long long)m->sliding_window);
}

/* The experts: count x width, top-k, shared experts, router bias, leading dense layers
 * (shown only for a MoE model). */
static void describe_moe(const struct model_arch *m, const char *times, struct part_text *p)
{
    if (!model_is_moe(m))
        return;
    const long long L = m->layers;
    p->shown = true;
    const long long fe = model_expert_ffn(m), fs = model_shared_ffn(m);
    char shared[96] = "", more[96] = "";
    if (m->shared_experts > 0) {
        char width[40] = "";
        if (fs != fe)
            snprintf(width, sizeof width, " %s %lld", times, fs);
        snprintf(shared, sizeof shared, " + %lld shared%s%s", (long long)m->shared_experts,
                 width, m->shared_gate ? " gated" : "");
    }
    if (m->router_bias)
        list_add(more, sizeof more, "router bias");
    if (model_moe_layers(m) < L) {
        char dense[40];
        snprintf(dense, sizeof dense, "first %lld dense", L - (long long)model_moe_layers(m));
        list_add(more, sizeof more, dense);
    }
    snprintf(p->full, PART_MAX, "%lld experts %s %lld top-%lld%s%s%s", (long long)m->experts,
             times, fe, (long long)m->experts_active, shared, more[0] ? ", " : "", more);
    snprintf(p->brief, PART_MAX, "%lld experts top-%lld%s", (long long)m->experts,
             (long long)m->experts_active, m->shared_experts > 0 ? " + shared" : "");
}

/* The block's shape, when attention and the MLP run in parallel. */
static void describe_block(const struct model_arch *m, struct part_text *p)
{
    if (m->block == BLOCK_SEQUENTIAL)
        return;
    p->shown = true;
    snprintf(p->full, PART_MAX, "%s",
             m->block == BLOCK_PARALLEL ? "parallel attention+MLP" : "parallel, one norm");
    snprintf(p->brief, PART_MAX, "parallel");
}

/* Tied embeddings, biases, sinks, learned positions (shown when there is any). */
static void describe_flags(const struct model_arch *m, struct part_text *p)
{
    char flags[PART_MAX] = "";
    if (m->tied_embeddings)
        list_add(flags, sizeof flags, "tied");
    if (m->bias)
        list_add(flags, sizeof flags, "biases");
    else if (m->qkv_bias)
        list_add(flags, sizeof flags, "QKV bias");
    if (m->mlp_bias && !m->bias)
        list_add(flags, sizeof flags, "MLP bias");
    if (m->lm_head_bias)
        list_add(flags, sizeof flags, "head bias");
    if (m->attn_sinks)
        list_add(flags, sizeof flags, "sinks");
    if (m->positional == POS_LEARNED)
        list_add(flags, sizeof flags, "learned positions");
    if (flags[0]) {
        p->shown = true;
        snprintf(p->full, PART_MAX, "%s", flags);
    }
}

/* The parameter count, a MoE model's active count and any MTP modules'. */
static void describe_count(const struct model_arch *m, struct part_text *p)
{
    struct param_counts pc;
    model_params(m, &pc);
    char total[32], active[32], mtp[32];
    units_count((double)(pc.typed > 0 ? pc.typed : pc.total), total, sizeof total);
    char extra[96] = "";
    if (model_is_moe(m)) {
        units_count((double)pc.active, active, sizeof active);
        snprintf(extra, sizeof extra, ", %s active", active);
    }
    if (pc.mtp > 0) {
        size_t at = strlen(extra);
        units_count((double)pc.mtp, mtp, sizeof mtp);
        snprintf(extra + at, sizeof extra - at, " (+%s MTP)", mtp);
    }
    snprintf(p->full, PART_MAX, "%s%s", total, extra);
    snprintf(p->brief, PART_MAX, "%s", total);
}

static void describe(const struct model_arch *m, const char *times, struct part_text *t)
{
    memset(t, 0, sizeof(struct part_text) * P_PARTS);
    const long long L = m->layers;
    snprintf(t[P_LAYERS].full, PART_MAX, "%lld layers", L);
    snprintf(t[P_LAYERS].brief, PART_MAX, "%lldL", L);
    snprintf(t[P_WIDTH].full, PART_MAX, "d %lld", (long long)m->d_model);
    describe_attn(m, times, &t[P_ATTN]);
    describe_mlp(m, &t[P_MLP]);
    describe_norm(m, &t[P_NORM]);
    describe_window(m, &t[P_WINDOW]);
    describe_moe(m, times, &t[P_MOE]);
    describe_block(m, &t[P_BLOCK]);
    describe_flags(m, &t[P_FLAGS]);
    snprintf(t[P_VOCAB].full, PART_MAX, "vocab %lld", (long long)m->vocab);
    describe_count(m, &t[P_COUNT]);

    t[P_LAYERS].shown = t[P_WIDTH].shown = t[P_ATTN].shown = t[P_MLP].shown = true;
    t[P_NORM].shown = t[P_VOCAB].shown = t[P_COUNT].shown = true;
}

/* The parts in state (0 full, 1 short, 2 left out) joined by the dot. */
static void join(const struct part_text *t, const int *state, const char *dot, char *buf,
                 size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int p = 0; p < P_PARTS; p++) {
        if (!t[p].shown || state[p] == 2)
            continue;
        const char *s = state[p] == 1 && t[p].brief[0] ? t[p].brief : t[p].full;
        int w = snprintf(buf + at, n - at, "%s%s%s%s", at ? " " : "", at ? dot : "",
                         at ? " " : "", s);
        if (w < 0 || (size_t)w >= n - at)
            return;
        at += (size_t)w;
    }
}

/* Copies src into buf (n bytes), at most cols characters, never splitting one. */
static int copy_cut(const char *src, int cols, char *buf, size_t n)
{
    size_t at = 0;
    int w = 0;
    const unsigned char *p = (const unsigned char *)src;
    while (*p && w < cols) {
        size_t len = 1;
        while ((p[len] & 0xC0) == 0x80)
            len++;
        if (at + len + 1 > n)
            break;
        memcpy(buf + at, p, len);
        at += len;
        p += len;
        w++;
    }
    buf[at] = '\0';
    return w;
}

int model_summary_line(const struct model_arch *m, int width, const char *dot, const char *times,
                       char *buf, size_t n)
{
    if (n == 0)
        return 0;
    buf[0] = '\0';
    if (width <= 0)
        return 0;
    struct part_text t[P_PARTS];
    describe(m, times, t);
    int state[P_PARTS] = {0};
    char line[P_PARTS * (PART_MAX + 8)];
    join(t, state, dot, line, sizeof line);
    for (size_t k = 0; k < sizeof steps / sizeof steps[0] && model_summary_width(line) > width;
         k++) {
        if (!t[steps[k].part].shown)
            continue;
        state[steps[k].part] = steps[k].state;
        join(t, state, dot, line, sizeof line);
    }
    return copy_cut(line, width, buf, n);
}
