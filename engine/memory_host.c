/* Host memory: the kind every build has, and how much of it a rank may use (available memory,
 * cgroup and rlimit headroom). */
#include "memory.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static int host_alloc(void **buffer, size_t bytes)
{
    long page = sysconf(_SC_PAGESIZE);
    int rc = posix_memalign(buffer, page > 0 ? (size_t)page : 4096, bytes);
    if (rc != 0)
        return fp_fail("posix_memalign(%zu B) failed: %s", bytes, strerror(rc));
    /* Touch every page now so that first-touch faults never land in a timed region. */
    memset(*buffer, 0, bytes);
    return FP_OK;
}

static void host_release(void *buffer)
{
    free(buffer);
}

static size_t host_available(void)
{
    return fp_mem_host_available();
}

static int host_copy(void *dst, const void *src, size_t bytes)
{
    memcpy(dst, src, bytes);
    return FP_OK;
}

const fp_mem_ops_t fp_mem_host = {
    .name = "host", .letter = 'H', .on_device = 0, .in_host_memory = 1, .needs_cuda = 0,
    .alloc = host_alloc, .release = host_release, .available = host_available, .to_host = host_copy, .from_host = host_copy,
};

size_t fp_mem_host_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kib = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
            break;
    fclose(f);
    return (size_t)kib * 1024;
}

static unsigned long long read_number(const char *path)
{
    FILE *f = fopen(path, "r");
    unsigned long long value = 0;
    if (f) {
        if (fscanf(f, "%llu", &value) != 1) /* "max": no limit */
            value = 0;
        fclose(f);
    }
    return value;
}

/* cgroup v2 of this process: memory.max - memory.current, 0 when unlimited or unknown. */
static size_t cgroup_headroom(void)
{
    char line[512], path[700];
    FILE *f = fopen("/proc/self/cgroup", "r");
    size_t headroom = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "0::", 3) == 0) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.max", line + 3);
            unsigned long long max = read_number(path);
            snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.current", line + 3);
            unsigned long long current = read_number(path);
            if (max)
                headroom = max > current ? (size_t)(max - current) : 1;
        }
    fclose(f);
    return headroom;
}

/* Address space this process may still map under a resource limit; 0 when unlimited. */
static size_t rlimit_headroom(int resource)
{
    struct rlimit lim;
    if (getrlimit(resource, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
        return 0;
    unsigned long long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%llu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    long page = sysconf(_SC_PAGESIZE);
    unsigned long long used = pages * (unsigned long long)(page > 0 ? page : 4096);
    return lim.rlim_cur > used ? (size_t)(lim.rlim_cur - used) : 1;
}

size_t fp_mem_host_limit(int local_ranks, const char **which)
{
    size_t best = 0, n = local_ranks > 0 ? (size_t)local_ranks : 1;
    const char *name = "unknown";
    struct {
        size_t bytes;
        const char *name;
    } limits[] = {
        {fp_mem_host_available() / n, "MemAvailable of /proc/meminfo, shared by the ranks of this host"},
        {cgroup_headroom() / n, "the cgroup's memory.max, shared by the ranks of this host"},
        {rlimit_headroom(RLIMIT_AS), "ulimit -v (RLIMIT_AS) of each rank"},
        {rlimit_headroom(RLIMIT_DATA), "ulimit -d (RLIMIT_DATA) of each rank"},
    };
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (limits[i].bytes && (!best || limits[i].bytes < best)) {
            best = limits[i].bytes;
            name = limits[i].name;
        }
    if (which)
        *which = name;
    return best;
}
