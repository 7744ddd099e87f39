/* test_screen.c - what a new user met on the screen (issue 8, "The screen"), at the sizes the
 * dashboard runs in: every operation's row and every caption line reachable, the roofline's
 * decades evenly spaced with their labels on their values' rows, the value editor, the
 * pickers, asking before a file is replaced, and free text that cannot reach a terminal or
 * break the SVG. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "check_util.h"
#include "dash_harness.h"
#include "keymap.h"
#include "layout.h"
#include "plot.h"

static const int sizes[][2] = {{80, 24}, {100, 30}, {120, 40}, {160, 50}, {200, 60}};
#define N_SIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* The operations the table lists: those with FLOPs and bytes (as the roofline places them). */
static int listed_ops(const struct harness *h)
{
    int n = 0;
    for (int i = 0; i < h->d.ev.an.n_ops; i++)
        n += h->d.ev.an.ops[i].flops > 0 && h->d.ev.an.ops[i].bytes > 0;
    return n;
}

/* Every operation's letter has a row in the table, by scrolling it: at every size, with t
 * showing the table where it shares its place with the roofline. */
START_TEST(test_every_op_row_reachable)
{
    for (int z = 0; z < N_SIZES; z++) {
        struct harness h;
        harness_start(&h, sizes[z][0], sizes[z][1], true, true);
        harness_keys(&h, "t");
        ck_assert_int_eq(h.d.focus, FOCUS_OPS);
        int n = listed_ops(&h);
        ck_assert_int_eq(n, 14); /* the lecture's 70B: 14 operations with a cost */
        bool seen[26] = {false};
        for (int step = 0; step < 2 * n; step++) {
            struct layout L;
            dash_layout(&h.d, h.d.cols, h.d.rows, &L);
            struct rect r = L.r[P_OPS];
            ck_assert_msg(!rect_empty(r), "%dx%d: no ops table after t", sizes[z][0], sizes[z][1]);
            for (int y = r.y + LAYOUT_OPS_HEAD_ROWS; y < r.y + r.h; y++) {
                uint32_t ch = screen_cell(&h.s, r.x + 1, y)->ch;
                if (ch >= 'a' && ch <= 'z')
                    seen[ch - 'a'] = true;
            }
            harness_keys(&h, "<Right>");
        }
        /* Each operation's letter is its kind's (qkv b, as in the serving view). */
        for (int i = 0; i < h.d.ev.an.n_ops; i++) {
            const struct op *op = &h.d.ev.an.ops[i];
            if (op->flops > 0 && op->bytes > 0)
                ck_assert_msg(seen[op->kind], "%dx%d: operation %c (%s) never shown in the table",
                              sizes[z][0], sizes[z][1], 'a' + (int)op->kind, op->name);
        }
        /* And back to the top with Home. */
        harness_keys(&h, "<Home>");
        ck_assert_int_eq(h.d.ops_top, 0);
        harness_stop(&h);
    }
}
END_TEST

/* t does something at every size: where both panels fit, it takes the focus to the table
 * and says so. */
START_TEST(test_t_at_large_sizes)
{
    struct harness h;
    harness_start(&h, 200, 60, true, true);
    ck_assert_int_ne(h.d.focus, FOCUS_OPS);
    harness_keys(&h, "t");
    ck_assert_int_eq(h.d.focus, FOCUS_OPS);
    ck_assert_screen_has(&h, "both on screen");
    harness_stop(&h);
}
END_TEST

/* Every word of every lecture caption can be read at every size: c pages through what does
 * not fit (step 2's answer, 53.3B, was never visible at 80x24). */
START_TEST(test_captions_readable)
{
    for (int z = 0; z < N_SIZES; z++) {
        struct harness h;
        harness_start(&h, sizes[z][0], sizes[z][1], true, true);
        harness_keys(&h, "n");
        ck_assert_int_gt(h.d.demo.n, 1);
        for (int st = 0; st < h.d.demo.n; st++) {
            if (st > 0)
                harness_keys(&h, "n");
            ck_assert_int_eq(h.d.step, st);
            static char seen[1 << 16];
            seen[0] = '\0';
            struct layout L;
            dash_layout(&h.d, h.d.cols, h.d.rows, &L);
            struct rect r = L.r[P_CAPTION];
            ck_assert(!rect_empty(r));
            for (int page = 0; page < 40; page++) {
                for (int y = r.y; y < r.y + r.h; y++) {
                    char row[2048];
                    screen_row_text(&h.s, y, row, sizeof row);
                    strncat(seen, row, sizeof seen - strlen(seen) - 2);
                    strcat(seen, " ");
                }
                if (h.d.caption_line == 0 && page > 0)
                    break;
                harness_keys(&h, "c");
            }
            /* Every word of the caption appeared whole on some page. */
            char cap[DEMO_TEXT_MAX];
            snprintf(cap, sizeof cap, "%s", h.d.demo.steps[st].caption);
            char *save = NULL;
            for (char *w = strtok_r(cap, " ", &save); w; w = strtok_r(NULL, " ", &save))
                ck_assert_msg(strstr(seen, w) != NULL, "%dx%d step %d: '%s' never on screen",
                              sizes[z][0], sizes[z][1], st + 1, w);
        }
        harness_stop(&h);
    }
    /* The one the audit missed. */
    struct harness h;
    harness_start(&h, 80, 24, true, true);
    harness_keys(&h, "nnn");
    bool found = false;
    for (int page = 0; page < 10 && !found; page++) {
        found = screen_contains(&h.s, "53.3B");
        harness_keys(&h, "c");
    }
    ck_assert(found);
    harness_stop(&h);
}
END_TEST

/* Typing replaces the value shown (not "70B53B"); Ctrl-U clears; other keys keep it to edit. */
START_TEST(test_value_editor)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_focus(&h, slider_id("params"));
    harness_keys(&h, "<Enter>53B<Enter>");
    ck_assert_int_eq(h.d.mode, DM_NORMAL);
    ck_assert_int_eq(h.d.ev.an.params.typed, 53000000000LL);
    harness_keys(&h, "<Enter><Left><C-u>7B<Enter>");
    ck_assert_int_eq(h.d.ev.an.params.typed, 7000000000LL);
    /* An arrow keeps the old value: typing then appends to it. */
    harness_keys(&h, "<Enter><Left><BS>0B<Enter>");
    ck_assert_int_eq(h.d.ev.an.params.typed, 70000000000LL);
    harness_stop(&h);
}
END_TEST

/* The value editor opens just below its slider, at every size. */
START_TEST(test_editor_near_slider)
{
    for (int z = 0; z < N_SIZES; z++) {
        struct harness h;
        harness_start(&h, sizes[z][0], sizes[z][1], true, true);
        harness_focus(&h, slider_id("gpus"));
        harness_keys(&h, "<Enter>");
        struct layout L;
        dash_layout(&h.d, h.d.cols, h.d.rows, &L);
        struct slider_geom g;
        layout_sliders(L.r[P_SLIDERS], h.d.focus, slider_count(), &g);
        int row = g.y0 + (h.d.focus - g.first);
        char text[2048];
        screen_row_text(&h.s, row + 1, text, sizeof text);
        ck_assert_msg(strstr(text, "GPUs: type a value") != NULL,
                      "%dx%d: the editor is not under the slider's row %d: '%s'", sizes[z][0],
                      sizes[z][1], row, text);
        /* The slider itself stays visible above it. */
        screen_row_text(&h.s, row, text, sizeof text);
        ck_assert(strstr(text, "GPUs") != NULL);
        harness_stop(&h);
    }
}
END_TEST

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

static void read_head(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    fclose(f);
}

/* s and e ask before replacing a file that is there; n keeps it, y replaces it. */
START_TEST(test_overwrite_asks)
{
    char dir[128], path[256], keys[512], buf[256];
    check_tmpdir(dir, sizeof dir, "screen");
    static const char *const which[] = {"s", "e"};
    for (int w = 0; w < 2; w++) {
        struct harness h;
        harness_start(&h, 120, 40, true, true);
        snprintf(path, sizeof path, "%s/keep-%d.md", dir, w);
        write_file(path, "precious\n");
        snprintf(keys, sizeof keys, "%s<C-u>%s<Enter>", which[w], path);
        harness_keys(&h, keys);
        ck_assert_int_eq(h.d.mode, DM_CONFIRM);
        ck_assert_screen_has(&h, "exists. Replace it?");
        harness_keys(&h, "n");
        ck_assert_int_eq(h.d.mode, DM_NORMAL);
        read_head(path, buf, sizeof buf);
        ck_assert_str_eq(buf, "precious\n");
        harness_keys(&h, keys);
        harness_keys(&h, "y");
        read_head(path, buf, sizeof buf);
        ck_assert_msg(strcmp(buf, "precious\n") != 0, "%s: y did not replace it", which[w]);
        ck_assert(!h.d.status_error);
        /* A new name is written at once. */
        snprintf(path, sizeof path, "%s/new-%d.md", dir, w);
        snprintf(keys, sizeof keys, "%s<C-u>%s<Enter>", which[w], path);
        harness_keys(&h, keys);
        ck_assert_int_eq(h.d.mode, DM_NORMAL);
        ck_assert_int_eq(access(path, F_OK), 0);
        harness_stop(&h);
    }
    check_rmtree(dir);
}
END_TEST

/* File prompts: typing replaces the name shown (it appended: "rooftop-report.md/tmp/x.json:
 * cannot write"), an arrow keeps it to edit; o lists the scenarios on the search path,
 * narrowed as one types, and Down then Enter opens one. */
START_TEST(test_file_prompts)
{
    static const char *const which[] = {"e", "s"};
    for (int w = 0; w < 2; w++) {
        struct harness h;
        harness_start(&h, 80, 24, true, true);
        harness_keys(&h, which[w]);
        ck_assert(h.d.input[0] != '\0');
        ck_assert(h.d.input_fresh);
        harness_keys(&h, "/tmp/x.json");
        ck_assert_str_eq(h.d.input, "/tmp/x.json");
        harness_keys(&h, "<Esc>");
        harness_keys(&h, which[w]);
        harness_keys(&h, "<End><BS><BS>xt");
        ck_assert_str_eq(h.d.input, w == 0 ? "rooftop-report.xt" : "rooftop-scenario.jsxt");
        harness_stop(&h);
    }
    struct harness h;
    harness_start(&h, 80, 24, true, true);
    harness_keys(&h, "o");
    ck_assert_int_eq(h.d.mode, DM_OPEN);
    ck_assert_screen_has(&h, "lecture");
    ck_assert_screen_has(&h, "inference");
    ck_assert_int_eq(h.s.cut, 0);
    harness_keys(&h, "lec");
    ck_assert_screen_has(&h, "lecture");
    ck_assert(!screen_contains(&h.s, "inference"));
    harness_keys(&h, "<Down><Enter>");
    ck_assert_int_eq(h.d.mode, DM_NORMAL);
    ck_assert_msg(h.d.demo.n > 0, "the lecture demo did not open: %s", h.d.status);
    /* Typed text that no entry holds is opened as typed (a path). */
    harness_keys(&h, "ozzz<Enter>");
    ck_assert(h.d.status_error);
    harness_stop(&h);
}
END_TEST

/* Pickers search as one types, and show that entries are hidden at 80x24. */
START_TEST(test_picker_search_and_marks)
{
    struct harness h;
    harness_start(&h, 80, 24, true, true);
    harness_keys(&h, "m");
    ck_assert_int_eq(h.d.mode, DM_PICK_MODEL);
    int n = h.d.presets.n_models;
    ck_assert_int_gt(n, 20); /* more than 80x24 has rows for */
    /* The box's right rule carries a mark where entries are hidden. */
    int marks = 0;
    for (int y = 0; y < h.s.rows; y++)
        for (int x = 0; x < h.s.cols; x++) {
            const struct cell *c = screen_cell(&h.s, x, y);
            marks += c->elem == E_OVERLAY && (c->ch == '^' || c->ch == 'v');
        }
    ck_assert_int_ge(marks, 1);
    harness_keys(&h, "405");
    ck_assert_int_eq(h.d.mode, DM_PICK_MODEL);
    ck_assert_str_eq(h.d.presets.models[h.d.pick].arch.id, "llama3.1-405b");
    harness_keys(&h, "<Enter>");
    ck_assert_str_eq(h.d.sc.model.id, "llama3.1-405b");
    /* GPUs too, in any case. */
    harness_keys(&h, "gA100");
    ck_assert(strstr(h.d.presets.gpus[h.d.pick].id, "a100") != NULL);
    harness_keys(&h, "<Esc>");
    harness_stop(&h);
}
END_TEST

/* The roofline's decade rows are evenly spaced at every size, and a measured point of
 * exactly 10 TFLOP/s lands on the row labelled 10T. */
START_TEST(test_decades_even_and_on_their_row)
{
    for (int cols = 80; cols <= 240; cols += 8)
        for (int rows = 24; rows <= 72; rows += 3) {
            struct harness h;
            harness_start(&h, cols, rows, true, true);
            struct points_doc doc;
            points_init(&doc);
            struct probe_point p = {.name = "test.10T", .dtype = DTYPE_BF16, .flops = 1e13,
                                    .bytes = 1e12, .seconds = 1, .intensity = 10,
                                    .flops_per_s = 1e13, .bytes_per_s = 1e12, .valid = true};
            ck_assert(points_add(&doc, &p));
            dash_set_points(&h.d, &doc, "test");
            harness_keys(&h, "<Resize 10x10>");
            struct event ev = {.type = EV_RESIZE, .x = cols, .y = rows};
            dash_handle(&h.d, &ev);
            struct layout L;
            dash_layout(&h.d, cols, rows, &L);
            if (rect_empty(L.r[P_ROOFLINE])) {
                harness_stop(&h);
                continue;
            }
            struct plot_info info;
            ck_assert(screen_resize(&h.s, cols, rows));
            screen_clear(&h.s, 0);
            plot_draw(&h.d, &h.s, L.r[P_ROOFLINE], false, &info);
            if (!info.drawn) {
                harness_stop(&h);
                continue;
            }
            int ax = info.area.x - 1, ticks[32], nt = 0;
            for (int y = info.area.y; y < info.area.y + info.area.h && nt < 32; y++)
                if (screen_cell(&h.s, ax, y)->ch == h.d.cs.tick)
                    ticks[nt++] = y;
            ck_assert_msg(nt >= 3, "%dx%d: %d decade rows", cols, rows, nt);
            for (int i = 2; i < nt; i++)
                ck_assert_msg(ticks[i] - ticks[i - 1] == ticks[1] - ticks[0],
                              "%dx%d: decade rows %d, %d, %d not evenly spaced", cols, rows,
                              ticks[i - 2], ticks[i - 1], ticks[i]);
            /* The measured point's row carries the 10T label. */
            int py = -1;
            for (int y = info.area.y; y < info.area.y + info.area.h; y++)
                for (int x = info.area.x; x < info.area.x + info.area.w; x++)
                    if (screen_cell(&h.s, x, y)->ch == h.d.cs.point)
                        py = y;
            if (py >= 0) {
                char row[2048];
                screen_row_text(&h.s, py, row, sizeof row);
                ck_assert_msg(strstr(row, "10T") != NULL, "%dx%d: the 10 TFLOP/s point's row: %s",
                              cols, rows, row);
            }
            harness_stop(&h);
        }
}
END_TEST

/* Writes the grid in fmt into a string (caller frees). */
static char *capture_string(const struct harness *h, enum capture_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert(capture_write(f, &h->s, &h->d.theme, fmt));
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

/* Control characters in a demo's caption and title and in a scenario's name never reach the
 * text or ANSI output, and the SVG stays well-formed XML. */
START_TEST(test_free_text_sanitised)
{
    char dir[128], path[256];
    check_tmpdir(dir, sizeof dir, "screen");
    snprintf(path, sizeof path, "%s/evil.json", dir);
    write_file(path,
               "{\"name\": \"evil & <b>\", \"params\": \"7B\", \"steps\": ["
               "{\"title\": \"T\\u001b]0;owned\\u0007 <x>&amp;\", "
               "\"caption\": \"clear\\u001b[2J\\u001b[H now \\u009b31m red \\u0008 "
               "bs ]]> --> <!-- \\ufffe\"}]}");
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    char err[512];
    ck_assert_msg(dash_demo_open(&h.d, path, 0, err, sizeof err), "%s", err);
    harness_draw(&h);
    ck_assert_screen_has(&h, "clear?[2J?[H now ?31m red");
    char *txt = capture_string(&h, CAPTURE_TXT);
    for (const unsigned char *p = (const unsigned char *)txt; *p; p++)
        ck_assert_msg(*p >= 0x20 || *p == '\n', "txt output holds byte 0x%02x", *p);
    free(txt);
    char *ansi = capture_string(&h, CAPTURE_ANSI);
    for (const char *p = ansi; *p; p++) {
        if (*p != '\033') {
            ck_assert_msg((unsigned char)*p >= 0x20 || *p == '\n', "ansi output holds 0x%02x", *p);
            continue;
        }
        /* Only rooftop's own colour changes: ESC [ digits and ; then m. */
        ck_assert(p[1] == '[');
        p += 2;
        while ((*p >= '0' && *p <= '9') || *p == ';')
            p++;
        ck_assert_msg(*p == 'm', "ansi output holds an escape other than SGR");
    }
    free(ansi);
    char *svg = capture_string(&h, CAPTURE_SVG);
    snprintf(path, sizeof path, "%s/evil.svg", dir);
    write_file(path, svg);
    if (system("command -v xmllint >/dev/null 2>&1") == 0) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "xmllint --noout '%s'", path);
        ck_assert_msg(system(cmd) == 0, "xmllint refuses the SVG");
    }
    /* Structure without xmllint: no control bytes, every & an entity we write, every < one
     * of our three elements or their ends. */
    for (const char *p = svg; *p; p++) {
        ck_assert((unsigned char)*p >= 0x20 || *p == '\n');
        if (*p == '&')
            ck_assert(strncmp(p, "&amp;", 5) == 0 || strncmp(p, "&lt;", 4) == 0 ||
                      strncmp(p, "&gt;", 4) == 0);
        if (*p == '<') {
            static const char *const ok[] = {"<svg ", "</svg>", "<rect ", "<circle ", "<text ",
                                             "</text>"};
            bool known = false;
            for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
                known = known || strncmp(p, ok[i], strlen(ok[i])) == 0;
            ck_assert_msg(known, "unexpected markup in the SVG: %.20s", p);
        }
    }
    free(svg);
    harness_stop(&h);
    check_rmtree(dir);
}
END_TEST

/* Messages shown on the dashboard name the input as the dashboard and the file do, never a
 * command-line flag: a refused typed value, and a demo file's invalid step. */
START_TEST(test_messages_without_flags)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_focus(&h, slider_id("tp"));
    harness_keys(&h, "<Enter>3<Enter>"); /* 3 does not divide the 70B shape's heads */
    ck_assert(h.d.status_error);
    ck_assert_msg(strstr(h.d.status, "--") == NULL, "status names a flag: %s", h.d.status);
    char dir[128], path[256], err[512];
    check_tmpdir(dir, sizeof dir, "screen");
    snprintf(path, sizeof path, "%s/bad-demo.json", dir);
    write_file(path, "{\"params\": \"7B\", \"steps\": [{\"caption\": \"x\", \"tp\": 3}]}");
    ck_assert(!dash_demo_open(&h.d, path, 0, err, sizeof err));
    ck_assert_msg(strstr(err, "step 1: tp: ") != NULL && strstr(err, "--") == NULL,
                  "demo error: %s", err);
    harness_stop(&h);
    check_rmtree(dir);
}
END_TEST

/* The README's examples work as written: each "$ ./rooftop ARGS" in a code block, run, prints
 * the lines under it (stdout, or stderr when it failed), or begins with them where the README
 * shows only the first sections. Elided ones ("...", or continued with a backslash) are left
 * out. */
START_TEST(test_readme_examples)
{
    char *readme = check_read_all("README.md");
    ck_assert_msg(strstr(readme, "\n$ rooftop ") == NULL, "README runs rooftop, which needs an install");
    int ran = 0;
    bool in_code = false;
    char *cmd = NULL, *rest = readme;
    static char want[1 << 16];
    want[0] = '\0';
    for (;;) {
        /* Line by line, blank lines kept (the report's sections are apart). */
        char *line = rest;
        if (line) {
            char *nl = strchr(line, '\n');
            rest = nl ? nl + 1 : NULL;
            if (nl)
                *nl = '\0';
            else if (!*line)
                line = NULL;
        }
        bool fence = line && strncmp(line, "```", 3) == 0;
        bool next = !line || fence || strncmp(line, "$ ", 2) == 0;
        if (next && cmd) {
            struct check_run r;
            int st = check_run_bin(&r, cmd);
            const char *got = st == 0 ? r.out : r.err;
            size_t gl = strlen(got);
            while (gl > 0 && got[gl - 1] == '\n')
                gl--;
            size_t wl = strlen(want);
            while (wl > 0 && want[wl - 1] == '\n')
                wl--;
            ck_assert_msg(gl >= wl && strncmp(got, want, wl) == 0 &&
                              (gl == wl || got[wl] == '\n'),
                          "README: ./rooftop %.200s\nprints:\n%.1500s\nREADME says:\n%.1500s", cmd,
                          got, want);
            check_run_free(&r);
            ran++;
            cmd = NULL;
        }
        if (!line)
            break;
        if (fence) {
            in_code = !in_code;
            continue;
        }
        if (!in_code)
            continue;
        if (strncmp(line, "$ ./rooftop ", 12) == 0) {
            size_t n = strlen(line);
            if (strstr(line, "...") == NULL && line[n - 1] != '\\') {
                cmd = line + 12;
                want[0] = '\0';
            }
        } else if (cmd) {
            strncat(want, line, sizeof want - strlen(want) - 2);
            strcat(want, "\n");
        }
    }
    ck_assert_int_ge(ran, 5);
    free(readme);
}
END_TEST

/* One key table: every key in --help (rows within 80 columns), in the man page's DASHBOARD list
 * (exactly the generated one) and in the ? box, whole, at 80x24 and 200x60; the bottom bar
 * keeps what fits by rank (b and i were nowhere, even at 200 columns). */
START_TEST(test_keys_documented)
{
    struct check_run r;
    ck_assert_int_eq(check_run_bin(&r, "--help"), 0);
    check_man_section("KEYS", keymap_man);
    char *man = check_read_all("ui/rooftop.1");
    int documented = 0;
    for (int i = 0; i < keymap_count(); i++) {
        const struct keymap_key *k = keymap_at(i);
        if (k->what == NULL)
            continue;
        documented++;
        char row[256];
        keymap_row(k, row, sizeof row);
        ck_assert_msg(strstr(r.out, row) != NULL, "--help lacks '%s'", row);
        ck_assert_msg(2 + screen_width(row) <= 80, "--help's '%s' is over 80 columns", row);
        ck_assert_msg(screen_width(k->what) <= KEYMAP_WHAT_W, "'%s' is long", k->what);
    }
    ck_assert_int_ge(documented, 20);
    ck_assert(strstr(man, "\n.B b\nthe fastest layouts") != NULL);
    ck_assert(strstr(man, "\n.B i\nserving:") != NULL);
    static const int dims[][2] = {{80, 24}, {200, 60}};
    for (int z = 0; z < 2; z++) {
        struct harness h;
        harness_start(&h, dims[z][0], dims[z][1], true, true);
        harness_keys(&h, "?");
        for (int i = 0; i < keymap_count(); i++) {
            const struct keymap_key *k = keymap_at(i);
            if (k->what != NULL && (k->places & KM_TRAINING))
                ck_assert_screen_has(&h, k->what);
        }
        ck_assert_int_eq(h.s.cut, 0);
        harness_keys(&h, "<Esc>");
        char bar[1024];
        screen_row_text(&h.s, h.s.rows - 1, bar, sizeof bar);
        ck_assert_msg(strstr(bar, "? help") && strstr(bar, "q quit") && strstr(bar, "change"),
                      "%dx%d bar: %s", h.s.cols, h.s.rows, bar);
        if (z == 1)
            ck_assert_msg(strstr(bar, "b layouts") && strstr(bar, "i serving"), "bar: %s", bar);
        ck_assert_int_eq(h.s.cut, 0);
        /* The serving view's own bar and box. */
        harness_keys(&h, "i?");
        ck_assert_screen_has(&h, "back to the training view");
        ck_assert_int_eq(h.s.cut, 0);
        harness_keys(&h, "<Esc>");
        screen_row_text(&h.s, h.s.rows - 1, bar, sizeof bar);
        ck_assert_msg(strstr(bar, "i training") != NULL, "serving bar: %s", bar);
        harness_stop(&h);
    }
    free(man);
    check_run_free(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("screen");
    TCase *tc = tcase_create("screen");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_op_row_reachable);
    tcase_add_test(tc, test_t_at_large_sizes);
    tcase_add_test(tc, test_captions_readable);
    tcase_add_test(tc, test_value_editor);
    tcase_add_test(tc, test_editor_near_slider);
    tcase_add_test(tc, test_overwrite_asks);
    tcase_add_test(tc, test_file_prompts);
    tcase_add_test(tc, test_picker_search_and_marks);
    tcase_add_test(tc, test_decades_even_and_on_their_row);
    tcase_add_test(tc, test_free_text_sanitised);
    tcase_add_test(tc, test_keys_documented);
    tcase_add_test(tc, test_messages_without_flags);
    tcase_add_test(tc, test_readme_examples);
    suite_add_tcase(s, tc);
    return check_run_suite(s);
}
