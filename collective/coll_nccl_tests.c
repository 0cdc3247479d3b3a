/* --layout nccl-tests: the collectives' rows exactly as nccl-tests prints them (src/util.cu): size,
 * count, type, redop, root, then time, algbw, busbw and #wrong for out-of-place and in-place, at
 * its field widths, for the parsers written for nccl-tests. */
#include <math.h>

#include "collective.h"
#include "report_compat.h"

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

void fp_coll_nccl_header(FILE *out, const fp_meta_t *meta)
{
    (void)meta;
    fprintf(out, "#\n# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          \n",
            "", "", "", "", "");
    fprintf(out, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "size", "count", "type",
            "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong");
    fprintf(out, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "(B)", "(elements)", "", "",
            "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
}

void fp_coll_nccl_row(FILE *out, const fp_meta_t *meta, const fp_row_t *row)
{
    const fp_coll_row_t *c = row->family;
    char root[16];
    (void)meta;
    snprintf(root, sizeof root, "%6i", c->root);
    fprintf(out, "%12zu  %12zu  %8s  %6s  %6s", row->size, c->count, c->type, c->redop, root);
    nccl_variant(out, c, FP_VAR_OOP);
    nccl_variant(out, c, FP_VAR_IP);
    fputc('\n', out);
}
