/* Built without UCX's headers: nothing is captured, the results say "ucx": null. */
#include "ucx_capture.h"

void fp_ucx_capture_start(int enabled)
{
    (void)enabled;
}

void fp_ucx_capture_started(void)
{
}

const fp_ucx_selection_t *fp_ucx_capture_read(void)
{
    return NULL;
}
