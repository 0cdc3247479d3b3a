/* What reading the counters costs per size, outside the timed region: one node's byte counters
 * and link counters read twice (before and after a size), as the path evidence does, timed over
 * many rounds. Usage: fabperf_counter_read [SYSFS-ROOT [ROUNDS]] (default /sys, 2000). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "link_health.h"
#include "sysfs_net.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : NULL;
    long rounds = argc > 2 ? atol(argv[2]) : 2000;
    fp_nic_list_t list;
    fp_link_watch_t links;
    fp_nic_snapshot_t snap = {0};
    if (rounds < 1 || fp_nic_list(root, &list) != 0 || fp_link_watch_open(root, &list, &links) != 0) {
        fprintf(stderr, "fabperf_counter_read: cannot list the NICs under %s\n", root ? root : "/sys");
        return 1;
    }
    char what[512];
    fp_link_watch_describe(&links, &list, what, sizeof what);
    double t0 = now();
    for (long i = 0; i < rounds; i++)
        for (int which = 0; which < 2; which++) {
            fp_nic_snapshot(&list, &snap);
            fp_link_watch_read(&links, which);
        }
    double bytes_and_links = (now() - t0) / (double)rounds;
    t0 = now();
    for (long i = 0; i < rounds; i++)
        for (int which = 0; which < 2; which++)
            fp_nic_snapshot(&list, &snap);
    double bytes_only = (now() - t0) / (double)rounds;
    printf("NICs: %zu; link counters: %zu (%s)\n", list.count, links.count, what);
    printf("per size (read before and after): byte counters %.1f us, with the link counters %.1f us\n",
           1e6 * bytes_only, 1e6 * bytes_and_links);
    fp_nic_snapshot_free(&snap);
    fp_link_watch_free(&links);
    fp_nic_list_free(&list);
    return 0;
}
