#include "expect.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fp.h"
#include "options.h"

#define ACCEPTED "accepted: bw>=MB/s[@SIZES], lat<=US[@SIZES], uniform; SIZES = SIZE, MIN:MAX or MIN:"

static int bad(char *err, size_t errlen, const char *item, const char *why)
{
    snprintf(err, errlen, "--expect: '%.64s' %s (%s)", item, why, ACCEPTED);
    return FP_ERR;
}

static int parse_sizes(const char *text, fp_expect_item_t *it, char *err, size_t errlen)
{
    char lo[32], hi[32], e2[128];
    const char *colon = strchr(text, ':');
    size_t n = colon ? (size_t)(colon - text) : strlen(text);
    if (n == 0 || n >= sizeof lo)
        return bad(err, errlen, it->text, "has no size after @");
    memcpy(lo, text, n);
    lo[n] = 0;
    if (fp_size_parse(lo, &it->min_size, e2, sizeof e2) != FP_OK)
        return bad(err, errlen, it->text, "has a bad size");
    it->max_size = colon ? SIZE_MAX : it->min_size;
    if (colon && colon[1]) {
        if (strlen(colon + 1) >= sizeof hi)
            return bad(err, errlen, it->text, "has a bad size");
        snprintf(hi, sizeof hi, "%s", colon + 1);
        if (fp_size_parse(hi, &it->max_size, e2, sizeof e2) != FP_OK || it->max_size < it->min_size)
            return bad(err, errlen, it->text, "has a bad size range");
    }
    return FP_OK;
}

static int parse_item(const char *text, fp_expect_t *e, char *err, size_t errlen)
{
    if (strcmp(text, "uniform") == 0) {
        e->uniform = 1;
        return FP_OK;
    }
    if (e->count == FP_EXPECT_MAX)
        return bad(err, errlen, text, "is one threshold too many (at most 16)");
    fp_expect_item_t *it = &e->item[e->count];
    snprintf(it->text, sizeof it->text, "%.63s", text);
    const char *rest;
    if (strncmp(text, "bw>=", 4) == 0)
        it->quantity = FP_QTY_BANDWIDTH;
    else if (strncmp(text, "lat<=", 5) == 0)
        it->quantity = FP_QTY_LATENCY;
    else
        return bad(err, errlen, text, "is not a threshold");
    rest = text + (it->quantity == FP_QTY_BANDWIDTH ? 4 : 5);
    char *end;
    errno = 0;
    it->value = strtod(rest, &end);
    if (end == rest || errno || !isfinite(it->value) || it->value <= 0 || (*end && *end != '@'))
        return bad(err, errlen, text, "needs a positive number after the operator");
    it->min_size = 0;
    it->max_size = SIZE_MAX;
    if (*end == '@' && parse_sizes(end + 1, it, err, errlen) != FP_OK)
        return FP_ERR;
    e->count++;
    return FP_OK;
}

int fp_expect_parse(const char *text, fp_expect_t *e, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    if (!text || !*text)
        return FP_OK;
    char item[128];
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, ",");
        if (n == 0 || n >= sizeof item)
            return bad(err, errlen, p, n ? "is too long" : "has an empty item");
        memcpy(item, p, n);
        item[n] = 0;
        if (parse_item(item, e, err, errlen) != FP_OK)
            return FP_ERR;
        p += n + (p[n] == ',');
    }
    return FP_OK;
}

int fp_expect_applies(const fp_expect_item_t *item, fp_quantity_t quantity, size_t size)
{
    return item->quantity == quantity && size >= item->min_size && size <= item->max_size;
}

int fp_expect_verdict(const fp_expect_item_t *item, double lo, double hi)
{
    if (item->quantity == FP_QTY_BANDWIDTH)
        return lo >= item->value ? FP_VERDICT_PASS : hi < item->value ? FP_VERDICT_FAIL : FP_VERDICT_INCONCLUSIVE;
    return hi <= item->value ? FP_VERDICT_PASS : lo > item->value ? FP_VERDICT_FAIL : FP_VERDICT_INCONCLUSIVE;
}
