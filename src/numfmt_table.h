/* numfmt_table.h - the dtype table as lines of text: one row per format (bits, range,
 * precision) and how each stores a value. `rooftop dtypes` prints it; the dashboard's dtype
 * panel draws the same lines. */
#ifndef ROOFTOP_NUMFMT_TABLE_H
#define ROOFTOP_NUMFMT_TABLE_H

#include <stddef.h>

#include "numfmt.h"

/* The column heads of numfmt_table_row. */
void numfmt_table_head(char *buf, size_t n);
/* Format id's row: name, bits, sign/exponent/mantissa, max, smallest normal and subnormal,
 * epsilon. */
void numfmt_table_row(enum numfmt_id id, char *buf, size_t n);

/* How format id stores x: the value read back, and what happened to it ("exact", the
 * relative error, "underflow to 0: under half the smallest subnormal 5.96e-08", "overflow:
 * inf"). nvfp4 is x in a block of 16 whose largest magnitude is block_max (the tensor's
 * the same), its scale said. Returns the stored value. */
double numfmt_table_store(enum numfmt_id id, double x, double block_max, char *buf, size_t n);

/* A figure as the table prints it: whole numbers under a million in full (65504, 448),
 * others in 4 significant digits (3.403e+38, 0.0009766). */
void numfmt_table_figure(double v, char *buf, size_t n);

#endif
