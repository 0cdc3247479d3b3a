#include "provenance.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

extern char **environ;

static const char *const recorded_prefixes[] = {
    "FI_", "UCX_", "OMPI_MCA_", "MPIR_CVAR_", "MPICH_", "NCCL_", "MV2_", "I_MPI_", "HCOLL_", "PSM2_",
    "PSM3_", "UCC_", "SHARP_", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_MAX_CONNECTIONS", NULL,
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

/* Bounds of what one rank sends: a value is cut at FP_ENV_VALUE_MAX bytes (and says so), and
 * variables beyond FP_ENV_RANK_MAX bytes in all are counted, not sent. */
#define FP_ENV_VALUE_MAX 4096
#define FP_ENV_RANK_MAX (256 * 1024)

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends "NAME=VALUE\0" to buf (capacity FP_ENV_RANK_MAX); 0 when it does not fit. */
static int env_append(char *buf, int *len, const char *entry)
{
    const char *eq = strchr(entry, '=');
    size_t value_len = strlen(eq + 1);
    char cut[48] = "";
    if (value_len > FP_ENV_VALUE_MAX) {
        snprintf(cut, sizeof cut, " [cut: %zu B in all]", value_len);
        value_len = FP_ENV_VALUE_MAX;
    }
    size_t need = (size_t)(eq - entry) + 1 + value_len + strlen(cut) + 1;
    if ((size_t)*len + need > FP_ENV_RANK_MAX)
        return 0;
    int n = snprintf(buf + *len, need, "%.*s%.*s%s", (int)(eq - entry) + 1, entry, (int)value_len, eq + 1, cut);
    *len += n + 1;
    return 1;
}

/* This rank's recorded variables, sorted, as "NAME=VALUE\0" entries. */
static int env_pack(char **buf, int *len, int *dropped)
{
    int count = 0, recorded = 0;
    for (char **e = environ; *e; e++)
        count++;
    char **entries = calloc((size_t)count + 1, sizeof *entries);
    *buf = malloc(FP_ENV_RANK_MAX);
    *len = 0;
    *dropped = 0;
    if (!entries || !*buf) {
        free(entries);
        return fp_fail("malloc(%d B for the environment) failed", FP_ENV_RANK_MAX);
    }
    for (char **e = environ; *e; e++) {
        const char *eq = strchr(*e, '=');
        char name[256];
        if (!eq || (size_t)(eq - *e) >= sizeof name)
            continue;
        snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
        if (fp_env_is_recorded(name))
            entries[recorded++] = *e;
    }
    qsort(entries, (size_t)recorded, sizeof *entries, compare_strings);
    for (int i = 0; i < recorded; i++)
        *dropped += !env_append(*buf, len, entries[i]);
    free(entries);
    return FP_OK;
}

/* Every rank's packed variables on rank 0: *all (concatenated), per-rank lengths in *lens.
 * A failure returns at once: the caller aborts the job, so no rank is left waiting. */
static int env_gather(MPI_Comm comm, int rank, int nranks, char **all, int **lens, int *dropped_total)
{
    char *mine;
    int counts[2], *pairs = NULL, *displs = NULL, total = 0;
    FP_CHECK(env_pack(&mine, &counts[0], &counts[1]));
    *all = NULL;
    *lens = NULL;
    if (rank == 0 && (!(pairs = malloc(sizeof counts * (size_t)nranks)) ||
                      !(displs = malloc(sizeof *displs * (size_t)nranks)) ||
                      !(*lens = malloc(sizeof **lens * (size_t)nranks))))
        return fp_fail("malloc(%d ranks' environment sizes) failed", nranks);
    FP_MPI_CHECK(MPI_Gather(counts, 2, MPI_INT, pairs, 2, MPI_INT, 0, comm));
    for (int r = 0; rank == 0 && r < nranks; r++) {
        (*lens)[r] = pairs[2 * r];
        displs[r] = total;
        total += pairs[2 * r];
        *dropped_total += pairs[2 * r + 1];
    }
    if (rank == 0 && !(*all = malloc((size_t)total + 1)))
        return fp_fail("malloc(%d B of environment) failed", total);
    FP_MPI_CHECK(MPI_Gatherv(mine, counts[0], MPI_CHAR, *all, *lens, displs, MPI_CHAR, 0, comm));
    free(mine);
    free(pairs);
    free(displs);
    return FP_OK;
}

typedef struct env_entry {
    const char *name, *value;
    int rank;
} env_entry_t;

static int compare_entries(const void *a, const void *b)
{
    const env_entry_t *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

/* Adds rank to the group of value (NULL: not set), making the group when it is new. */
static int group_add(fp_env_var_t *var, const char *value, int rank, int nranks)
{
    int g = 0;
    while (g < var->nvalues && !(value ? var->values[g].value && strcmp(var->values[g].value, value) == 0
                                       : !var->values[g].value))
        g++;
    if (g == var->nvalues) {
        var->values[g].value = value;
        if (!(var->values[g].ranks = malloc(sizeof(int) * (size_t)nranks)))
            return fp_fail("malloc(%d ranks) failed", nranks);
        var->nvalues++;
    }
    var->values[g].ranks[var->values[g].nranks++] = rank;
    return FP_OK;
}

/* One variable from its entries e[0..n) (sorted by rank): one value everywhere, or groups. */
static int env_merge_one(fp_env_var_t *var, const env_entry_t *e, int n, int nranks)
{
    int same = n == nranks;
    for (int i = 1; same && i < n; i++)
        same = strcmp(e[i].value, e[0].value) == 0;
    var->name = e[0].name;
    var->value = e[0].value;
    if (same)
        return FP_OK;
    var->values = calloc((size_t)n + 1, sizeof *var->values);
    if (!var->values)
        return fp_fail("calloc(%d environment values) failed", n + 1);
    for (int r = 0, i = 0; r < nranks; r++) {
        int set = i < n && e[i].rank == r;
        FP_CHECK(group_add(var, set ? e[i].value : NULL, r, nranks));
        i += set;
    }
    return FP_OK;
}
/* Rank 0: entries of every rank's buffer ("NAME=VALUE\0", '=' cut in place), merged by name. */
static int env_merge(fp_meta_t *meta, char *all, const int *lens, int nranks)
{
    int count = 0;
    size_t total = 0;
    for (int r = 0; r < nranks; r++)
        total += (size_t)lens[r];
    for (size_t i = 0; i < total; i++)
        count += all[i] == '\0';
    env_entry_t *entries = calloc((size_t)count + 1, sizeof *entries);
    meta->env = calloc((size_t)count + 1, sizeof *meta->env);
    if (!entries || !meta->env) {
        free(entries);
        return fp_fail("calloc(%d environment entries) failed", count);
    }
    int n = 0;
    char *p = all;
    for (int r = 0; r < nranks; r++)
        for (char *end = p + lens[r]; p < end;) {
            char *eq = strchr(p, '='), *value = eq + 1;
            *eq = '\0';
            entries[n++] = (env_entry_t){p, value, r};
            p = value + strlen(value) + 1;
        }
    qsort(entries, (size_t)n, sizeof *entries, compare_entries);
    int rc = FP_OK;
    for (int i = 0, j; rc == FP_OK && i < n; i = j) {
        for (j = i + 1; j < n && strcmp(entries[j].name, entries[i].name) == 0;)
            j++;
        rc = env_merge_one(&meta->env[meta->nenv++], entries + i, j - i, nranks);
    }
    free(entries);
    return rc;
}

static int env_collect(fp_meta_t *meta, MPI_Comm comm, int rank, int nranks)
{
    int *lens = NULL;
    int rc = env_gather(comm, rank, nranks, &meta->env_buffer, &lens, &meta->env_unrecorded);
    if (rc == FP_OK && rank == 0)
        rc = env_merge(meta, meta->env_buffer, lens, nranks);
    free(lens);
    return rc;
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
    return env_collect(meta, comm, rank, nranks);
}

void fp_meta_release(fp_meta_t *meta)
{
    for (int i = 0; i < meta->nenv; i++) {
        for (int g = 0; g < meta->env[i].nvalues; g++)
            free(meta->env[i].values[g].ranks);
        free(meta->env[i].values);
    }
    free(meta->env);
    free(meta->env_buffer);
    fp_placement_release(&meta->placement);
    meta->env_buffer = NULL;
    meta->nenv = 0;
    free(meta->hosts);
    meta->env = NULL;
    meta->hosts = NULL;
}
