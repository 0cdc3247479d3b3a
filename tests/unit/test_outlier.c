/* Median polish and the judgement of pair matrices, on synthetic matrices with known faults. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "outlier.h"

#define N 6
#define MAXF 64

/* Deterministic noise in [-1, 1). */
static double noise(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return ((*state >> 8) & 0xffff) / 32768.0 - 1.0;
}

/* n x n bandwidth-like matrix around `typical` with +-jitter relative noise and +-ci relative CIs. */
static void healthy(fp_cell_t *c, size_t n, double typical, double jitter, double ci, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            fp_cell_t *x = &c[i * n + j];
            double m = typical * (1.0 + jitter * noise(&seed));
            *x = i == j ? (fp_cell_t){NAN, NAN, NAN} : (fp_cell_t){m, m * (1.0 - ci), m * (1.0 + ci)};
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
    CHECK(fp_outliers_find(n, c, higher_is_better, f, MAXF, &count) == 0);
    return count;
}

static void test_polish_additive(void)
{
    /* y = 10 + a_i + b_j exactly: effects recovered up to their medians, residuals zero. */
    const double a[4] = {0, 1, 2, -3}, b[4] = {5, 0, -1, 1};
    double y[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            y[i * 4 + j] = 10 + a[i] + b[j];
    fp_polish_t p;
    CHECK(fp_median_polish(4, y, 20, &p) == 0);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            CHECK_NEAR(p.resid[i * 4 + j], 0, 1e-9);
            CHECK_NEAR(p.overall + p.sender[i] + p.receiver[j], y[i * 4 + j], 1e-9);
        }
    CHECK_NEAR(p.sender[3] - p.sender[0], -3, 1e-9);
    CHECK_NEAR(p.receiver[0] - p.receiver[1], 5, 1e-9);
    fp_polish_free(&p);
}

static void test_polish_missing(void)
{
    /* The diagonal missing; one wild cell does not move the effects. */
    double y[16];
    for (int k = 0; k < 16; k++)
        y[k] = k % 5 ? 1 : NAN;
    y[2 * 4 + 1] = 100;
    fp_polish_t p;
    CHECK(fp_median_polish(4, y, 20, &p) == 0);
    CHECK(isnan(p.resid[0]) && isnan(p.resid[5]));
    CHECK_NEAR(p.overall, 1, 1e-9);
    CHECK_NEAR(p.sender[2], 0, 1e-9);
    CHECK_NEAR(p.receiver[1], 0, 1e-9);
    CHECK_NEAR(p.resid[2 * 4 + 1], 99, 1e-9);
    fp_polish_free(&p);
    double x[5] = {NAN, 3, 1, NAN, 2};
    CHECK_NEAR(fp_median_finite(x, 5), 2, 0);
}

static void test_healthy_no_finding(void)
{
    fp_cell_t c[N * N];
    fp_finding_t f[MAXF];
    for (unsigned seed = 1; seed < 50; seed++) {
        healthy(c, N, 1000, 0.03, 0.03, seed);
        CHECK(judge(c, N, 1, f) == 0);
        CHECK(judge(c, N, 0, f) == 0);
    }
}

static void test_slow_sender(void)
{
    fp_cell_t c[N * N];
    fp_finding_t f[MAXF];
    healthy(c, N, 1000, 0.05, 0.03, 7);
    for (int j = 0; j < N; j++)
        if (j != 2)
            scale_cell(&c[2 * N + j], 0.1);
    CHECK(judge(c, N, 1, f) == 1);
    CHECK(f[0].kind == FP_FIND_SENDER && f[0].a == 2 && f[0].b == -1);
    CHECK(f[0].cells == N - 1 && f[0].confirmed == N - 1);
    CHECK(f[0].median > 90 && f[0].median < 110 && f[0].lo < f[0].median && f[0].hi > f[0].median);
    CHECK(f[0].typical > 900 && f[0].typical < 1100);
}

static void test_slow_receiver_and_node(void)
{
    fp_cell_t c[N * N];
    fp_finding_t f[MAXF];
    healthy(c, N, 1000, 0.05, 0.03, 11);
    for (int i = 0; i < N; i++)
        if (i != 4)
            scale_cell(&c[i * N + 4], 0.1);
    CHECK(judge(c, N, 1, f) == 1);
    CHECK(f[0].kind == FP_FIND_RECEIVER && f[0].a == 4);
    for (int j = 0; j < N; j++)
        if (j != 4)
            scale_cell(&c[4 * N + j], 0.2);
    CHECK(judge(c, N, 1, f) == 1);
    CHECK(f[0].kind == FP_FIND_NODE && f[0].a == 4 && f[0].cells == 2 * (N - 1));
}

static void test_slow_links(void)
{
    fp_cell_t c[N * N];
    fp_finding_t f[MAXF];
    healthy(c, N, 1000, 0.05, 0.03, 13);
    scale_cell(&c[1 * N + 3], 0.3);
    CHECK(judge(c, N, 1, f) == 1);
    CHECK(f[0].kind == FP_FIND_LINK && f[0].a == 1 && f[0].b == 3);
    CHECK_NEAR(f[0].median, c[1 * N + 3].median, 0);
    scale_cell(&c[3 * N + 1], 0.3);
    CHECK(judge(c, N, 1, f) == 1);
    CHECK(f[0].kind == FP_FIND_LINK_BOTH && f[0].a == 1 && f[0].b == 3);
    CHECK_NEAR(f[0].median2, c[3 * N + 1].median, 0);
}

static void test_latency_orientation(void)
{
    /* Latency: higher is worse; node 0 slow as sender is ten times the latency. */
    fp_cell_t c[N * N];
    fp_finding_t f[MAXF];
    healthy(c, N, 20, 0.05, 0.03, 17);
    for (int j = 1; j < N; j++)
        scale_cell(&c[j], 10);
    CHECK(judge(c, N, 0, f) == 1);
    CHECK(f[0].kind == FP_FIND_SENDER && f[0].a == 0);
    CHECK(f[0].median > 150 && f[0].typical < 25);
    /* the same matrix read as bandwidth has fast, not slow, cells */
    CHECK(judge(c, N, 1, f) == 0);
}

static void test_wide_cis_not_confirmed(void)
{
    /* A row 30 % low stands out of the others, but its cells' CIs (+-50 %) reach the typical value. */
    fp_cell_t c[N * N];
    fp_finding_t f[MAXF];
    healthy(c, N, 1000, 0.01, 0.5, 19);
    for (int j = 0; j < N; j++)
        if (j != 5)
            scale_cell(&c[5 * N + j], 0.7);
    CHECK(judge(c, N, 1, f) == 0);
}

static void test_sampled_matrix(void)
{
    /* 16 nodes, only shifts 1, 8 and 15 measured (a symmetric set): the slow sender is found. */
    enum { M = 16 };
    static fp_cell_t c[M * M];
    fp_finding_t f[MAXF];
    healthy(c, M, 1000, 0.05, 0.03, 23);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++) {
            int k = (j - i + M) % M;
            if (k != 1 && k != 8 && k != 15)
                c[i * M + j] = (fp_cell_t){NAN, NAN, NAN};
        }
    for (int j = 0; j < M; j++)
        if (!isnan(c[9 * M + j].median))
            scale_cell(&c[9 * M + j], 0.1);
    CHECK(judge(c, M, 1, f) == 1);
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

int main(void)
{
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
