/* Host-only build: the CUDA memory kinds and timer exist, and say how to get them. */
#include "gpu.h"
#include "memory.h"
#include "timer.h"

#define FP_NO_CUDA "this fabperf was built without CUDA (reconfigure with --with-cuda=PATH)"

static int no_cuda_alloc(void **buffer, size_t bytes)
{
    (void)buffer;
    return fp_fail("buffer of %zu B: %s", bytes, FP_NO_CUDA);
}

static void no_cuda_release(void *buffer)
{
    (void)buffer;
}

static size_t no_cuda_available(void)
{
    return 0;
}

static int no_cuda_copy(void *dst, const void *src, size_t bytes)
{
    (void)dst;
    (void)src;
    return fp_fail("copy of %zu B: %s", bytes, FP_NO_CUDA);
}

#define FP_NO_CUDA_KIND(kind_name, kind_letter, device)                                            \
    {.name = kind_name, .letter = kind_letter, .on_device = device, .in_host_memory = !(device),    \
     .needs_cuda = 1, .alloc = no_cuda_alloc,                                                       \
     .release = no_cuda_release, .available = no_cuda_available, .to_host = no_cuda_copy, .from_host = no_cuda_copy}

const fp_mem_ops_t fp_mem_pinned = FP_NO_CUDA_KIND("pinned", 'P', 0);
const fp_mem_ops_t fp_mem_cuda = FP_NO_CUDA_KIND("cuda", 'D', 1);
const fp_mem_ops_t fp_mem_managed = FP_NO_CUDA_KIND("managed", 'M', 1);

static int no_cuda_timer_open(double *samples, size_t capacity)
{
    (void)samples;
    (void)capacity;
    return fp_fail("--timer cuda: %s", FP_NO_CUDA);
}

static void no_cuda_timer_noop(void) {}
static void no_cuda_timer_mark(size_t i) { (void)i; }
static int no_cuda_timer_collect(size_t from, size_t to)
{
    (void)from;
    (void)to;
    return FP_ERR;
}

static double no_cuda_timer_resolution(void)
{
    return 0.5e-6;
}

const fp_timer_ops_t fp_timer_cuda = {
    .name = "CUDA events", .open = no_cuda_timer_open, .close = no_cuda_timer_noop,
    .begin = no_cuda_timer_mark, .end = no_cuda_timer_mark, .collect = no_cuda_timer_collect,
    .resolution = no_cuda_timer_resolution,
};

int fp_gpu_select(int local_rank, long requested, char *description, size_t len)
{
    (void)local_rank;
    (void)requested;
    (void)description;
    (void)len;
    return fp_fail("GPU buffers or timer: %s", FP_NO_CUDA);
}

void *fp_gpu_stream(void)
{
    return NULL;
}

void fp_gpu_bus_id(char *out, size_t len)
{
    if (len)
        out[0] = '\0';
}

void fp_gpu_release(void) {}

int fp_gpu_built(void)
{
    return 0;
}
