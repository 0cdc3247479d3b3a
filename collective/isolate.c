/* Group testing of a collective: the levels, the judge, and the search (isolate.h). */
#include "isolate.h"

#include "expect.h" /* fp_verdict_t: a group's verdict against --expect */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct segment {
    int start, end; /* positions in the node order */
} segment_t;

/* Ranks by node, then rank: a group keeps a node's ranks together while it spans nodes. */
static int *node_order(int n, const int *node)
{
    int *order = malloc((size_t)n * sizeof *order);
    if (!order)
        return NULL;
    for (int i = 0; i < n; i++) {
        int j = i;
        for (; j > 0 && node[order[j - 1]] > node[i]; j--) /* insertion: stable, n is small */
            order[j] = order[j - 1];
        order[j] = i;
    }
    return order;
}

static int split_point(const int *order, const int *node, segment_t s)
{
    double middle = (s.start + s.end) / 2.0;
    if (node[order[s.start]] == node[order[s.end - 1]])
        return s.start + (s.end - s.start) / 2;
    int best = -1;
    for (int p = s.start + 1; p < s.end; p++)
        if (node[order[p]] != node[order[p - 1]] && (best < 0 || fabs(p - middle) < fabs(best - middle)))
            best = p;
    return best;
}

int fp_iso_level(int n, const int *node, int level, int *group, int *parent)
{
    int *order = node_order(n, node);
    segment_t *seg = malloc((size_t)(n + 1) * sizeof *seg), *next = malloc((size_t)(n + 1) * sizeof *next);
    int *from = malloc((size_t)(n + 1) * sizeof *from), count = 0;
    if (!order || !seg || !next || !from) {
        free(order), free(seg), free(next), free(from);
        return -1;
    }
    seg[0] = (segment_t){0, n};
    count = n >= 2;
    for (int l = 0; l < level; l++) {
        int m = 0;
        for (int g = 0; g < count; g++) {
            int p = split_point(order, node, seg[g]);
            segment_t halves[2] = {{seg[g].start, p}, {p, seg[g].end}};
            for (int h = 0; h < 2; h++)
                if (halves[h].end - halves[h].start >= 2)
                    from[m] = g, next[m++] = halves[h];
        }
        memcpy(seg, next, (size_t)m * sizeof *seg);
        count = m;
    }
    for (int r = 0; r < n; r++)
        group[r] = -1;
    for (int g = 0; g < count; g++) {
        for (int p = seg[g].start; p < seg[g].end; p++)
            group[order[p]] = g;
        if (parent)
            parent[g] = level > 0 ? from[g] : -1;
    }
    free(order), free(seg), free(next), free(from);
    return count;
}

double fp_iso_threshold(double reference_us, double reference_hi)
{
    return fmax(reference_us / (1.0 - FP_ISO_MIN_EFFECT), reference_hi);
}

fp_iso_status_t fp_iso_judge(const fp_iso_est_t *est, double reference_us, double threshold)
{
    if (!isfinite(threshold) || !isfinite(reference_us) || !isfinite(est->lo))
        return FP_ISO_UNDECIDED;
    if (est->lo > threshold)
        return FP_ISO_SLOW;
    /* Fine only within the effect of the references' typical time: references whose own CI is
     * wide (a busy round) raise the bar for slow, never the one for fine. */
    return est->us > reference_us / (1.0 - FP_ISO_MIN_EFFECT) ? FP_ISO_UNDECIDED : FP_ISO_FINE;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, int m)
{
    if (m == 0)
        return NAN;
    qsort(v, (size_t)m, sizeof *v, cmp_double);
    return m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
}

static int group_size(const int *group, int n, int g)
{
    int size = 0;
    for (int r = 0; r < n; r++)
        size += group[r] == g;
    return size;
}

/* A round's arrays, for ngroups groups of n ranks. */
static fp_iso_round_t *round_open(fp_iso_result_t *out, int n, int ngroups, int level)
{
    if (out->nrounds >= FP_ISO_MAX_ROUNDS)
        return NULL;
    fp_iso_round_t *r = &out->rounds[out->nrounds];
    size_t g = (size_t)(ngroups > 0 ? ngroups : 1);
    memset(r, 0, sizeof *r);
    r->level = level;
    r->ngroups = ngroups;
    r->group = malloc((size_t)n * sizeof *r->group);
    r->est = calloc(g, sizeof *r->est);
    r->status = calloc(g, sizeof *r->status);
    r->judged = calloc(g, sizeof *r->judged);
    r->threshold = malloc(g * sizeof *r->threshold);
    if (!r->group || !r->est || !r->status || !r->judged || !r->threshold) {
        free(r->group), free(r->est), free(r->status), free(r->judged), free(r->threshold);
        return NULL;
    }
    out->nrounds++;
    return r;
}

/* Judges the candidates of round r against the references of their size (judged == 0), or, where
 * none ran, against the other groups of their size; reference_us[g] gets the references' median. */
static void judge_round(fp_iso_round_t *r, int n, const int *excluded, double *reference_us)
{
    double *his = malloc((size_t)(r->ngroups + 1) * sizeof *his), *uss = malloc((size_t)(r->ngroups + 1) * sizeof *uss);
    for (int g = 0; g < r->ngroups; g++) {
        r->threshold[g] = NAN;
        reference_us[g] = NAN;
        r->status[g] = FP_ISO_FINE;
        if (!r->judged[g] || !his || !uss)
            continue;
        int size = group_size(r->group, n, g), m = 0;
        for (int pass = 0; pass < 2 && m == 0; pass++)
            for (int h = 0; h < r->ngroups; h++)
                if (h != g && !excluded[h] && (pass || !r->judged[h]) && group_size(r->group, n, h) == size &&
                    isfinite(r->est[h].hi))
                    his[m] = r->est[h].hi, uss[m++] = r->est[h].us;
        reference_us[g] = median_of(uss, m);
        r->threshold[g] = fp_iso_threshold(reference_us[g], median_of(his, m));
        r->status[g] = fp_iso_judge(&r->est[g], reference_us[g], r->threshold[g]);
        /* --expect, scaled to the group's size, decides where it can: a group that meets it is
         * fine however its siblings ran; one that fails it is slow where another group of its
         * size meets it. Where none does, the expectation does not tell the groups apart (a
         * fabric slow everywhere, or groups that share the cores run slower than the whole):
         * the siblings judge, as they do where it is inconclusive. */
        int met = 0;
        for (int h = 0; h < r->ngroups; h++)
            met |= h != g && !excluded[h] && r->est[h].expect == FP_VERDICT_PASS && group_size(r->group, n, h) == size;
        if (r->est[g].expect == FP_VERDICT_PASS || (r->est[g].expect == FP_VERDICT_FAIL && met)) {
            r->status[g] = r->est[g].expect == FP_VERDICT_FAIL ? FP_ISO_SLOW : FP_ISO_FINE;
            r->threshold[g] = r->est[g].bound_us;
        }
    }
    free(his);
    free(uss);
}

static fp_iso_finding_t *add_finding(fp_iso_result_t *out, fp_iso_kind_t kind, int stands, const int *group, int n,
                                     int g, const fp_iso_est_t *est, double reference_us)
{
    if (out->nfindings >= FP_ISO_MAX_FINDINGS)
        return NULL;
    fp_iso_finding_t *f = &out->findings[out->nfindings++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->stands = stands;
    for (int r = 0; r < n && f->nranks < 8; r++)
        if (group[r] == g)
            f->ranks[f->nranks++] = r;
    f->est = *est;
    f->reference_us = reference_us;
    f->round = out->nrounds - 1;
    return f;
}

/* What a suspect group of that many ranks is, when the finding is on all of it. */
static fp_iso_kind_t leaf_kind(int size)
{
    return size == 1 ? FP_ISO_MEMBER : size == 2 ? FP_ISO_LINK : FP_ISO_GROUP;
}

/* One confirmation round (pass 0 or 1): each member of a slow small group runs in a pair with a
 * known-good partner (a rank never in a slow group; pass 1 takes the partners in reverse, so that
 * a member of two or more meets another one), the partners left over pair up as references. A
 * member without a partner left is not placed. Fills status[k] and est[k] per member rank k. */
static int confirm_round(int n, const int *leaf_of, const char *good, int pass, fp_iso_measure_fn measure, void *arg,
                         fp_iso_result_t *out, fp_iso_status_t *status, fp_iso_est_t *est, double *reference_us)
{
    int *pool = malloc((size_t)n * sizeof *pool), npool = 0, used = 0, ngroups = 0;
    int *pair_member = malloc((size_t)n * sizeof *pair_member), *excluded = calloc((size_t)n + 1, sizeof *excluded);
    int *lead = malloc((size_t)n * sizeof *lead);
    double *ref = malloc((size_t)(n + 1) * sizeof *ref);
    fp_iso_round_t *r = pool && pair_member && excluded && ref && lead ? round_open(out, n, n / 2, 0) : NULL;
    int rc = r ? 0 : -1;
    if (rc == 0) {
        for (int k = 0; k < n; k++)
            if (good[pass ? n - 1 - k : k])
                pool[npool++] = pass ? n - 1 - k : k;
        for (int k = 0; k < n; k++)
            r->group[k] = -1;
        for (int k = 0; k < n && used < npool; k++)
            if (leaf_of[k] >= 0) {
                lead[ngroups] = pool[used];
                r->group[k] = r->group[pool[used++]] = ngroups;
                r->judged[ngroups] = 1;
                pair_member[ngroups++] = k;
            }
        for (; used + 1 < npool; used += 2) {
            r->group[pool[used]] = r->group[pool[used + 1]] = ngroups;
            lead[ngroups] = -1;
            pair_member[ngroups++] = -1;
        }
        r->ngroups = ngroups;
        rc = ngroups && measure(arg, r->group, lead, ngroups, r->est) != 0 ? -1 : 0;
    }
    if (rc == 0 && ngroups) {
        judge_round(r, n, excluded, ref);
        for (int g = 0; g < ngroups; g++)
            if (pair_member[g] >= 0) {
                status[pair_member[g]] = r->status[g];
                est[pair_member[g]] = r->est[g];
                reference_us[pair_member[g]] = ref[g];
            }
    }
    free(pool), free(pair_member), free(excluded), free(ref), free(lead);
    return rc;
}

/* Slow groups whose members are each fine beside known-good partners run again as they are, beside
 * pairs of known-good ranks: fine, the level's verdict was the noise of that round (no finding);
 * slow, once more (as a member is confirmed twice): slow again, their slowness lies between them
 * (a link, for two: it stands); else undecided. */
static int retest_together(int n, const int *leaf_of, int nleaves, const int *leaf_size, const int *placed,
                           const char *good, fp_iso_measure_fn measure, void *arg, fp_iso_result_t *out)
{
    int *excluded = calloc((size_t)n + 1, sizeof *excluded), *leaf_group = malloc((size_t)(nleaves + 1) * sizeof *leaf_group);
    int *pending = malloc((size_t)(nleaves + 1) * sizeof *pending); /* still to retest: 1 */
    double *ref = malloc((size_t)(n + 1) * sizeof *ref);
    int rc = excluded && leaf_group && pending && ref ? 0 : -1;
    for (int leaf = 0; rc == 0 && leaf < nleaves; leaf++)
        pending[leaf] = !placed[leaf];
    for (int pass = 0; rc == 0 && pass < 2; pass++) {
        int ngroups = 0, spare = -1, any = 0;
        for (int leaf = 0; leaf < nleaves; leaf++)
            any |= pending[leaf];
        if (!any)
            break;
        fp_iso_round_t *r = round_open(out, n, n / 2, 0);
        if (!r) {
            rc = -1;
            break;
        }
        for (int k = 0; k < n; k++)
            r->group[k] = -1;
        for (int leaf = 0; leaf < nleaves; leaf++) {
            leaf_group[leaf] = -1;
            if (!pending[leaf])
                continue;
            for (int k = 0; k < n; k++)
                if (leaf_of[k] == leaf)
                    r->group[k] = ngroups;
            r->judged[ngroups] = 1;
            leaf_group[leaf] = ngroups++;
        }
        for (int k = 0; k < n; k++)
            if (good[k] && spare < 0)
                spare = k;
            else if (good[k]) {
                r->group[spare] = r->group[k] = ngroups++;
                spare = -1;
            }
        r->ngroups = ngroups;
        rc = measure(arg, r->group, NULL, ngroups, r->est) != 0 ? -1 : 0;
        if (rc == 0)
            judge_round(r, n, excluded, ref);
        for (int leaf = 0; rc == 0 && leaf < nleaves; leaf++) {
            int g = leaf_group[leaf];
            if (g < 0)
                continue;
            pending[leaf] = 0;
            if (r->status[g] == FP_ISO_FINE && pass == 0)
                continue;
            if (r->status[g] == FP_ISO_SLOW && pass == 0)
                pending[leaf] = 1; /* once more before it stands */
            else
                add_finding(out, leaf_kind(leaf_size[leaf]), pass == 1 && r->status[g] == FP_ISO_SLOW, leaf_of, n,
                            leaf, &r->est[g], ref[g]);
        }
    }
    free(excluded), free(leaf_group), free(pending), free(ref);
    return rc;
}

/* The confirmation: two rounds with different partners; a member stands when slow in both, is
 * undecided when slow or undecided in one, fine when fine in both. A slow group none of whose
 * members is: retest_together; undecided where a member had no partner. */
static int confirm(int n, const int *leaf_of, int nleaves, const int *leaf_size, const char *good,
                   fp_iso_measure_fn measure, void *arg, fp_iso_result_t *out)
{
    fp_iso_status_t *status[2] = {malloc((size_t)n * sizeof **status), malloc((size_t)n * sizeof **status)};
    fp_iso_est_t *est[2] = {malloc((size_t)n * sizeof **est), malloc((size_t)n * sizeof **est)};
    double *reference_us = malloc((size_t)n * sizeof *reference_us);
    int *placed = calloc((size_t)nleaves + 1, sizeof *placed), *mine = malloc((size_t)n * sizeof *mine);
    int rc = status[0] && status[1] && est[0] && est[1] && reference_us && placed && mine ? 0 : -1;
    for (int pass = 0; rc == 0 && pass < 2; pass++) {
        for (int k = 0; k < n; k++)
            status[pass][k] = FP_ISO_UNDECIDED, est[pass][k] = (fp_iso_est_t){.us = NAN, .lo = NAN, .hi = NAN};
        rc = confirm_round(n, leaf_of, good, pass, measure, arg, out, status[pass], est[pass], reference_us);
    }
    for (int k = 0; rc == 0 && k < n; k++) {
        if (leaf_of[k] < 0)
            continue;
        fp_iso_status_t a = status[0][k], b = status[1][k];
        int unplaced = !isfinite(est[0][k].us) || !isfinite(est[1][k].us);
        if (unplaced || (a == FP_ISO_FINE && b == FP_ISO_FINE)) {
            /* a lone suspect (--suspects) found fine has nothing to retest together */
            placed[leaf_of[k]] |= unplaced ? 2 : leaf_size[leaf_of[k]] == 1;
            continue;
        }
        placed[leaf_of[k]] |= 1;
        for (int q = 0; q < n; q++)
            mine[q] = q == k ? 0 : -1;
        add_finding(out, FP_ISO_MEMBER, a == FP_ISO_SLOW && b == FP_ISO_SLOW, mine, n, 0, &est[1][k], reference_us[k]);
    }
    int together = 0;
    for (int leaf = 0; leaf < nleaves; leaf++)
        together += !placed[leaf];
    if (rc == 0 && together)
        rc = retest_together(n, leaf_of, nleaves, leaf_size, placed, good, measure, arg, out);
    for (int leaf = 0; rc == 0 && leaf < nleaves; leaf++)
        if (placed[leaf] == 2) { /* a member had no partner: nothing can be said of the group */
            fp_iso_est_t none = {.us = NAN, .lo = NAN, .hi = NAN};
            add_finding(out, leaf_kind(leaf_size[leaf]), 0, leaf_of, n, leaf, &none, NAN);
        }
    free(status[0]), free(status[1]), free(est[0]), free(est[1]), free(reference_us), free(placed), free(mine);
    return rc;
}

/* The groups of a level run again as they ran (`level`, a round of out); each of them that was
 * slow with no slow part (slow[p], no children_slow[p]) is judged again against the same
 * references: still slow or undecided, an undecided group finding (the slowness is on no member
 * it can name: on a busy machine one half of the job can run slower as a whole); fine, nothing. */
static int retest_level(int n, const fp_iso_round_t *level, const char *slow, const int *children_slow,
                        fp_iso_measure_fn measure, void *arg, fp_iso_result_t *out)
{
    int *excluded = calloc((size_t)level->ngroups + 1, sizeof *excluded);
    double *ref = malloc((size_t)(level->ngroups + 1) * sizeof *ref);
    fp_iso_round_t *r = excluded && ref ? round_open(out, n, level->ngroups, level->level) : NULL;
    int rc = r ? 0 : -1;
    if (rc == 0) {
        memcpy(r->group, level->group, (size_t)n * sizeof *r->group);
        for (int g = 0; g < r->ngroups; g++)
            r->judged[g] = level->judged[g];
        rc = measure(arg, r->group, NULL, r->ngroups, r->est) != 0 ? -1 : 0;
    }
    if (rc == 0)
        judge_round(r, n, excluded, ref);
    for (int p = 0; rc == 0 && p < r->ngroups; p++)
        if (slow[p] && group_size(r->group, n, p) >= 4 && !children_slow[p] && r->status[p] != FP_ISO_FINE)
            add_finding(out, FP_ISO_GROUP, 0, r->group, n, p, &r->est[p], ref[p]); /* on no member: undecided */
    free(excluded), free(ref);
    return rc;
}

/* Decided when no finding is undecided. */
static void conclude(fp_iso_result_t *out)
{
    int undecided = 0;
    for (int i = 0; i < out->nfindings; i++)
        undecided += !out->findings[i].stands;
    out->decided = !undecided;
    if (undecided)
        snprintf(out->reason, sizeof out->reason, "%d finding(s) undecided: slower than known-good groups, "
                 "not significantly, or with no known-good group of their size or partner to compare with",
                 undecided);
}

int fp_iso_search(int n, const int *node, fp_iso_measure_fn measure, void *arg, fp_iso_result_t *out)
{
    memset(out, 0, sizeof *out);
    if (n < FP_ISO_MIN_RANKS) {
        snprintf(out->reason, sizeof out->reason, "too few ranks to search (%d < %d)", n, FP_ISO_MIN_RANKS);
        return 0;
    }
    int *parent = malloc((size_t)n * sizeof *parent), *leaf_of = malloc((size_t)n * sizeof *leaf_of);
    int *leaf_size = calloc((size_t)n, sizeof *leaf_size), *excluded = calloc((size_t)n, sizeof *excluded);
    char *good = malloc((size_t)n), *slow_prev = calloc((size_t)n, 1), *slow_now = calloc((size_t)n, 1);
    double *reference_us = malloc((size_t)n * sizeof *reference_us);
    int rc = parent && leaf_of && leaf_size && excluded && good && slow_prev && slow_now && reference_us ? 0 : -1;
    int nleaves = 0;
    if (rc == 0) {
        memset(good, 1, (size_t)n);
        for (int k = 0; k < n; k++)
            leaf_of[k] = -1;
        slow_prev[0] = 1; /* level 0: the whole job, suspect until a level clears it */
    }
    const fp_iso_round_t *previous = NULL;
    for (int level = 1; rc == 0; level++) {
        fp_iso_round_t *r = NULL;
        int *group = malloc((size_t)n * sizeof *group), ngroups = group ? fp_iso_level(n, node, level, group, parent) : -1;
        int candidates = 0;
        for (int g = 0; ngroups > 0 && g < ngroups; g++) {
            /* Candidates: children of a slow group of 4 or more; children of smaller slow groups
             * (already leaves) neither judged nor references. */
            int from = parent[g], from_size = level == 1 ? n : group_size(previous->group, n, from);
            excluded[g] = slow_prev[from] && from_size < 4;
            candidates += slow_prev[from] && from_size >= 4;
        }
        if (ngroups <= 0 || candidates == 0 || !(r = round_open(out, n, ngroups, level))) {
            rc = ngroups < 0 || (ngroups > 0 && candidates && !r) ? -1 : 0;
            free(group);
            break;
        }
        memcpy(r->group, group, (size_t)n * sizeof *group);
        free(group);
        for (int g = 0; g < ngroups; g++)
            r->judged[g] = slow_prev[parent[g]] && !excluded[g];
        if (measure(arg, r->group, NULL, ngroups, r->est) != 0) {
            rc = -1;
            break;
        }
        judge_round(r, n, excluded, reference_us);
        memset(slow_now, 0, (size_t)n);
        int *children_slow = calloc((size_t)n, sizeof *children_slow);
        if (!children_slow) {
            rc = -1;
            break;
        }
        for (int g = 0; g < ngroups; g++) {
            if (!r->judged[g])
                continue;
            int size = group_size(r->group, n, g);
            children_slow[parent[g]] += r->status[g] != FP_ISO_FINE;
            for (int k = 0; r->est[g].expect == FP_VERDICT_PASS && k < n; k++)
                if (r->group[k] == g) /* meets --expect: a known-good partner again */
                    good[k] = 1;
            if (r->status[g] == FP_ISO_FINE)
                continue; /* slow or undecided: a suspect, split again or confirmed */
            slow_now[g] = 1;
            for (int k = 0; k < n; k++)
                if (r->group[k] == g)
                    good[k] = 0;
            if (size < 4) { /* too small to split into two groups: its members are confirmed */
                for (int k = 0; k < n; k++)
                    if (r->group[k] == g)
                        leaf_of[k] = nleaves;
                leaf_size[nleaves++] = size;
            }
        }
        /* A slow group of the level before none of whose parts is: run that level again; still
         * slow, the slowness needs its members together (a group finding); fine, it was that
         * round's noise. */
        int whole = 0;
        for (int p = 0; previous && p < previous->ngroups; p++)
            whole += slow_prev[p] && group_size(previous->group, n, p) >= 4 && !children_slow[p];
        if (whole)
            rc = retest_level(n, previous, slow_prev, children_slow, measure, arg, out);
        free(children_slow);
        if (rc != 0)
            break;
        memcpy(slow_prev, slow_now, (size_t)n);
        previous = r;
    }
    if (rc == 0 && nleaves)
        rc = confirm(n, leaf_of, nleaves, leaf_size, good, measure, arg, out);
    if (rc == 0)
        conclude(out);
    free(parent), free(leaf_of), free(leaf_size), free(excluded), free(good), free(slow_prev), free(slow_now);
    free(reference_us);
    return rc;
}

int fp_iso_confirm_suspects(int n, const char *suspect, fp_iso_measure_fn measure, void *arg, fp_iso_result_t *out)
{
    memset(out, 0, sizeof *out);
    int *leaf_of = malloc((size_t)n * sizeof *leaf_of), *leaf_size = malloc((size_t)n * sizeof *leaf_size);
    char *good = malloc((size_t)n);
    int rc = leaf_of && leaf_size && good ? 0 : -1, nleaves = 0;
    for (int k = 0; rc == 0 && k < n; k++) {
        good[k] = !suspect[k];
        leaf_of[k] = suspect[k] ? nleaves : -1;
        if (suspect[k])
            leaf_size[nleaves++] = 1;
    }
    if (rc == 0 && (nleaves == 0 || nleaves == n))
        snprintf(out->reason, sizeof out->reason, "%s", nleaves ? "every rank is a suspect: no known-good partner"
                                                                : "no suspect to confirm");
    else if (rc == 0) {
        rc = confirm(n, leaf_of, nleaves, leaf_size, good, measure, arg, out);
        if (rc == 0)
            conclude(out);
    }
    free(leaf_of), free(leaf_size), free(good);
    return rc;
}

void fp_iso_whole_shortfall(fp_iso_result_t *r, int whole_verdict)
{
    int stands = 0;
    for (int i = 0; i < r->nfindings; i++)
        stands += r->findings[i].stands;
    if (whole_verdict != FP_VERDICT_FAIL || stands || !r->decided)
        return;
    r->decided = 0;
    snprintf(r->reason, sizeof r->reason, "the whole communicator fails --expect at this size, yet no member stands: "
             "the shortfall lies between the groups (a link between them), needs the whole job, or is everyone's "
             "(the fabric, or the expectation)");
}

void fp_iso_free(fp_iso_result_t *r)
{
    for (int i = 0; i < r->nrounds; i++) {
        free(r->rounds[i].group), free(r->rounds[i].est), free(r->rounds[i].status);
        free(r->rounds[i].judged), free(r->rounds[i].threshold);
    }
    r->nrounds = 0;
}
