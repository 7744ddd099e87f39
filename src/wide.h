/* wide.h - exact unsigned integers of up to 256 bits, for counts printed digit for digit
 * where a double (53 bits) would round them: the lecture operations' FLOPs and bytes at
 * n up to 2^63 (matmul's n^2 (2n - 1) reaches 2^190). Portable C, no compiler extension. */
#ifndef ROOFTOP_WIDE_H
#define ROOFTOP_WIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WIDE_LIMBS 8 /* of 32 bits */

struct wide {
    uint32_t limb[WIDE_LIMBS]; /* least significant first */
    bool overflow;             /* a result did not fit: the value is meaningless */
};

struct wide wide_from(uint64_t v);
struct wide wide_mul(struct wide a, struct wide b);
struct wide wide_add(struct wide a, struct wide b);
/* a - b; overflow when b > a. */
struct wide wide_sub(struct wide a, struct wide b);
/* a / d, the remainder in *rem (d from 1). */
struct wide wide_div_small(struct wide a, uint32_t d, uint32_t *rem);
/* The decimal digits into buf; false (buf empty) on overflow or when it does not fit. */
bool wide_format(struct wide a, char *buf, size_t n);

#endif
