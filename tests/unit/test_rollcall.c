/* The roll call's finding from known answers: who is behind, who did not answer, and what it
 * cannot tell. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "rollcall.h"

static fp_rollcall_entry_t e[12];

static void set(int r, int answered, long entered, const char *where)
{
    e[r].answered = answered;
    e[r].entered = entered;
    snprintf(e[r].host, sizeof e[r].host, "n%d", r / 2);
    snprintf(e[r].where, sizeof e[r].where, "%s", where);
}

static int has(const char *text, const char *part)
{
    if (!strstr(text, part))
        fprintf(stderr, "missing %s in: %s\n", part, text);
    return strstr(text, part) != NULL;
}

int main(void)
{
    char out[1024];
    /* Rank 2 stuck in sample 5 while the others began sample 6: it alone is named. */
    for (int r = 0; r < 4; r++)
        set(r, 1, 106, "size 4096 B, sample 6 of 20");
    set(2, 1, 105, "size 4096 B, sample 5 of 20");
    fp_rollcall_summary(e, 4, 1, out, sizeof out);
    CHECK(has(out, "roll call: 4 of 4 ranks answered; never arrived where the others wait (size 4096 B, sample 6 of "
                   "20): rank 2 (n1) at size 4096 B, sample 5 of 20"));
    CHECK(!strstr(out, "rank 0") && !strstr(out, "rank 1 ") && !strstr(out, "rank 3") && !strstr(out, "did not answer"));
    /* Every rank in the same step: nobody named, and the limit said. */
    set(2, 1, 106, "size 4096 B, sample 6 of 20");
    fp_rollcall_summary(e, 4, 1, out, sizeof out);
    CHECK(has(out, "no rank is a step behind: every rank has begun size 4096 B, sample 6 of 20"));
    CHECK(has(out, "a rank late within one step is not told apart") && !strstr(out, "rank 2"));
    /* Rank 3 silent: named as not answering, not as behind. */
    set(3, 0, 0, "");
    fp_rollcall_summary(e, 4, 1, out, sizeof out);
    CHECK(has(out, "3 of 4 ranks answered; every rank that answered is at size 4096 B, sample 6 of 20; did not "
                   "answer (dead, stuck past its own watchdog, or no route to rank 0's port): rank 3 (n1)"));
    /* Ranks that do not move in step: only the silent are named. */
    set(1, 1, 40, "size 4096 B, sample 2 of 20");
    fp_rollcall_summary(e, 4, 0, out, sizeof out);
    CHECK(has(out, "do not move in step, so none is named as behind; rank 0 is at size 4096 B, sample 6 of 20"));
    CHECK(has(out, "did not answer") && !strstr(out, "rank 1 (n0)"));
    /* Twelve ranks, ten behind: eight listed, the rest counted. */
    for (int r = 0; r < 12; r++)
        set(r, 1, r < 2 ? 9 : 8, r < 2 ? "sample 9" : "sample 8");
    fp_rollcall_summary(e, 12, 1, out, sizeof out);
    CHECK(has(out, "rank 2 (n1) at sample 8") && has(out, "rank 9 (n4) at sample 8 and 2 more"));
    CHECK(!strstr(out, "rank 10") && !strstr(out, "rank 0 "));
    /* A rank that took a step while it answered: the run is slow, not stuck; nobody is named,
     * though the snapshots differ. */
    e[5].moved = 1;
    fp_rollcall_summary(e, 12, 1, out, sizeof out);
    CHECK(has(out, "12 of 12 ranks answered; 1 of them still took steps while answering: the run is slower than "
                   "the time limit, not stuck, and no rank is named"));
    CHECK(!strstr(out, "rank 2") && !strstr(out, "never arrived"));
    e[5].moved = 0;
    /* A buffer too small is cut, never overrun. */
    char tiny[24];
    fp_rollcall_summary(e, 12, 1, tiny, sizeof tiny);
    CHECK(strlen(tiny) < sizeof tiny);
    return CHECK_DONE();
}
