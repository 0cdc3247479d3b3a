/* Median polish and the judgement of pair matrices, on synthetic matrices with known faults. */
#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "check.h"
#include "outlier.h"

#define N 6
#define MAXF 64
#define MAXN 16

/* Every shift 1..n-1: every ordered pair once. */
static size_t all_shifts[MAXN];
static fp_shifts_t full(size_t n)
{
    for (size_t k = 1; k < n; k++)
        all_shifts[k - 1] = k;
    return (fp_shifts_t){n, n - 1, all_shifts};
}

/* The cell i -> j of a full sweep. */
static fp_cell_t *at(fp_cell_t *c, size_t n, size_t i, size_t j)
{
    return &c[((j + n - i) % n - 1) * n + i];
}

/* Deterministic noise in [-1, 1). */
static double noise(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return ((*state >> 8) & 0xffff) / 32768.0 - 1.0;
}

/* Full sweep of n nodes around `typical` with +-jitter relative noise and +-ci relative CIs. */
static void healthy(fp_cell_t *c, size_t n, double typical, double jitter, double ci, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double m = typical * (1.0 + jitter * noise(&seed));
            if (i != j)
                *at(c, n, i, j) = (fp_cell_t){m, m * (1.0 - ci), m * (1.0 + ci)};
        }
}

static void scale_cell(fp_cell_t *c, double f)
{
    c->median *= f;
    c->lo *= f;
    c->hi *= f;
}

static size_t judge(const fp_cell_t *c, size_t n, int higher_is_better, fp_finding_t *f)
{
    size_t count = 0;
    fp_shifts_t layout = full(n);
    fp_judge_opts_t o = {.higher_is_better = higher_is_better, .with_rounds = 1};
    CHECK(fp_outliers_find(&layout, c, &o, f, MAXF, &count, NULL) == 0);
    return count;
}

/* y = 10 + a_i + b_j over a full sweep of 4 nodes: effects recovered up to their medians, residuals
 * zero. (With the diagonal missing, median polish is exact when no more than one node stands out
 * as a receiver: a row's median then ignores it.) */
static void check_additive(const double a[4], const double b[4])
{
    double y[12];
    fp_shifts_t L = full(4);
    for (size_t r = 0; r < 3; r++)
        for (size_t i = 0; i < 4; i++)
            y[r * 4 + i] = 10 + a[i] + b[(i + L.shift[r]) % 4];
    fp_polish_t p;
    CHECK(fp_median_polish(&L, y, 20, 0, &p) == 0);
    for (size_t r = 0; r < 3; r++)
        for (size_t i = 0; i < 4; i++) {
            CHECK_NEAR(p.resid[r * 4 + i], 0, 1e-9);
            CHECK_NEAR(p.overall + p.sender[i] + p.receiver[(i + L.shift[r]) % 4], y[r * 4 + i], 1e-9);
        }
    CHECK_NEAR(p.sender[3] - p.sender[0], a[3] - a[0], 1e-9);
    CHECK_NEAR(p.receiver[0] - p.receiver[1], b[0] - b[1], 1e-9);
    fp_polish_free(&p);
}

static void test_polish_additive(void)
{
    const double a[4] = {0, 1, 2, -3}, b[4] = {0, 0, 0, -3}, flat[4] = {0, 0, 0, 0};
    check_additive(a, flat);
    check_additive(flat, b);
    check_additive(a, b);
}

static void test_polish_missing(void)
{
    /* 4 nodes, one wild cell (2 -> 1) does not move the effects; a missing cell stays missing. */
    double y[12];
    fp_shifts_t L = full(4);
    for (int k = 0; k < 12; k++)
        y[k] = 1;
    y[(3 - 1) * 4 + 2] = 100; /* 2 -> 1 is shift 3 */
    y[1 * 4 + 0] = NAN; /* 0 -> 2 */
    fp_polish_t p;
    CHECK(fp_median_polish(&L, y, 20, 0, &p) == 0);
    CHECK(isnan(p.resid[1 * 4 + 0]));
    CHECK_NEAR(p.overall, 1, 1e-9);
    CHECK_NEAR(p.sender[2], 0, 1e-9);
    CHECK_NEAR(p.receiver[1], 0, 1e-9);
    CHECK_NEAR(p.resid[(3 - 1) * 4 + 2], 99, 1e-9);
    CHECK_NEAR(p.resid[fp_shifts_recv_index(&L, 2, 1)], 99, 1e-9);
    fp_polish_free(&p);
    double x[5] = {NAN, 3, 1, NAN, 2};
    CHECK_NEAR(fp_median_finite(x, 5), 2, 0);
}

static void test_healthy_no_finding(void)
{
    fp_cell_t c[N * (N - 1)];
    fp_finding_t f[MAXF];
    for (unsigned seed = 1; seed < 50; seed++) {
        healthy(c, N, 1000, 0.03, 0.03, seed);
        CHECK(judge(c, N, 1, f) == 0);
        CHECK(judge(c, N, 0, f) == 0);
    }
}

static void test_slow_sender(void)
{
    fp_cell_t c[N * (N - 1)];
    fp_finding_t f[MAXF];
    healthy(c, N, 1000, 0.05, 0.03, 7);
    for (int j = 0; j < N; j++)
        if (j != 2)
            scale_cell(at(c, N, 2, j), 0.1);
    CHECK(judge(c, N, 1, f) == 1);
    CHECK(f[0].kind == FP_FIND_SENDER && f[0].a == 2 && f[0].b == -1);
    CHECK(f[0].cells == N - 1 && f[0].confirmed == N - 1);
    CHECK(f[0].median > 90 && f[0].median < 110 && f[0].lo < f[0].median && f[0].hi > f[0].median);
    CHECK(f[0].typical > 900 && f[0].typical < 1100);
}

static void test_slow_receiver_and_node(void)
{
    fp_cell_t c[N * (N - 1)];
    fp_finding_t f[MAXF];
    healthy(c, N, 1000, 0.05, 0.03, 11);
    for (int i = 0; i < N; i++)
        if (i != 4)
            scale_cell(at(c, N, i, 4), 0.1);
    CHECK(judge(c, N, 1, f) == 1);
    CHECK(f[0].kind == FP_FIND_RECEIVER && f[0].a == 4);
    for (int j = 0; j < N; j++)
        if (j != 4)
            scale_cell(at(c, N, 4, j), 0.2);
    /* slow both ways: one finding per role, each re-tested on its own */
    CHECK(judge(c, N, 1, f) == 2);
    CHECK(f[0].kind == FP_FIND_SENDER && f[0].a == 4 && f[0].cells == N - 1);
    CHECK(f[1].kind == FP_FIND_RECEIVER && f[1].a == 4 && f[1].cells == N - 1);
}

static void test_slow_links(void)
{
    fp_cell_t c[N * (N - 1)];
    fp_finding_t f[MAXF];
    healthy(c, N, 1000, 0.05, 0.03, 13);
    scale_cell(at(c, N, 1, 3), 0.3);
    CHECK(judge(c, N, 1, f) == 1);
    CHECK(f[0].kind == FP_FIND_LINK && f[0].a == 1 && f[0].b == 3);
    CHECK_NEAR(f[0].median, at(c, N, 1, 3)->median, 0);
    scale_cell(at(c, N, 3, 1), 0.3);
    CHECK(judge(c, N, 1, f) == 1);
    CHECK(f[0].kind == FP_FIND_LINK_BOTH && f[0].a == 1 && f[0].b == 3);
    CHECK_NEAR(f[0].median2, at(c, N, 3, 1)->median, 0);
}

static void test_latency_orientation(void)
{
    /* Latency: higher is worse; node 0 slow as sender is ten times the latency. */
    fp_cell_t c[N * (N - 1)];
    fp_finding_t f[MAXF];
    healthy(c, N, 20, 0.05, 0.03, 17);
    for (int j = 1; j < N; j++)
        scale_cell(at(c, N, 0, j), 10);
    CHECK(judge(c, N, 0, f) == 1);
    CHECK(f[0].kind == FP_FIND_SENDER && f[0].a == 0);
    CHECK(f[0].median > 150 && f[0].typical < 25);
    /* the same matrix read as bandwidth has fast, not slow, cells */
    CHECK(judge(c, N, 1, f) == 0);
}

static void test_wide_cis_not_confirmed(void)
{
    /* A row 30 % low stands out of the others, but its cells' CIs (+-50 %) reach the typical value. */
    fp_cell_t c[N * (N - 1)];
    fp_finding_t f[MAXF];
    healthy(c, N, 1000, 0.01, 0.5, 19);
    for (int j = 0; j < N; j++)
        if (j != 5)
            scale_cell(at(c, N, 5, j), 0.7);
    CHECK(judge(c, N, 1, f) == 0);
}

static void test_sampled_matrix(void)
{
    /* 16 nodes, only shifts 1, 8 and 15 measured (a symmetric set): 48 cells, not 240; the slow
     * sender is found from its three cells. */
    enum { M = 16 };
    static const size_t shifts[3] = {1, 8, 15};
    fp_shifts_t L = {M, 3, shifts};
    fp_cell_t c[3 * M];
    fp_finding_t f[MAXF];
    unsigned seed = 23;
    for (size_t k = 0; k < 3 * M; k++) {
        double m = 1000 * (1.0 + 0.03 * noise(&seed)) * (k % M == 9 ? 0.1 : 1.0);
        c[k] = (fp_cell_t){m, m * 0.97, m * 1.03};
    }
    size_t count = 0;
    fp_judge_opts_t o = {.higher_is_better = 1, .with_rounds = 1};
    CHECK(fp_outliers_find(&L, c, &o, f, MAXF, &count, NULL) == 0);
    CHECK(count == 1);
    CHECK(f[0].kind == FP_FIND_SENDER && f[0].a == 9 && f[0].cells == 3);
}

static void test_format(void)
{
    const char *names[] = {"h1", "h2", "h3"};
    fp_finding_t f = {.kind = FP_FIND_SENDER, .a = 2, .b = -1, .median = 11.6, .lo = 11.2, .hi = 11.9,
                      .typical = 116, .cells = 5, .confirmed = 5};
    char line[256];
    fp_finding_format(&f, names, "MB/s", line, sizeof line);
    CHECK_STR(line, "slow node h3 as sender: 11.6 MB/s [11.2, 11.9] over 5 cells, typical 116 MB/s (0.10 x)");
    f.kind = FP_FIND_LINK;
    f.b = 0;
    fp_finding_format(&f, NULL, "us", line, sizeof line);
    CHECK_STR(line, "slow link rank 2 -> rank 0: 11.6 us [11.2, 11.9], typical 116 us (0.10 x)");
    CHECK_STR(fp_finding_kind_name(FP_FIND_LINK_BOTH), "link-both");
}

/* The re-test: stands, cleared or undecided, from suspect cells beside healthy ones alone. */
static void test_retest_decide(void)
{
    fp_cell_t healthy[3] = {{1000, 950, 1050}, {1000, 960, 1040}, {1000, 940, 1060}};
    fp_cell_t slow[3] = {{100, 95, 105}, {110, 100, 120}, {900, 800, 990}}, s, h;
    /* two of three slow beyond their CIs and below 0.75 x: stands; the medians of the measured */
    CHECK(fp_retest_decide(slow, healthy, 3, 1, 0.25, 0, &s, &h) == FP_RETEST_STANDS);
    CHECK_NEAR(s.median, 110, 0);
    CHECK_NEAR(h.lo, 950, 0);
    /* a link's cell re-measured three times stands only when all three were slow */
    CHECK(fp_retest_decide(slow, healthy, 3, 1, 0.25, 1, &s, &h) == FP_RETEST_UNDECIDED);
    CHECK(fp_retest_decide(slow, healthy, 2, 1, 0.25, 1, &s, &h) == FP_RETEST_STANDS);
    /* 0.8 x is not material at --min-effect 0.25: cleared, however apart the CIs */
    fp_cell_t near[3] = {{800, 790, 810}, {800, 790, 810}, {800, 790, 810}};
    CHECK(fp_retest_decide(near, healthy, 3, 1, 0.25, 0, &s, &h) == FP_RETEST_CLEARED);
    /* material but CIs overlapping: neither slow nor fine: undecided */
    fp_cell_t wide[3] = {{600, 100, 1200}, {600, 100, 1200}, {600, 100, 1200}};
    CHECK(fp_retest_decide(wide, healthy, 3, 1, 0.25, 0, &s, &h) == FP_RETEST_UNDECIDED);
    /* latency: higher is worse; 10 us against 1 us stands */
    fp_cell_t lat_h[1] = {{1, 0.9, 1.1}}, lat_s[1] = {{10, 9, 11}};
    CHECK(fp_retest_decide(lat_s, lat_h, 1, 0, 0.25, 0, &s, &h) == FP_RETEST_STANDS);
    /* a pair the budget did not reach decides nothing */
    fp_cell_t none[2] = {{NAN, NAN, NAN}, {NAN, NAN, NAN}};
    CHECK(fp_retest_decide(none, healthy, 2, 1, 0.25, 0, &s, &h) == FP_RETEST_UNDECIDED && isnan(s.median));
    /* a link that stood, on a machine too noisy to judge its matrix: undecided unless slower alone
     * than the matrix's noise floor lets a healthy link be */
    fp_cell_t alone = {400, 390, 410}, ref = {1000, 990, 1010};
    CHECK(fp_retest_within_noise(&alone, &ref, 1, 3.8));  /* 2.5 x < 3.8 x */
    CHECK(!fp_retest_within_noise(&alone, &ref, 1, 2.1)); /* 2.5 x >= 2.1 x */
    CHECK(!fp_retest_within_noise(&alone, &ref, 1, 1.0)); /* a decided matrix: no floor */
    CHECK(fp_retest_within_noise(&(fp_cell_t){25, 24, 26}, &(fp_cell_t){10, 9, 11}, 0, 3.0)); /* latency 2.5 x */
    CHECK(!fp_retest_within_noise(&none[0], &ref, 1, 3.8)); /* not measured: nothing to say */
    CHECK_STR(fp_retest_name(FP_RETEST_CLEARED), "cleared");
    CHECK_NEAR(fp_normal_upper_quantile(0.025), 1.959963985, 1e-6);
    CHECK_NEAR(fp_normal_upper_quantile(0.05 / 30), 2.935199, 1e-5);
}

/* A matrix whose cells scatter too widely for a 2x link to show is not decided, and says why; a 10x
 * slow sender in a quiet matrix does not make it so (its own cells' residuals do not count). */
/* A link slow both ways in the sweep, each way re-tested alone three times: one slow way stands
 * alone as that one-way link (its way back was slow only under the sweep's load), never cleared
 * with the other; both slow stand both; both fine are cleared. */
static void test_retest_two_ways(void)
{
    fp_cell_t slow[3] = {{100, 95, 105}, {110, 104, 116}, {90, 86, 95}}, fine[3], healthy[3];
    for (int i = 0; i < 3; i++) {
        healthy[i] = (fp_cell_t){1000, 950, 1050};
        fine[i] = (fp_cell_t){980, 930, 1030};
    }
    size_t count[2] = {3, 3};
    fp_cell_t alone, typical;
    int ways = -1;
    const fp_cell_t *const back_slow[2] = {fine, slow}, *const both[2] = {slow, slow}, *const none[2] = {fine, fine},
                           *const there_slow[2] = {slow, fine}, *const h[2] = {healthy, healthy};
    CHECK(fp_retest_two_ways(back_slow, h, count, 1, 0.25, &ways, &alone, &typical) == FP_RETEST_STANDS && ways == 2);
    CHECK_NEAR(alone.median, 100, 0); /* the way that stands */
    CHECK_NEAR(typical.median, 1000, 0);
    CHECK(fp_retest_two_ways(there_slow, h, count, 1, 0.25, &ways, &alone, &typical) == FP_RETEST_STANDS && ways == 1);
    CHECK(fp_retest_two_ways(both, h, count, 1, 0.25, &ways, &alone, &typical) == FP_RETEST_STANDS && ways == 3);
    CHECK(fp_retest_two_ways(none, h, count, 1, 0.25, &ways, &alone, &typical) == FP_RETEST_CLEARED && ways == 0);
    fp_cell_t mixed[3] = {slow[0], fine[1], slow[2]}; /* one way slow twice of three: not every run */
    const fp_cell_t *const half[2] = {mixed, fine};
    CHECK(fp_retest_two_ways(half, h, count, 1, 0.25, &ways, &alone, &typical) == FP_RETEST_UNDECIDED && ways == 0);
}

static void test_too_noisy(void)
{
    fp_cell_t c[N * (N - 1)];
    fp_finding_t f[MAXF];
    fp_shifts_t layout = full(N);
    fp_judge_opts_t o = {.higher_is_better = 1, .with_rounds = 1};
    fp_judge_summary_t s;
    size_t count;
    healthy(c, N, 1000, 0.9, 0.03, 21);
    CHECK(fp_outliers_find(&layout, c, &o, f, MAXF, &count, &s) == 0);
    CHECK(!s.decided && strncmp(s.reason, "too noisy to judge: cell noise ", 31) == 0);
    CHECK(strstr(s.reason, "; more operations per cell (-i) would narrow it") != NULL);
    /* the floor a link must pass alone is the resolution the reason states */
    const char *said = strstr(s.reason, "only links slower than ");
    CHECK(said && s.link_floor > FP_JUDGE_MAX_RESOLUTION &&
          fabs(atof(said + strlen("only links slower than ")) - s.link_floor) <= 0.05);
    /* too noisy: a node whose cells are material (0.3 x) goes to the re-test, significant or not */
    for (int j = 0; j < N; j++)
        if (j != 5)
            scale_cell(at(c, N, 5, j), 0.3);
    CHECK(fp_outliers_find(&layout, c, &o, f, MAXF, &count, &s) == 0);
    int sender5 = 0;
    for (size_t k = 0; k < count; k++)
        sender5 |= f[k].kind == FP_FIND_SENDER && f[k].a == 5;
    CHECK(!s.decided && sender5);
    healthy(c, N, 1000, 0.05, 0.03, 23);
    for (int j = 0; j < N; j++)
        if (j != 2)
            scale_cell(at(c, N, 2, j), 0.1);
    CHECK(fp_outliers_find(&layout, c, &o, f, MAXF, &count, &s) == 0);
    CHECK(s.decided && count == 1 && f[0].kind == FP_FIND_SENDER && f[0].a == 2);
    CHECK_NEAR(s.link_floor, 1.0, 0); /* decided: a link's re-test alone decides it */
}

/* Identical cells (a known clock) with one slow link or sender: the residuals that differ from the
 * median are the outliers alone, which must not size the noise themselves (they did: a 2x link on
 * four nodes made a noise of 367 % and the matrix "too noisy to judge"). */
static void test_exact_matrix(void)
{
    for (size_t n = 4; n <= 6; n += 2) {
        fp_cell_t c[6 * 5];
        fp_finding_t f[MAXF];
        fp_shifts_t layout = full(n);
        fp_judge_opts_t o = {.higher_is_better = 1, .with_rounds = 1};
        fp_judge_summary_t s;
        size_t count;
        for (size_t k = 0; k < n * (n - 1); k++)
            c[k] = (fp_cell_t){1000, 900, 1100};
        CHECK(fp_outliers_find(&layout, c, &o, f, MAXF, &count, &s) == 0);
        CHECK(s.decided && count == 0);
        scale_cell(at(c, n, 1, 2), 0.5);
        CHECK(fp_outliers_find(&layout, c, &o, f, MAXF, &count, &s) == 0);
        CHECK(s.decided && count == 1 && f[0].kind == FP_FIND_LINK && f[0].a == 1 && f[0].b == 2);
        CHECK_NEAR(s.sigma, log(1100.0 / 900.0) / (2 * 1.96), 1e-9); /* the cells' CIs: the floor */
    }
}

/* A sampled sweep of 16 oversubscribed ranks on 2 cores (three shifts, measured here): cell noise
 * 24 %, and rank 4's link to rank 12 slowed 2x by the fault library (741 MB/s; its row and column
 * about 1,400). The noise alone (2.5 sd: 1.7 x) says a 2x link would show; with three cells per
 * node the link's own cell drags its nodes' effects and the screen does not see it. The judge
 * measures that on the matrix (a probe of slowed cells) and says it cannot judge, instead of a
 * pass that names nothing. */
static void test_resolution_measured(void)
{
    enum { M = 16 };
    static const size_t shifts[3] = {4, 8, 12};
    static const double v[3 * M] = {1410, 1494, 1354, 1284, 1493, 1667, 1584, 1305, 1370, 2080, 2167, 1585,
                                    2130, 1961, 1297, 1561, 1504, 1238, 1762, 1544, 741,  1713, 1232, 1514,
                                    2102, 1132, 1827, 1847, 1202, 1811, 1130, 1457, 1787, 1296, 1501, 1372,
                                    1378, 2294, 1536, 1108, 1676, 1217, 1693, 1605, 1154, 1579, 1259, 1404};
    fp_shifts_t L = {M, 3, shifts};
    fp_cell_t c[3 * M];
    fp_finding_t f[MAXF];
    fp_judge_summary_t s;
    size_t count = 0;
    for (size_t k = 0; k < 3 * M; k++)
        c[k] = (fp_cell_t){v[k], v[k] * 0.96, v[k] * 1.04};
    fp_judge_opts_t o = {.higher_is_better = 1, .with_rounds = 1};
    CHECK(fp_outliers_find(&L, c, &o, f, MAXF, &count, &s) == 0);
    CHECK(!s.decided && strncmp(s.reason, "a 2 x link would not show: cell noise 24 %, yet only links slower than ",
                                  71) == 0);
    /* 3 of 15 shifts: more rounds would help, and the reason says so */
    CHECK(strstr(s.reason, "(cells slowed and screened again); more rounds (--rounds) or operations per cell (-i) "
                           "would narrow it") != NULL);
    CHECK(exp(FP_LINK_Z * s.sigma) < FP_JUDGE_MAX_RESOLUTION); /* what the noise alone would claim */
    /* a re-test alone keeps the noise's floor: the screen's blindness does not make it doubtful */
    CHECK_NEAR(s.link_floor, exp(FP_LINK_Z * s.sigma), 0.5);
    CHECK(s.link_floor > 1.0 && s.link_floor < FP_JUDGE_MAX_RESOLUTION);
    char text[32];
    fp_resolution_text(INFINITY, text, sizeof text);
    CHECK_STR(text, "10 x (or none)");
    fp_resolution_text(2.5, text, sizeof text);
    CHECK_STR(text, "2.5 x");
    /* the same matrix on a quiet machine (cells within 4 %): decided, and the link found */
    for (size_t k = 0; k < 3 * M; k++) {
        double m = (k == 2 * M + 4 - M ? 700.0 : 1400.0) * (1.0 + 0.04 * ((double)(k % 5) - 2.0) / 2.0);
        c[k] = (fp_cell_t){m, m * 0.98, m * 1.02};
    }
    CHECK(fp_outliers_find(&L, c, &o, f, MAXF, &count, &s) == 0);
    CHECK(s.decided && count == 1 && f[0].kind == FP_FIND_LINK && f[0].a == 4 && f[0].b == 12);
}

int main(void)
{
    test_exact_matrix();
    test_resolution_measured();
    test_too_noisy();
    test_retest_decide();
    test_retest_two_ways();
    test_polish_additive();
    test_polish_missing();
    test_healthy_no_finding();
    test_slow_sender();
    test_slow_receiver_and_node();
    test_slow_links();
    test_latency_orientation();
    test_wide_cis_not_confirmed();
    test_sampled_matrix();
    test_format();
    return CHECK_DONE();
}
