/* The index of items by name (name_index.h): FNV-1a over the name, linear probing. */
#include "name_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

static void put(int *slot, size_t nslot, const char *name, size_t i)
{
    size_t k = hash(name) & (nslot - 1);
    while (slot[k])
        k = (k + 1) & (nslot - 1);
    slot[k] = (int)i + 1;
}

int fp_name_index_find(const fp_name_index_t *x, const void *items, fp_name_of_fn name_of, const char *name)
{
    if (!x->nslot)
        return -1;
    for (size_t k = hash(name) & (x->nslot - 1); x->slot[k]; k = (k + 1) & (x->nslot - 1))
        if (strcmp(name_of(items, (size_t)x->slot[k] - 1), name) == 0)
            return x->slot[k] - 1;
    return -1;
}

int fp_name_index_add(fp_name_index_t *x, const void *items, size_t count, fp_name_of_fn name_of)
{
    if (2 * count <= x->nslot) {
        put(x->slot, x->nslot, name_of(items, count - 1), count - 1);
        return 0;
    }
    size_t n = x->nslot ? 2 * x->nslot : 1024;
    while (2 * count > n)
        n *= 2;
    int *slot = calloc(n, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < count; i++)
        put(slot, n, name_of(items, i), i);
    free(x->slot);
    x->slot = slot;
    x->nslot = n;
    return 0;
}

void fp_name_index_free(fp_name_index_t *x)
{
    free(x->slot);
    x->slot = NULL;
    x->nslot = 0;
}
