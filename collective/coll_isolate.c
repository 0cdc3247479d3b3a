/* --isolate: after the sweep, which member slows the collective (collective/isolate.h) at the
 * sweep's largest size. Rank 0 runs the search; each round it sends every rank its group, the
 * groups run the collective at the same time on communicators split from the job's, and each
 * group's first rank returns its median time per call and CI. Samples: a barrier of the group,
 * then one call timed alone; the slowest member's time of each call (a maximum over the group,
 * taken outside the timed region). Rank 0 writes a record per group and round and the findings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_isolate.h"
#include "collective.h"
#include "escape.h"
#include "evidence.h"
#include "gpu.h"
#include "isolate.h"
#include "metric.h"
#include "report.h"
#include "stats.h"
#include "suspects.h"

#define ISO_SAMPLES 24
#define ISO_WARMUP 3

typedef enum { ISO_SEARCH, ISO_SUSPECTS, ISO_MET } iso_mode_t;
static const char *const mode_names[] = {[ISO_SEARCH] = "search", [ISO_SUSPECTS] = "suspects", [ISO_MET] = "met"};

typedef struct iso_state {
    fp_run_t *run;
    size_t bytes;
    iso_mode_t mode;
    char *suspect; /* rank 0, --suspects: per rank 1 when named */
    char (*hosts)[MPI_MAX_PROCESSOR_NAME + 1]; /* rank 0: every rank's host */
    char (*gpus)[32]; /* rank 0: every rank's GPU (PCI bus id), "" where it runs on none */
    int any_gpu;
} iso_state_t;

/* The bytes a group of `size` ranks moves at the sweep's size: whole elements, and for the
 * collectives with a block per rank whole blocks, as a row of that many ranks would. */
static size_t group_bytes(const fp_run_t *run, size_t bytes, int size)
{
    size_t unit = fp_types[run->params.datatype].size;
    if (run->bench->coll->elements_per_rank)
        unit *= (size_t)size;
    return bytes / unit * unit;
}

/* One group's measurement on its communicator; est valid on the group's rank 0. A rooted
 * collective's root is the group's rank 0 where it is fixed (the job's root, or a lead), else each
 * member in turn, call after call: a member slow only in one role then shows in most samples of
 * a group of 3 or more, and widens a pair's interval, whichever rank it is. */
static int measure_group(fp_run_t *run, size_t bytes, MPI_Comm group, int fixed_root, fp_iso_est_t *est)
{
    fp_ctx_t *ctx = &run->ctx;
    fp_coll_ctx_t *c = fp_coll_ctx(ctx);
    MPI_Comm world = ctx->comm;
    int world_rank = ctx->rank, world_size = ctx->nranks, root = c->root;
    size_t type_size = fp_types[run->params.datatype].size;
    int size, rank, rc = FP_OK;
    MPI_Comm_size(group, &size);
    MPI_Comm_rank(group, &rank);
    fp_coll_layout_t l;
    run->bench->coll->layout(group_bytes(run, bytes, size) / type_size, size, &l);
    ctx->comm = group, ctx->rank = rank, ctx->nranks = size;
    c->in_place = 0, c->count = l.param_count, c->root = 0;
    double samples[ISO_SAMPLES];
    for (int i = 0; rc == FP_OK && i < ISO_WARMUP + ISO_SAMPLES; i++) {
        double t = 0.0, slowest = 0.0;
        c->root = fixed_root ? 0 : i % size;
        rc = c->ops->sync(ctx);
        if (rc == FP_OK) {
            double start = MPI_Wtime();
            rc = c->call(ctx, c, ctx->sbuf, ctx->rbuf);
            if (rc == FP_OK) /* timed to its end by MPI_Wtime, whatever the sweep's timer */
                rc = c->ops->wait ? c->ops->wait(ctx) : c->ops->complete(ctx);
            t = MPI_Wtime() - start;
        }
        if (rc == FP_OK && MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, group) != MPI_SUCCESS)
            rc = fp_fail("MPI_Allreduce of a group's sample failed");
        if (i >= ISO_WARMUP)
            samples[i - ISO_WARMUP] = slowest * 1e6;
    }
    ctx->comm = world, ctx->rank = world_rank, ctx->nranks = world_size, c->root = root;
    if (rc == FP_OK && rank == 0) {
        fp_stats_t s;
        fp_stats_compute(samples, ISO_SAMPLES, &s);
        *est = (fp_iso_est_t){.us = s.p50, .lo = s.p50_lo, .hi = s.p50_hi};
    }
    return rc;
}

/* Every rank: its part of one round (group[] and lead[] the same everywhere); rank 0 gets est[] per
 * group. A group's rank 0 is the job's root where the group has it, else the group's lead (the
 * known-good partner of a confirmation): a rooted collective's fixed root (measure_group). */
static int run_round(fp_run_t *run, size_t bytes, const int *group, const int *lead, int ngroups, fp_iso_est_t *est)
{
    fp_ctx_t *ctx = &run->ctx;
    MPI_Comm mine;
    double sent[4] = {-1, NAN, NAN, NAN}, *got = NULL;
    int g = group[ctx->rank];
    int root = fp_coll_ctx(ctx)->root, key = ctx->rank == root ? -2 : g >= 0 && lead[g] == ctx->rank ? -1 : ctx->rank;
    FP_MPI_CHECK(MPI_Comm_split(ctx->comm, g >= 0 ? g : MPI_UNDEFINED, key, &mine));
    fp_coll_ctx_t *c = fp_coll_ctx(ctx);
    void *world_state = c->state, *group_state = NULL;
    if (c->ops->split && c->ops->split(ctx, g, key, &group_state) != FP_OK) { /* every rank, as MPI's */
        if (mine != MPI_COMM_NULL)
            MPI_Comm_free(&mine);
        return FP_ERR;
    }
    int rc = FP_OK;
    if (mine != MPI_COMM_NULL) {
        fp_iso_est_t e = {.us = NAN, .lo = NAN, .hi = NAN};
        if (group_state)
            c->state = group_state;
        int rank;
        rc = measure_group(run, bytes, mine, lead[g] >= 0 || group[root] == g, &e);
        c->state = world_state;
        MPI_Comm_rank(mine, &rank);
        MPI_Comm_free(&mine);
        if (rank == 0)
            sent[0] = g, sent[1] = e.us, sent[2] = e.lo, sent[3] = e.hi;
    }
    if (c->ops->unsplit)
        c->ops->unsplit(ctx, group_state);
    FP_CHECK(rc);
    if (ctx->rank == 0 && !(got = malloc((size_t)ctx->nranks * sizeof sent)))
        return fp_fail("malloc(%zu B) for a round's figures failed", (size_t)ctx->nranks * sizeof sent);
    FP_MPI_CHECK(MPI_Gather(sent, 4, MPI_DOUBLE, got, 4, MPI_DOUBLE, 0, ctx->comm));
    for (int r = 0; got && r < ctx->nranks; r++) {
        int k = (int)got[4 * r];
        if (k >= 0 && k < ngroups)
            est[k] = (fp_iso_est_t){.us = got[4 * r + 1], .lo = got[4 * r + 2], .hi = got[4 * r + 3]};
    }
    free(got);
    return FP_OK;
}

/* Rank 0: each group's verdict against --expect at its own size (busbw scaled by the group's
 * factor, the bytes a group of that size moves), and the time per call that meets it. */
static void judge_expect(fp_run_t *run, size_t bytes, const int *group, int ngroups, fp_iso_est_t *est)
{
    const fp_expect_t *e = &run->params.expect;
    fp_busbw_t kind = run->bench->coll->busbw;
    for (int g = 0; fp_expect_any(e) && g < ngroups; g++) {
        int size = 0;
        for (int r = 0; r < run->ctx.nranks; r++)
            size += group[r] == g;
        size_t moved = group_bytes(run, bytes, size);
        double unused, p50, lo, hi, at_1us;
        fp_coll_rates(kind, size, 0, moved, est[g].us, &unused, &p50);
        fp_coll_rates(kind, size, 0, moved, est[g].hi, &unused, &lo); /* the slowest time, the lowest busbw */
        fp_coll_rates(kind, size, 0, moved, est[g].lo, &unused, &hi);
        fp_coll_rates(kind, size, 0, moved, 1.0, &unused, &at_1us);
        fp_judgement_t j;
        est[g].expect = (int)fp_expect_judge(e, moved, run->bench->metric->quantity, lo, p50, hi,
                                             fp_line_rate_in_unit(run->bench, run->params.line_rate_bps), &j);
        est[g].bound_us = isfinite(j.threshold) && j.threshold > 0 ? at_1us / j.threshold : NAN;
    }
}

/* Rank 0's measure callback: tells every rank the round (its group count, then the groups and
 * their leads; -1 where none). */
static int measure_round(void *arg, const int *group, const int *lead, int ngroups, fp_iso_est_t *est)
{
    iso_state_t *s = arg;
    fp_ctx_t *ctx = &s->run->ctx;
    int n = ctx->nranks, *leads = malloc((size_t)n * sizeof *leads);
    if (!leads)
        return fp_fail("malloc(%zu B) for a round's leads failed", (size_t)n * sizeof *leads);
    for (int g = 0; g < n; g++)
        leads[g] = lead && g < ngroups ? lead[g] : -1;
    int rc = FP_OK;
    if (MPI_Bcast(&ngroups, 1, MPI_INT, 0, ctx->comm) != MPI_SUCCESS ||
        MPI_Bcast((void *)group, n, MPI_INT, 0, ctx->comm) != MPI_SUCCESS ||
        MPI_Bcast(leads, n, MPI_INT, 0, ctx->comm) != MPI_SUCCESS)
        rc = fp_fail("MPI_Bcast of a round's groups failed");
    if (rc == FP_OK)
        rc = run_round(s->run, s->bytes, group, leads, ngroups, est);
    if (rc == FP_OK)
        judge_expect(s->run, s->bytes, group, ngroups, est);
    free(leads);
    return rc == FP_OK ? 0 : -1;
}

/* Every other rank: rounds until rank 0 sends a group count of -1. */
static int follow(fp_run_t *run, size_t bytes)
{
    fp_ctx_t *ctx = &run->ctx;
    int n = ctx->nranks, ngroups = 0, rc = FP_OK;
    int *group = malloc((size_t)n * sizeof *group), *lead = malloc((size_t)n * sizeof *lead);
    if (!group || !lead)
        rc = fp_fail("malloc(%zu B) for the groups failed", 2 * (size_t)n * sizeof *group);
    while (rc == FP_OK) {
        if (MPI_Bcast(&ngroups, 1, MPI_INT, 0, ctx->comm) != MPI_SUCCESS)
            rc = fp_fail("MPI_Bcast of a round's group count failed");
        if (rc != FP_OK || ngroups < 0)
            break;
        if (MPI_Bcast(group, n, MPI_INT, 0, ctx->comm) != MPI_SUCCESS || MPI_Bcast(lead, n, MPI_INT, 0, ctx->comm) != MPI_SUCCESS)
            rc = fp_fail("MPI_Bcast of a round's groups failed");
        else
            rc = run_round(run, bytes, group, lead, ngroups, NULL);
    }
    free(group);
    free(lead);
    return rc;
}

static const char *status_name(fp_iso_status_t s, int judged)
{
    return !judged ? "reference" : s == FP_ISO_SLOW ? "slow" : s == FP_ISO_UNDECIDED ? "undecided" : "fine";
}

/* Which ranks a record lists: a round's group, a finding's ranks, the suspects. */
typedef struct {
    const int *group; /* a round's group of each rank, with the group g */
    int g;
    const fp_iso_finding_t *finding;
    const char *mask; /* the suspects */
} members_t;

static int is_member(const members_t *m, int r)
{
    if (m->group)
        return m->group[r] == m->g;
    if (m->mask)
        return m->mask[r] != 0;
    for (int k = 0; k < m->finding->nranks; k++)
        if (m->finding->ranks[k] == r)
            return 1;
    return 0;
}

/* ,"key":[...] of the members' names, each stride bytes after the one before from base. */
static void member_names(FILE *out, const char *key, const members_t *m, int n, const char *base, size_t stride)
{
    int first = 1;
    fprintf(out, ",\"%s\":[", key);
    for (int r = 0; r < n; r++)
        if (is_member(m, r)) {
            fputs(first ? "" : ",", out);
            fp_json_string(out, base + (size_t)r * stride);
            first = 0;
        }
    fputc(']', out);
}

static void ranks_json(FILE *out, const members_t *m, int n, const iso_state_t *s)
{
    int first = 1;
    fputs("\"ranks\":[", out);
    for (int r = 0; r < n; r++)
        if (is_member(m, r))
            fprintf(out, "%s%d", first ? "" : ",", r), first = 0;
    fputc(']', out);
    member_names(out, "nodes", m, n, s->hosts[0], sizeof s->hosts[0]);
    if (s->any_gpu)
        member_names(out, "gpus", m, n, s->gpus[0], sizeof s->gpus[0]);
}

/* "3 (h1)", or "3 (h1, GPU 0000:1b:00.0)" where the rank runs on a GPU */
static int rank_place(char *text, size_t len, const iso_state_t *s, int r)
{
    return snprintf(text, len, "%d (%s%s%s)", r, s->hosts[r], s->gpus && s->gpus[r][0] ? ", GPU " : "",
                    s->gpus ? s->gpus[r] : "");
}

static void ranks_text(FILE *out, const members_t *m, int n, const iso_state_t *s)
{
    int first = 1;
    char place[MPI_MAX_PROCESSOR_NAME + 64];
    for (int r = 0; r < n; r++)
        if (is_member(m, r)) {
            rank_place(place, sizeof place, s, r);
            fprintf(out, "%s%s", first ? "" : ", ", place), first = 0;
        }
}

static void emit_round(FILE *out, int json, size_t bytes, int index, const fp_iso_round_t *rd, int n,
                       const iso_state_t *s)
{
    for (int g = 0; g < rd->ngroups; g++) {
        const fp_iso_est_t *e = &rd->est[g];
        const char *status = status_name(rd->status[g], rd->judged[g]);
        const members_t members = {.group = rd->group, .g = g};
        if (json) {
            fprintf(out, "{\"type\":\"isolate_group\",\"size\":%zu,\"round\":%d,\"level\":", bytes, index + 1);
            if (rd->level)
                fprintf(out, "%d", rd->level);
            else
                fputs("\"confirm\"", out);
            fprintf(out, ",\"group\":%d,", g + 1);
            ranks_json(out, &members, n, s);
            fputs(",\"us\":", out);
            fp_json_number_or_null(out, e->us);
            fputs(",\"us_lo\":", out);
            fp_json_number_or_null(out, e->lo);
            fputs(",\"us_hi\":", out);
            fp_json_number_or_null(out, e->hi);
            fputs(",\"threshold_us\":", out);
            fp_json_number_or_null(out, rd->threshold[g]);
            if (e->expect != FP_VERDICT_NONE)
                fprintf(out, ",\"expect\":\"%s\"", fp_verdict_name((fp_verdict_t)e->expect));
            fprintf(out, ",\"status\":\"%s\"}\n", status);
        } else {
            fprintf(out, "# isolate round %d (%s%.0d) group %d: %.2f us [%.2f, %.2f] %s", index + 1,
                    rd->level ? "level " : "confirm", rd->level, g + 1, e->us, e->lo, e->hi, status);
            if (e->expect != FP_VERDICT_NONE)
                fprintf(out, " (--expect at its size: %s, %.2f us a call)", fp_verdict_name((fp_verdict_t)e->expect),
                        e->bound_us);
            fputs(": ", out);
            ranks_text(out, &members, n, s);
            fputc('\n', out);
        }
    }
}

static const char *const kind_names[] = {[FP_ISO_MEMBER] = "member", [FP_ISO_LINK] = "link", [FP_ISO_GROUP] = "group"};

/* "rank 3 (h1)" or "ranks 2 (h1), 5 (h2)", with their GPUs where they run on one */
static void finding_ranks(char *text, size_t len, const fp_iso_finding_t *f, const iso_state_t *s)
{
    size_t used = (size_t)snprintf(text, len, "rank%s ", f->nranks > 1 ? "s" : "");
    for (int k = 0; k < f->nranks && used < len; k++) {
        used += (size_t)snprintf(text + used, len - used, "%s", k ? ", " : "");
        if (used < len)
            used += (size_t)rank_place(text + used, len - used, s, f->ranks[k]);
    }
}

static void finding_message(char *text, size_t len, const char *program, const fp_iso_finding_t *f,
                            const iso_state_t *s)
{
    char who[512];
    finding_ranks(who, sizeof who, f, s);
    static const char *const what[] = {
        [FP_ISO_MEMBER] = "slows %s: beside a known-good partner %.2f us a call [%.2f, %.2f] against %.2f us",
        [FP_ISO_LINK] = "slow together in %s, each fine beside a known-good partner: the link between them",
        [FP_ISO_GROUP] = "slow together in %s, no smaller group of them is: the slowness needs them together"};
    size_t used = (size_t)snprintf(text, len, "%s%s ", f->stands ? "" : "undecided: ", who);
    snprintf(text + used, len - used, what[f->kind], program, f->est.us, f->est.lo, f->est.hi, f->reference_us);
}

static void emit_result(fp_run_t *run, const iso_state_t *s, const fp_iso_result_t *res, double seconds)
{
    const fp_report_t *r = run->report;
    FILE *out = r && r->format != FP_FORMAT_CSV ? r->out : NULL;
    int json = r && r->format == FP_FORMAT_JSON, n = run->ctx.nranks;
    const fp_coll_ctx_t *c = fp_coll_ctx(&run->ctx);
    char text[1024];
    for (int i = 0; out && i < res->nrounds; i++)
        emit_round(out, json, s->bytes, i, &res->rounds[i], n, s);
    for (int i = 0; i < res->nfindings; i++) {
        const fp_iso_finding_t *f = &res->findings[i];
        finding_message(text, sizeof text, run->meta.program, f, s);
        if (f->stands)
            fprintf(stderr, "%s: isolate: %s\n", run->meta.program, text);
        if (!out)
            continue;
        if (json) {
            const members_t members = {.finding = f};
            fprintf(out, "{\"type\":\"isolate_finding\",\"size\":%zu,\"kind\":\"%s\",\"status\":\"%s\",", s->bytes,
                    kind_names[f->kind], f->stands ? "stands" : "undecided");
            ranks_json(out, &members, n, s);
            fprintf(out, ",\"round\":%d,\"us\":", f->round + 1);
            fp_json_number_or_null(out, f->est.us);
            fputs(",\"us_lo\":", out);
            fp_json_number_or_null(out, f->est.lo);
            fputs(",\"us_hi\":", out);
            fp_json_number_or_null(out, f->est.hi);
            fputs(",\"reference_us\":", out);
            fp_json_number_or_null(out, f->reference_us);
            fputs(",\"message\":", out);
            fp_json_string(out, text);
            fputs("}\n", out);
        } else {
            fprintf(out, "# isolate finding (round %d): %s\n", f->round + 1, text);
        }
    }
    if (out && !json && c->seed_note[0]) {
        fputs("# isolate: ", out);
        fp_text_string(out, c->seed_note);
        fputc('\n', out);
    }
    if (out && json) {
        fprintf(out, "{\"type\":\"isolate\",\"size\":%zu,\"ranks\":%d,\"mode\":\"%s\",", s->bytes, n,
                mode_names[s->mode]);
        if (s->suspect) {
            const members_t members = {.mask = s->suspect};
            fputs("\"suspects\":{", out);
            ranks_json(out, &members, n, s);
            fputs("},", out);
        }
        if (c->seed_note[0]) {
            fputs("\"suspects_from\":", out);
            fp_json_string(out, c->seed_note);
            fputc(',', out);
        }
        fprintf(out, "\"rounds\":%d,\"seconds\":%.6f,\"min_effect\":%g,\"samples\":%d,\"decided\":%s,\"reason\":",
                res->nrounds, seconds, FP_ISO_MIN_EFFECT, ISO_SAMPLES, res->decided ? "true" : "false");
        fp_json_string(out, res->reason);
        fputs("}\n", out);
    } else if (out && s->mode == ISO_MET) {
        fprintf(out, "# isolate at %zu bytes: no search: %s\n", s->bytes, res->reason);
    } else if (out) {
        fprintf(out, "# isolate at %zu bytes: %d rank(s)%s, %d round(s) in %.1f s, groups slow when %.0f %% slower "
                     "than known-good groups of their size (CIs apart)%s, %d samples a group: %s%s\n",
                s->bytes, n, s->mode == ISO_SUSPECTS ? " (--suspects confirmed, no search)" : "", res->nrounds, seconds,
                100.0 / (1.0 - FP_ISO_MIN_EFFECT) - 100.0,
                fp_expect_any(&run->params.expect) ? " or judged by --expect at their size where it decides" : "",
                ISO_SAMPLES,
                res->decided ? (res->nfindings ? "decided" : "no member slows it") : "undecided: ", res->reason);
    }
    if (out)
        fflush(out);
}

/* Rank 0: a standing finding fails the run (exit 3), an undecided search is inconclusive. */
static void verdict(fp_run_t *run, const fp_iso_result_t *res)
{
    int stands = 0;
    for (int i = 0; i < res->nfindings; i++)
        stands += res->findings[i].stands;
    run->expect_judged++;
    if (stands)
        run->expect_failures++;
    else if (!res->decided && run->expect_inconclusive++ == 0)
        snprintf(run->first_inconclusive, sizeof run->first_inconclusive, "isolate: %s", res->reason);
}

int fp_coll_isolate(fp_run_t *run, size_t bytes)
{
    fp_ctx_t *ctx = &run->ctx;
    iso_state_t s = {.run = run, .bytes = bytes};
    char mine[MPI_MAX_PROCESSOR_NAME + 1] = "";
    int len = 0, n = ctx->nranks, rc = FP_OK;
    MPI_Get_processor_name(mine, &len);
    if (ctx->rank == 0 && !(s.hosts = calloc((size_t)n, sizeof *s.hosts)))
        return fp_fail("calloc of %d host names failed", n);
    FP_MPI_CHECK(MPI_Gather(mine, sizeof mine, MPI_CHAR, s.hosts, sizeof mine, MPI_CHAR, 0, ctx->comm));
    char gpu[32];
    fp_gpu_bus_id(gpu, sizeof gpu); /* "" unless this rank runs on a GPU */
    if (ctx->rank == 0 && !(s.gpus = calloc((size_t)n, sizeof *s.gpus))) {
        free(s.hosts);
        return fp_fail("calloc of %d GPU names failed", n);
    }
    FP_MPI_CHECK(MPI_Gather(gpu, sizeof gpu, MPI_CHAR, s.gpus, sizeof gpu, MPI_CHAR, 0, ctx->comm));
    for (int r = 0; ctx->rank == 0 && r < n; r++)
        s.any_gpu |= s.gpus[r][0] != '\0';
    if (ctx->rank != 0)
        return follow(run, bytes);
    int *node = malloc((size_t)n * sizeof *node);
    fp_iso_result_t *res = calloc(1, sizeof *res);
    if (!node || !res)
        rc = fp_fail("malloc for the search of %d ranks failed", n);
    for (int r = 0; rc == FP_OK && r < n; r++) { /* a node: the first rank with that host name */
        node[r] = r;
        for (int q = 0; q < r; q++)
            if (!strcmp(s.hosts[q], s.hosts[r])) {
                node[r] = node[q];
                break;
            }
    }
    /* The whole communicator already meets --expect at this size: nothing to search for. */
    if (fp_expect_any(&run->params.expect) && run->last_verdict == FP_VERDICT_PASS && run->last_verdict_size == bytes)
        s.mode = ISO_MET;
    else if (run->params.suspects)
        s.mode = ISO_SUSPECTS;
    const char **names = s.mode == ISO_SUSPECTS ? malloc((size_t)n * sizeof *names) : NULL;
    if (rc == FP_OK && s.mode == ISO_SUSPECTS && (!names || !(s.suspect = malloc((size_t)n))))
        rc = fp_fail("malloc for the suspects of %d ranks failed", n);
    for (int r = 0; rc == FP_OK && names && r < n; r++)
        names[r] = s.hosts[r];
    if (rc == FP_OK && s.suspect)
        fp_suspects_mark(run->params.suspects, n, names, s.suspect);
    double start = MPI_Wtime();
    if (rc == FP_OK && s.mode == ISO_MET) {
        res->decided = 1;
        snprintf(res->reason, sizeof res->reason, "the whole communicator meets --expect at this size (pass)");
    } else if (rc == FP_OK && (s.mode == ISO_SUSPECTS ? fp_iso_confirm_suspects(n, s.suspect, measure_round, &s, res)
                                                      : fp_iso_search(n, node, measure_round, &s, res)) != 0)
        rc = FP_ERR;
    if (rc == FP_OK && s.mode != ISO_MET)
        fp_iso_whole_shortfall(res, run->last_verdict_size == bytes ? run->last_verdict : FP_VERDICT_NONE);
    int stop = -1;
    if (rc == FP_OK) {
        MPI_Bcast(&stop, 1, MPI_INT, 0, ctx->comm);
        emit_result(run, &s, res, MPI_Wtime() - start);
        if (s.mode != ISO_MET) /* the size's own verdict stands */
            verdict(run, res);
    }
    free(names);
    free(s.suspect);
    if (res)
        fp_iso_free(res);
    free(res);
    free(node);
    free(s.hosts);
    free(s.gpus);
    return rc;
}
