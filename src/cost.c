/* cost.c - GPU-hours, energy and money of a run (cost.h). */
#include "cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void cost_compute(const struct scenario *s, double seconds, struct cost *out)
{
    memset(out, 0, sizeof *out);
    if (!isfinite(seconds) || seconds < 0)
        seconds = 0;
    double gpus = (double)s->gpus;
    out->seconds = seconds;
    out->gpu_hours = gpus * seconds / 3600.0;
    out->board_power = s->gpu.board_power;
    out->pue = s->pue;
    out->has_energy = s->gpu.board_power > 0 && s->pue > 0;
    if (out->has_energy)
        out->energy_kwh = gpus * s->gpu.board_power * s->pue * seconds / 3.6e6;
    out->has_price = s->price > 0;
    out->price = s->price;
    if (out->has_price)
        out->usd = out->gpu_hours * s->price;
}

void cost_energy_text(double kwh, char *buf, size_t n)
{
    if (!isfinite(kwh) || kwh < 0)
        kwh = 0;
    if (kwh >= 1e6)
        snprintf(buf, n, "%.3g GWh", kwh / 1e6);
    else if (kwh >= 1e3)
        snprintf(buf, n, "%.3g MWh", kwh / 1e3);
    else
        snprintf(buf, n, "%.3g kWh", kwh);
}

void cost_usd_text(double usd, char *buf, size_t n)
{
    if (!isfinite(usd) || usd < 0)
        usd = 0;
    if (usd >= 1e9)
        snprintf(buf, n, "$%.3gB", usd / 1e9);
    else if (usd >= 1e6)
        snprintf(buf, n, "$%.3gM", usd / 1e6);
    else if (usd >= 1e4)
        snprintf(buf, n, "$%.3gk", usd / 1e3);
    else
        snprintf(buf, n, "$%.2f", usd);
}
