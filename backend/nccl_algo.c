/* Finding fabperf's NCCL profiler plugin and reaching it (nccl_algo.h). */
#include "nccl_algo.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FP_PKGLIBDIR
#define FP_PKGLIBDIR "/usr/local/lib/fabperf"
#endif

/* The build tree keeps the plugin one folder above the programs; an install keeps it in its
 * library folder. */
static int find_plugin(char *path, size_t len)
{
    char exe[PATH_MAX];
    ssize_t got = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (got > 0) {
        exe[got] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            int n = snprintf(path, len, "%s/../%s", exe, FP_NCCL_PROFILER_LIB);
            if (n > 0 && (size_t)n < len && access(path, R_OK) == 0)
                return 1;
        }
    }
    snprintf(path, len, "%s/%s", FP_PKGLIBDIR, FP_NCCL_PROFILER_LIB);
    return access(path, R_OK) == 0;
}

/* NCCL also reads its settings from NCCL_CONF_FILE, else ~/.nccl.conf, and /etc/nccl.conf: a
 * profiler named there is the site's or the user's, and setting ours would displace it. */
static int conf_names_profiler(char *file, size_t len)
{
    const char *home = getenv("HOME"), *conf = getenv("NCCL_CONF_FILE");
    char user_conf[1024] = "";
    if (conf && conf[0])
        snprintf(user_conf, sizeof user_conf, "%s", conf);
    else if (home && home[0])
        snprintf(user_conf, sizeof user_conf, "%s/.nccl.conf", home);
    const char *files[] = {user_conf, "/etc/nccl.conf"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        FILE *f = files[i][0] ? fopen(files[i], "r") : NULL;
        if (!f)
            continue;
        char line[1024];
        int named = 0;
        while (!named && fgets(line, sizeof line, f)) {
            const char *p = line + strspn(line, " \t");
            named = strncmp(p, "NCCL_PROFILER_PLUGIN", 20) == 0 && strchr("= \t", p[20]) != NULL;
        }
        fclose(f);
        if (named) {
            snprintf(file, len, "%s", files[i]);
            return 1;
        }
    }
    return 0;
}

void fp_nccl_algo_prepare(fp_nccl_algo_t *a)
{
    memset(a, 0, sizeof *a);
    const char *user = getenv("NCCL_PROFILER_PLUGIN");
    char conf[1024];
    if (user) {
        snprintf(a->why, sizeof a->why, "NCCL_PROFILER_PLUGIN=%.200s is the user's, and NCCL loads one profiler", user);
        return;
    }
    if (conf_names_profiler(conf, sizeof conf)) {
        snprintf(a->why, sizeof a->why, "%.200s names NCCL_PROFILER_PLUGIN, and NCCL loads one profiler", conf);
        return;
    }
    if (!find_plugin(a->path, sizeof a->path)) {
        snprintf(a->why, sizeof a->why, "%s not found beside the program nor in %.200s", FP_NCCL_PROFILER_LIB,
                 FP_PKGLIBDIR);
        return;
    }
    if (setenv("NCCL_PROFILER_PLUGIN", a->path, 1) != 0) {
        snprintf(a->why, sizeof a->why, "setenv(NCCL_PROFILER_PLUGIN) failed");
        return;
    }
    a->set_env = 1;
}

void fp_nccl_algo_attach(fp_nccl_algo_t *a)
{
    if (a->set_env)
        unsetenv("NCCL_PROFILER_PLUGIN"); /* not passed on to what the program starts */
    if (a->why[0])
        return;
    void *lib = dlopen(a->path, RTLD_LAZY | RTLD_NOLOAD); /* only if NCCL loaded it */
    if (!lib) {
        snprintf(a->why, sizeof a->why, "NCCL did not load its profiler plugin %.200s (NCCL 2.25 or later loads "
                 "it; NCCL_PROFILER_PLUGIN=none in NCCL's configuration turns it off)", a->path);
        return;
    }
    fp_nccl_profiler_arm_fn *arm = (fp_nccl_profiler_arm_fn *)dlsym(lib, "fp_nccl_profiler_arm");
    fp_nccl_profiler_take_fn *take = (fp_nccl_profiler_take_fn *)dlsym(lib, "fp_nccl_profiler_take");
    fp_nccl_profiler_inits_fn *inits = (fp_nccl_profiler_inits_fn *)dlsym(lib, "fp_nccl_profiler_inits");
    dlclose(lib); /* NCCL's own reference keeps it loaded */
    if (!arm || !take || !inits) {
        snprintf(a->why, sizeof a->why, "%.200s lacks fabperf's entry points", a->path);
        return;
    }
    if (inits() == 0) {
        snprintf(a->why, sizeof a->why, "NCCL loaded %.200s but did not initialise it for the communicator", a->path);
        return;
    }
    a->arm = arm;
    a->take = take;
}

void fp_nccl_algo_about(const fp_nccl_algo_t *a, char *out, size_t len)
{
    if (a->arm)
        snprintf(out, len, "from NCCL's profiler interface, over each size's out-of-place warm-up calls");
    else
        snprintf(out, len, "unknown (%s)", a->why);
}
