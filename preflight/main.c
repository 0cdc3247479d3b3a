/* fabperf_preflight: one rank per node gathers its node's facts; rank 0 prints the table. */
#include "config.h"

#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "preflight.h"

enum { EXIT_PASS = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

/* Every rank knows whether any rank's roots are bad; rank 0 prints the first bad rank's reason. */
static int agree_usage(int bad, const char *why, int rank, int size)
{
    int first = bad ? rank : size, lowest;
    MPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (lowest == size)
        return 0;
    char msg[600];
    snprintf(msg, sizeof msg, "%s", why);
    MPI_Bcast(msg, sizeof msg, MPI_CHAR, lowest, MPI_COMM_WORLD);
    if (rank == 0)
        fprintf(stderr, "fabperf_preflight: %s\n", msg);
    return 1;
}

/* Concatenates every rank's bytes at rank 0; counts[r] is rank r's share. NULL elsewhere or when
 * out of memory (then *ok is 0 at rank 0). */
static char *gather_bytes(const void *buf, int bytes, int rank, int size, int *counts, int *ok)
{
    MPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int *displs = NULL;
    char *all = NULL;
    size_t total = 0;
    if (rank == 0) {
        displs = malloc((size_t)size * sizeof *displs);
        for (int r = 0; displs && r < size; r++) {
            displs[r] = (int)total;
            total += (size_t)counts[r];
        }
        all = displs ? malloc(total ? total : 1) : NULL;
        *ok = all != NULL;
    }
    MPI_Gatherv(buf, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    free(displs);
    return all;
}

/* Rank 0 receives every node: facts and findings copied into nodes[size]. */
static int gather_nodes(const pf_node_t *mine, int rank, int size, pf_node_t *nodes)
{
    int *fcounts = malloc((size_t)size * sizeof *fcounts), *gcounts = malloc((size_t)size * sizeof *gcounts);
    char names[64];
    char *all_names = rank == 0 ? malloc((size_t)size * sizeof names) : NULL;
    snprintf(names, sizeof names, "%s", mine->node);
    MPI_Gather(names, sizeof names, MPI_CHAR, all_names, sizeof names, MPI_CHAR, 0, MPI_COMM_WORLD);
    int ok_f = 1, ok_g = 1;
    char *facts = gather_bytes(mine->facts, (int)(mine->nfacts * sizeof *mine->facts), rank, size, fcounts, &ok_f);
    char *finds = gather_bytes(mine->findings, (int)(mine->nfindings * sizeof *mine->findings), rank, size,
                               gcounts, &ok_g);
    int rc = 0;
    if (rank == 0) {
        rc = ok_f && ok_g && all_names && fcounts && gcounts && nodes ? 0 : -1;
        size_t fo = 0, go = 0;
        for (int r = 0; rc == 0 && r < size; r++) {
            pf_node_t *n = &nodes[r];
            snprintf(n->node, sizeof n->node, "%s", all_names + (size_t)r * sizeof names);
            n->nfacts = n->facts_cap = (size_t)fcounts[r] / sizeof(pf_fact_t);
            n->nfindings = n->findings_cap = (size_t)gcounts[r] / sizeof(pf_finding_t);
            n->facts = malloc(fcounts[r] ? (size_t)fcounts[r] : 1);
            n->findings = malloc(gcounts[r] ? (size_t)gcounts[r] : 1);
            if (!n->facts || !n->findings) {
                rc = -1;
                break;
            }
            memcpy(n->facts, facts + fo, (size_t)fcounts[r]);
            memcpy(n->findings, finds + go, (size_t)gcounts[r]);
            fo += (size_t)fcounts[r];
            go += (size_t)gcounts[r];
        }
    }
    free(facts);
    free(finds);
    free(all_names);
    free(fcounts);
    free(gcounts);
    return rc;
}

/* Writes the report to FILE.tmp, then renames it: a reader never sees half a report. */
static int write_report(const pf_options_t *opts, pf_node_t *nodes, int size, const pf_node_t *summary)
{
    if (!opts->output) {
        pf_render(stdout, opts->format, nodes, size, summary);
        return fflush(stdout) == 0 ? 0 : -1;
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%.4000s.tmp%ld", opts->output, (long)getpid());
    FILE *out = fopen(tmp, "w");
    if (!out) {
        fprintf(stderr, "fabperf_preflight: --output: fopen('%s') failed: %s\n", tmp, strerror(errno));
        return -1;
    }
    pf_render(out, opts->format, nodes, size, summary);
    if (fclose(out) != 0 || rename(tmp, opts->output) != 0) {
        fprintf(stderr, "fabperf_preflight: --output: writing '%s' failed: %s\n", opts->output, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

static int report(const pf_options_t *opts, pf_node_t *nodes, int size)
{
    pf_node_t summary = {0};
    pf_compare_nodes(nodes, size, &summary);
    int failed = 0;
    for (int n = 0; n <= size; n++) {
        const pf_node_t *src = n < size ? &nodes[n] : &summary;
        for (size_t i = 0; i < src->nfindings; i++)
            failed |= src->findings[i].level == PF_FAIL;
    }
    int rc = write_report(opts, nodes, size, &summary) == 0 ? (failed ? EXIT_FAILED : EXIT_PASS) : EXIT_FAILED;
    pf_node_free(&summary);
    return rc;
}

/* Usage, roots and the node-local rank; returns -1 to go on, else the exit status. */
static int set_up(int argc, char **argv, int rank, int size, pf_options_t *opts, pf_where_t *where)
{
    char err[600] = "", host[256] = "unknown";
    int bad = pf_options_parse(argc, argv, opts, err, sizeof err) != 0;
    if (agree_usage(bad, err, rank, size)) /* every rank parsed the same argv: one line, rank 0's */
        return EXIT_USAGE;
    if (opts->help || opts->version) {
        if (rank == 0 && opts->help)
            pf_options_help(stdout);
        else if (rank == 0)
            printf("fabperf_preflight %s\n", PACKAGE_VERSION);
        return EXIT_PASS;
    }
    gethostname(host, sizeof host - 1);
    bad = pf_root_check("sysfs-root", opts->sys_root, rank, host, where->sys_root, sizeof where->sys_root, err,
                     sizeof err) ||
          pf_root_check("proc-root", opts->proc_root, rank, host, where->proc_root, sizeof where->proc_root, err,
                     sizeof err);
    if (agree_usage(bad, err, rank, size))
        return EXIT_USAGE;
    where->default_roots = strcmp(where->sys_root, "/sys") == 0 && strcmp(where->proc_root, "/proc") == 0;
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &where->local_rank);
    MPI_Comm_free(&local);
    return -1;
}

int main(int argc, char **argv)
{
    int rank, size;
    for (int i = 1; i < argc; i++) /* Slurm runs a health check outside any job: no MPI */
        if (strcmp(argv[i], "--health-check") == 0)
            return pf_health_check(argc, argv);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pf_options_t opts;
    pf_where_t where;
    memset(&where, 0, sizeof where);
    int rc = set_up(argc, argv, rank, size, &opts, &where);
    if (rc >= 0) {
        MPI_Finalize();
        return rc;
    }
    pf_node_t mine = {0};
    char host[256] = "unknown";
    gethostname(host, sizeof host - 1);
    pf_node_name(&where, host, mine.node, sizeof mine.node);
    pf_gather_local(&mine, &where);
    pf_node_t *nodes = rank == 0 ? calloc((size_t)size, sizeof *nodes) : NULL;
    if (gather_nodes(&mine, rank, size, nodes) != 0) {
        fprintf(stderr, "fabperf_preflight: rank 0: out of memory gathering %d nodes' facts\n", size);
        rc = EXIT_FAILED;
    } else if (rank == 0) {
        rc = report(&opts, nodes, size);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD); /* every rank exits with the verdict */
    for (int n = 0; nodes && n < size; n++)
        pf_node_free(&nodes[n]);
    free(nodes);
    pf_node_free(&mine);
    MPI_Finalize();
    return rc;
}
