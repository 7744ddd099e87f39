/* test_tree.c - the source tree's shape: no include cycle between the modules of src/, ui/
 * and probes/ (a module is a .c/.h pair; "a includes b" is an edge a -> b), so each can be
 * read, changed and tested on its own, and the core includes nothing of the other two; and
 * the models behind the one evaluation (the prediction, the warnings, the serving figures)
 * are called from src/evaluation.c alone. Run from the source tree (make test does). */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check_util.h"

#define TREE_MAX 256
#define TREE_NAME 48

static char names[TREE_MAX][TREE_NAME];
static bool edge[TREE_MAX][TREE_MAX];
static int home[TREE_MAX]; /* the scan that found its files (0: none yet) */
static int scan_no;
static int n_mods;

static int mod_index(const char *name, size_t len)
{
    if (len == 0 || len >= TREE_NAME)
        return -1;
    for (int i = 0; i < n_mods; i++)
        if (strlen(names[i]) == len && strncmp(names[i], name, len) == 0)
            return i;
    ck_assert_int_lt(n_mods, TREE_MAX);
    snprintf(names[n_mods], TREE_NAME, "%.*s", (int)len, name);
    return n_mods++;
}

/* Adds the edges of every .c and .h file of dir. */
static void scan_dir(const char *dir)
{
    scan_no++;
    DIR *dp = opendir(dir);
    ck_assert_msg(dp != NULL, "cannot open %s (run from the source tree)", dir);
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        const char *dot = strrchr(e->d_name, '.');
        if (!dot || (strcmp(dot, ".c") != 0 && strcmp(dot, ".h") != 0))
            continue;
        int from = mod_index(e->d_name, (size_t)(dot - e->d_name));
        if (from >= 0 && home[from] == 0)
            home[from] = scan_no;
        char path[512], line[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        ck_assert_msg(f != NULL, "cannot read %s", path);
        while (fgets(line, sizeof line, f)) {
            const char *q = strstr(line, "#include \"");
            if (q != line)
                continue;
            q += strlen("#include \"");
            const char *h = strstr(q, ".h\"");
            if (!h)
                continue;
            int to = mod_index(q, (size_t)(h - q));
            if (from >= 0 && to >= 0 && to != from)
                edge[from][to] = true;
        }
        fclose(f);
    }
    closedir(dp);
}

static int state[TREE_MAX], path_[TREE_MAX], depth;
static char cycle[1024];

/* Depth-first search; records the first cycle found in `cycle`. */
static bool find_cycle(int u)
{
    state[u] = 1;
    path_[depth++] = u;
    for (int v = 0; v < n_mods; v++) {
        if (!edge[u][v])
            continue;
        if (state[v] == 1) {
            size_t len = 0;
            int k = depth - 1;
            while (k > 0 && path_[k] != v)
                k--;
            for (; k < depth; k++)
                len += (size_t)snprintf(cycle + len, sizeof cycle - len, "%s -> ", names[path_[k]]);
            snprintf(cycle + len, sizeof cycle - len, "%s", names[v]);
            return true;
        }
        if (state[v] == 0 && find_cycle(v))
            return true;
    }
    state[u] = 2;
    depth--;
    return false;
}

START_TEST(test_no_include_cycles)
{
    scan_dir("ui");
    scan_dir("probes");
    scan_dir("src");
    ck_assert_int_gt(n_mods, 50);
    for (int i = 0; i < n_mods; i++)
        ck_assert_msg(!(state[i] == 0 && find_cycle(i)), "include cycle: %s", cycle);
    for (int i = 0; i < n_mods; i++)
        for (int j = 0; j < n_mods; j++)
            ck_assert_msg(!(home[i] == 3 && home[j] >= 1 && home[j] <= 2 && edge[i][j]),
                          "src/%s.* includes %s.h of ui/ or probes/", names[i], names[j]);
}
END_TEST

START_TEST(test_cycle_finder_finds_one)
{
    /* The finder itself: a planted a -> b -> c -> a is reported. */
    n_mods = 0;
    memset(edge, 0, sizeof edge);
    memset(state, 0, sizeof state);
    depth = 0;
    int a = mod_index("a", 1), b = mod_index("b", 1), c = mod_index("c", 1);
    edge[a][b] = edge[b][c] = edge[c][a] = true;
    ck_assert(find_cycle(a));
    ck_assert_str_eq(cycle, "a -> b -> c -> a");
}
END_TEST

/* The models only the one evaluation calls (src/evaluation.h), each with its own file. */
static const char *const eval_only[][2] = {
    {"predict_run(", "predict.c"}, {"predict_run_derated(", "predict.c"},
    {"warnings_collect(", "warnings.c"}, {"infer_run(", "infer.c"},
};
#define EVAL_ONLY (int)(sizeof eval_only / sizeof eval_only[0])

/* Adds to calls[k] the lines of dir's .c files other than evaluation.c and the model's own
 * file that call model k (comment lines aside), naming the first in where; evaluation.c's
 * own calls go to in_eval[k]. */
static void scan_calls(const char *dir, int *calls, int *in_eval, char *where, size_t n)
{
    DIR *dp = opendir(dir);
    ck_assert_msg(dp != NULL, "cannot open %s (run from the source tree)", dir);
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        const char *dot = strrchr(e->d_name, '.');
        if (!dot || strcmp(dot, ".c") != 0)
            continue;
        char path[512], line[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        ck_assert_msg(f != NULL, "cannot read %s", path);
        for (int ln = 1; fgets(line, sizeof line, f); ln++) {
            const char *t = line + strspn(line, " \t");
            if (t[0] == '*' || (t[0] == '/' && (t[1] == '*' || t[1] == '/')))
                continue;
            for (int k = 0; k < EVAL_ONLY; k++) {
                const char *c = strstr(t, eval_only[k][0]);
                /* A call, not a longer name ending the same way or a definition. */
                if (c == NULL || (c > t && (c[-1] == '_' || (c[-1] >= 'a' && c[-1] <= 'z'))) ||
                    strcmp(e->d_name, eval_only[k][1]) == 0)
                    continue;
                if (strcmp(e->d_name, "evaluation.c") == 0) {
                    in_eval[k]++;
                    continue;
                }
                if (calls[k]++ == 0 && where[0] == '\0')
                    snprintf(where, n, "%s:%d calls %s...)", path, ln, eval_only[k][0]);
            }
        }
        fclose(f);
    }
    closedir(dp);
}

START_TEST(test_models_called_by_the_evaluation_alone)
{
    int calls[EVAL_ONLY] = {0}, in_eval[EVAL_ONLY] = {0};
    char where[640] = "";
    scan_calls("src", calls, in_eval, where, sizeof where);
    scan_calls("ui", calls, in_eval, where, sizeof where);
    scan_calls("probes", calls, in_eval, where, sizeof where);
    for (int k = 0; k < EVAL_ONLY; k++) {
        ck_assert_msg(calls[k] == 0, "%s: go through src/evaluation.h", where);
        /* The scan sees calls: evaluation.c's own (predict_run_derated is predict_run's). */
        if (k != 1)
            ck_assert_msg(in_eval[k] > 0, "no call of %s...) found in src/evaluation.c",
                          eval_only[k][0]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tree");
    TCase *tc = tcase_create("includes");
    tcase_add_test(tc, test_cycle_finder_finds_one);
    tcase_add_test(tc, test_no_include_cycles);
    tcase_add_test(tc, test_models_called_by_the_evaluation_alone);
    suite_add_tcase(s, tc);
    return check_run_suite(s);
}
