/* cpu_info.c - the CPU as the kernel describes it. */
#define _GNU_SOURCE /* sched_getaffinity: the CPUs this process may use (taskset, cgroups) */
#include "cpu_info.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static bool read_file_line(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ok = fgets(buf, (int)n, f) != NULL;
    fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = '\0';
    return ok;
}

/* "32768K", "2M", "1024" -> bytes; 0 when not understood. */
static double parse_cache_size(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || v <= 0)
        return 0;
    if (*end == 'K')
        v *= 1024;
    else if (*end == 'M')
        v *= 1024 * 1024;
    else if (*end == 'G')
        v *= 1024.0 * 1024 * 1024;
    return v;
}

/* Caches as cpu0 sees them, from sysfs: L1d, L2 per core and the last level. */
static void read_caches(struct probe_device *d)
{
    for (int i = 0; i < 8; i++) {
        char path[128], level[16], type[32], size[32];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (!read_file_line(path, level, sizeof level))
            break;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (!read_file_line(path, type, sizeof type))
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!read_file_line(path, size, sizeof size))
            continue;
        double bytes = parse_cache_size(size);
        int lv = atoi(level);
        if (lv == 1 && strcmp(type, "Data") == 0)
            d->l1d_bytes = bytes;
        else if (lv == 2 && strcmp(type, "Instruction") != 0)
            d->l2_bytes = bytes;
        else if (lv >= 3 && strcmp(type, "Instruction") != 0 && bytes > d->l3_bytes)
            d->l3_bytes = bytes;
    }
}

/* Physical cores: distinct (package, core) pairs among the online CPUs. */
static int count_cores(int threads)
{
    int n = 0;
    long *seen = calloc((size_t)threads + 1, sizeof *seen);
    if (!seen)
        return threads;
    for (int cpu = 0; cpu < 4096 && n <= threads; cpu++) {
        char path[128], a[32], b[32];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
        if (!read_file_line(path, a, sizeof a))
            continue;
        snprintf(path, sizeof path,
                 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
        if (!read_file_line(path, b, sizeof b))
            snprintf(b, sizeof b, "0");
        long key = atol(b) * 1000000L + atol(a);
        bool dup = false;
        for (int i = 0; i < n; i++)
            dup = dup || seen[i] == key;
        if (!dup && n < threads)
            seen[n++] = key;
    }
    free(seen);
    return n > 0 ? n : threads;
}

static void read_cpuinfo(struct probe_device *d, struct cpuid_info *ci)
{
    memset(ci, 0, sizeof *ci);
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        char *val = colon + 1;
        while (*val == ' ' || *val == '\t')
            val++;
        val[strcspn(val, "\n")] = '\0';
        *colon = '\0';
        char *key = line;
        key[strcspn(key, "\t")] = '\0';
        if (strcmp(key, "model name") == 0 && !d->name[0])
            snprintf(d->name, sizeof d->name, "%s", val);
        else if (strcmp(key, "vendor_id") == 0 && !ci->vendor[0])
            snprintf(ci->vendor, sizeof ci->vendor, "%s", val);
        else if (strcmp(key, "cpu family") == 0 && !ci->family)
            ci->family = atoi(val);
        else if (strcmp(key, "model") == 0 && !ci->model)
            ci->model = atoi(val);
        else if (strcmp(key, "cpu MHz") == 0 && ci->mhz == 0)
            ci->mhz = atof(val);
    }
    fclose(f);
}

static double mem_total(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    double kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %lf kB", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024;
}

static int online_threads(void)
{
    cpu_set_t set;
    long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    if (n < 1)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    if (n > 256)
        n = 256;
    return (int)n;
}

void cpu_info_describe(struct probe_device *d, struct cpuid_info *ci, int want_threads)
{
    memset(d, 0, sizeof *d);
    snprintf(d->kind, sizeof d->kind, "cpu");
    read_cpuinfo(d, ci);
    if (!d->name[0]) {
        struct utsname u;
        snprintf(d->name, sizeof d->name, "%s CPU", uname(&u) == 0 ? u.machine : "unknown");
    }
    d->threads = online_threads();
    d->cores = count_cores(d->threads);
    if (want_threads > 0 && want_threads < d->threads) {
        /* --threads N: the peak is for the cores those threads can use */
        d->threads = want_threads;
        if (d->cores > want_threads)
            d->cores = want_threads;
    }
    d->memory_bytes = mem_total();
    read_caches(d);
}

