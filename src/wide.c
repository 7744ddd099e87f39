/* wide.c - exact unsigned integers of up to 256 bits: schoolbook arithmetic on 32-bit limbs
 * with 64-bit intermediates. */
#include "wide.h"

#include <string.h>

struct wide wide_from(uint64_t v)
{
    struct wide w;
    memset(&w, 0, sizeof w);
    w.limb[0] = (uint32_t)v;
    w.limb[1] = (uint32_t)(v >> 32);
    return w;
}

struct wide wide_mul(struct wide a, struct wide b)
{
    struct wide r;
    memset(&r, 0, sizeof r);
    r.overflow = a.overflow || b.overflow;
    for (int i = 0; i < WIDE_LIMBS; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < WIDE_LIMBS; j++) {
            uint64_t p = (uint64_t)a.limb[i] * b.limb[j];
            if (i + j >= WIDE_LIMBS) {
                if (p != 0)
                    r.overflow = true;
                continue;
            }
            uint64_t t = (uint64_t)r.limb[i + j] + (uint32_t)p + carry;
            r.limb[i + j] = (uint32_t)t;
            carry = (t >> 32) + (p >> 32);
        }
        if (carry != 0)
            r.overflow = true;
    }
    return r;
}

struct wide wide_add(struct wide a, struct wide b)
{
    struct wide r;
    r.overflow = a.overflow || b.overflow;
    uint64_t carry = 0;
    for (int i = 0; i < WIDE_LIMBS; i++) {
        uint64_t t = (uint64_t)a.limb[i] + b.limb[i] + carry;
        r.limb[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry != 0)
        r.overflow = true;
    return r;
}

struct wide wide_sub(struct wide a, struct wide b)
{
    struct wide r;
    r.overflow = a.overflow || b.overflow;
    uint64_t borrow = 0;
    for (int i = 0; i < WIDE_LIMBS; i++) {
        uint64_t t = (uint64_t)a.limb[i] - b.limb[i] - borrow;
        r.limb[i] = (uint32_t)t;
        borrow = (t >> 32) & 1;
    }
    if (borrow != 0)
        r.overflow = true;
    return r;
}

struct wide wide_div_small(struct wide a, uint32_t d, uint32_t *rem)
{
    struct wide q = a;
    uint64_t r = 0;
    if (d == 0) {
        q.overflow = true;
        d = 1;
    }
    for (int i = WIDE_LIMBS - 1; i >= 0; i--) {
        uint64_t cur = (r << 32) | a.limb[i];
        q.limb[i] = (uint32_t)(cur / d);
        r = cur % d;
    }
    if (rem != NULL)
        *rem = (uint32_t)r;
    return q;
}

static bool is_zero(const struct wide *w)
{
    for (int i = 0; i < WIDE_LIMBS; i++)
        if (w->limb[i] != 0)
            return false;
    return true;
}

bool wide_format(struct wide a, char *buf, size_t n)
{
    if (n == 0)
        return false;
    buf[0] = '\0';
    if (a.overflow)
        return false;
    /* 256 bits are at most 78 decimal digits. */
    char digits[80];
    size_t k = 0;
    do {
        uint32_t r;
        a = wide_div_small(a, 10, &r);
        digits[k++] = (char)('0' + r);
    } while (!is_zero(&a) && k < sizeof digits);
    if (k + 1 > n)
        return false;
    for (size_t i = 0; i < k; i++)
        buf[i] = digits[k - 1 - i];
    buf[k] = '\0';
    return true;
}
