/* op_figure.c - an operation's own figures as figure values. */
#include "op_figure.h"

bool op_figure_get(const struct op *o, int f, struct figure_value *v)
{
    switch ((enum op_figure)f) {
    case OPF_FLOPS:
        figure_num(v, o->flops);
        return true;
    case OPF_BYTES:
        figure_num(v, o->bytes);
        return true;
    case OPF_INTENSITY:
        figure_num(v, o->intensity);
        return true;
    case OPF_BOUND:
        figure_str(v, o->compute_bound ? "compute" : "memory");
        return true;
    case OPF_ATTAINABLE:
        figure_num(v, o->attainable);
        return true;
    case OPF_SECONDS:
        figure_num(v, o->seconds);
        return true;
    case OPF_COUNT:
        break;
    }
    return false;
}
