/* Tiny assertions for the core's unit tests: count failures, exit 1 if any. */
#ifndef FP_TEST_CHECK_H
#define FP_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);               \
            check_failures++;                                                                      \
        }                                                                                          \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                      \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (tol))) {                                                           \
            fprintf(stderr, "%s:%d: %s = %.12g, expected %.12g\n", __FILE__, __LINE__, #a, a_, b_); \
            check_failures++;                                                                      \
        }                                                                                          \
    } while (0)

#define CHECK_STR(a, b)                                                                            \
    do {                                                                                           \
        const char *a_ = (a), *b_ = (b);                                                           \
        if (strcmp(a_, b_) != 0) {                                                                 \
            fprintf(stderr, "%s:%d: %s = \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, a_, b_); \
            check_failures++;                                                                      \
        }                                                                                          \
    } while (0)

#define CHECK_DONE() (check_failures ? (fprintf(stderr, "%d check(s) failed\n", check_failures), 1) : 0)

#endif
