#include "adaptive.h"

#include <math.h>

void fp_adaptive_init(fp_adaptive_t *a, double target_pct, double budget_s, size_t capacity)
{
    *a = (fp_adaptive_t){.target_pct = target_pct, .budget_s = budget_s, .capacity = capacity};
}

int fp_adaptive_target_met(const fp_stats_t *s, double target_pct)
{
    if (!s->has_ci || !(s->p50 > 0))
        return 0;
    double below = (s->p50 - s->p50_lo) / s->p50 * 100.0, above = (s->p50_hi - s->p50) / s->p50 * 100.0;
    return below <= target_pct && above <= target_pct;
}

size_t fp_adaptive_first(const fp_adaptive_t *a)
{
    return FP_ADAPTIVE_FIRST_CHECK < a->capacity ? FP_ADAPTIVE_FIRST_CHECK : a->capacity;
}

/* Checks grow geometrically: little overhead. */
static size_t next_check(size_t n, size_t goal)
{
    size_t step = n / 4 > 16 ? n / 4 : 16;
    size_t next = n + step;
    return next < goal ? next : goal;
}

int fp_adaptive_check(fp_adaptive_t *a, const fp_stats_t *s, size_t n, double elapsed, size_t *next)
{
    if (a->fresh) {
        if (n >= a->fresh_goal || elapsed >= a->budget_s) {
            a->met = fp_adaptive_target_met(s, a->target_pct);
            return FP_ADAPT_STOP;
        }
        *next = next_check(n, a->fresh_goal);
        return FP_ADAPT_MORE;
    }
    if (fp_adaptive_target_met(s, a->target_pct) && !a->undecided) {
        a->fresh = 1;
        a->fresh_goal = n + n / 2 < a->capacity ? n + n / 2 : a->capacity;
        *next = a->fresh_goal < FP_ADAPTIVE_FIRST_CHECK ? a->fresh_goal : fp_adaptive_first(a);
        return FP_ADAPT_RESTART;
    }
    if (elapsed >= a->budget_s * FP_ADAPTIVE_PILOT_SHARE || n >= a->capacity) {
        a->met = 0; /* stopped by time or room, not by the samples' values */
        return FP_ADAPT_STOP;
    }
    *next = next_check(n, a->capacity);
    return FP_ADAPT_MORE;
}
