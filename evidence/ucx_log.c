/* Reads UCX's log for what it selected (ucx_log.h). */
#include "ucx_log.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

void fp_ucx_selection_init(fp_ucx_selection_t *s)
{
    memset(s, 0, sizeof *s);
    s->table = -1;
}

/* Copies [from, from + n) into out without its surrounding blanks. */
static void trimmed(char *out, size_t len, const char *from, size_t n)
{
    while (n && isspace((unsigned char)*from))
        from++, n--;
    while (n && isspace((unsigned char)from[n - 1]))
        n--;
    if (n >= len)
        n = len - 1;
    memcpy(out, from, n);
    out[n] = '\0';
}

static int has_lane_through(const char *lanes, const char *transport)
{
    size_t n = strlen(transport);
    for (const char *p = strstr(lanes, transport); p; p = strstr(p + 1, transport))
        if ((p == lanes || p[-1] == '(' || p[-1] == ' ') && p[n] == '/')
            return 1;
    return 0;
}

static void add_endpoint(fp_ucx_selection_t *s, int config, const char *to, const char *lanes, size_t n)
{
    fp_ucx_endpoint_t e = {.config = config};
    trimmed(e.lanes, sizeof e.lanes, lanes, n);
    if (!e.lanes[0] || !strchr(e.lanes, '('))
        return;
    snprintf(e.to, sizeof e.to, "%s", to ? to : has_lane_through(e.lanes, "self") ? "self" : "peer");
    for (int i = 0; i < s->nendpoints; i++) /* a handler and a log file may both give it */
        if (s->endpoints[i].config == config && strcmp(s->endpoints[i].lanes, e.lanes) == 0)
            return;
    if (s->nendpoints == FP_UCX_ENDPOINTS) {
        s->dropped++;
        return;
    }
    s->endpoints[s->nendpoints++] = e;
}

/* "ep_cfg[1]: tag(...) ..." (1.13, 1.14) or "inter-node cfg#1 tag(...) ..." (1.15+). */
static int endpoint_line(fp_ucx_selection_t *s, const char *line)
{
    const char *p = strstr(line, "ep_cfg["), *end;
    if (p && (end = strstr(p, "]: ")) != NULL) {
        add_endpoint(s, atoi(p + 7), NULL, end + 3, strlen(end + 3));
        return 1;
    }
    static const char *const kinds[] = {"self cfg#", "intra-node cfg#", "inter-node cfg#"};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if ((p = strstr(line, kinds[k])) != NULL) {
            char to[16];
            char *rest;
            trimmed(to, sizeof to, kinds[k], strcspn(kinds[k], " "));
            int config = (int)strtol(p + strlen(kinds[k]), &rest, 10);
            add_endpoint(s, config, to, rest, strlen(rest));
            return 1;
        }
    return 0;
}

/* The cells of a table line "| a | b | c |" after the log's prefix; returns how many. */
static int cells(const char *line, char out[][128], int max)
{
    const char *p = strchr(line, '|');
    int n = 0;
    while (p && n < max) {
        const char *next = strchr(p + 1, '|');
        if (!next)
            break;
        trimmed(out[n++], 128, p + 1, (size_t)(next - p - 1));
        p = next;
    }
    return n;
}

static void table_header(fp_ucx_selection_t *s, char c[][128])
{
    const char *cfg = strstr(c[0], "ep_cfg[");
    const char *hash = strstr(c[0], "cfg#");
    s->table = -1;
    if (s->nprotocols == FP_UCX_PROTOCOLS) {
        s->dropped++;
        return;
    }
    fp_ucx_protocol_t *t = &s->protocols[s->nprotocols];
    memset(t, 0, sizeof *t);
    t->config = cfg ? atoi(cfg + 7) : atoi(hash + 4);
    trimmed(t->operation, sizeof t->operation, c[1], strlen(c[1]));
    s->table = s->nprotocols++;
}

/* A row "| 0..8184 | eager short | ... | self/memory0 |": range, protocol, and the last cell. */
static void table_row(fp_ucx_selection_t *s, char c[][128], int n)
{
    fp_ucx_protocol_t *t = &s->protocols[s->table];
    if (t->nranges == FP_UCX_RANGES)
        return;
    fp_ucx_range_t *r = &t->ranges[t->nranges++];
    trimmed(r->range, sizeof r->range, c[0], strlen(c[0]));
    trimmed(r->protocol, sizeof r->protocol, c[1], strlen(c[1]));
    trimmed(r->via, sizeof r->via, n > 2 ? c[n - 1] : "", n > 2 ? strlen(c[n - 1]) : 0);
}

static void table_line(fp_ucx_selection_t *s, const char *line)
{
    char c[8][128];
    int n = cells(line, c, 8);
    if (n >= 2 && (strstr(c[0], "ep_cfg[") || strstr(c[0], "cfg#")))
        table_header(s, c);
    else if (n >= 2 && s->table >= 0 && strstr(c[0], ".."))
        table_row(s, c, n);
}

void fp_ucx_log_line(fp_ucx_selection_t *s, const char *line)
{
    const char *v = strstr(line, "Version ");
    if (v && !s->version[0] && isdigit((unsigned char)v[8])) {
        trimmed(s->version, sizeof s->version, v + 8, strspn(v + 8, "0123456789."));
        return;
    }
    if (strchr(line, '|')) /* tables first: their headers name a configuration too */
        table_line(s, line);
    else
        endpoint_line(s, line);
}

void fp_ucx_log_stream(fp_ucx_selection_t *s, FILE *in, FILE *warn)
{
    char line[1024];
    while (fgets(line, sizeof line, in)) {
        fp_ucx_log_line(s, line);
        if (warn && (strstr(line, " UCX  WARN ") || strstr(line, " UCX  ERROR ") || strstr(line, " UCX  FATAL ")))
            fputs(line, warn);
    }
    clearerr(in); /* UCX may write more; the next read goes on from here */
}

/* Whether the space-separated list holds the word [word, word + n). */
static int listed(const char *list, const char *word, size_t n)
{
    for (const char *p = list; *p; p += *p == ' ') {
        size_t m = strcspn(p, " ");
        if (m == n && strncmp(p, word, n) == 0)
            return 1;
        p += m;
    }
    return 0;
}

/* Appends the transport/device words of text ("tag(tcp/lo) am(...)", "rc_mlx5/mlx5_0:1 50% + ...")
 * not yet in out. */
static void add_transports(char *out, size_t len, const char *text)
{
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, " ()+");
        if (n && memchr(p, '/', n) && !listed(out, p, n))
            fp_append(out, len, "%s%.*s", out[0] ? " " : "", (int)n, p);
        p += n ? n : 1;
    }
}

/* A configuration to the process itself: its endpoint line says so, or a protocol goes through
 * UCX's self transport. */
static int to_self(const fp_ucx_selection_t *s, int config)
{
    for (int i = 0; i < s->nendpoints; i++)
        if (s->endpoints[i].config == config && strcmp(s->endpoints[i].to, "self") == 0)
            return 1;
    for (int i = 0; i < s->nprotocols; i++)
        for (int r = 0; s->protocols[i].config == config && r < s->protocols[i].nranges; r++)
            if (has_lane_through(s->protocols[i].ranges[r].via, "self"))
                return 1;
    return 0;
}

void fp_ucx_transports(const fp_ucx_selection_t *s, char *out, size_t len)
{
    out[0] = '\0';
    for (int i = 0; i < s->nendpoints; i++)
        if (!to_self(s, s->endpoints[i].config))
            add_transports(out, len, s->endpoints[i].lanes);
    for (int i = 0; i < s->nprotocols; i++)
        for (int r = 0; !to_self(s, s->protocols[i].config) && r < s->protocols[i].nranges; r++)
            add_transports(out, len, s->protocols[i].ranges[r].via);
}

void fp_ucx_selection_text(const fp_ucx_selection_t *s, char *out, size_t len)
{
    out[0] = '\0';
    fp_append(out, len, "%s", s->version[0] ? s->version : "version unknown");
    for (int i = 0; i < s->nendpoints; i++)
        fp_append(out, len, "%s %s %s", i ? ";" : ":", s->endpoints[i].to, s->endpoints[i].lanes);
    for (int i = 0; i < s->nprotocols; i++) {
        const fp_ucx_protocol_t *t = &s->protocols[i];
        if (strncmp(t->operation, "tagged message", 14) != 0) /* MPI's messages; JSON has all */
            continue;
        const char *flags = strstr(t->operation, "*(");
        size_t n = flags ? strcspn(flags + 2, ")") : 0; /* ucp_tag_send*(fast-completion) */
        fp_append(out, len, "; tag protocols (cfg %d%s%.*s):", t->config, n ? ", " : "", (int)n, n ? flags + 2 : "");
        for (int r = 0; r < t->nranges; r++)
            fp_append(out, len, "%s %s %s (%s)", r ? "," : "", t->ranges[r].range, t->ranges[r].protocol,
                   t->ranges[r].via);
    }
    if (s->note[0])
        fp_append(out, len, "%s%s", s->nendpoints || s->nprotocols ? "; " : ": ", s->note);
}

static void json_endpoints(FILE *out, const fp_ucx_selection_t *s)
{
    fputs(",\"endpoints\":[", out);
    for (int i = 0; i < s->nendpoints; i++) {
        fprintf(out, "%s{\"config\":%d,\"to\":", i ? "," : "", s->endpoints[i].config);
        fp_json_string(out, s->endpoints[i].to);
        fputs(",\"lanes\":", out);
        fp_json_string(out, s->endpoints[i].lanes);
        fputc('}', out);
    }
    fputc(']', out);
}

static void json_protocols(FILE *out, const fp_ucx_selection_t *s)
{
    fputs(",\"protocols\":[", out);
    for (int i = 0; i < s->nprotocols; i++) {
        const fp_ucx_protocol_t *t = &s->protocols[i];
        fprintf(out, "%s{\"config\":%d,\"operation\":", i ? "," : "", t->config);
        fp_json_string(out, t->operation);
        fputs(",\"ranges\":[", out);
        for (int r = 0; r < t->nranges; r++) {
            fputs(r ? ",{\"range\":" : "{\"range\":", out);
            fp_json_string(out, t->ranges[r].range);
            fputs(",\"protocol\":", out);
            fp_json_string(out, t->ranges[r].protocol);
            fputs(",\"via\":", out);
            fp_json_string(out, t->ranges[r].via);
            fputc('}', out);
        }
        fputs("]}", out);
    }
    fputc(']', out);
}

void fp_ucx_selection_json(FILE *out, const fp_ucx_selection_t *s)
{
    char text[2048];
    fputs("{\"version\":", out);
    fp_json_string_or_null(out, s->version);
    fp_ucx_transports(s, text, sizeof text);
    fputs(",\"transports\":", out);
    fp_json_string(out, text);
    json_endpoints(out, s);
    json_protocols(out, s);
    fputs(",\"note\":", out);
    fp_json_string_or_null(out, s->note);
    fp_ucx_selection_text(s, text, sizeof text);
    fputs(",\"summary\":", out);
    fp_json_string(out, text);
    fputc('}', out);
}
