/* The resolution of a matrix for slow links, measured on the matrix itself: probe cells slowed by a
 * ladder of factors and screened again (the screen's own test). A sweep of a few rounds gives each
 * node few cells, and a slow link's cell then drags its sender's and receiver's fitted effects
 * toward itself: its residual shrinks and the noise alone overstates what the screen can see. The
 * screen itself is handed in (fp_sees_link_fn). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outlier.h"

static const double ladder[] = {2.5, 3.0, 4.0, 6.0, 10.0};

void fp_resolution_text(double resolution, char *buf, size_t len)
{
    double top = ladder[sizeof ladder / sizeof *ladder - 1];
    if (isfinite(resolution))
        snprintf(buf, len, "%.1f x", resolution);
    else
        snprintf(buf, len, "%.0f x (or none)", top);
}

/* Whether cell k touches a suspect: a node finding's node, or a link finding's cell. */
static int touches(const fp_shifts_t *L, size_t k, const fp_finding_t *s, size_t ns)
{
    size_t a = k % L->n, b = (a + L->shift[k / L->n]) % L->n;
    for (size_t i = 0; i < ns; i++) {
        if (s[i].kind <= FP_FIND_NODE && ((size_t)s[i].a == a || (size_t)s[i].a == b))
            return 1;
        if ((s[i].kind == FP_FIND_LINK || s[i].kind == FP_FIND_LINK_BOTH) &&
            (((size_t)s[i].a == a && (size_t)s[i].b == b) || ((size_t)s[i].a == b && (size_t)s[i].b == a)))
            return 1;
    }
    return 0;
}

static void scale(fp_cell_t *c, const fp_cell_t *from, double factor, int higher_is_better)
{
    double f = higher_is_better ? 1.0 / factor : factor;
    c->median = from->median * f;
    c->lo = from->lo * f;
    c->hi = from->hi * f;
}

/* The cells with every suspect put back to what the rest predicts for it (its typical value), so
 * that a real fault does not hide the probes around it; the probes then skip the suspects' cells. */
static void neutralize(const fp_shifts_t *L, fp_cell_t *work, const fp_finding_t *s, size_t ns, int higher_is_better)
{
    size_t n = L->n;
    for (size_t i = 0; i < ns; i++) {
        if (!(s[i].median > 0) || !(s[i].typical > 0))
            continue;
        double back = higher_is_better ? s[i].median / s[i].typical : s[i].typical / s[i].median;
        for (size_t k = 0; k < n * L->nshifts; k++) {
            size_t r = k / n, a = k % n, b = (a + L->shift[r]) % n;
            int in = s[i].kind == FP_FIND_ROUND ? (int)r == s[i].a
                   : s[i].kind == FP_FIND_SENDER ? (int)a == s[i].a
                   : s[i].kind == FP_FIND_RECEIVER ? (int)b == s[i].a
                   : s[i].kind == FP_FIND_NODE ? (int)a == s[i].a || (int)b == s[i].a
                   : ((int)a == s[i].a && (int)b == s[i].b) ||
                         (s[i].kind == FP_FIND_LINK_BOTH && (int)a == s[i].b && (int)b == s[i].a);
            if (in && work[k].median > 0)
                scale(&work[k], &work[k], back, higher_is_better);
        }
    }
}

/* Whether at least FP_RESOLUTION_POWER of the probes show as slow links when slowed by factor;
 * -1 out of memory. Stops as soon as the answer is known. */
static int probes_see(const fp_shifts_t *L, fp_cell_t *work, const fp_judge_opts_t *opts, const size_t *probe,
                      size_t count, double factor, fp_sees_link_fn sees)
{
    size_t need = (size_t)ceil(FP_RESOLUTION_POWER * (double)count), seen = 0;
    for (size_t i = 0; i < count; i++) {
        size_t k = probe[i], a = k % L->n, b = (a + L->shift[k / L->n]) % L->n;
        fp_cell_t keep = work[k];
        scale(&work[k], &keep, factor, opts->higher_is_better);
        int s = sees(L, work, opts, a, b);
        work[k] = keep;
        if (s < 0)
            return -1;
        seen += (size_t)s;
        if (seen >= need)
            return 1;
        if (i + 1 - seen > count - need)
            return 0;
    }
    return 0;
}

double fp_link_resolution(const fp_shifts_t *L, const fp_cell_t *cells, const fp_judge_opts_t *opts,
                          const fp_finding_t *suspects, size_t nsuspects, fp_sees_link_fn sees)
{
    size_t ncells = L->n * L->nshifts, measured = 0;
    if (L->nshifts >= FP_RESOLUTION_PER_ROW && ncells > FP_RESOLUTION_MAX_CELLS)
        return 1.0;
    size_t *probe = malloc((ncells + 1) * sizeof *probe);
    fp_cell_t *work = malloc((ncells + 1) * sizeof *work);
    double found = INFINITY; /* out of memory: cannot tell what it would see, so claim nothing */
    if (probe && work) {
        memcpy(work, cells, ncells * sizeof *work);
        neutralize(L, work, suspects, nsuspects, opts->higher_is_better);
        for (size_t k = 0; k < ncells; k++)
            if (cells[k].median > 0 && !touches(L, k, suspects, nsuspects))
                probe[measured++] = k;
        size_t count = measured < FP_RESOLUTION_PROBES ? measured : FP_RESOLUTION_PROBES;
        for (size_t i = 0; i < count; i++) /* spread evenly over rounds and nodes */
            probe[i] = probe[i * measured / count];
        /* The verdict needs only whether the largest slowdown that must show does; the ladder
         * above it says by how much the matrix falls short. */
        int s = count ? probes_see(L, work, opts, probe, count, FP_JUDGE_MAX_RESOLUTION, sees) : 1;
        if (s > 0)
            found = 1.0;
        for (size_t f = 0; s == 0 && f < sizeof ladder / sizeof *ladder; f++) {
            if (ladder[f] <= FP_JUDGE_MAX_RESOLUTION)
                continue;
            s = probes_see(L, work, opts, probe, count, ladder[f], sees);
            if (s > 0)
                found = ladder[f];
        }
    }
    free(probe);
    free(work);
    return found;
}
