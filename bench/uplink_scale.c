/* What the judge's screens cost rank 0 at scale, without MPI: synthetic clean matrices (5 % noise)
 * of fat trees of 1,000 and 10,000 nodes (leaves of 32; a three-level tree with 16 leaves per
 * spine), full sweeps (every shift) where their cells fit and sampled ones (8 shifts); the uplink
 * screen (uplink.h) and the node screen (outlier.h) timed apart, each the median of 3 runs, and
 * the matrix's memory. Usage: fabperf_uplink_scale (prints a table). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "outlier.h"
#include "uplink.h"

#define LEAF 32
#define LEAVES_PER_SPINE 16

static unsigned long long rng = 88172645463325252ull;
static double gaussian(void)
{
    double u[2];
    for (int k = 0; k < 2; k++) {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        u[k] = ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
    }
    return sqrt(-2.0 * log(u[0])) * cos(6.283185307179586 * u[1]);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void one(size_t n, size_t nshifts, int levels)
{
    size_t leaves = (n + LEAF - 1) / LEAF, spines = levels == 3 ? (leaves + LEAVES_PER_SPINE - 1) / LEAVES_PER_SPINE : 0;
    size_t nsw = 1 + spines + leaves, ncells = n * nshifts;
    int *switch_of = malloc(n * sizeof *switch_of), *parent = malloc(nsw * sizeof *parent);
    size_t *shift = malloc(nshifts * sizeof *shift);
    fp_cell_t *cells = malloc(ncells * sizeof *cells);
    fp_uplink_finding_t up[16];
    fp_finding_t nodes[256];
    if (!switch_of || !parent || !shift || !cells) {
        printf("%zu nodes: out of memory for %zu cells\n", n, ncells);
        goto out;
    }
    parent[0] = -1;
    for (size_t s = 0; s < spines; s++)
        parent[1 + s] = 0;
    for (size_t l = 0; l < leaves; l++)
        parent[1 + spines + l] = spines ? (int)(1 + l / LEAVES_PER_SPINE) : 0;
    for (size_t r = 0; r < n; r++)
        switch_of[r] = (int)(1 + spines + r / LEAF);
    for (size_t k = 0; k < nshifts; k++) /* spread over 1..n-1, as sampled sweeps pick them */
        shift[k] = nshifts == n - 1 ? k + 1 : 1 + (k * (n - 1)) / nshifts;
    fp_shifts_t L = {n, nshifts, shift};
    fp_uplink_tree_t tree = {switch_of, parent, nsw};
    fp_judge_opts_t o = {.higher_is_better = 1, .with_rounds = 1};
    double t_up[3], t_node[3];
    size_t nup = 0, nn = 0;
    for (int rep = 0; rep < 3; rep++) {
        for (size_t k = 0; k < ncells; k++) {
            double m = 1000.0 * exp(0.05 * gaussian()), w = exp(1.96 * 0.05);
            cells[k] = (fp_cell_t){m, m / w, m * w};
        }
        double t0 = now_s();
        if (fp_uplinks_find(&L, cells, &o, &tree, up, 16, &nup, NULL) != 0)
            printf("uplink screen: out of memory\n");
        double t1 = now_s();
        if (fp_outliers_find(&L, cells, &o, nodes, 256, &nn, NULL) != 0)
            printf("node screen: out of memory\n");
        t_up[rep] = t1 - t0;
        t_node[rep] = now_s() - t1;
    }
    qsort(t_up, 3, sizeof *t_up, by_value);
    qsort(t_node, 3, sizeof *t_node, by_value);
    printf("%6zu nodes %d levels %5zu shifts %9zu cells %7.1f MB  uplinks %4zu: %8.3f s  nodes: %8.3f s  "
           "suspects %zu + %zu\n",
           n, levels, nshifts, ncells, (double)ncells * (sizeof(fp_cell_t) + sizeof(double)) / 1e6, 2 * (leaves + spines),
           t_up[1], t_node[1], nup, nn);
out:
    free(switch_of);
    free(parent);
    free(shift);
    free(cells);
}

int main(void)
{
    one(1000, 999, 2);
    one(1000, 8, 2);
    one(1000, 8, 3);
    one(10000, 8, 2);
    one(10000, 8, 3);
    one(10000, 64, 3);
    return 0;
}
