/* An index of array items by name: open addressing over the items' positions, at most half full,
 * so that a file of 100,000 names costs no 10^10 comparisons. The items stay the caller's; a
 * function gives the name of item i. No MPI. */
#ifndef FP_NAME_INDEX_H
#define FP_NAME_INDEX_H

#include <stddef.h>

typedef struct fp_name_index {
    int *slot; /* item position + 1; 0 empty */
    size_t nslot;
} fp_name_index_t;

typedef const char *(*fp_name_of_fn)(const void *items, size_t i);

/* Position of the item called name, or -1. */
int fp_name_index_find(const fp_name_index_t *x, const void *items, fp_name_of_fn name_of, const char *name);
/* Records the newest item (position count - 1 of count); 0, or -1 out of memory. */
int fp_name_index_add(fp_name_index_t *x, const void *items, size_t count, fp_name_of_fn name_of);
void fp_name_index_free(fp_name_index_t *x);

#endif
