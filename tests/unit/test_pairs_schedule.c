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
        CHECK(m >= rounds && m <= 2 * rounds);
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

int main(void)
{
    test_shift_covers_every_pair();
    test_sampled_symmetric();
    test_isolated_pairs();
    return CHECK_DONE();
}
