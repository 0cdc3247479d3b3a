/* --suspects LIST for --isolate: the members to confirm instead of searching the whole job. LIST:
 * comma-separated words, each a rank number (all digits) or a host name (every rank on it). */
#ifndef FP_SUSPECTS_H
#define FP_SUSPECTS_H

#include <stddef.h>

#define FP_SUSPECTS_MAX 64 /* words */

/* The words' form, and rank numbers below nranks; 0, or -1 with err set (bad usage). */
int fp_suspects_check(const char *list, int nranks, char *err, size_t errlen);

/* Host words: found[i] = 1 for the i-th word when host is its name (rank numbers: 1). Returns the
 * number of words (at most max). */
int fp_suspects_hosts_found(const char *list, const char *host, int *found, int max);

/* The i-th word (from 0) into word (wordlen bytes); 0, or -1 where the list has fewer words. */
int fp_suspects_word(const char *list, int i, char *word, size_t wordlen);

/* Rank 0: suspect[r] = 1 for each rank the list names (by number, or by host[r]); returns how many. */
int fp_suspects_mark(const char *list, int nranks, const char *const *host, char *suspect);

#endif
