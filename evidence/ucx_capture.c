/* Captures UCX's log of what it selected (ucx_capture.h). UCX's functions are looked up in the
 * libucs the MPI loaded (by its soname), never linked: fabperf must not bring a libucs of its own
 * into a process whose MPI was built against another one. */
#include "ucx_capture.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <ucs/config/types.h>
#include <ucs/debug/log_def.h>

#define UCS_SONAME "libucs.so.0"
#define KEPT_LINES 64
#define KEPT_LENGTH 512

typedef enum { CAPTURE_OFF, CAPTURE_HANDLER, CAPTURE_FILE } capture_mode_t;

static struct {
    capture_mode_t mode;
    int handler;                  /* our handler is in UCX's list */
    int user_level, info_level;   /* in the loaded UCX's numbering; user_level -1: not raised */
    const void *global_component; /* UCX's own messages' configuration (the global options) */
    void (*flush)(void);          /* ucs_log_flush: the log file is buffered */
    pthread_mutex_t lock;         /* UCX may log from its progress thread */
    char kept[KEPT_LINES][KEPT_LENGTH];
    int nkept, nread, present;
    char path[4096];              /* the log file read, "" none */
    int ours;                     /* ours: warnings copied to standard error, file unlinked */
    FILE *file;
    const char *set[3];           /* variables we set, taken back after MPI_Init */
    int nset;
    char note[200];               /* why nothing may be readable */
    fp_ucx_selection_t selection;
} cap = {.lock = PTHREAD_MUTEX_INITIALIZER, .user_level = -1};

/* Keeps the endpoint and version lines; swallows what only our raised level lets through. */
static ucs_log_func_rc_t on_log(const char *file, unsigned line, const char *function, ucs_log_level_t level,
                                const ucs_log_component_config_t *component, const char *format, va_list ap)
{
    char message[KEPT_LENGTH];
    va_list copy;
    (void)file, (void)line, (void)function;
    va_copy(copy, ap);
    vsnprintf(message, sizeof message, format, copy);
    va_end(copy);
    if (strstr(message, "cfg") || strncmp(message, "Version ", 8) == 0) {
        pthread_mutex_lock(&cap.lock);
        if (cap.nkept < KEPT_LINES)
            memcpy(cap.kept[cap.nkept++], message, sizeof message);
        pthread_mutex_unlock(&cap.lock);
    }
    if ((const void *)component == cap.global_component && (int)level > cap.user_level &&
        (int)level <= cap.info_level && cap.user_level >= 0)
        return UCS_LOG_FUNC_RC_STOP;
    return UCS_LOG_FUNC_RC_CONTINUE;
}

static int level_named(const char *const *names, const char *name)
{
    for (int i = 0; i < 32 && names[i]; i++)
        if (strcasecmp(names[i], name) == 0)
            return i;
    return -1;
}

/* Our handler into the loaded libucs; raise: UCX's level up to info, if lower. */
static int push_handler(void *ucs, int raise)
{
    void (*push)(ucs_log_func_t) = (void (*)(ucs_log_func_t))dlsym(ucs, "ucs_log_push_handler");
    ucs_status_t (*set)(const char *, const char *) =
        (ucs_status_t(*)(const char *, const char *))dlsym(ucs, "ucs_global_opts_set_value");
    const char *const *names = dlsym(ucs, "ucs_log_level_names");
    /* The global options begin with UCX's own log component (ucs/config/global_opts.h). */
    const ucs_log_component_config_t *global = dlsym(ucs, "ucs_global_opts");
    cap.flush = (void (*)(void))dlsym(ucs, "ucs_log_flush");
    if (!push || !set || !names || !global)
        return 0;
    cap.info_level = level_named(names, "INFO");
    cap.global_component = global;
    if (raise && cap.info_level >= 0 && (int)global->log_level < cap.info_level) {
        int user = (int)global->log_level;
        if (set("LOG_LEVEL", "info") == UCS_OK)
            cap.user_level = user;
    }
    push(on_log);
    cap.handler = 1;
    return 1;
}

static void put_env(const char *name, const char *value)
{
    if (setenv(name, value, 1) == 0 && cap.nset < (int)(sizeof cap.set / sizeof cap.set[0]))
        cap.set[cap.nset++] = name;
}

/* UCX_LOG_FILE's %p and %h for this process; 0 when it holds another of UCX's patterns or is too
 * long. */
static int expand(const char *pattern, char *out, size_t len)
{
    char host[256] = "";
    size_t used = 0;
    gethostname(host, sizeof host - 1);
    out[0] = '\0';
    for (const char *p = pattern; *p; p++) {
        int n;
        if (p[0] == '%' && p[1] == 'p')
            n = snprintf(out + used, len - used, "%ld", (long)getpid()), p++;
        else if (p[0] == '%' && p[1] == 'h')
            n = snprintf(out + used, len - used, "%s", host), p++;
        else if (p[0] == '%')
            return 0;
        else
            n = snprintf(out + used, len - used, "%c", *p);
        if (n < 0 || (size_t)n >= len - used)
            return 0;
        used += (size_t)n;
    }
    return 1;
}

static int proto_enabled(void)
{
    const char *v = getenv("UCX_PROTO_ENABLE");
    return v && (strcasecmp(v, "y") == 0 || strcasecmp(v, "yes") == 0 || strcasecmp(v, "on") == 0 ||
                 strcmp(v, "1") == 0);
}

/* The user's UCX_LOG_FILE, to read; returns whether there is one. */
static int user_file(void)
{
    const char *file = getenv("UCX_LOG_FILE");
    if (!file || !*file)
        return 0;
    if (!expand(file, cap.path, sizeof cap.path)) {
        cap.path[0] = '\0';
        snprintf(cap.note, sizeof cap.note, "UCX_LOG_FILE holds a pattern other than %%p and %%h: not read");
    }
    return 1;
}

/* libucs not loaded yet: UCX will read its log settings from the environment in MPI_Init. */
static void start_file(void)
{
    const char *level = getenv("UCX_LOG_LEVEL"), *tmp = getenv("TMPDIR");
    cap.mode = CAPTURE_FILE;
    if (user_file()) {
        if (!level || !*level)
            snprintf(cap.note, sizeof cap.note, "UCX_LOG_FILE is set without UCX_LOG_LEVEL=info: UCX logs its "
                     "endpoints' lanes only at info");
        return;
    }
    if (level && *level) {
        snprintf(cap.note, sizeof cap.note, "UCX_LOG_LEVEL is set without UCX_LOG_FILE: UCX's log went to the output");
        return;
    }
    snprintf(cap.path, sizeof cap.path, "%s/fabperf-ucx.%ld.log", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    unlink(cap.path);
    put_env("UCX_LOG_LEVEL", "info");
    put_env("UCX_LOG_FILE", cap.path);
    cap.ours = 1;
}

void fp_ucx_capture_start(int enabled)
{
    fp_ucx_selection_init(&cap.selection);
    if (!enabled)
        return;
    void *ucs = dlopen(UCS_SONAME, RTLD_LAZY | RTLD_NOLOAD);
    if (ucs) { /* loaded with the program: its log settings are read already */
        cap.mode = CAPTURE_HANDLER;
        if (!push_handler(ucs, 1))
            snprintf(cap.note, sizeof cap.note, "this libucs has no log handler interface");
        user_file();
        dlclose(ucs);
    } else {
        start_file();
    }
    /* The new protocols print their selection only as tables, and only into a log file. */
    if (proto_enabled() && !getenv("UCX_PROTO_INFO") && cap.path[0])
        put_env("UCX_PROTO_INFO", "y");
    else if (proto_enabled() && !cap.path[0] && !cap.note[0])
        snprintf(cap.note, sizeof cap.note, "UCX_PROTO_ENABLE=y: UCX logs the protocols it selects only to "
                 "UCX_LOG_FILE (with UCX_PROTO_INFO=y); set it at launch");
}

void fp_ucx_capture_started(void)
{
    if (cap.mode == CAPTURE_OFF)
        return;
    for (int i = 0; i < cap.nset; i++)
        unsetenv(cap.set[i]);
    void *ucs = dlopen(UCS_SONAME, RTLD_LAZY | RTLD_NOLOAD);
    cap.present = ucs != NULL;
    if (ucs && !cap.handler) /* later endpoints, and the flush of the buffered file */
        push_handler(ucs, 0);
    if (ucs)
        dlclose(ucs); /* the MPI holds it: the functions stay */
    if (cap.path[0])
        cap.file = fopen(cap.path, "r");
    if (cap.ours)
        unlink(cap.path);
}

const fp_ucx_selection_t *fp_ucx_capture_read(void)
{
    fp_ucx_selection_t *s = &cap.selection;
    if (cap.mode == CAPTURE_OFF || !cap.present)
        return NULL;
    if (cap.flush)
        cap.flush();
    pthread_mutex_lock(&cap.lock);
    for (; cap.nread < cap.nkept; cap.nread++)
        fp_ucx_log_line(s, cap.kept[cap.nread]);
    pthread_mutex_unlock(&cap.lock);
    if (cap.file)
        fp_ucx_log_stream(s, cap.file, cap.ours ? stderr : NULL);
    if (s->nendpoints || s->nprotocols)
        s->note[0] = '\0';
    else
        snprintf(s->note, sizeof s->note, "%s", cap.note[0] ? cap.note : "no endpoint configuration in UCX's log");
    return s;
}
