/* checkpoint.c - the checkpointing trade-off of the lecture, for any layer sizes. */
#include "checkpoint.h"

#include <math.h>

double checkpoint_memory(double L, double A, double I, double k)
{
    if (k < 1)
        k = 1;
    return ceil(L / k) * I + fmin(k, L) * A;
}

double checkpoint_recompute(double L, double A, double I, double k)
{
    if (k < 1)
        k = 1;
    return A == I ? L - ceil(L / k) : L;
}

double checkpoint_best_k(double L, double A, double I)
{
    return A > 0 ? sqrt(L * I / A) : L;
}

int checkpoint_curve(double L, double A, double I, struct ckpt_row *rows, int max)
{
    int n = 0;
    if (max < 2 || !(L >= 1))
        return 0;
    rows[n++] = (struct ckpt_row){CKPT_ALL, 0, false, L * A, 0};
    double root = fmax(1, ceil(sqrt(L)));
    bool root_done = false;
    for (double k = 1; k <= L && n < max - 1; k *= 2) {
        if (!root_done && root <= k) {
            if (root < k && n < max - 2)
                rows[n++] = (struct ckpt_row){CKPT_EVERY, root, true,
                                              checkpoint_memory(L, A, I, root),
                                              checkpoint_recompute(L, A, I, root)};
            root_done = true;
            if (root == k) {
                rows[n++] = (struct ckpt_row){CKPT_EVERY, k, true, checkpoint_memory(L, A, I, k),
                                              checkpoint_recompute(L, A, I, k)};
                continue;
            }
        }
        if (n < max - 1)
            rows[n++] = (struct ckpt_row){CKPT_EVERY, k, false, checkpoint_memory(L, A, I, k),
                                          checkpoint_recompute(L, A, I, k)};
    }
    /* L itself when it is not a power of two: one segment of everything. */
    if (rows[n - 1].kind == CKPT_EVERY && rows[n - 1].k < L && n < max - 1)
        rows[n++] = (struct ckpt_row){CKPT_EVERY, L, false, checkpoint_memory(L, A, I, L),
                                      checkpoint_recompute(L, A, I, L)};
    rows[n++] = (struct ckpt_row){CKPT_NONE, 0, false, A + I, L * (L - 1) / 2};
    return n;
}
