/* cmd_import.c - `rooftop import`: a Hugging Face config.json (or any model file) as a model file. */
#include "cmd_import.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "analysis.h"
#include "dtype.h"
#include "files.h"
#include "gpu.h"
#include "hfconfig.h"
#include "inputs.h"
#include "measured.h"
#include "model.h"
#include "nearest.h"
#include "plan.h"
#include "points.h"
#include "predict.h"
#include "report.h"
#include "roofline.h"
#include "scenario_file.h"
#include "solve.h"
#include "spec.h"
#include "units.h"

static void import_help(FILE *f)
{
    char types[512];
    hfconfig_types(types, sizeof types);
    fputs("usage: rooftop import FILE [--out FILE [--force]]\n"
          "Reads a Hugging Face config.json (recognised by its model_type) and prints the model\n"
          "as rooftop's model JSON (the format of specs/models), to save or edit; --out writes it\n"
          "to FILE instead (--force: even over a file read-only to you or with other hard\n"
          "links). --model FILE, scenario files and the dashboard's o read a config.json\n"
          "directly; this shows what they make of it. A model file or preset name prints as is.\n"
          "The model_type values read:\n  ",
          f);
    fputs(types, f);
    fputs("\n", f);
}
int cmd_import(int argc, char **argv)
{
    int head = cli_subcommand_head(argc, argv, import_help, "import");
    if (head >= 0)
        return head;
    const char *path = argv[1];
    if (strncmp(path, "--", 2) == 0)
        return cli_usage_error("import", "the file comes first: rooftop import FILE [--out FILE]");
    const char *out = NULL;
    static const struct cli_flag own[] = {{"out", true}, {"force", false}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 2, NULL, own, 2);
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        if (f == &own[0])
            out = v;
        else
            files_set_force(true);
    }
    int end = cli_args_end(r, &args, import_help, "import");
    if (end >= 0)
        return end;
    struct model_arch m;
    struct spec_model_meta meta;
    char err[SPEC_ERR_MAX];
    if (!spec_find_model_meta(path, &m, &meta, err, sizeof err))
        return cli_usage_error("import", err);
    cJSON *o = spec_model_to_json(&m, &meta);
    if (out != NULL) {
        char werr[CLI_ERR_MAX];
        bool ok = spec_save_json(out, o, werr, sizeof werr);
        cJSON_Delete(o);
        if (!ok) {
            fprintf(stderr, "rooftop import: %s\n", werr);
            return CLI_EXIT_FAIL;
        }
        return CLI_EXIT_OK;
    }
    return cli_print_json(o, true, "import");
}
