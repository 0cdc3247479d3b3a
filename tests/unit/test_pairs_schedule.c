/* Schedules of the all-pairs sweeps: every ordered pair exactly once, symmetric samples. */
#include <stdlib.h>

#include "check.h"
#include "pairs_schedule.h"

static void test_shift_covers_every_pair(void)
{
    enum { N = 7 };
    size_t shifts[N - 1];
    int seen[N][N] = {{0}};
    size_t m = fp_pairs_shifts(FP_PAIRS_SHIFT, N, 0, shifts);
    CHECK(m == N - 1);
    for (size_t r = 0; r < m; r++)
        for (size_t i = 0; i < N; i++)
            seen[i][(i + shifts[r]) % N]++;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            CHECK(seen[i][j] == (i != j));
}

static void test_sampled_symmetric(void)
{
    enum { N = 64 };
    size_t shifts[N - 1];
    for (size_t rounds = 1; rounds <= 8; rounds++) {
        size_t m = fp_pairs_shifts(FP_PAIRS_SAMPLED, N, rounds, shifts);
        size_t least = rounds < 3 ? 3 : rounds; /* never fewer than the judge needs */
        CHECK(m >= least && m <= 2 * least);
        for (size_t r = 0; r < m; r++) {
            CHECK(shifts[r] >= 1 && shifts[r] < N);
            CHECK(r == 0 || shifts[r] > shifts[r - 1]);
            int reverse = 0;
            for (size_t q = 0; q < m; q++)
                reverse |= shifts[q] == N - shifts[r];
            CHECK(reverse);
        }
    }
    /* 3 rounds of 64: 16, 32, 48 (32 is its own reverse) */
    CHECK(fp_pairs_shifts(FP_PAIRS_SAMPLED, N, 3, shifts) == 3);
    CHECK(shifts[0] == 16 && shifts[1] == 32 && shifts[2] == 48);
    /* 1 or 2 rounds: raised to the 3 shifts that can place a slow sender, receiver and link */
    CHECK(fp_pairs_shifts(FP_PAIRS_SAMPLED, N, 1, shifts) == 3 && shifts[0] == 16);
    CHECK(fp_pairs_shifts(FP_PAIRS_SAMPLED, N, 2, shifts) == 3);
    CHECK(fp_pairs_shifts(FP_PAIRS_SAMPLED, 6, 2, shifts) >= 3);
    /* as many rounds as shifts: the full sweep */
    CHECK(fp_pairs_shifts(FP_PAIRS_SAMPLED, 6, 5, shifts) == 5);
}

static void test_isolated_pairs(void)
{
    enum { N = 5 };
    int seen[N][N] = {{0}};
    CHECK(fp_pairs_isolated_steps(N, 0) == 20);
    for (size_t s = 0; s < 20; s++) {
        size_t a, b;
        fp_pairs_isolated_pair(N, 0, s, &a, &b);
        CHECK(a < N && b < N && a != b);
        seen[a][b]++;
    }
    CHECK(fp_pairs_isolated_steps(N, 1) == 10);
    for (size_t s = 0; s < 10; s++) {
        size_t a, b;
        fp_pairs_isolated_pair(N, 1, s, &a, &b);
        CHECK(a < b && b < N);
        seen[b][a] += 10;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            CHECK(seen[i][j] == (i == j ? 0 : i < j ? 1 : 11));
}

/* The suspects of a finding: never more than max pairs (the per-size cap, reached by the earlier
 * findings of a noisy matrix, may leave none), per_node per direction of a node. */
static void test_suspects(void)
{
    enum { N = 8 };
    size_t shift[N - 1];
    for (size_t k = 1; k < N; k++)
        shift[k - 1] = k;
    fp_shifts_t L = {N, N - 1, shift};
    int pairs[2 * 16 + 2];
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        pairs[i] = -7;
    fp_finding_t both = {.kind = FP_FIND_LINK_BOTH, .a = 2, .b = 5};
    CHECK(fp_pairs_suspects(&L, &both, 3, pairs, 0) == 0 && pairs[0] == -7 && pairs[1] == -7);
    CHECK(fp_pairs_suspects(&L, &both, 3, pairs, 1) == 1 && pairs[0] == 2 && pairs[1] == 5 && pairs[2] == -7);
    CHECK(fp_pairs_suspects(&L, &both, 3, pairs, 16) == 2 && pairs[2] == 5 && pairs[3] == 2);
    fp_finding_t link = {.kind = FP_FIND_LINK, .a = 6, .b = 1};
    CHECK(fp_pairs_suspects(&L, &link, 3, pairs, 0) == 0);
    CHECK(fp_pairs_suspects(&L, &link, 3, pairs, 4) == 1 && pairs[0] == 6 && pairs[1] == 1);

    fp_finding_t sender = {.kind = FP_FIND_SENDER, .a = 3, .b = -1};
    CHECK(fp_pairs_suspects(&L, &sender, 3, pairs, 16) == 3);
    CHECK(pairs[0] == 3 && pairs[1] == 4 && pairs[2] == 3 && pairs[3] == 5 && pairs[4] == 3 && pairs[5] == 6);
    fp_finding_t node = {.kind = FP_FIND_NODE, .a = 0, .b = -1};
    CHECK(fp_pairs_suspects(&L, &node, 3, pairs, 16) == 6);
    CHECK(pairs[0] == 0 && pairs[1] == 1 && pairs[2] == 7 && pairs[3] == 0);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        pairs[i] = -7;
    CHECK(fp_pairs_suspects(&L, &node, 3, pairs, 5) == 4 && pairs[8] == -7); /* whole pairs of roles */
    pairs[0] = -7;
    CHECK(fp_pairs_suspects(&L, &node, 3, pairs, 1) == 0 && pairs[0] == -7);
    fp_finding_t receiver = {.kind = FP_FIND_RECEIVER, .a = 7, .b = -1};
    CHECK(fp_pairs_suspects(&L, &receiver, 2, pairs, 16) == 2 && pairs[0] == 6 && pairs[1] == 7 && pairs[2] == 5);
}

int main(void)
{
    test_suspects();
    test_shift_covers_every_pair();
    test_sampled_symmetric();
    test_isolated_pairs();
    return CHECK_DONE();
}
