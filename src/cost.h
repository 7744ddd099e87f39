/* cost.h - what a run costs: GPU-hours, the energy the GPUs draw, and money at a price.
 *
 * GPU-hours = GPUs x time / 3600 s; energy (kWh) = GPUs x board power (W) x PUE x time (s) /
 * 3.6e6; cost = GPU-hours x the price of one GPU-hour. The board power is the GPU spec's
 * datasheet maximum (a run near peak draws close to it; the figure is an upper bound for one
 * that does not), the PUE the facility's overhead on top. Without a price (0) there is no cost;
 * without a board power (a GPU file without "power") no energy.
 */
#ifndef ROOFTOP_COST_H
#define ROOFTOP_COST_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario.h"

struct cost {
    double seconds;          /* the time costed */
    double gpu_hours;
    double board_power;      /* W per GPU (the spec's); 0 = unknown */
    double pue;
    bool has_energy;         /* board power known */
    double energy_kwh;       /* 0 when !has_energy */
    bool has_price;          /* a price was given */
    double price;            /* USD per GPU-hour */
    double usd;              /* 0 when !has_price */
};

/* The cost of running s's GPUs for seconds (the training time at the MFU in use). */
void cost_compute(const struct scenario *s, double seconds, struct cost *out);

/* Energy as people read it: "812 kWh", "3.51 MWh", "2.07 GWh". */
void cost_energy_text(double kwh, char *buf, size_t n);
/* Money: "$1,234", "$3.06M", "$12.5k" (3 significant digits past $10k). */
void cost_usd_text(double usd, char *buf, size_t n);

#endif
