/* --health-check: this node's own checks without MPI, for Slurm's HealthCheckProgram: silent when
 * none fails; else one line per failure on standard error, exit 1 and, with --drain, the node
 * drained through scontrol with the first failure as its reason. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "options.h"
#include "preflight.h"

enum { EXIT_PASS = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };
enum { REASON_MAX = 200 }; /* characters of the drain reason that sinfo -R shows */

/* scontrol update NodeName=NODE State=DRAIN Reason=REASON; 0 when it exits 0. */
static int drain(const char *node, const char *reason)
{
    char name[128], why[REASON_MAX + 16];
    snprintf(name, sizeof name, "NodeName=%s", node);
    snprintf(why, sizeof why, "Reason=%s", reason);
    char *argv[] = {"scontrol", "update", name, "State=DRAIN", why, NULL};
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "fabperf_preflight: --drain: execvp(scontrol) failed: %s\n", strerror(errno));
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        fprintf(stderr, "fabperf_preflight: --drain: fork/waitpid for scontrol failed: %s\n", strerror(errno));
        return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "fabperf_preflight: --drain: scontrol update %s State=DRAIN failed (exit %d)\n", name,
                WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return -1;
    }
    return 0;
}

int pf_health_check(int argc, char **argv)
{
    pf_options_t opts;
    pf_where_t where;
    char err[600] = "", host[256] = "unknown";
    memset(&where, 0, sizeof where);
    gethostname(host, sizeof host - 1);
    if (pf_options_parse(argc, argv, &opts, err, sizeof err) != 0 ||
        pf_root_check("sysfs-root", opts.sys_root, 0, host, where.sys_root, sizeof where.sys_root, err, sizeof err) ||
        pf_root_check("proc-root", opts.proc_root, 0, host, where.proc_root, sizeof where.proc_root, err, sizeof err)) {
        fprintf(stderr, "fabperf_preflight: %s\n", err);
        return EXIT_USAGE;
    }
    where.default_roots = strcmp(where.sys_root, "/sys") == 0 && strcmp(where.proc_root, "/proc") == 0;
    pf_node_t mine = {0};
    pf_node_name(&where, host, mine.node, sizeof mine.node);
    pf_gather_local(&mine, &where);
    int failures = 0;
    char reason[640] = ""; /* cut to REASON_MAX below */
    for (size_t i = 0; i < mine.nfindings; i++) {
        const pf_finding_t *f = &mine.findings[i];
        if (f->level != PF_FAIL)
            continue;
        fprintf(stderr, "fabperf_preflight: %s: %s: %s\n", mine.node, f->device, f->text);
        if (failures++ == 0)
            snprintf(reason, sizeof reason, "fabperf_preflight: %s: %s", f->device, f->text);
    }
    int rc = failures ? EXIT_FAILED : EXIT_PASS;
    if (failures && opts.drain) {
        char more[40] = "";
        if (failures > 1)
            snprintf(more, sizeof more, " (+%d more)", failures - 1);
        size_t keep = REASON_MAX - strlen(more);
        if (strlen(reason) > keep)
            reason[keep] = '\0';
        strcat(reason, more);
        for (char *p = reason; *p; p++) /* one argument, one line */
            if ((unsigned char)*p < 0x20)
                *p = ' ';
        const char *node = getenv("SLURMD_NODENAME");
        drain(node && *node ? node : host, reason);
    }
    pf_node_free(&mine);
    return rc;
}
