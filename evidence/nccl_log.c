/* Reads NCCL's INFO log for the transport it chose. Recognised lines (NCCL 2.18-2.28):
 *   NET/Plugin: Could not find: libnccl-net.so ...      -> plugin none
 *   NET/Plugin: Loaded net plugin NAME (v8)              -> plugin NAME
 *   Assigned NET plugin Socket to comm / Using network IB -> network
 *   NET/IB : Using [0]mlx5_0:1/IB ...                      -> network IB (unless assigned otherwise)
 *   GPU Direct RDMA Enabled|Disabled for HCA ...           -> GPUDirect RDMA on|off
 *   Channel 00/0 : 0[0] -> 1[1] via P2P/IPC | SHM/... | NET/IB/0/GDRDMA -> connections by kind */
#include "nccl_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"

static void set(char *field, size_t len, const char *value)
{
    snprintf(field, len, "%s", value);
}

void fp_nccl_transport_init(fp_nccl_transport_t *t)
{
    memset(t, 0, sizeof *t);
    set(t->plugin, sizeof t->plugin, "unknown");
    set(t->net, sizeof t->net, "unknown");
    set(t->gdr, sizeof t->gdr, "unknown");
}

/* NCCL_DEBUG_FILE's %h (host name) and %p (process id) for this process. */
static void expand(const char *pattern, char *out, size_t len)
{
    char host[256] = "";
    size_t used = 0;
    gethostname(host, sizeof host - 1);
    for (const char *p = pattern; *p && used + 1 < len; p++) {
        int n = 0;
        if (p[0] == '%' && p[1] == 'h')
            n = snprintf(out + used, len - used, "%s", host), p++;
        else if (p[0] == '%' && p[1] == 'p')
            n = snprintf(out + used, len - used, "%ld", (long)getpid()), p++;
        else
            out[used] = *p, n = 1;
        used += (size_t)n < len - used ? (size_t)n : len - used - 1;
    }
    out[used] = '\0';
}

int fp_nccl_log_prepare(char *path, size_t len, int *ours)
{
    const char *debug = getenv("NCCL_DEBUG"), *file = getenv("NCCL_DEBUG_FILE");
    *ours = 0;
    if (debug && file) {
        expand(file, path, len);
        return 1;
    }
    if (debug) {
        snprintf(path, len, "unknown (NCCL_DEBUG set without NCCL_DEBUG_FILE: NCCL's log went to its output)");
        return 0;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(path, len, "%s/fabperf-nccl.%ld.log", tmp && tmp[0] ? tmp : "/tmp", (long)getpid());
    unlink(path);
    setenv("NCCL_DEBUG", "INFO", 1);
    setenv("NCCL_DEBUG_SUBSYS", "INIT,NET,GRAPH", 0);
    setenv("NCCL_DEBUG_FILE", path, 1);
    *ours = 1;
    return 1;
}

/* The word after `key` in line, up to a space, '(' or end. */
static int word_after(const char *line, const char *key, char *out, size_t len)
{
    const char *p = strstr(line, key);
    if (!p)
        return 0;
    p += strlen(key);
    size_t n = strcspn(p, " (\n\r\t");
    if (n == 0 || n >= len)
        return 0;
    memcpy(out, p, n);
    out[n] = '\0';
    return 1;
}

static void channel(fp_nccl_transport_t *t, const char *via)
{
    if (strncmp(via, "P2P", 3) == 0)
        t->p2p++;
    else if (strncmp(via, "SHM", 3) == 0)
        t->shm++;
    else if (strncmp(via, "NET", 3) == 0) {
        t->net_links++;
        if (strstr(via, "GDRDMA"))
            set(t->gdr, sizeof t->gdr, "on");
    } else
        t->other++;
}

void fp_nccl_log_line(fp_nccl_transport_t *t, const char *line)
{
    char word[64];
    const char *via;
    t->lines++;
    if (strstr(line, "NET/Plugin") && strstr(line, "Could not find") && strcmp(t->plugin, "unknown") == 0)
        set(t->plugin, sizeof t->plugin, "none");
    else if (word_after(line, "Loaded net plugin ", word, sizeof word))
        set(t->plugin, sizeof t->plugin, word);
    if (word_after(line, "Assigned NET plugin ", word, sizeof word) || word_after(line, "Using network ", word, sizeof word))
        set(t->net, sizeof t->net, word);
    else if (strstr(line, "NET/IB : Using [") && strcmp(t->net, "unknown") == 0)
        set(t->net, sizeof t->net, "IB");
    if (strstr(line, "GPU Direct RDMA Enabled"))
        set(t->gdr, sizeof t->gdr, "on");
    else if (strstr(line, "GPU Direct RDMA Disabled") && strcmp(t->gdr, "on") != 0)
        set(t->gdr, sizeof t->gdr, "off");
    if (strstr(line, "Channel ") && (via = strstr(line, " via ")) != NULL)
        channel(t, via + 5);
}

int fp_nccl_log_file(fp_nccl_transport_t *t, const char *path, void *warn)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return FP_ERR;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        fp_nccl_log_line(t, line);
        if (warn && strstr(line, "NCCL WARN"))
            fputs(line, (FILE *)warn);
    }
    fclose(f);
    return FP_OK;
}

void fp_nccl_transport_text(const fp_nccl_transport_t *t, char *out, size_t len)
{
    if (t->lines == 0) {
        snprintf(out, len, "unknown (no NCCL log read)");
        return;
    }
    snprintf(out, len, "network %s (plugin: %s), GPUDirect RDMA %s, connections: %d P2P, %d SHM, %d NET%s", t->net,
             t->plugin, t->gdr, t->p2p, t->shm, t->net_links, t->other ? ", others" : "");
}
