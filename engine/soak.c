/* A soak's series per size and per cell, and the step search at its end (soak.h). */
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
    int from, to;  /* a cell's ranks; -1: the size's headline */
    char *label;   /* a cell's name ("h0 -> h3"); NULL for a size */
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
        free(s->series[i].label);
    }
    free(s->series);
    free(s);
}

static series_t *series_of(fp_soak_t *s, size_t size, int from, int to, const char *label)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->series[i].size == size && s->series[i].from == from && s->series[i].to == to)
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
    new->from = from;
    new->to = to;
    if (label && !(new->label = strdup(label))) {
        s->count--;
        return NULL;
    }
    return new;
}

static int add(fp_soak_t *s, long cycle, size_t size, int from, int to, const char *label, double value, double t_s,
               const char *link_errors)
{
    series_t *series = series_of(s, size, from, to, label);
    if (!series)
        return fp_fail("soak: out of memory for %zu series", s->count + 1);
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

int fp_soak_add(fp_soak_t *s, long cycle, size_t size, double value, double t_s, const char *link_errors)
{
    return add(s, cycle, size, -1, -1, NULL, value, t_s, link_errors);
}

int fp_soak_add_cell(fp_soak_t *s, long cycle, size_t size, int from, int to, const char *label, double value,
                     double t_s, const char *link_errors)
{
    return add(s, cycle, size, from, to, label, value, t_s, link_errors);
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
    char line[1024], cell[320] = "";
    if (series->from >= 0)
        snprintf(cell, sizeof cell, " of cell %d -> %d (%.250s)", series->from, series->to, series->label);
    snprintf(line, sizeof line, "%s%s at %zu steps %s %.1f%% at cycle %ld (+%.1f s, %s): %.4g -> %.4g %s (p = %.2g), %s",
             quantity, cell, series->size, step->change < 0 ? "down" : "up", 100 * fabs(step->change), first->cycle,
             first->t_s, clock_text, step->before, step->after, unit, step->p, worse ? "worse" : "better");
    if (near)
        fp_append(line, sizeof line, "; coincident with link errors: %s", near);
    if (program)
        fprintf(stderr, "%s: %s\n", program, line);
    if (format == FP_FORMAT_JSON) {
        fprintf(out, "{\"type\":\"step\",\"size\":%zu,\"cell\":", series->size);
        if (series->from >= 0) {
            fprintf(out, "{\"from\":%d,\"to\":%d,\"name\":", series->from, series->to);
            fp_json_string(out, series->label);
            fputc('}', out);
        } else {
            fputs("null", out);
        }
        fprintf(out, ",\"cycle\":%ld,\"t_s\":%.3f,\"time\":\"%s\",\"before\":%.9g,"
                     "\"after\":%.9g,\"change\":%.6g,\"p\":%.6g,\"unit\":",
                first->cycle, first->t_s, clock_text, step->before, step->after, step->change, step->p);
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

/* The steps in x[lo, hi) once a step is known to exist around it: the most likely one, then each
 * side searched again (binary segmentation) while a side keeps enough cycles, each test at alpha.
 * Steps get absolute positions. */
static int find_steps(const double *x, size_t lo, size_t hi, double alpha, double *scratch, fp_step_t *steps,
                      int nsteps, int most)
{
    if (nsteps == most || hi - lo < FP_STEP_MIN_CYCLES)
        return nsteps;
    fp_step_t step;
    fp_step_find(x + lo, hi - lo, alpha, FP_SOAK_MIN_CHANGE, scratch, &step);
    if (!step.found)
        return nsteps;
    size_t cut = lo + step.at;
    step.at = cut;
    steps[nsteps++] = step;
    nsteps = find_steps(x, lo, cut, alpha, scratch, steps, nsteps, most);
    return find_steps(x, cut, hi, alpha, scratch, steps, nsteps, most);
}

static int by_cycle(const void *a, const void *b)
{
    size_t x = ((const fp_step_t *)a)->at, y = ((const fp_step_t *)b)->at;
    return x < y ? -1 : x > y;
}

/* The steps of one series at a false-alarm budget of alpha, in the order of their cycles: a first
 * step over the whole series at FP_SOAK_FIRST_SHARE of alpha; failing that, one on either side of
 * its likeliest split at half the rest each (a dip that comes back, which one step over the whole
 * series fits badly); then the parts the steps found leave, searched again at alpha (find_steps).
 * A series without a step claims one with a chance below alpha. */
static int series_steps(const double *x, size_t n, double alpha, double *scratch, fp_step_t *steps, int most)
{
    fp_step_t whole, side;
    int nsteps = 0;
    double first = FP_SOAK_FIRST_SHARE * alpha, side_alpha = (1 - FP_SOAK_FIRST_SHARE) * alpha / 2;
    fp_step_find(x, n, first, FP_SOAK_MIN_CHANGE, scratch, &whole);
    if (whole.found) {
        steps[nsteps++] = whole;
    } else if (whole.tested) {
        fp_step_find(x, whole.at, side_alpha, FP_SOAK_MIN_CHANGE, scratch, &side);
        if (side.found)
            steps[nsteps++] = side;
        fp_step_find(x + whole.at, n - whole.at, side_alpha, FP_SOAK_MIN_CHANGE, scratch, &side);
        if (side.found) {
            side.at += whole.at;
            steps[nsteps++] = side;
        }
    }
    int found = nsteps;
    if (!found)
        return 0;
    size_t lo = 0;
    for (int k = 0; k <= found; k++) { /* the parts between the steps found */
        size_t hi = k < found ? steps[k].at : n;
        nsteps = find_steps(x, lo, hi, alpha, scratch, steps, nsteps, most);
        lo = hi;
    }
    qsort(steps, (size_t)nsteps, sizeof *steps, by_cycle);
    return nsteps;
}

#define FP_SOAK_MAX_STEPS 16

/* One family of series (sizes, or cells) at its share of the budget: the steps reported; a series
 * without a value in every cycle is not searched (counted in *partial; a size has a row in every
 * cycle, so only cells can miss one). */
static int judge_family(fp_soak_t *s, int cells, double alpha, FILE *out, fp_format_t format, const char *program,
                        const char *quantity, const char *unit, int higher, double started, double *x, size_t most,
                        size_t *partial)
{
    int found = 0;
    fp_step_t steps[FP_SOAK_MAX_STEPS];
    for (size_t i = 0; i < s->count; i++) {
        const series_t *series = &s->series[i];
        if ((series->from >= 0) != cells)
            continue;
        size_t n = 0;
        for (size_t k = 0; k < series->count; k++)
            if (isfinite(series->points[k].value))
                x[n++] = series->points[k].value;
        if (n != most) { /* missing from some cycle (a sampled sweep's cell): not one series to cut */
            ++*partial;
            continue;
        }
        int nsteps = series_steps(x, n, alpha, x + most, steps, FP_SOAK_MAX_STEPS);
        for (int k = 0; k < nsteps; k++)
            report_step(out, format, program, quantity, unit, higher, started, series, &steps[k]);
        found += nsteps;
    }
    return found;
}

void fp_soak_judge(fp_soak_t *s, FILE *out, fp_format_t format, const char *program, const char *quantity,
                   const char *unit, int higher, double started, double seconds, fp_soak_summary_t *summary)
{
    memset(summary, 0, sizeof *summary);
    size_t most = 0;
    for (size_t i = 0; i < s->count; i++) {
        if (s->series[i].from >= 0)
            summary->cells++;
        else
            summary->sizes++;
        most = s->series[i].count > most ? s->series[i].count : most;
    }
    /* Cells, where there are any, take half the false-alarm budget. */
    double share = summary->cells ? FP_SOAK_ALPHA / 2 : FP_SOAK_ALPHA;
    summary->alpha = share / (double)(summary->sizes ? summary->sizes : 1);
    summary->needed = cycles_needed(FP_SOAK_FIRST_SHARE * summary->alpha); /* the first test's (series_steps) */
    summary->cycles = (long)most;
    summary->tested = (long)most >= summary->needed;
    if (summary->cells) {
        summary->cell_alpha = share / (double)summary->cells;
        summary->cell_needed = cycles_needed(FP_SOAK_FIRST_SHARE * summary->cell_alpha);
        summary->cells_tested = (long)most >= summary->cell_needed;
    }
    double *x = malloc((most ? most : 1) * 4 * sizeof *x);
    if (x && summary->tested)
        summary->steps += judge_family(s, 0, summary->alpha, out, format, program, quantity, unit, higher, started,
                                       x, most, &summary->cells_partial);
    if (x && summary->cells_tested) {
        summary->cell_steps = judge_family(s, 1, summary->cell_alpha, out, format, program, quantity, unit, higher,
                                           started, x, most, &summary->cells_partial);
        summary->steps += summary->cell_steps;
    }
    free(x);
    char line[768];
    if (summary->tested)
        snprintf(line, sizeof line,
                 "%ld cycles in %.1f s, %zu sizes each searched for steps (false-alarm budget %.2g each, a change of "
                 "%.0f%% or more): %d step%s",
                 summary->cycles, seconds, summary->sizes, summary->alpha, 100 * FP_SOAK_MIN_CHANGE,
                 summary->steps - summary->cell_steps, summary->steps - summary->cell_steps == 1 ? "" : "s");
    else
        snprintf(line, sizeof line,
                 "%ld cycles in %.1f s: undecided, a step in %zu sizes needs at least %ld cycles to show (budget %.2g each)",
                 summary->cycles, seconds, summary->sizes, summary->needed, summary->alpha);
    if (summary->cells && summary->cells_tested)
        fp_append(line, sizeof line, "; %zu cells each searched (budget %.2g each): %d step%s", summary->cells - summary->cells_partial,
                  summary->cell_alpha, summary->cell_steps, summary->cell_steps == 1 ? "" : "s");
    else if (summary->cells)
        fp_append(line, sizeof line, "; cells undecided: a step in %zu cells needs at least %ld cycles to show (budget %.2g each)",
                  summary->cells, summary->cell_needed, summary->cell_alpha);
    if (summary->cells_partial)
        fp_append(line, sizeof line, "; %zu cells not measured in every cycle, not searched", summary->cells_partial);
    int decided = summary->tested && (!summary->cells || summary->cells_tested);
    if (format == FP_FORMAT_JSON) {
        fprintf(out, "{\"type\":\"soak\",\"cycles\":%ld,\"seconds\":%.3f,\"sizes\":%zu,\"alpha\":%.6g,"
                     "\"min_change\":%.6g,\"decided\":%s,\"needed\":%ld,\"steps\":%d,\"cells\":%zu,\"cell_alpha\":",
                summary->cycles, seconds, summary->sizes, summary->alpha, FP_SOAK_MIN_CHANGE,
                decided ? "true" : "false", summary->needed, summary->steps, summary->cells);
        fp_json_number_or_null(out, summary->cells ? summary->cell_alpha : NAN);
        fputs(",\"cell_needed\":", out);
        fp_json_number_or_null(out, summary->cells ? (double)summary->cell_needed : NAN);
        fputs(",\"line\":", out);
        fp_json_string(out, line);
        fputs("}\n", out);
    } else if (format == FP_FORMAT_TEXT) {
        fputs("# soak: ", out);
        fp_text_string(out, line);
        fputc('\n', out);
    }
    if (!decided && program)
        fprintf(stderr, "%s: soak %s\n", program, line);
    summary->tested = decided;
}
