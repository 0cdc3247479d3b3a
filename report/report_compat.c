/* OSU's and nccl-tests' exact text rows. OSU: "%-10d%18.2f" under "# Size" and the column name
 * its program prints (c/util/osu_util.c), from the metric's heading and value, or the metric's
 * own OSU row where OSU's program prints more than one value (osu_mbw_mr). nccl-tests': the
 * metric's own (collectives: coll_nccl_tests.c). */
#include "report_compat.h"

#include "metric.h"

void fp_compat_fit(double value, int width, char *out)
{
    for (int decimals = 2; decimals >= 0; decimals--)
        if (snprintf(out, (size_t)width + 1, "%*.*f", width, decimals, value) <= width)
            return;
    snprintf(out, (size_t)width + 1, width >= 7 ? "%*.1e" : "%*.0e", width, value);
}

void fp_compat_header(FILE *out, const fp_meta_t *m)
{
    if (m->layout == FP_LAYOUT_OSU && m->metric->osu_header)
        m->metric->osu_header(out, m);
    else if (m->layout == FP_LAYOUT_OSU)
        fprintf(out, "%-*s%*s\n", 10, "# Size", 18, m->metric->osu_heading);
    else /* options.c accepts nccl-tests only where the metric has it */
        m->metric->nccl_header(out, m);
}

void fp_compat_row(FILE *out, const fp_meta_t *m, const fp_row_t *row)
{
    if (m->layout == FP_LAYOUT_OSU && m->metric->osu_row) {
        m->metric->osu_row(out, m, row);
    } else if (m->layout == FP_LAYOUT_OSU) {
        double value = m->metric->osu_value ? m->metric->osu_value(row) : row->osu;
        fprintf(out, "%-*zu%*.*f\n", 10, row->size, 18, 2, value);
    } else {
        m->metric->nccl_row(out, m, row);
    }
}
