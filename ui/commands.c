/* commands.c - the command table (commands.h). */
#include "commands.h"

#include <string.h>

#include "cmd_diff.h"
#include "cmd_dtypes.h"
#include "cmd_einsum.h"
#include "cmd_import.h"
#include "cmd_intensity.h"
#include "cmd_list.h"
#include "cmd_plan.h"
#include "cmd_report.h"
#include "cmd_solve.h"
#include "cmd_sweep.h"
#include "infer_cli.h"
#include "keymap.h"
#include "probe_cli.h"
#include "snapshot.h"

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct command COMMANDS[] = {
    {"report", cmd_report, "report [options]", "one scenario's memory, FLOPs, time, roofline"},
    {"solve", cmd_solve, "solve max-params|min-gpus|flops [options]", ""},
    {"intensity", cmd_intensity,
     "intensity relu|gelu|dot|matvec|matmul [--n N] [--dtype D] [--gpu G]", ""},
    {"infer", cli_infer, "infer [options]", "serving: KV cache, prefill, decode, tokens/s"},
    {"dtypes", cmd_dtypes, "dtypes [--value X]", "fp32 .. nvfp4: bits, range, epsilon, X stored"},
    {"einsum", cmd_einsum, "einsum [reduce|rearrange] \"b s h, h o -> b s o\" --dims b=2,s=8,h=4,o=16",
     ""},
    {"list", cmd_list, "list gpus|models", ""},
    {"import", cmd_import, "import FILE [--out FILE]", "a Hugging Face config.json as a model file"},
    {"plan", cmd_plan, "plan [--top K] [options]", "the fastest layouts that fit"},
    {"sweep", cmd_sweep, "sweep --knob INPUT --from A --to B [--steps N] [options]",
     "one input swept: memory, step, days"},
    {"diff", cmd_diff, "diff A.json B.json | diff A.json [options for B]",
     "two scenarios side by side"},
    {"snapshot", cmd_snapshot, "snapshot --size COLSxROWS ...", "the dashboard rendered to a file"},
    {"probe", cmd_probe, "probe ...", "measure this machine's roofline"},
};

int commands_count(void)
{
    return COUNT_OF(COMMANDS);
}

const struct command *commands_at(int i)
{
    return i >= 0 && i < COUNT_OF(COMMANDS) ? &COMMANDS[i] : NULL;
}

const struct command *commands_find(const char *name)
{
    for (int i = 0; name != NULL && i < COUNT_OF(COMMANDS); i++)
        if (strcmp(COMMANDS[i].name, name) == 0)
            return &COMMANDS[i];
    return NULL;
}

/* "rooftop USAGE" padded to a column for the summary when both fit on a line. */
static void usage_line(FILE *f, const char *lead, const char *usage, const char *summary)
{
    int w = fprintf(f, "%srooftop %s", lead, usage);
    if (summary[0] != '\0') {
        int pad = w < 44 ? 44 - w : 1;
        fprintf(f, "%*s%s", pad, "", summary);
    }
    fputc('\n', f);
}

void commands_usage(FILE *f)
{
    usage_line(f, "usage: ", "[scenario options]", "the dashboard (a terminal is needed)");
    for (int i = 0; i < COUNT_OF(COMMANDS); i++)
        usage_line(f, "       ", COMMANDS[i].usage, COMMANDS[i].summary);
    fputs("       rooftop --version\n"
          "\n"
          "Dashboard options, besides the scenario options of `rooftop report --help`:\n"
          "  --scenario NAME|FILE  a saved scenario, or a lecture demo (--scenario lecture)\n"
          "  --points FILE     measured points from `rooftop probe --out FILE` on the roofline\n"
          "                    (and shape points in the operations table's measured column)\n"
          "  --no-color        monochrome (also when NO_COLOR is set)\n"
          "  --ascii           ASCII drawing instead of UTF-8 and braille\n",
          f);
    keymap_help(f);
    fputs("\nrooftop COMMAND --help describes each command; man rooftop has it all.\n", f);
}
