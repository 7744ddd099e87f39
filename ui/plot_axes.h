/* plot_axes.h - the roofline plot's coordinate system, shared by the plot (lines, marks,
 * axes) and the placing of its labels: log-log decades, dots inside the plot's cells. */
#ifndef ROOFTOP_UI_PLOT_AXES_H
#define ROOFTOP_UI_PLOT_AXES_H

#include <math.h>
#include <stdbool.h>

#include "gpu.h"
#include "screen.h"

/* Dot columns whose intensity is kept in a table (a plot 1,024 cells wide at 2 dots a cell);
 * wider plots compute the rest. */
#define AXES_INTENSITY_MAX 2048

/* The plot's coordinate system: decades on both axes, dots inside the plot area. */
struct axes {
    double xlo, xhi, ylo, yhi;   /* log10 bounds */
    int X, Y;                    /* dots */
    int dx, dy;                  /* dots per cell */
    struct rect area;            /* cells */
    /* The intensity of each dot column x < n_intensity (axes_fill_intensity), which every
     * line and label of a frame would otherwise recompute with pow. */
    int n_intensity;
    double intensity[AXES_INTENSITY_MAX];
};

/* The intensity at dot column x: 10^(xlo + (xhi - xlo) x / (X - 1)). */
static inline double axes_intensity(const struct axes *ax, int x)
{
    if (x >= 0 && x < ax->n_intensity)
        return ax->intensity[x];
    return pow(10, ax->xlo + (ax->xhi - ax->xlo) * x / (ax->X - 1));
}

/* Fills the intensity table once xlo, xhi and X are set. */
static inline void axes_fill_intensity(struct axes *ax)
{
    ax->n_intensity = 0;
    for (int x = 0; x < ax->X && x < AXES_INTENSITY_MAX; x++)
        ax->intensity[x] = axes_intensity(ax, x);
    ax->n_intensity = ax->X < AXES_INTENSITY_MAX ? ax->X : AXES_INTENSITY_MAX;
}

static inline double dot_x(const struct axes *ax, double intensity)
{
    return (log10(intensity) - ax->xlo) / (ax->xhi - ax->xlo) * (ax->X - 1);
}

static inline double dot_y(const struct axes *ax, double flops)
{
    return (ax->Y - 1) - (log10(flops) - ax->ylo) / (ax->yhi - ax->ylo) * (ax->Y - 1);
}

/* A plot cell's column and row for a point of the plane; false when it is not a number. */
static inline bool to_cell(const struct axes *ax, double intensity, double flops, bool clamp, int *cx,
                    int *cy)
{
    if (!(intensity > 0) || !(flops > 0) || !isfinite(intensity) || !isfinite(flops))
        return false;
    double fx = round(dot_x(ax, intensity)), fy = round(dot_y(ax, flops));
    if (!isfinite(fx) || !isfinite(fy))
        return false;
    if (!clamp && (fx < 0 || fy < 0 || fx > ax->X - 1 || fy > ax->Y - 1))
        return false;
    fx = fx < 0 ? 0 : fx > ax->X - 1 ? ax->X - 1 : fx;
    fy = fy < 0 ? 0 : fy > ax->Y - 1 ? ax->Y - 1 : fy;
    *cx = ax->area.x + (int)fx / ax->dx;
    *cy = ax->area.y + (int)fy / ax->dy;
    return true;
}

/* The column of intensity I, held to one cell either side of the plot (where it may fall). */
static inline int col_of(const struct axes *ax, double intensity)
{
    double fx = intensity > 0 ? dot_x(ax, intensity) : -1e9;
    if (!(fx == fx) || fx < -ax->dx)
        fx = -ax->dx;
    if (fx > ax->X + ax->dx)
        fx = ax->X + ax->dx;
    return ax->area.x + (int)floor(fx / ax->dx);
}

/* The datasheet's peak columns the plot draws a ceiling for, lowest precision last. */
static inline int axes_peak_kinds(const int **kinds)
{
    static const int k[] = {PEAK_FP32, PEAK_TF32, PEAK_BF16, PEAK_FP16, PEAK_FP8, PEAK_FP4};
    *kinds = k;
    return (int)(sizeof k / sizeof k[0]);
}

#endif
