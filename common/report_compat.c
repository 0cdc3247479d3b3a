/* OSU's and nccl-tests' exact text rows. OSU: "%-10d%18.2f" under "# Size" and the column name
 * its program prints (c/util/osu_util.c); osu_mbw_mr: "%-10d%20.2f%20.2f", MB/s and Messages/s. nccl-tests: size, count, type, redop, root, then time,
 * algbw, busbw and #wrong for out-of-place and in-place, at its field widths (src/util.cu). */
#include "report_compat.h"

#include <math.h>

#include "collective.h"

void fp_compat_fit(double value, int width, char *out)
{
    for (int decimals = 2; decimals >= 0; decimals--)
        if (snprintf(out, (size_t)width + 1, "%*.*f", width, decimals, value) <= width)
            return;
    snprintf(out, (size_t)width + 1, width >= 7 ? "%*.1e" : "%*.0e", width, value);
}

static const char *osu_column(const fp_meta_t *m)
{
    switch (m->report) {
    case FP_REPORT_BANDWIDTH: return "Bandwidth (MB/s)";
    case FP_REPORT_COLLECTIVE: return "Avg Latency(us)"; /* osu_allreduce and the others */
    default: return "Latency (us)";                      /* osu_latency */
    }
}

/* nccl-tests' value of a rate: "n/a" where no data moved (fabperf says so; nccl-tests prints a
 * number there). */
static void nccl_rate(double value, char *out)
{
    if (isnan(value))
        snprintf(out, 7, "%6s", "n/a");
    else
        fp_compat_fit(value, 6, out);
}

static void nccl_variant(FILE *out, const fp_coll_row_t *c, int v)
{
    char time[8], algbw[7], busbw[7];
    if (c->var[v].n == 0) { /* not run: nccl-tests leaves the group blank */
        fprintf(out, "%32s", "");
        return;
    }
    fp_compat_fit(c->var[v].p50, 7, time);
    nccl_rate(c->algbw[v], algbw);
    nccl_rate(c->busbw[v], busbw);
    if (c->var_wrong[v] < 0)
        fprintf(out, "  %7s  %6s  %6s    N/A", time, algbw, busbw);
    else
        fprintf(out, "  %7s  %6s  %6s  %6g", time, algbw, busbw, (double)c->var_wrong[v]);
}

void fp_compat_header(FILE *out, const fp_meta_t *m)
{
    if (m->layout == FP_LAYOUT_OSU && m->report == FP_REPORT_MSGRATE) { /* osu_mbw_mr */
        fprintf(out, "%-*s%*s%*s\n", 10, "# Size", 20, "MB/s", 20, "Messages/s");
        return;
    }
    if (m->layout == FP_LAYOUT_OSU) {
        fprintf(out, "%-*s%*s\n", 10, "# Size", 18, osu_column(m));
        return;
    }
    fprintf(out, "#\n# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          \n",
            "", "", "", "", "");
    fprintf(out, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "size", "count", "type",
            "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong");
    fprintf(out, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "(B)", "(elements)", "", "",
            "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
}

void fp_compat_row(FILE *out, const fp_meta_t *m, const fp_row_t *row)
{
    if (m->layout == FP_LAYOUT_OSU) {
        /* Collectives: OSU times one call per iteration, as the isolated variant does. */
        double value = row->osu;
        if (m->report == FP_REPORT_COLLECTIVE)
            value = ((const fp_coll_row_t *)row->family)->var[FP_VAR_ISO].mean;
        if (m->report == FP_REPORT_MSGRATE) {
            fprintf(out, "%-*zu%*.*f%*.*f\n", 10, row->size, 20, 2, value, 20, 2, value * 1e6 / (double)row->size);
            return;
        }
        fprintf(out, "%-*zu%*.*f\n", 10, row->size, 18, 2, value);
        return;
    }
    const fp_coll_row_t *c = row->family;
    char root[16];
    snprintf(root, sizeof root, "%6i", c->root);
    fprintf(out, "%12zu  %12zu  %8s  %6s  %6s", row->size, c->count, c->type, c->redop, root);
    nccl_variant(out, c, FP_VAR_OOP);
    nccl_variant(out, c, FP_VAR_IP);
    fputc('\n', out);
}
