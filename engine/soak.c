/* A soak's series per size, and the step search at its end (soak.h). */
#include "soak.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "changepoint.h"
#include "error.h"
#include "escape.h"

typedef struct {
    long cycle;
    double value, t_s;
    char *link_errors; /* NULL: none moved */
} point_t;

typedef struct {
    size_t size;
    point_t *points;
    size_t count, cap;
} series_t;

struct fp_soak {
    series_t *series;
    size_t count, cap;
};

fp_soak_t *fp_soak_new(void)
{
    fp_soak_t *s = calloc(1, sizeof *s);
    if (!s)
        fp_fail("soak: out of memory");
    return s;
}

void fp_soak_free(fp_soak_t *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->count; i++) {
        for (size_t k = 0; k < s->series[i].count; k++)
            free(s->series[i].points[k].link_errors);
        free(s->series[i].points);
    }
    free(s->series);
    free(s);
}

static series_t *series_of(fp_soak_t *s, size_t size)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->series[i].size == size)
            return &s->series[i];
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        series_t *grown = realloc(s->series, cap * sizeof *grown);
        if (!grown)
            return NULL;
        s->series = grown;
        s->cap = cap;
    }
    series_t *new = &s->series[s->count++];
    memset(new, 0, sizeof *new);
    new->size = size;
    return new;
}

int fp_soak_add(fp_soak_t *s, long cycle, size_t size, double value, double t_s, const char *link_errors)
{
    series_t *series = series_of(s, size);
    if (!series)
        return fp_fail("soak: out of memory for %zu sizes", s->count + 1);
    if (series->count == series->cap) {
        size_t cap = series->cap ? 2 * series->cap : 64;
        point_t *grown = realloc(series->points, cap * sizeof *grown);
        if (!grown)
            return fp_fail("soak: out of memory for %zu cycles", cap);
        series->points = grown;
        series->cap = cap;
    }
    point_t *p = &series->points[series->count++];
    p->cycle = cycle;
    p->value = value;
    p->t_s = t_s;
    p->link_errors = link_errors && link_errors[0] ? strdup(link_errors) : NULL;
    return FP_OK;
}

/* Cycles a clean split in the middle needs for Pettitt's bound to fall below alpha. */
static long cycles_needed(double alpha)
{
    for (long n = FP_STEP_MIN_CYCLES; n < 100000; n++) {
        double h = (double)(n / 2), nn = (double)n;
        double k = h * (nn - h); /* |U| of a perfect split after h values */
        if (2 * exp(-6 * k * k / (nn * nn * nn + nn * nn)) < alpha)
            return n;
    }
    return 100000;
}

/* Link errors in the cycles next to the step (the one before it, its own, the one after). */
static const char *errors_near(const series_t *series, size_t at)
{
    for (size_t k = at > 0 ? at - 1 : 0; k < series->count && k <= at + 1; k++)
        if (series->points[k].link_errors)
            return series->points[k].link_errors;
    return NULL;
}

static void report_step(FILE *out, fp_format_t format, const char *program, const char *quantity, const char *unit,
                        int higher, double started, const series_t *series, const fp_step_t *step)
{
    const point_t *first = &series->points[step->at];
    const char *near = errors_near(series, step->at);
    int worse = higher ? step->change < 0 : step->change > 0;
    /* the clock time the first cycle after the step ended its size: where to look in other logs */
    time_t when = (time_t)(started + first->t_s);
    struct tm tm;
    char clock_text[32] = "";
    if (gmtime_r(&when, &tm))
        strftime(clock_text, sizeof clock_text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char line[1024];
    snprintf(line, sizeof line, "%s at %zu steps %s %.1f%% at cycle %ld (+%.1f s, %s): %.4g -> %.4g %s (p = %.2g), %s",
             quantity, series->size, step->change < 0 ? "down" : "up", 100 * fabs(step->change), first->cycle,
             first->t_s, clock_text, step->before, step->after, unit, step->p, worse ? "worse" : "better");
    if (near)
        fp_append(line, sizeof line, "; coincident with link errors: %s", near);
    fprintf(stderr, "%s: %s\n", program, line);
    if (format == FP_FORMAT_JSON) {
        fprintf(out, "{\"type\":\"step\",\"size\":%zu,\"cycle\":%ld,\"t_s\":%.3f,\"time\":\"%s\",\"before\":%.9g,"
                     "\"after\":%.9g,\"change\":%.6g,\"p\":%.6g,\"unit\":",
                series->size, first->cycle, first->t_s, clock_text, step->before, step->after, step->change, step->p);
        fp_json_string(out, unit);
        fprintf(out, ",\"worse\":%s,\"link_errors\":", worse ? "true" : "false");
        fp_json_string_or_null(out, near);
        fputs(",\"line\":", out);
        fp_json_string(out, line);
        fputs("}\n", out);
    } else if (format == FP_FORMAT_TEXT) {
        fputs("# step ", out);
        fp_text_string(out, line);
        fputc('\n', out);
    }
}

void fp_soak_judge(fp_soak_t *s, FILE *out, fp_format_t format, const char *program, const char *quantity,
                   const char *unit, int higher, double started, double seconds, fp_soak_summary_t *summary)
{
    memset(summary, 0, sizeof *summary);
    summary->sizes = s->count;
    summary->alpha = FP_SOAK_ALPHA / (double)(s->count ? s->count : 1);
    summary->needed = cycles_needed(summary->alpha);
    size_t most = 0;
    for (size_t i = 0; i < s->count; i++)
        most = s->series[i].count > most ? s->series[i].count : most;
    summary->cycles = (long)most;
    summary->tested = (long)most >= summary->needed;
    double *x = malloc((most ? most : 1) * 4 * sizeof *x);
    for (size_t i = 0; x && summary->tested && i < s->count; i++) {
        const series_t *series = &s->series[i];
        for (size_t k = 0; k < series->count; k++)
            x[k] = series->points[k].value;
        fp_step_t step;
        fp_step_find(x, series->count, summary->alpha, FP_SOAK_MIN_CHANGE, x + most, &step);
        if (!step.found)
            continue;
        summary->steps++;
        report_step(out, format, program, quantity, unit, higher, started, series, &step);
    }
    free(x);
    char line[512];
    if (summary->tested)
        snprintf(line, sizeof line,
                 "%ld cycles in %.1f s, %zu sizes each tested for one step (p < %.2g, a change of %.0f%% or more): "
                 "%d step%s",
                 summary->cycles, seconds, summary->sizes, summary->alpha, 100 * FP_SOAK_MIN_CHANGE, summary->steps,
                 summary->steps == 1 ? "" : "s");
    else
        snprintf(line, sizeof line,
                 "%ld cycles in %.1f s: undecided, a step in %zu sizes needs at least %ld cycles to show (p < %.2g)",
                 summary->cycles, seconds, summary->sizes, summary->needed, summary->alpha);
    if (format == FP_FORMAT_JSON) {
        fprintf(out, "{\"type\":\"soak\",\"cycles\":%ld,\"seconds\":%.3f,\"sizes\":%zu,\"alpha\":%.6g,"
                     "\"min_change\":%.6g,\"decided\":%s,\"needed\":%ld,\"steps\":%d,\"line\":",
                summary->cycles, seconds, summary->sizes, summary->alpha, FP_SOAK_MIN_CHANGE,
                summary->tested ? "true" : "false", summary->needed, summary->steps);
        fp_json_string(out, line);
        fputs("}\n", out);
    } else if (format == FP_FORMAT_TEXT) {
        fputs("# soak: ", out);
        fp_text_string(out, line);
        fputc('\n', out);
    }
    if (!summary->tested)
        fprintf(stderr, "%s: soak %s\n", program, line);
}
