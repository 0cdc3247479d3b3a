/* What NCCL chose for the calls of one size: algorithm, protocol and channel count per call, as
 * its profiler plugin interface hands them over (backend/nccl_profiler.c records them, in the
 * plugin library NCCL loads; the program reads them between the warm-up and the timed samples).
 * Pure: no NCCL. The names are NCCL's own ("AllReduce", "RING", "LL128"). */
#ifndef FP_NCCL_CHOICE_H
#define FP_NCCL_CHOICE_H

#include <stddef.h>

#define FP_NCCL_CHOICE_KINDS 4

typedef struct {
    char func[24], algo[24], proto[16];
    int channels;
    long calls;
} fp_nccl_choice_t;

typedef struct {
    fp_nccl_choice_t kind[FP_NCCL_CHOICE_KINDS]; /* distinct choices, in the order first seen */
    int nkinds;
    long calls;  /* every call seen */
    long others; /* calls whose choice did not fit kind[] */
} fp_nccl_choices_t;

void fp_nccl_choices_clear(fp_nccl_choices_t *c);
/* One call; a NULL or empty name is kept as "?". */
void fp_nccl_choices_add(fp_nccl_choices_t *c, const char *func, const char *algo, const char *proto, int channels);
/* The choice most calls had (NULL: none seen). */
const fp_nccl_choice_t *fp_nccl_choices_main(const fp_nccl_choices_t *c);
/* "AllReduce: RING LL128, 8 channels (20 calls)"; more choices separated by "; ", then
 * "; N calls not listed" where kind[] was full; "" when no call was seen. */
void fp_nccl_choices_text(const fp_nccl_choices_t *c, char *out, size_t len);

#endif
