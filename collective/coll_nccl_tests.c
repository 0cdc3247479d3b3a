/* --layout nccl-tests: the collectives' rows exactly as nccl-tests prints them (src/util.cu): size,
 * count, type, redop, root, then time, algbw, busbw and #wrong for out-of-place and in-place, at
 * its field widths, for the parsers written for nccl-tests. */
#include "collective.h"
#include "report_compat.h"

/* nccl-tests' rates, as it computes them: algbw = size / time, busbw = algbw x the factor for n
 * ranks, numbers wherever it prints numbers (with one rank, or in place, fabperf's own columns say
 * n/a: nothing crossed; nccl-tests prints what its formula gives, and its parsers read a number). */
static void nccl_variant(FILE *out, const fp_coll_row_t *c, int v, size_t bytes, double factor)
{
    char time[8], algbw[7], busbw[7];
    if (c->var[v].n == 0) { /* not run: nccl-tests leaves the group blank */
        fprintf(out, "%32s", "");
        return;
    }
    double alg = fp_algbw_gbps(bytes, c->var[v].p50);
    fp_compat_fit(c->var[v].p50, 7, time);
    fp_compat_fit(alg, 6, algbw);
    fp_compat_fit(alg * factor, 6, busbw);
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
    const fp_coll_meta_t *cm = meta->family;
    char root[16];
    snprintf(root, sizeof root, "%6i", c->root);
    fprintf(out, "%12zu  %12zu  %8s  %6s  %6s", row->size, c->count, c->type, c->redop, root);
    nccl_variant(out, c, FP_VAR_OOP, row->size, cm->busbw_factor);
    nccl_variant(out, c, FP_VAR_IP, row->size, cm->busbw_factor);
    fputc('\n', out);
}
