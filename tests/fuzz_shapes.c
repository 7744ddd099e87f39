/* fuzz_shapes.c - libFuzzer target for the GEMM shapes of `rooftop probe --shapes`
 * (probe_parse_shapes: "M,N,K;LABEL=M,N,K;..."): any text is refused with one line or gives
 * at most PROBE_SHAPES_MAX shapes, each dimension in 1..MEASURED_DIM_MAX and each label
 * short and printable. */
/* fuzz-src: probes/probe.c probes/probe_cpu.c probes/probe_cuda.c probes/probe_child.c probes/pool.c probes/cpu_info.c */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "measured.h"
#include "probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[4096];
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = '\0';
    struct probe_options o;
    memset(&o, 0, sizeof o);
    char err[256];
    err[0] = '\0';
    if (!probe_parse_shapes(text, &o, err, sizeof err)) {
        if (!err[0] || strchr(err, '\n'))
            abort();
        return 0;
    }
    if (o.n_shapes > PROBE_SHAPES_MAX)
        abort();
    for (size_t i = 0; i < o.n_shapes; i++) {
        const struct probe_shape *s = &o.shapes[i];
        if (s->m < 1 || s->n < 1 || s->k < 1 || s->m > MEASURED_DIM_MAX ||
            s->n > MEASURED_DIM_MAX || s->k > MEASURED_DIM_MAX)
            abort();
        size_t len = strnlen(s->label, sizeof s->label);
        if (len == sizeof s->label)
            abort();
        for (size_t k = 0; k < len; k++)
            if (!isprint((unsigned char)s->label[k]))
                abort();
    }
    return 0;
}
