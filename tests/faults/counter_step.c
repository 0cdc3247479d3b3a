/* A link counter that moves during a chosen size, in a fixture sysfs tree (--sysfs-root): the
 * reads of a file whose path ends in SUFFIX are counted; just before the K-th, VALUE is written
 * into it. A benchmark reads each counter once before and once after each size, so K = 2s moves
 * it during size s (1-based).
 *   FP_COUNTER_STEP="SUFFIX:K:VALUE[,SUFFIX:K:VALUE...]"   e.g. "ports/1/counters/link_downed:4:2"
 * The counters are held open and read with pread from offset 0: open tells which descriptor is
 * which file, pread counts. Preloaded (LD_PRELOAD) by the tests. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define RULES 8
#define FDS 4096

static struct {
    char suffix[256], value[32], path[1024];
    long at, reads;
} rules[RULES];
static int nrules = -1;
static signed char rule_of[FDS]; /* descriptor -> rule + 1; 0: none */

typedef int (*open_fn)(const char *, int, ...);
typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);

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

static int opened(const char *name, int fd, const char *path, int flags, mode_t mode)
{
    static open_fn real[2];
    int which = strcmp(name, "open") != 0;
    if (!real[which])
        real[which] = (open_fn)dlsym(RTLD_NEXT, name);
    if (fd < 0)
        fd = real[which](path, flags, mode);
    if (nrules < 0)
        parse();
    size_t len = path ? strlen(path) : 0;
    if (fd >= 0 && fd < FDS) {
        rule_of[fd] = 0;
        for (int i = 0; i < nrules; i++) {
            size_t n = strlen(rules[i].suffix);
            if (len >= n && strcmp(path + len - n, rules[i].suffix) == 0 && (flags & O_ACCMODE) == O_RDONLY) {
                rule_of[fd] = (signed char)(i + 1);
                snprintf(rules[i].path, sizeof rules[i].path, "%s", path);
            }
        }
    }
    return fd;
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = (flags & O_CREAT) ? (mode_t)va_arg(ap, int) : 0;
    va_end(ap);
    return opened("open", -1, path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = (flags & O_CREAT) ? (mode_t)va_arg(ap, int) : 0;
    va_end(ap);
    return opened("open64", -1, path, flags, mode);
}

/* Before the K-th read of a watched descriptor, its file gets the new value (written through
 * another descriptor: truncated in place, so the held one reads it). */
static void step(int fd)
{
    if (fd < 0 || fd >= FDS || !rule_of[fd])
        return;
    int i = rule_of[fd] - 1;
    if (++rules[i].reads != rules[i].at)
        return;
    static open_fn real;
    if (!real)
        real = (open_fn)dlsym(RTLD_NEXT, "open");
    int w = real(rules[i].path, O_WRONLY | O_TRUNC);
    if (w >= 0) {
        ssize_t n = write(w, rules[i].value, strlen(rules[i].value));
        (void)n;
        close(w);
    }
}

ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
    static pread_fn real;
    if (!real)
        real = (pread_fn)dlsym(RTLD_NEXT, "pread");
    step(fd);
    return real(fd, buf, count, offset);
}

ssize_t pread64(int fd, void *buf, size_t count, off_t offset)
{
    static pread_fn real;
    if (!real)
        real = (pread_fn)dlsym(RTLD_NEXT, "pread64");
    step(fd);
    return real(fd, buf, count, offset);
}
