/* Report rendering against golden files (FP_GOLDEN_UPDATE=1 rewrites them). */
#define _GNU_SOURCE /* fopencookie */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "collective.h"
#include "evidence.h"
#include "comm.h"
#include "metric.h"
#include "pairs.h"
#include "report.h"
#include "ucx_log.h"

/* UCX_TLS differs between the ranks: rank 0 has one value, rank 1 another, ranks 2-3 none. */
static int ucx_rank0[] = {0}, ucx_rank1[] = {1}, ucx_unset[] = {2, 3};
static fp_env_value_t ucx_values[] = {{"rc,\"sm\"\\x", ucx_rank0, 1}, {"tcp\n4096 0.01", ucx_rank1, 1},
                                      {NULL, ucx_unset, 2}};
static fp_env_var_t env[] = {{"FI_PROVIDER", "tcp;ofi_rxm", 0, NULL}, {"UCX_TLS", "rc,\"sm\"\\x", 3, ucx_values}};
static fp_place_t places[] = {
    {"node-a", "0-3,8", 2, 0, 2, 0, "", FP_NIC_UNKNOWN},
    {"node-b", "0", 0, -1, 1, -1, "0000:1b:00.0", FP_NIC_UNKNOWN},
};
static fp_host_t hosts[] = {{"node-a", 1}, {"node-b", 1}};

/* UCX's selection as UCX 1.13.1 logs it: endpoints at the header, a protocol more at the end. */
static const char *const ucx_lines[] = {
    "Version 1.13.1 (loaded from /lib/x86_64-linux-gnu/libucp.so.0)",
    "ep_cfg[0]: tag(self/memory0 tcp/lo) rma(self/memory0) am(self/memory0 tcp/lo)",
    "ep_cfg[1]: tag(tcp/lo) rma_am(tcp/lo) am(tcp/lo)",
    "| 0x55fe92aab360 ep_cfg[1] | tagged message by ucp_tag_send*(fast-completion) from host memory |",
    "|                   0..788 | eager short                                  | tcp/lo |",
    "|               789..inf | eager zero-copy copy-out                       | tcp/lo |",
    NULL};
static fp_ucx_selection_t ucx_begin, ucx_grown;

static const fp_ucx_selection_t *ucx_of(fp_ucx_selection_t *s, int nlines)
{
    fp_ucx_selection_init(s);
    for (int i = 0; i < nlines && ucx_lines[i]; i++)
        fp_ucx_log_line(s, ucx_lines[i]);
    return s;
}

#define LATENCY (&fp_metric_latency)
#define BANDWIDTH (&fp_metric_bandwidth)
#define COLLECTIVE (&fp_metric_collective)

static fp_coll_meta_t coll_meta;

static void meta_init(fp_meta_t *m, const fp_metric_t *kind)
{
    memset(m, 0, sizeof *m);
    m->program = kind == LATENCY ? "fabperf_latency" : kind == BANDWIDTH ? "fabperf_bw" : "fabperf_allreduce";
    m->benchmark = m->program + strlen("fabperf_");
    m->title = "Test";
    m->metric = kind;
    snprintf(m->date, sizeof m->date, "2026-01-02T03:04:05Z");
    m->nranks = 2;
    m->nhosts = 2;
    m->hosts = hosts;
    m->hosts[0].ranks = m->hosts[1].ranks = 1;
    snprintf(m->mpi_library, sizeof m->mpi_library, "Open MPI v4.1.4");
    m->cuda_aware = "no";
    snprintf(m->buffers, sizeof m->buffers, "H H");
    m->timer = "MPI_Wtime";
    m->timer_overhead_us = 0.025;
    m->timer_resolution_us = 0.001;
    m->sample = "one sample";
    snprintf(m->iterations, sizeof m->iterations, "fixed: 100 operations per size");
    snprintf(m->warmup, sizeof m->warmup, "10 operations per size");
    snprintf(m->batch, sizeof m->batch, "auto");
    m->window = kind == BANDWIDTH ? 64 : 0;
    m->validate = 1;
    m->label = "tcp \"rxm\"";
    m->nenv = 2;
    m->env = env;
    m->placement = (fp_placement_t){places, 2, 1};
    if (kind == LATENCY) {
        m->ucx = ucx_of(&ucx_begin, 3);
        m->ucx_end = ucx_of(&ucx_grown, 99);
    }
    if (kind == COLLECTIVE) {
        m->nranks = 4;
        m->hosts[0].ranks = m->hosts[1].ranks = 2;
        memset(&coll_meta, 0, sizeof coll_meta);
        snprintf(coll_meta.backend, sizeof coll_meta.backend, "mpi (blocking MPI collectives)");
        coll_meta.datatype = "float";
        coll_meta.op = "sum";
        coll_meta.root = -1;
        coll_meta.busbw_formula = "2(n-1)/n";
        coll_meta.busbw_factor = 1.5;
        m->family = &coll_meta;
    }
}

static void row_init(fp_row_t *r, size_t size, int check, int adaptive)
{
    memset(r, 0, sizeof *r);
    r->size = size;
    r->batch = 4;
    r->time = (fp_stats_t){.n = 250, .min = 1.0, .max = 9.5, .mean = 2.25, .stddev = 0.5,
                           .p50 = 2.0, .p50_lo = 1.9, .p50_hi = 2.1, .p99 = 8.0, .has_ci = 1,
                           .ci_halfwidth_pct = 5.0};
    r->osu = 2.25;
    r->headline = (fp_estimate_t){NAN, NAN, NAN};
    r->target_met = adaptive ? 0 : -1;
    r->check = check;
    r->wrong = check ? 0 : 3;
}

/* An allreduce row of 4 ranks: busbw = S / t x 1.5. */
static fp_coll_row_t coll_part;

static void collective_row(fp_row_t *r, size_t size, long ip_wrong, int validated)
{
    double times[FP_VAR_COUNT] = {2.0, 150.0, 12000.0};
    fp_coll_row_t *c = &coll_part;
    row_init(r, size, validated ? ip_wrong == 0 : -1, 0);
    memset(c, 0, sizeof *c);
    r->family = c;
    c->count = size / 4;
    c->type = "float";
    c->redop = "sum";
    c->root = -1;
    for (int v = 0; v < FP_VAR_COUNT; v++) {
        c->var[v] = r->time;
        c->var[v].p50 = times[v] * (double)size / 1024;
        c->var[v].p50_lo = c->var[v].p50 * 0.95;
        c->var[v].p50_hi = c->var[v].p50 * 1.05;
        c->var_batch[v] = v == FP_VAR_ISO ? 1 : 4;
        c->algbw[v] = (double)size / c->var[v].p50 * 1e-3;
        c->busbw[v] = c->algbw[v] * 1.5;
        c->var_wrong[v] = validated ? (v == FP_VAR_IP ? ip_wrong : 0) : -1;
    }
    c->algbw[FP_VAR_ISO] = c->busbw[FP_VAR_ISO] = NAN;
    c->var_wrong[FP_VAR_ISO] = -1;
    r->time = c->var[FP_VAR_OOP];
    r->wrong = validated ? ip_wrong : 0;
    /* NCCL's choices: two at 1 MiB, none seen at 4 KiB (no warm-up), not recorded at 1 KiB. */
    c->chosen_known = size != 1024;
    for (int i = 0; size == 1 << 20 && i < 3; i++)
        fp_nccl_choices_add(&c->chosen, "AllReduce", "RING", "LL128", 8);
    if (size == 1 << 20)
        fp_nccl_choices_add(&c->chosen, "AllReduce", "TREE", "LL", 2);
}

static void compare_golden(const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FP_GOLDEN_DIR, name);
    if (getenv("FP_GOLDEN_UPDATE")) {
        FILE *f = fopen(path, "w");
        fputs(text, f);
        fclose(f);
        return;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "missing golden file %s\n", path);
        check_failures++;
        return;
    }
    static char golden[16384];
    size_t n = fread(golden, 1, sizeof golden - 1, f);
    golden[n] = '\0';
    fclose(f);
    if (strcmp(golden, text) != 0) {
        fprintf(stderr, "%s differs; rendered:\n%s", name, text);
        check_failures++;
    }
}

static int render_layout; /* fp_layout_t of the next render */

static void render(const char *golden, const fp_metric_t *kind, fp_format_t format)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    fp_meta_t meta;
    fp_report_t report;
    fp_row_t row;
    meta_init(&meta, kind);
    meta.layout = render_layout;
    fp_report_begin(&report, out, format, &meta);
    if (kind == COLLECTIVE) {
        collective_row(&row, 1024, 0, 1);
        fp_report_row(&report, &row);
        collective_row(&row, 1 << 20, 5, 1);
        fp_report_row(&report, &row);
        collective_row(&row, 4096, 0, 0);
        coll_part.var[FP_VAR_IP].has_ci = 0; /* too few samples for an interval: none printed */
        fp_report_row(&report, &row);
        fp_report_end(&report, "complete", 1);
        fclose(out);
        compare_golden(golden, text);
        free(text);
        return;
    }
    row_init(&row, 1, 1, 0);
    if (kind == BANDWIDTH) {
        row.osu = 64.0 / 2.25;
        row.headline = (fp_estimate_t){32.0, 64.0 / 2.1, 64.0 / 1.9};
    }
    fp_report_row(&report, &row);
    row_init(&row, 4096, 0, 1);
    row.time.has_ci = 0;
    row.time.p99 = NAN;
    fp_report_row(&report, &row);
    fp_report_end(&report, "complete", 1);
    fclose(out);
    compare_golden(golden, text);
    free(text);
}

/* A metric defined outside the families, as a new family defines its own: a column of its own
 * beside common ones, a header line from its header fields, closing lines from a tally. The report
 * machinery renders it as given. */
static double get_rate(const fp_row_t *r) { return r->osu * 2; }
static const fp_column_t col_rate = {"rate_per_s", "Rate(/s)", 12, 1, FP_COL_REAL, get_rate, NULL, NULL, NULL,
                                     NULL, NULL, 0};
static const fp_column_t *const rate_columns[] = {&fp_col_size, &col_rate, &fp_col_p50, NULL};
static void rate_text_meta(FILE *out, const fp_meta_t *m) { fprintf(out, "# pairs: %s\n", (const char *)m->family); }
static void rate_json_meta(FILE *out, const fp_meta_t *m) { fprintf(out, ",\"pairs\":\"%s\"", (const char *)m->family); }
static void rate_tally(fp_report_t *r, const fp_row_t *row)
{
    r->total += row->osu;
    r->counted++;
}
static void rate_text_end(FILE *out, const fp_report_t *r) { fprintf(out, "# rows: %ld, sum %g\n", r->counted, r->total); }
static void rate_json_end(FILE *out, const fp_report_t *r) { fprintf(out, ",\"rows\":%ld", r->counted); }
static const fp_metric_t rate_metric = {
    .name = "rate", .columns = rate_columns, .text_style = FP_TEXT_OSU, .text_meta = rate_text_meta,
    .json_meta = rate_json_meta, .tally = rate_tally, .text_end = rate_text_end, .json_end = rate_json_end,
    .osu_heading = "Rate", .quantity = FP_QTY_RATE, .unit = "/s",
};

static char *render_rate(fp_format_t format, int layout)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    fp_meta_t meta;
    fp_report_t report;
    fp_row_t row;
    meta_init(&meta, &rate_metric);
    meta.family = "0 -> 1";
    meta.layout = layout;
    fp_report_begin(&report, out, format, &meta);
    row_init(&row, 1, 1, 0);
    fp_report_row(&report, &row);
    row_init(&row, 4096, 0, 0);
    row.osu = 4.0;
    fp_report_row(&report, &row);
    fp_report_end(&report, "complete", 0);
    fclose(out);
    return text;
}

static void render_new_metric(void)
{
    char *text = render_rate(FP_FORMAT_TEXT, FP_LAYOUT_FULL);
    CHECK(strstr(text, "# batch: auto\n# pairs: 0 -> 1\n# validation: on\n") != NULL);
    CHECK(strstr(text, "\n# Size        Rate(/s)     P50(us)\n1                  4.5        2.00\n"
                       "4096               8.0        2.00\n") != NULL);
    CHECK(strstr(text, "\n# rows: 2, sum 6.25\n") != NULL);
    free(text);
    text = render_rate(FP_FORMAT_TEXT, FP_LAYOUT_OSU);
    CHECK(strstr(text, "\n# Size                  Rate\n1                       2.25\n"
                       "4096                    4.00\n") != NULL);
    free(text);
    text = render_rate(FP_FORMAT_JSON, FP_LAYOUT_FULL);
    CHECK(strstr(text, "\"metric\":\"rate\",") != NULL);
    CHECK(strstr(text, ",\"pairs\":\"0 -> 1\",\"adaptive\":false,") != NULL);
    CHECK(strstr(text, ",\"columns\":[\"size\",\"rate_per_s\",\"p50_us\"]}\n") != NULL);
    CHECK(strstr(text, "{\"type\":\"row\",\"size\":4096,\"rate_per_s\":8,\"p50_us\":2}\n") != NULL);
    CHECK(strstr(text, "{\"type\":\"end\",\"status\":\"complete\",\"failures\":0,\"rows\":2") != NULL);
    free(text);
    text = render_rate(FP_FORMAT_CSV, FP_LAYOUT_FULL);
    CHECK(strstr(text, "\nsize,rate_per_s,p50_us\n1,4.5,2\n4096,8,2\n") != NULL);
    CHECK(strstr(text, "# rows:") == NULL); /* closing lines are text's */
    free(text);
}

/* fabperf_mbw_mr's metric: the pairs line, its two values first, and under --layout osu exactly
 * osu_mbw_mr's row ("%-10d%18.2f%18.2f": MB/s and messages/s) through the metric's own OSU row. */
static char *render_msgrate(fp_format_t format, int layout)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    fp_meta_t meta;
    fp_report_t report;
    fp_row_t row;
    static fp_pairs_meta_t part = {.pairs = "0 (a) -> 1 (b)"};
    meta_init(&meta, &fp_metric_msgrate);
    meta.family = &part;
    meta.layout = layout;
    fp_report_begin(&report, out, format, &meta);
    row_init(&row, 4096, -1, 0);
    row.osu = 1024.5;
    row.headline = (fp_estimate_t){1000, 990, 1010};
    fp_report_row(&report, &row);
    fp_report_end(&report, "complete", 0);
    fclose(out);
    return text;
}

static void render_msgrate_metric(void)
{
    char *text = render_msgrate(FP_FORMAT_TEXT, FP_LAYOUT_OSU);
    CHECK(strstr(text, "\n# pairs: 0 (a) -> 1 (b)\n") != NULL);
    CHECK(strstr(text, "\n# Size                  MB/s        Messages/s\n"
                       "4096                 1024.50         250122.07\n") != NULL);
    free(text);
    text = render_msgrate(FP_FORMAT_TEXT, FP_LAYOUT_FULL);
    CHECK(strstr(text, "\n# Size      Bandwidth (MB/s)      Messages/s   P50(MB/s)") != NULL);
    CHECK(strstr(text, "\n4096                 1024.50       250122.07     1000.00      990.00     1010.00") != NULL);
    free(text);
    text = render_msgrate(FP_FORMAT_JSON, FP_LAYOUT_FULL);
    CHECK(strstr(text, "\"metric\":\"bandwidth\",") != NULL && strstr(text, ",\"pairs\":\"0 (a) -> 1 (b)\",") != NULL);
    CHECK(strstr(text, ",\"bw_mbps\":1024.5,\"msgs_per_s\":250122.07") != NULL);
    CHECK(strstr(text, "\"backend\"") == NULL); /* MPI: no backend line */
    free(text);
}

/* Each write a stream passes on, as a launcher's pipe would see it. */
static int chunks, chunks_cut;
static ssize_t count_chunk(void *cookie, const char *buf, size_t size)
{
    (void)cookie;
    chunks++;
    if (size == 0 || buf[size - 1] != '\n')
        chunks_cut++;
    return (ssize_t)size;
}

/* What a library printed before the report (UCX's lines at start-up) fills most of a default
 * buffer; the records that follow still leave whole, one write each. */
static void records_leave_whole(void)
{
    FILE *out = fopencookie(NULL, "w", (cookie_io_functions_t){.write = count_chunk});
    fp_report_whole_records(out);
    for (int i = 0; i < 100; i++)
        fprintf(out, "[UCX  INFO] %0*d\n", 60, i);
    fp_meta_t meta;
    fp_report_t report;
    fp_row_t row;
    for (int format = FP_FORMAT_TEXT; format <= FP_FORMAT_JSON; format++) {
        meta_init(&meta, COLLECTIVE);
        fp_report_begin(&report, out, (fp_format_t)format, &meta);
        for (int i = 0; i < 40; i++) {
            collective_row(&row, (size_t)1 << (i % 24), 0, 1);
            fp_report_row(&report, &row);
        }
        fp_report_end(&report, "complete", 0);
    }
    fclose(out);
    CHECK(chunks >= 3 * 42);
    CHECK(chunks_cut == 0);
}

/* Path lines in text: a single-host sweep says its path once, and again only where it changes;
 * where payload crossed nodes, under every row. */
static int path_lines(const double *payloads, const char *const *summaries, int rows)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    fp_meta_t meta;
    fp_report_t report;
    fp_row_t row;
    fp_evidence_t ev[8];
    meta_init(&meta, LATENCY);
    fp_report_begin(&report, out, FP_FORMAT_TEXT, &meta);
    for (int i = 0; i < rows; i++) {
        row_init(&row, (size_t)1 << i, 1, 0);
        memset(&ev[i], 0, sizeof ev[i]);
        ev[i].measured = 1;
        ev[i].payload = payloads[i];
        ev[i].nnodes = payloads[i] > 0 ? 2 : 1;
        snprintf(ev[i].summary, sizeof ev[i].summary, "%s", summaries[i]);
        row.evidence = &ev[i];
        fp_report_row(&report, &row);
    }
    fp_report_end(&report, "complete", 0);
    fclose(out);
    int count = 0;
    for (const char *p = text; (p = strstr(p, "# path ")); p++)
        count++;
    free(text);
    return count;
}

static void path_once(void)
{
    static const char *const local[] = {"no inter-node payload", "no inter-node payload", "no inter-node payload",
                                        "no inter-node payload; NICs that moved anyway: lo@vm 1.2 MB",
                                        "no inter-node payload"};
    static const double none[] = {0, 0, 0, 0, 0};
    CHECK(path_lines(none, local, 3) == 1);
    CHECK(path_lines(none, local, 5) == 3); /* once, then each change: 4th differs, 5th back */
    static const char *const crossed[] = {"vm-a eth0 100%", "vm-a eth0 100%", "vm-a eth0 100%"};
    static const double moved[] = {8, 16, 32};
    CHECK(path_lines(moved, crossed, 3) == 3);
}

int main(void)
{
    render("latency.txt", LATENCY, FP_FORMAT_TEXT); /* the summary, by default */
    render("latency.csv", LATENCY, FP_FORMAT_CSV);
    render("latency.jsonl", LATENCY, FP_FORMAT_JSON);
    render("bandwidth.txt", BANDWIDTH, FP_FORMAT_TEXT);
    render("bandwidth.jsonl", BANDWIDTH, FP_FORMAT_JSON);
    render("collective.txt", COLLECTIVE, FP_FORMAT_TEXT);
    render("collective.csv", COLLECTIVE, FP_FORMAT_CSV);
    render("collective.jsonl", COLLECTIVE, FP_FORMAT_JSON);
    render_layout = FP_LAYOUT_FULL; /* the tails and every flag: the text of the summary's rows and more */
    render("latency-full.txt", LATENCY, FP_FORMAT_TEXT);
    render("bandwidth-full.txt", BANDWIDTH, FP_FORMAT_TEXT);
    render("collective-full.txt", COLLECTIVE, FP_FORMAT_TEXT);
    render_layout = FP_LAYOUT_NCCL_TESTS;
    render("collective-nccl-tests.txt", COLLECTIVE, FP_FORMAT_TEXT);
    render_layout = FP_LAYOUT_OSU;
    render("collective-osu.txt", COLLECTIVE, FP_FORMAT_TEXT);
    render("latency-osu.txt", LATENCY, FP_FORMAT_TEXT);
    render("bandwidth-osu.txt", BANDWIDTH, FP_FORMAT_TEXT);
    render_new_metric();
    render_msgrate_metric();
    records_leave_whole();
    path_once();
    return CHECK_DONE();
}
