#include "provenance.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

extern char **environ;

static const char *const recorded_prefixes[] = {
    "FI_", "UCX_", "OMPI_MCA_", "MPIR_CVAR_", "NCCL_", "MV2_", "I_MPI_", "HCOLL_",
    "CUDA_VISIBLE_DEVICES", NULL,
};

/* Set by mpirun itself for its own bookkeeping: not a user's choice. */
static const char *const launcher_internal[] = {
    "OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix", "OMPI_MCA_initial_wdir",
    "OMPI_MCA_shmem_RUNTIME_QUERY_hint", "OMPI_MCA_mpi_oversubscribe", NULL,
};

int fp_env_is_recorded(const char *name)
{
    for (int i = 0; launcher_internal[i]; i++)
        if (strncmp(name, launcher_internal[i], strlen(launcher_internal[i])) == 0)
            return 0;
    for (int i = 0; recorded_prefixes[i]; i++)
        if (strncmp(name, recorded_prefixes[i], strlen(recorded_prefixes[i])) == 0)
            return 1;
    return 0;
}

static int compare_env(const void *a, const void *b)
{
    return strcmp(((const fp_env_var_t *)a)->name, ((const fp_env_var_t *)b)->name);
}

static int env_collect(fp_meta_t *meta)
{
    int count = 0;
    for (char **e = environ; *e; e++)
        count++;
    meta->env = calloc((size_t)count + 1, sizeof *meta->env);
    if (!meta->env)
        return fp_fail("calloc(%d environment entries) failed", count);
    for (char **e = environ; *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq)
            continue;
        size_t len = (size_t)(eq - *e);
        char *name = strndup(*e, len);
        if (!name)
            return fp_fail("strndup(%zu B) failed", len);
        if (!fp_env_is_recorded(name)) {
            free(name);
            continue;
        }
        meta->env[meta->nenv].name = name;
        meta->env[meta->nenv].value = (char *)eq + 1;
        meta->nenv++;
    }
    qsort(meta->env, (size_t)meta->nenv, sizeof *meta->env, compare_env);
    return FP_OK;
}

static void library_version(char *out, size_t len)
{
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    MPI_Get_library_version(text, &n);
    text[n < (int)sizeof text ? n : (int)sizeof text - 1] = '\0';
    /* First line only, trimmed: MPICH prints a whole configuration after it. */
    text[strcspn(text, "\n")] = '\0';
    size_t end = strlen(text);
    while (end && (text[end - 1] == ' ' || text[end - 1] == '\t'))
        text[--end] = '\0';
    snprintf(out, len, "%s", text);
}

/* Gathers every rank's processor name on rank 0 and counts ranks per host, in rank order. */
static int hosts_collect(fp_meta_t *meta, MPI_Comm comm, int rank, int nranks)
{
    char mine[MPI_MAX_PROCESSOR_NAME + 1] = {0};
    int len = 0;
    FP_MPI_CHECK(MPI_Get_processor_name(mine, &len));
    char *all = rank == 0 ? calloc((size_t)nranks, sizeof mine) : NULL;
    if (rank == 0 && !all)
        return fp_fail("calloc(%d host names) failed", nranks);
    FP_MPI_CHECK(MPI_Gather(mine, (int)sizeof mine, MPI_CHAR, all, (int)sizeof mine, MPI_CHAR, 0, comm));
    if (rank != 0)
        return FP_OK;
    meta->hosts = calloc((size_t)nranks, sizeof *meta->hosts);
    if (!meta->hosts) {
        free(all);
        return fp_fail("calloc(%d hosts) failed", nranks);
    }
    for (int r = 0; r < nranks; r++) {
        const char *name = all + (size_t)r * sizeof mine;
        int h = 0;
        while (h < meta->nhosts && strcmp(meta->hosts[h].name, name) != 0)
            h++;
        if (h == meta->nhosts)
            snprintf(meta->hosts[meta->nhosts++].name, sizeof meta->hosts[0].name, "%s", name);
        meta->hosts[h].ranks++;
    }
    free(all);
    return FP_OK;
}

int fp_meta_collect(fp_meta_t *meta, MPI_Comm comm)
{
    int rank, nranks;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nranks);
    meta->nranks = nranks;
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(meta->date, sizeof meta->date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    library_version(meta->mpi_library, sizeof meta->mpi_library);
    meta->cuda_aware = fp_mpi_cuda_aware();
    FP_CHECK(hosts_collect(meta, comm, rank, nranks));
    return env_collect(meta);
}

void fp_meta_release(fp_meta_t *meta)
{
    for (int i = 0; i < meta->nenv; i++)
        free(meta->env[i].name);
    free(meta->env);
    free(meta->hosts);
    meta->env = NULL;
    meta->hosts = NULL;
}
