/* A soak's judge (soak.h) on series whose answer is known: two steps in one series found at their
 * cycles, a cell's step named by its ranks, the budget split between sizes and cells, and on
 * synthetic all-pairs soaks (4, 6 and 8 nodes: 12, 30 and 56 cells) the false-alarm and detection
 * rates of a step in one cell (FP_POWER_TABLE=1 prints the table). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "soak.h"
#include "synthetic.h"

/* The judge's JSON records into text, nothing on standard error. */
static fp_soak_summary_t judge(fp_soak_t *s, char **text)
{
    size_t len;
    FILE *out = open_memstream(text, &len);
    fp_soak_summary_t summary;
    fp_soak_judge(s, out, FP_FORMAT_JSON, NULL, "bandwidth", "MB/s", 1, 0, 1, &summary);
    fclose(out);
    return summary;
}

static int count_of(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p++)
        n++;
    return n;
}

static void test_two_steps(void)
{
    fp_soak_t *s = fp_soak_new();
    /* 12 cycles at 100, 12 at 50, 12 at 100 (1% ripple): a fall at cycle 13, a rise at cycle 25 */
    for (long c = 1; c <= 36; c++)
        fp_soak_add(s, c, 4096, (c <= 12 || c > 24 ? 100 : 50) * (1 + 0.01 * (double)(c % 3)), (double)c, "");
    char *text;
    fp_soak_summary_t sum = judge(s, &text);
    CHECK(sum.tested && sum.steps == 2 && sum.cells == 0);
    CHECK_NEAR(sum.alpha, 0.05, 0);
    CHECK(count_of(text, "\"type\":\"step\",\"size\":4096,\"cell\":null,\"cycle\":13,") == 1);
    CHECK(count_of(text, "\"type\":\"step\",\"size\":4096,\"cell\":null,\"cycle\":25,") == 1);
    CHECK(count_of(text, "steps down 50.0% at cycle 13") == 1 && count_of(text, "steps up 100.0% at cycle 25") == 1);
    free(text);
    fp_soak_free(s);
}

/* A 4-node soak, one size: cell 1 -> 3 halves at cycle 16 of 30; every other cell and the size's
 * median stay. The cell's step is named; the budget is split (sizes 0.025, cells 0.025 / 12). */
static void test_cell_step(void)
{
    fp_soak_t *s = fp_soak_new();
    for (long c = 1; c <= 30; c++) {
        fp_soak_add(s, c, 65536, 1000 * (1 + 0.01 * (double)(c % 4)), (double)c, "");
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++) {
                if (a == b)
                    continue;
                char label[32];
                snprintf(label, sizeof label, "n%d -> n%d", a, b);
                double v = 1000 * (1 + 0.01 * (double)((c + a + b) % 4));
                if (a == 1 && b == 3 && c >= 16)
                    v /= 2;
                fp_soak_add_cell(s, c, 65536, a, b, label, v, (double)c, c == 16 && a == 1 ? "mlx5_1:1@n1: 2 link downed" : "");
            }
    }
    char *text;
    fp_soak_summary_t sum = judge(s, &text);
    CHECK(sum.tested && sum.steps == 1 && sum.cell_steps == 1 && sum.cells == 12 && sum.sizes == 1);
    CHECK_NEAR(sum.alpha, 0.025, 1e-15);
    CHECK_NEAR(sum.cell_alpha, 0.025 / 12, 1e-15);
    CHECK(count_of(text, "\"cell\":{\"from\":1,\"to\":3,\"name\":\"n1 -> n3\"},\"cycle\":16,") == 1);
    CHECK(count_of(text, "bandwidth of cell 1 -> 3 (n1 -> n3) at 65536 steps down 50.5% at cycle 16") == 1);
    CHECK(count_of(text, "coincident with link errors: mlx5_1:1@n1: 2 link downed") == 1);
    CHECK(count_of(text, "12 cells each searched (budget 0.0021 each): 1 step") == 1);
    free(text);
    fp_soak_free(s);

    /* 12 cycles: the size can be judged, the cells cannot: undecided, said. */
    s = fp_soak_new();
    for (long c = 1; c <= 14; c++) {
        fp_soak_add(s, c, 8, 5, (double)c, "");
        fp_soak_add_cell(s, c, 8, 0, 1, "a -> b", 5, (double)c, "");
        fp_soak_add_cell(s, c, 8, 1, 0, "b -> a", c == 3 ? NAN : 5, (double)c, "");
    }
    sum = judge(s, &text);
    CHECK(!sum.tested && sum.steps == 0 && sum.cells == 2 && !sum.cells_tested);
    CHECK(count_of(text, "cells undecided: a step in 2 cells needs at least") == 1);
    CHECK(count_of(text, "\"decided\":false") == 1);
    free(text);
    fp_soak_free(s);
}

/* Share of `trials` synthetic soaks of n nodes (one size, `cycles` cycles, 5% normal noise, every
 * cell at 1000) claiming any step; with change != 0, cell 0 -> 1 steps by it at a cycle in the
 * middle half, and *named counts soaks whose only step is that cell's. */
static double soak_rate(int n, long cycles, double change, int trials, double *named)
{
    int claimed = 0, right = 0;
    for (int t = 0; t < trials; t++) {
        fp_soak_t *s = fp_soak_new();
        long at = cycles / 4 + (long)(uniform() * (double)(cycles / 2));
        for (long c = 1; c <= cycles; c++) {
            fp_soak_add(s, c, 1 << 20, 1000 * (1 + 0.02 * normal()), (double)c, "");
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++)
                    if (a != b) {
                        double level = a == 0 && b == 1 && c >= at ? 1000 * (1 + change) : 1000;
                        fp_soak_add_cell(s, c, 1 << 20, a, b, "x", level * (1 + 0.05 * normal()), (double)c, "");
                    }
        }
        char *text;
        fp_soak_summary_t sum = judge(s, &text);
        claimed += sum.steps > 0;
        right += sum.steps == 1 && sum.cell_steps == 1 && count_of(text, "\"from\":0,\"to\":1,") == 1;
        free(text);
        fp_soak_free(s);
    }
    *named = (double)right / trials;
    return (double)claimed / trials;
}

static void test_power(void)
{
    int table = getenv("FP_POWER_TABLE") != NULL;
    const int nodes[] = {4, 6, 8};
    const long cycles[] = {30, 60};
    if (table)
        printf("| nodes (cells) | cycles | false alarms | 2x slower found and named | 30%% slower found and named |\n"
               "|---|---|---|---|---|\n");
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < 2; k++) {
            int trials = nodes[i] == 8 ? 100 : 200;
            double ignored, named2, named30;
            double fa = soak_rate(nodes[i], cycles[k], 0, trials, &ignored);
            double d2 = soak_rate(nodes[i], cycles[k], -0.5, trials, &named2);
            double d30 = soak_rate(nodes[i], cycles[k], -0.3, trials, &named30);
            if (table)
                printf("| %d (%d) | %ld | %.1f%% | %.1f%% (%.1f%%) | %.1f%% (%.1f%%) |\n", nodes[i],
                       nodes[i] * (nodes[i] - 1), cycles[k], 100 * fa, 100 * d2, 100 * named2, 100 * d30,
                       100 * named30);
            CHECK(fa <= 0.05);
            if (cycles[k] >= 60) /* a step anywhere in the middle half: found and named */
                CHECK(named2 >= 0.95 && named30 >= 0.95);
            else /* 30 cycles: a step near a quarter falls short of the cells' bound */
                CHECK(named2 >= 0.50 && named30 >= 0.50);
        }
}

/* One size, the soak's own search (a first step at 0.8 of the budget, either side of the split at
 * a tenth, then the parts again): share of `trials` soaks claiming a step; with change != 0 a step
 * at a cycle of the middle half, and *placed the share whose one step is within a cycle of it. */
static double size_rate(long cycles, noise_t kind, double change, int trials, double *placed)
{
    int claimed = 0, near = 0;
    for (int t = 0; t < trials; t++) {
        fp_soak_t *s = fp_soak_new();
        long at = cycles / 4 + (long)(uniform() * (double)(cycles / 2)) + 1; /* first cycle after it */
        for (long c = 1; c <= cycles; c++)
            fp_soak_add(s, c, 8, noisy(c < at || change == 0 ? 100 : 100 * (1 + change), kind), (double)c, "");
        char *text;
        fp_soak_summary_t sum = judge(s, &text);
        claimed += sum.steps > 0;
        const char *cycle = strstr(text, "\"cycle\":");
        long found = cycle ? atol(cycle + 8) : -1;
        near += sum.steps == 1 && found >= at - 1 && found <= at + 1;
        free(text);
        fp_soak_free(s);
    }
    *placed = (double)near / trials;
    return (double)claimed / trials;
}

static void test_size_power(void)
{
    const long lengths[] = {20, 50, 200};
    const char *names[] = {"normal 5%", "bimodal 1.3x", "10% outliers"};
    int table = getenv("FP_POWER_TABLE") != NULL;
    if (table)
        printf("\n| cycles | noise | false alarms | 20%% step found (one, placed within a cycle) | 50%% step found (placed) |\n"
               "|---|---|---|---|---|\n");
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < 3; i++) {
            double placed20, placed50, ignored;
            double fa = size_rate(lengths[i], (noise_t)k, 0, 500, &ignored);
            double d20 = size_rate(lengths[i], (noise_t)k, -0.2, 300, &placed20);
            double d50 = size_rate(lengths[i], (noise_t)k, -0.5, 300, &placed50);
            if (table)
                printf("| %ld | %s | %.1f%% | %.1f%% (%.1f%%) | %.1f%% (%.1f%%) |\n", lengths[i], names[k], 100 * fa,
                       100 * d20, 100 * placed20, 100 * d50, 100 * placed50);
            CHECK(fa <= 0.05);
            if (lengths[i] >= 50)
                CHECK(d50 >= 0.95 && placed50 >= 0.85);
            if (k == NOISE_NORMAL)
                CHECK(d20 >= 0.95 && placed20 >= 0.90 && d50 >= 0.95 && placed50 >= 0.90);
        }
}

int main(void)
{
    synthetic_rng = 0x9E3779B97F4A7C15ULL; /* the seed its tables were measured with */
    test_two_steps();
    test_cell_step();
    test_power();
    test_size_power();
    return CHECK_DONE();
}
