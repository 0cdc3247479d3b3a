/* The collective search (collective/isolate.c) on a model whose answer is known: groups of a
 * round take 100 us a call, F times that with the slow member (or both ends of a slow link) in
 * them, each median with a 95% CI of +-3 % and, where asked, a deterministic scatter of +-5 %. */
#include "check.h"
#include "expect.h"
#include "isolate.h"
#include "suspects.h"

#include <stdlib.h>
#include <string.h>

typedef struct model {
    int n, slow, link_a, link_b;
    int noise_round, noise_rank; /* in that round (1-based), the groups with that rank 3x slower */
    unsigned noise_rounds;       /* and in these: bit k for round k + 1 */
    double noise_scale, noise_width; /* where set: that many times instead, its CI +- that share */
    double factor, scatter;
    unsigned seed;
    int rounds;
    /* The slow member slows only where it is not the root of a rooted collective (a member slow
     * as a sender, in a reduce), as coll_isolate.c runs a group: its root is rank 0 where it holds
     * it (the job's root), else its lead; else each member in turn, so the member is the root in
     * 1 of k calls of a group of k: a median slow from 3 members on, and halfway for a pair. */
    int sender_only;
    /* --expect as coll_isolate.c judges it, where bound > 0: a group fails when its CI's low end
     * is above bound us a call, passes when its high end is at most that; slow2: a second member
     * slow by factor; everyone: every group slow by factor (the fabric, not a member). */
    double bound;
    int slow2, everyone;
} model_t;

/* The root of group g where it is fixed; -1 where it rotates. */
static int root_of(const int *group, const int *lead, int g)
{
    if (group[0] == g)
        return 0;
    return lead && lead[g] >= 0 ? lead[g] : -1;
}

static double uniform(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (double)(*seed >> 8 & 0xffff) / 65535.0;
}

static int measure(void *arg, const int *group, const int *lead, int ngroups, fp_iso_est_t *est)
{
    model_t *m = arg;
    m->rounds++;
    for (int g = 0; g < ngroups; g++) {
        int has_slow = 0, has_a = 0, has_b = 0;
        for (int r = 0; r < m->n; r++)
            if (group[r] == g)
                has_slow |= r == m->slow || (m->slow2 && r == m->slow2) || m->everyone, has_a |= r == m->link_a,
                    has_b |= r == m->link_b;
        int size = 0, halfway = 0;
        for (int r = 0; r < m->n; r++)
            size += group[r] == g;
        if (m->sender_only && has_slow && root_of(group, lead, g) == m->slow)
            has_slow = 0;
        else if (m->sender_only && has_slow && root_of(group, lead, g) < 0 && size == 2)
            halfway = 1;
        for (int k = 0; lead && k < m->n; k++) /* a lead is a member of its group */
            if (g == group[k] && lead[g] >= 0 && group[lead[g]] != g)
                check_failures++;
        int noisy = 0;
        for (int r = 0; r < m->n; r++)
            noisy |= group[r] == g && r == m->noise_rank &&
                     (m->rounds == m->noise_round || (m->noise_rounds >> (m->rounds - 1) & 1u));
        double scale = m->noise_scale > 0 ? m->noise_scale : 3.0, width = noisy && m->noise_width > 0 ? m->noise_width : 0.03;
        double us = 100.0 * (has_slow || (has_a && has_b) ? m->factor : 1.0) * (noisy ? scale : 1.0);
        us *= 1.0 + m->scatter * (2.0 * uniform(&m->seed) - 1.0);
        est[g] = (fp_iso_est_t){.us = us, .lo = us * (1 - width), .hi = us * (1 + width)};
        if (halfway) /* half the calls slow: the median between, the interval from one to the other */
            est[g] = (fp_iso_est_t){.us = 100.0 * (1 + m->factor) / 2, .lo = 100.0, .hi = 100.0 * m->factor};
        if (m->bound > 0) {
            est[g].expect = est[g].lo > m->bound    ? FP_VERDICT_FAIL
                            : est[g].hi <= m->bound ? FP_VERDICT_PASS
                                                    : FP_VERDICT_INCONCLUSIVE;
            est[g].bound_us = m->bound;
        }
    }
    return 0;
}

static int standing(const fp_iso_result_t *r)
{
    int k = 0;
    for (int i = 0; i < r->nfindings; i++)
        k += r->findings[i].stands;
    return k;
}

static void check_levels(void)
{
    int node[8], group[8], parent[8];
    for (int r = 0; r < 8; r++)
        node[r] = r;
    CHECK(fp_iso_level(8, node, 1, group, parent) == 2);
    CHECK(group[0] == 0 && group[3] == 0 && group[4] == 1 && group[7] == 1);
    CHECK(fp_iso_level(8, node, 2, group, parent) == 4);
    CHECK(group[0] == 0 && group[1] == 0 && group[2] == 1 && group[6] == 3 && parent[1] == 0 && parent[2] == 1);
    CHECK(fp_iso_level(8, node, 3, group, parent) == 0 && group[5] == -1);
    /* Node first: ranks 0, 2, 4 on node 0 and 1, 3, 5 on node 1 stay together at level 1. */
    int two[6] = {0, 1, 0, 1, 0, 1};
    CHECK(fp_iso_level(6, two, 1, group, parent) == 2);
    CHECK(group[0] == group[2] && group[2] == group[4] && group[1] == group[3] && group[3] == group[5] &&
          group[0] != group[1]);
    /* Three nodes of two ranks: split at a node boundary, never inside a node. */
    int three[6] = {0, 0, 1, 1, 2, 2};
    CHECK(fp_iso_level(6, three, 1, group, parent) == 2);
    CHECK(group[0] == group[1] && group[2] == group[3] && group[3] == group[4] && group[4] == group[5]);
}

/* Every rank of every job size in turn slow by F: found, named alone, standing. */
static void check_members(double factor, double scatter)
{
    static const int sizes[] = {4, 6, 8, 10, 12, 16, 32, 64};
    int node[64];
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int n = sizes[i];
        for (int r = 0; r < n; r++)
            node[r] = r;
        for (int s = 0; s < n; s++) {
            model_t m = {.n = n, .slow = s, .link_a = -1, .link_b = -1, .factor = factor, .scatter = scatter,
                         .seed = (unsigned)(n * 131 + s)};
            fp_iso_result_t *res = malloc(sizeof *res);
            CHECK(fp_iso_search(n, node, measure, &m, res) == 0);
            int ok = res->decided && res->nfindings == 1 && res->findings[0].kind == FP_ISO_MEMBER &&
                     res->findings[0].stands && res->findings[0].nranks == 1 && res->findings[0].ranks[0] == s;
            if (!ok)
                fprintf(stderr, "n %d slow %d x%.1f: decided %d, %d finding(s), first kind %d rank %d; %s\n", n, s,
                        factor, res->decided, res->nfindings, res->nfindings ? (int)res->findings[0].kind : -1,
                        res->nfindings ? res->findings[0].ranks[0] : -1, res->reason);
            CHECK(ok);
            fp_iso_free(res);
            free(res);
        }
    }
}

static void check_clean(void)
{
    int node[64];
    for (int r = 0; r < 64; r++)
        node[r] = r;
    for (int n = 4; n <= 64; n++)
        for (unsigned seed = 0; seed < 20; seed++) {
            model_t m = {.n = n, .slow = -1, .link_a = -1, .link_b = -1, .factor = 1, .scatter = 0.05,
                         .seed = seed * 7919u + (unsigned)n};
            fp_iso_result_t *res = malloc(sizeof *res);
            CHECK(fp_iso_search(n, node, measure, &m, res) == 0);
            /* Halves of unequal size (odd n) have no group of their size to compare with: undecided. */
            if (n % 2 == 0)
                CHECK(res->decided && res->nfindings == 0 && res->nrounds == 1 && m.rounds == 1);
            else
                CHECK(!res->decided && standing(res) == 0 && strstr(res->reason, "undecided"));
            fp_iso_free(res);
            free(res);
        }
}

/* The cost: rounds of a search with one 10x member among 64, 1,024 and 10,000 ranks, 8 to a node
 * (log2(n) - 1 levels, then two confirmation rounds), and of a clean one (the first level only). */
static void check_cost(fp_iso_result_t *res)
{
    static const struct {
        int n, rounds;
    } cases[] = {{64, 7}, {1024, 11}, {10000, 14}};
    int *node = malloc(10000 * sizeof *node);
    for (int r = 0; node && r < 10000; r++)
        node[r] = r / 8;
    for (size_t i = 0; node && i < sizeof cases / sizeof cases[0]; i++) {
        int n = cases[i].n;
        model_t m = {.n = n, .slow = n / 3, .link_a = -1, .link_b = -1, .factor = 10};
        CHECK(fp_iso_search(n, node, measure, &m, res) == 0);
        CHECK(m.rounds == cases[i].rounds && res->decided && standing(res) == 1 && res->findings[0].ranks[0] == n / 3);
        fp_iso_free(res);
        model_t clean = {.n = n, .slow = -1, .link_a = -1, .link_b = -1, .factor = 1};
        CHECK(fp_iso_search(n, node, measure, &clean, res) == 0);
        CHECK(clean.rounds == 1 && res->decided && res->nfindings == 0);
        fp_iso_free(res);
    }
    free(node);
}

/* --suspects: only the listed ranks, each confirmed beside the others; the list's form. */
static void check_suspects(fp_iso_result_t *res)
{
    char suspect[8] = {0};
    model_t m = {.n = 8, .slow = 5, .link_a = -1, .link_b = -1, .factor = 10};
    suspect[5] = 1;
    CHECK(fp_iso_confirm_suspects(8, suspect, measure, &m, res) == 0);
    CHECK(res->decided && res->nrounds == 2 && res->nfindings == 1 && res->findings[0].kind == FP_ISO_MEMBER &&
          res->findings[0].stands && res->findings[0].ranks[0] == 5);
    fp_iso_free(res);
    suspect[5] = 0, suspect[1] = 1; /* a healthy suspect: cleared, decided */
    m.rounds = 0;
    CHECK(fp_iso_confirm_suspects(8, suspect, measure, &m, res) == 0);
    CHECK(res->decided && res->nfindings == 0 && m.rounds == 2);
    fp_iso_free(res);
    suspect[5] = 1; /* one of two: only the slow one */
    CHECK(fp_iso_confirm_suspects(8, suspect, measure, &m, res) == 0);
    CHECK(res->decided && standing(res) == 1 && res->nfindings == 1 && res->findings[0].ranks[0] == 5);
    fp_iso_free(res);
    memset(suspect, 1, sizeof suspect); /* no partner left: not decided, nothing measured */
    m.rounds = 0;
    CHECK(fp_iso_confirm_suspects(8, suspect, measure, &m, res) == 0);
    CHECK(!res->decided && res->nfindings == 0 && m.rounds == 0 && strstr(res->reason, "no known-good partner"));
    fp_iso_free(res);
    memset(suspect, 0, sizeof suspect);
    CHECK(fp_iso_confirm_suspects(8, suspect, measure, &m, res) == 0);
    CHECK(!res->decided && m.rounds == 0 && strstr(res->reason, "no suspect"));
    fp_iso_free(res);
    /* 7 of 8 suspected: one partner; the first round places one suspect, the rest undecided. */
    memset(suspect, 1, sizeof suspect);
    suspect[0] = 0;
    CHECK(fp_iso_confirm_suspects(8, suspect, measure, &m, res) == 0);
    CHECK(!res->decided && standing(res) == 0);
    fp_iso_free(res);

    char err[256];
    const char *hosts[4] = {"a1", "a1", "b-2.x", "c"};
    char marked[4];
    CHECK(fp_suspects_check("1,b-2.x", 4, err, sizeof err) == 0);
    CHECK(fp_suspects_check("4", 4, err, sizeof err) == -1 && strstr(err, "rank 4 is out of range (accepted: 0 to 3"));
    CHECK(fp_suspects_check("1,,2", 4, err, sizeof err) == -1 && strstr(err, "empty"));
    CHECK(fp_suspects_check("1,", 4, err, sizeof err) == -1 && strstr(err, "empty"));
    CHECK(fp_suspects_check("", 4, err, sizeof err) == -1);
    CHECK(fp_suspects_check("a b", 4, err, sizeof err) == -1 && strstr(err, "'a b' is neither a rank number nor a host"));
    CHECK(fp_suspects_mark("b-2.x,0", 4, hosts, marked) == 2 && marked[0] && marked[2] && !marked[1] && !marked[3]);
    CHECK(fp_suspects_mark("a1", 4, hosts, marked) == 2 && marked[0] && marked[1]);
    int found[4];
    CHECK(fp_suspects_hosts_found("c,3,a1", "c", found, 4) == 3 && found[0] && found[1] && !found[2]);
    char word[8];
    CHECK(fp_suspects_word("c,3,a1", 2, word, sizeof word) == 0 && strcmp(word, "a1") == 0);
    CHECK(fp_suspects_word("c,3,a1", 0, word, sizeof word) == 0 && strcmp(word, "c") == 0);
    CHECK(fp_suspects_word("c,3,a1", 3, word, sizeof word) == -1);
}

/* A member slow only as a sender of a rooted collective: each confirmation pair is led by its
 * known-good partner, so the member keeps the role it has in the whole job and is found. */
static void check_sender_only(fp_iso_result_t *res)
{
    int node[16];
    for (int r = 0; r < 16; r++)
        node[r] = r;
    for (int n = 6; n <= 16; n += 2)
        for (int slow = 1; slow < n; slow++) {
            model_t m = {.n = n, .slow = slow, .link_a = -1, .link_b = -1, .factor = 10, .sender_only = 1};
            CHECK(fp_iso_search(n, node, measure, &m, res) == 0);
            int found = res->nfindings == 1 && res->findings[0].stands && res->findings[0].ranks[0] == slow;
            if (!found)
                fprintf(stderr, "sender-only slow rank %d of %d: not the one standing finding (%d findings)\n", slow, n,
                        res->nfindings), check_failures++;
            fp_iso_free(res);
        }
    char suspect[8] = {0};
    suspect[2] = 1;
    model_t m = {.n = 8, .slow = 2, .link_a = -1, .link_b = -1, .factor = 10, .sender_only = 1};
    CHECK(fp_iso_confirm_suspects(8, suspect, measure, &m, res) == 0);
    CHECK(res->nfindings == 1 && res->findings[0].stands && res->findings[0].ranks[0] == 2);
    fp_iso_free(res);
}

/* --expect scaled to each group's size judges the groups where it decides: a member slower than
 * the expectation but by less than the siblings' third is found; one that meets it is not sought;
 * two slow members of one half are both found (a group that meets --expect gives partners
 * again), one in each half leaves the search undecided; where no group meets it, the siblings judge; a whole that fails with no member
 * found is undecided. */
static void check_expect(fp_iso_result_t *res)
{
    int node[16];
    for (int r = 0; r < 16; r++)
        node[r] = r;
    for (int n = 8; n <= 16; n += 8)
        for (int slow = 0; slow < n; slow++) {
            model_t m = {.n = n, .slow = slow, .link_a = -1, .link_b = -1, .factor = 1.2, .bound = 110};
            CHECK(fp_iso_search(n, node, measure, &m, res) == 0);
            int found = res->decided && res->nfindings == 1 && res->findings[0].stands && res->findings[0].ranks[0] == slow;
            if (!found)
                fprintf(stderr, "--expect, 1.2x rank %d of %d: not the one standing finding (%d; %s)\n", slow, n,
                        res->nfindings, res->reason), check_failures++;
            fp_iso_free(res);
        }
    model_t loose = {.n = 8, .slow = 3, .link_a = -1, .link_b = -1, .factor = 2, .bound = 1000};
    CHECK(fp_iso_search(8, node, measure, &loose, res) == 0);
    CHECK(res->decided && res->nfindings == 0 && loose.rounds == 1 && res->rounds[0].threshold[0] == 1000);
    fp_iso_free(res);
    model_t two = {.n = 16, .slow = 2, .slow2 = 5, .link_a = -1, .link_b = -1, .factor = 2, .bound = 150};
    CHECK(fp_iso_search(16, node, measure, &two, res) == 0);
    CHECK(res->decided && res->nfindings == 2 && standing(res) == 2);
    CHECK(res->nfindings == 2 && res->findings[0].ranks[0] == 2 && res->findings[1].ranks[0] == 5);
    fp_iso_free(res);
    /* One in each half: neither half meets --expect nor is slower than the other; nothing stands,
     * and the whole's failure leaves the search undecided, never passed. */
    two.slow2 = 13;
    CHECK(fp_iso_search(16, node, measure, &two, res) == 0);
    CHECK(standing(res) == 0);
    fp_iso_whole_shortfall(res, FP_VERDICT_FAIL);
    CHECK(!res->decided);
    fp_iso_free(res);
    /* A fabric slow everywhere: no group meets --expect, so it tells none apart; the siblings find
     * them alike: one round, no finding; the whole fails, so the search is undecided. The same
     * with every group failing but one half 2x slower than the other: the siblings find rank 3. */
    model_t fabric = {.n = 8, .slow = -1, .link_a = -1, .link_b = -1, .factor = 2, .bound = 150, .everyone = 1};
    CHECK(fp_iso_search(8, node, measure, &fabric, res) == 0);
    CHECK(res->decided && res->nfindings == 0 && fabric.rounds == 1);
    CHECK(res->rounds[0].est[0].expect == FP_VERDICT_FAIL && res->rounds[0].status[0] == FP_ISO_FINE);
    fp_iso_whole_shortfall(res, FP_VERDICT_FAIL);
    CHECK(!res->decided && strstr(res->reason, "everyone's"));
    fp_iso_free(res);
    model_t short_all = {.n = 8, .slow = 3, .link_a = -1, .link_b = -1, .factor = 2, .bound = 90};
    CHECK(fp_iso_search(8, node, measure, &short_all, res) == 0);
    CHECK(res->decided && res->nfindings == 1 && standing(res) == 1 && res->findings[0].ranks[0] == 3);
    fp_iso_free(res);
    /* Without --expect the same fabric is uniform: nothing to say, decided. */
    fabric.bound = 0, fabric.rounds = 0;
    CHECK(fp_iso_search(8, node, measure, &fabric, res) == 0);
    CHECK(res->decided && res->nfindings == 0 && fabric.rounds == 1);
    fp_iso_whole_shortfall(res, FP_VERDICT_PASS);
    CHECK(res->decided);
    fp_iso_whole_shortfall(res, FP_VERDICT_FAIL);
    CHECK(!res->decided && strstr(res->reason, "between the groups"));
    fp_iso_free(res);
    model_t found = {.n = 8, .slow = 3, .link_a = -1, .link_b = -1, .factor = 10};
    CHECK(fp_iso_search(8, node, measure, &found, res) == 0);
    fp_iso_whole_shortfall(res, FP_VERDICT_FAIL); /* the member explains it */
    CHECK(res->decided && standing(res) == 1);
    fp_iso_free(res);
}

int main(void)
{
    check_levels();
    check_members(10, 0);
    check_members(2, 0.05);
    check_clean();

    /* Too few ranks: said, nothing measured. */
    int node[64];
    for (int r = 0; r < 64; r++)
        node[r] = r;
    fp_iso_result_t *res = malloc(sizeof *res);
    check_sender_only(res);
    model_t m = {.n = 3, .slow = 1, .link_a = -1, .link_b = -1, .factor = 10};
    CHECK(fp_iso_search(3, node, measure, &m, res) == 0);
    CHECK(!res->decided && res->nrounds == 0 && m.rounds == 0);
    CHECK_STR(res->reason, "too few ranks to search (3 < 4)");

    /* 5 ranks, the slow member in the group of 3 beside 2 known-good ranks: placed members are
     * fine, the third has no partner left: undecided, nobody else named. */
    for (int s = 0; s < 5; s++) {
        model_t five = {.n = 5, .slow = s, .link_a = -1, .link_b = -1, .factor = 10};
        CHECK(fp_iso_search(5, node, measure, &five, res) == 0);
        int named_other = 0;
        for (int i = 0; i < res->nfindings; i++)
            for (int k = 0; k < res->findings[i].nranks; k++)
                named_other |= res->findings[i].stands && res->findings[i].kind == FP_ISO_MEMBER &&
                               res->findings[i].ranks[k] != s;
        CHECK(!named_other);
        CHECK(standing(res) == 1 || !res->decided);
        fp_iso_free(res);
    }

    /* Odd jobs (halves of unequal size): the slow member found or the search undecided, never
     * another member named. */
    for (int n = 7; n <= 9; n += 2)
        for (int s = 0; s < n; s++) {
            model_t odd = {.n = n, .slow = s, .link_a = -1, .link_b = -1, .factor = 10};
            CHECK(fp_iso_search(n, node, measure, &odd, res) == 0);
            int wrong = 0;
            for (int i = 0; i < res->nfindings; i++)
                wrong |= res->findings[i].stands && res->findings[i].kind == FP_ISO_MEMBER && res->findings[i].ranks[0] != s;
            CHECK(!wrong && (standing(res) >= 1 || !res->decided));
            fp_iso_free(res);
        }

    /* A slow link within one half (both ends in one group): named as a link or a group holding
     * both, never a member. One between the halves is in no group: nothing is found. */
    for (int a = 0; a < 8; a++)
        for (int b = a + 1; b < 8; b++) {
            if ((a < 4) != (b < 4)) {
                model_t across = {.n = 8, .slow = -1, .link_a = a, .link_b = b, .factor = 10};
                CHECK(fp_iso_search(8, node, measure, &across, res) == 0);
                CHECK(res->decided && res->nfindings == 0);
                fp_iso_free(res);
                continue;
            }
            model_t link = {.n = 8, .slow = -1, .link_a = a, .link_b = b, .factor = 10};
            CHECK(fp_iso_search(8, node, measure, &link, res) == 0);
            /* a link: stands; a group of 4 holding both (separated at the next level): undecided */
            int ok = res->nfindings == 1 && res->findings[0].kind != FP_ISO_MEMBER &&
                     res->findings[0].stands == (res->findings[0].kind == FP_ISO_LINK);
            for (int k = 0, has = 0; ok && k <= res->findings[0].nranks; k++) {
                if (k == res->findings[0].nranks)
                    ok = has == 2;
                else
                    has += res->findings[0].ranks[k] == a || res->findings[0].ranks[k] == b;
            }
            if (!ok)
                fprintf(stderr, "link %d-%d: %d finding(s), kind %d\n", a, b, res->nfindings,
                        res->nfindings ? (int)res->findings[0].kind : -1);
            CHECK(ok);
            fp_iso_free(res);
        }

    /* A pair slow by the noise of one round (rank 6 with 7 at level 2, rank 5 truly slow): each
     * fine beside a partner, and fine again together: no finding but rank 5's. One slow in both
     * confirmation rounds stands; slow in one only: undecided. */
    model_t noisy = {.n = 8, .slow = 5, .link_a = -1, .link_b = -1, .noise_round = 2, .noise_rank = 6, .factor = 10};
    CHECK(fp_iso_search(8, node, measure, &noisy, res) == 0);
    CHECK(res->decided && res->nfindings == 1 && res->findings[0].kind == FP_ISO_MEMBER && res->findings[0].ranks[0] == 5);
    fp_iso_free(res);
    model_t once = {.n = 8, .slow = -1, .link_a = -1, .link_b = -1, .noise_round = 3, .noise_rank = 6, .factor = 10};
    once.noise_round = 1; /* level 1: ranks 4-7 slow by noise, then fine: nothing found */
    CHECK(fp_iso_search(8, node, measure, &once, res) == 0);
    CHECK(standing(res) == 0);
    fp_iso_free(res);

    /* Level 1 while a second job slows the clean half 7x with a wide CI (700 [350, 1050] us beside
     * 1000 [970, 1030] with rank 4 10x): the slow half is not fine beside so busy a reference;
     * it is searched and rank 4 found. */
    model_t busy = {.n = 8, .slow = 4, .link_a = -1, .link_b = -1, .noise_round = 1, .noise_rank = 0,
                    .noise_scale = 7, .noise_width = 0.5, .factor = 10};
    CHECK(fp_iso_search(8, node, measure, &busy, res) == 0);
    CHECK(res->rounds[0].status[1] == FP_ISO_UNDECIDED && res->rounds[0].status[0] == FP_ISO_FINE);
    CHECK(res->decided && standing(res) == 1 && res->findings[0].ranks[0] == 4);
    fp_iso_free(res);

    /* Noise on rank 0 in rounds 2 and 5 (its pair 0-1 at level 2 and their first re-test together)
     * beside a 10x rank 2 of the same half: the member stands; the pair, slow together twice but
     * fine the third time, is an undecided link, never a standing one. */
    model_t twice = {.n = 8, .slow = 2, .link_a = -1, .link_b = -1, .noise_rank = 0, .noise_rounds = 2u | 16u,
                     .factor = 10};
    CHECK(fp_iso_search(8, node, measure, &twice, res) == 0);
    CHECK(twice.rounds == 6 && res->nfindings == 2 && standing(res) == 1);
    CHECK(res->nfindings == 2 && res->findings[0].kind == FP_ISO_MEMBER && res->findings[0].ranks[0] == 2 &&
          res->findings[1].kind == FP_ISO_LINK && !res->findings[1].stands && res->findings[1].round == 5);
    fp_iso_free(res);
    twice.noise_rounds |= 32u, twice.rounds = 0; /* slow in both re-tests: the link stands */
    CHECK(fp_iso_search(8, node, measure, &twice, res) == 0);
    CHECK(twice.rounds == 6 && res->nfindings == 2 && standing(res) == 2);
    fp_iso_free(res);

    /* 1.2x: below the smallest effect claimed: nothing stands. */
    model_t weak = {.n = 16, .slow = 5, .link_a = -1, .link_b = -1, .factor = 1.2};
    CHECK(fp_iso_search(16, node, measure, &weak, res) == 0);
    CHECK(standing(res) == 0);
    fp_iso_free(res);

    check_suspects(res);
    check_cost(res);
    check_expect(res);

    CHECK_NEAR(fp_iso_threshold(100, 103), 100 / 0.75, 1e-9); /* a third slower than the median */
    CHECK_NEAR(fp_iso_threshold(100, 150), 150, 1e-9);        /* and the intervals apart */
    double t = fp_iso_threshold(100, 103);
    CHECK(fp_iso_judge(&(fp_iso_est_t){.us = 140, .lo = 134, .hi = 144}, 100, t) == FP_ISO_SLOW);
    CHECK(fp_iso_judge(&(fp_iso_est_t){.us = 140, .lo = 130, .hi = 150}, 100, t) == FP_ISO_UNDECIDED);
    CHECK(fp_iso_judge(&(fp_iso_est_t){.us = 120, .lo = 116, .hi = 124}, 100, t) == FP_ISO_FINE);
    CHECK(fp_iso_judge(&(fp_iso_est_t){.us = 140, .lo = 134, .hi = 144}, 100, NAN) == FP_ISO_UNDECIDED);
    /* A busy reference (CI 70-150 around 100): 140 is not slow beside it, nor fine: undecided. */
    t = fp_iso_threshold(100, 150);
    CHECK(fp_iso_judge(&(fp_iso_est_t){.us = 140, .lo = 134, .hi = 144}, 100, t) == FP_ISO_UNDECIDED);
    CHECK(fp_iso_judge(&(fp_iso_est_t){.us = 130, .lo = 125, .hi = 135}, 100, t) == FP_ISO_FINE);
    free(res);
    return CHECK_DONE();
}
