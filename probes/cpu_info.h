/* cpu_info.h - what the machine says about its CPU: /proc/cpuinfo, /proc/meminfo, sysfs
 * caches and topology, the CPUs this process may use. Built without -march=native. */
#ifndef ROOFTOP_PROBES_CPU_INFO_H
#define ROOFTOP_PROBES_CPU_INFO_H

#include "probe.h"

struct cpuid_info {
    char vendor[32];
    int family, model;
    double mhz;        /* /proc/cpuinfo "cpu MHz" (the current or nominal clock) */
};

/* Fills d's name, threads (at most want_threads when > 0), cores, memory and caches, and ci;
 * the ISA fields and the clock are left to the caller. */
void cpu_info_describe(struct probe_device *d, struct cpuid_info *ci, int want_threads);

#endif
