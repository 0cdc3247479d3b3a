/* A link counter that moves during a chosen size, in a fixture sysfs tree (--sysfs-root): fopen of a
 * file whose path ends in SUFFIX counts the opens of that file; just before the K-th it writes VALUE
 * into it. A benchmark reads each counter once before and once after each size, so K = 2s moves it
 * during size s (1-based).
 *   FP_COUNTER_STEP="SUFFIX:K:VALUE[,SUFFIX:K:VALUE...]"   e.g. "ports/1/counters/link_downed:4:2"
 * Preloaded (LD_PRELOAD) by the tests; writes with open/write, so fopen does not recurse. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RULES 8

static struct {
    char suffix[256], value[32];
    long at, opens;
} rules[RULES];
static int nrules = -1;

static void parse(void)
{
    nrules = 0;
    const char *spec = getenv("FP_COUNTER_STEP");
    char copy[2048];
    snprintf(copy, sizeof copy, "%s", spec ? spec : "");
    for (char *save = NULL, *rule = strtok_r(copy, ",", &save); rule && nrules < RULES;
         rule = strtok_r(NULL, ",", &save)) {
        char *value = strrchr(rule, ':');
        if (!value)
            continue;
        *value++ = '\0';
        char *at = strrchr(rule, ':');
        if (!at)
            continue;
        *at++ = '\0';
        snprintf(rules[nrules].suffix, sizeof rules[nrules].suffix, "%s", rule);
        snprintf(rules[nrules].value, sizeof rules[nrules].value, "%s\n", value);
        rules[nrules].at = atol(at);
        nrules++;
    }
}

static void step(const char *path)
{
    if (nrules < 0)
        parse();
    size_t len = strlen(path);
    for (int i = 0; i < nrules; i++) {
        size_t n = strlen(rules[i].suffix);
        if (len < n || strcmp(path + len - n, rules[i].suffix) != 0 || ++rules[i].opens != rules[i].at)
            continue;
        int fd = open(path, O_WRONLY | O_TRUNC);
        if (fd >= 0) {
            ssize_t w = write(fd, rules[i].value, strlen(rules[i].value));
            (void)w;
            close(fd);
        }
    }
}

typedef FILE *(*fopen_fn)(const char *, const char *);

FILE *fopen(const char *path, const char *mode)
{
    static fopen_fn real;
    if (!real)
        real = (fopen_fn)dlsym(RTLD_NEXT, "fopen");
    if (path)
        step(path);
    return real(path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
    static fopen_fn real;
    if (!real)
        real = (fopen_fn)dlsym(RTLD_NEXT, "fopen64");
    if (path)
        step(path);
    return real(path, mode);
}
