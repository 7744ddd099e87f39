/* probe_cli.h - `rooftop probe`: runs a probe backend, streams points, writes the document. */
#ifndef ROOFTOP_PROBE_CLI_H
#define ROOFTOP_PROBE_CLI_H

/*
 * rooftop probe [--backend auto|cuda|cpu] [--device N] [--quick] [--out FILE]
 *               [--save-spec FILE] [--time-limit S] [--threads N]
 *               [--shapes [LABEL=]M,N,K;...]
 * argv[0] is "probe". Streams one JSON line per point (and device/progress/status lines, see
 * points.h) to stdout; messages for people go to stderr. Returns 0 on success, 1 when the
 * probe could not run or failed, 2 on bad usage (one line naming the flag).
 */
int cmd_probe(int argc, char **argv);

#endif
