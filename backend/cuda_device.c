/* CUDA build: pinned, device and managed memory kinds, CUDA-event timer, GPU choice. */
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "memory.h"
#include "timer.h"

#define FP_CUDA_CHECK(call, bytes)                                                                 \
    do {                                                                                           \
        cudaError_t fp_cuda_rc_ = (call);                                                          \
        if (fp_cuda_rc_ != cudaSuccess)                                                            \
            return fp_fail("%s (%zu B) failed at %s:%d: %s", #call, (size_t)(bytes), __FILE__,     \
                           __LINE__, cudaGetErrorString(fp_cuda_rc_));                             \
    } while (0)

/* ---- memory kinds ---- */

static int pinned_alloc(void **buffer, size_t bytes)
{
    FP_CUDA_CHECK(cudaMallocHost(buffer, bytes), bytes);
    FP_CUDA_CHECK(cudaMemset(*buffer, 0, bytes), bytes);
    return FP_OK;
}

static void pinned_release(void *buffer)
{
    if (buffer)
        cudaFreeHost(buffer);
}

static int device_alloc(void **buffer, size_t bytes)
{
    FP_CUDA_CHECK(cudaMalloc(buffer, bytes), bytes);
    FP_CUDA_CHECK(cudaMemset(*buffer, 0, bytes), bytes);
    FP_CUDA_CHECK(cudaDeviceSynchronize(), bytes);
    return FP_OK;
}

static int managed_alloc(void **buffer, size_t bytes)
{
    FP_CUDA_CHECK(cudaMallocManaged(buffer, bytes, cudaMemAttachGlobal), bytes);
    FP_CUDA_CHECK(cudaMemset(*buffer, 0, bytes), bytes);
    FP_CUDA_CHECK(cudaDeviceSynchronize(), bytes);
    return FP_OK;
}

static void device_release(void *buffer)
{
    if (buffer)
        cudaFree(buffer);
}

static size_t device_available(void)
{
    size_t free_bytes = 0, total = 0;
    return cudaMemGetInfo(&free_bytes, &total) == cudaSuccess ? free_bytes : 0;
}

static size_t pinned_available(void)
{
    return fp_mem_host_available();
}

static int cuda_to_host(void *host, const void *buffer, size_t bytes)
{
    FP_CUDA_CHECK(cudaMemcpy(host, buffer, bytes, cudaMemcpyDefault), bytes);
    return FP_OK;
}

static int cuda_from_host(void *buffer, const void *host, size_t bytes)
{
    FP_CUDA_CHECK(cudaMemcpy(buffer, host, bytes, cudaMemcpyDefault), bytes);
    return FP_OK;
}

const fp_mem_ops_t fp_mem_pinned = {
    .name = "pinned", .letter = 'P', .on_device = 0, .in_host_memory = 1, .needs_cuda = 1, .alloc = pinned_alloc,
    .release = pinned_release, .available = pinned_available, .to_host = cuda_to_host,
    .from_host = cuda_from_host,
};
const fp_mem_ops_t fp_mem_cuda = {
    .name = "cuda", .letter = 'D', .on_device = 1, .in_host_memory = 0, .needs_cuda = 1, .alloc = device_alloc,
    .release = device_release, .available = device_available, .to_host = cuda_to_host,
    .from_host = cuda_from_host,
};
const fp_mem_ops_t fp_mem_managed = {
    .name = "managed", .letter = 'M', .on_device = 1, .in_host_memory = 0, .needs_cuda = 1, .alloc = managed_alloc,
    .release = device_release, .available = device_available, .to_host = cuda_to_host,
    .from_host = cuda_from_host,
};

/* ---- CUDA events: one pair per sample, recorded on the core's stream ---- */

static cudaStream_t fp_stream;
static int fp_selected = -1; /* the device fp_gpu_select chose; -1 before */

void *fp_gpu_stream(void)
{
    return fp_stream;
}

void fp_gpu_bus_id(char *out, size_t len)
{
    if (len)
        out[0] = '\0';
    if (fp_selected >= 0 && len && cudaDeviceGetPCIBusId(out, (int)len, fp_selected) != cudaSuccess)
        out[0] = '\0';
}

void fp_gpu_release(void)
{
    fp_selected = -1;
    if (fp_stream)
        cudaStreamDestroy(fp_stream);
    fp_stream = NULL;
}

static cudaEvent_t *event_start, *event_stop;
static double *event_samples;
static size_t event_capacity;

static void events_close(void)
{
    for (size_t i = 0; i < event_capacity; i++) {
        cudaEventDestroy(event_start[i]);
        cudaEventDestroy(event_stop[i]);
    }
    free(event_start);
    free(event_stop);
    event_start = event_stop = NULL;
    event_capacity = 0;
}

static int events_open(double *samples, size_t capacity)
{
    event_samples = samples;
    event_start = calloc(capacity, sizeof *event_start);
    event_stop = calloc(capacity, sizeof *event_stop);
    if (!event_start || !event_stop)
        return fp_fail("calloc(%zu CUDA events) failed", 2 * capacity);
    for (; event_capacity < capacity; event_capacity++) {
        FP_CUDA_CHECK(cudaEventCreate(&event_start[event_capacity]), 0);
        FP_CUDA_CHECK(cudaEventCreate(&event_stop[event_capacity]), 0);
    }
    return FP_OK;
}

static void events_begin(size_t i)
{
    cudaEventRecord(event_start[i], fp_stream);
}

static void events_end(size_t i)
{
    cudaEventRecord(event_stop[i], fp_stream);
}

static int events_collect(size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        float ms = 0;
        FP_CUDA_CHECK(cudaEventSynchronize(event_stop[i]), 0);
        FP_CUDA_CHECK(cudaEventElapsedTime(&ms, event_start[i], event_stop[i]), 0);
        event_samples[i] = ms * 1e-3;
    }
    return FP_OK;
}

/* cudaEventElapsedTime: "a resolution of around 0.5 microseconds" (CUDA runtime API). */
static double events_resolution(void)
{
    return 0.5e-6;
}

const fp_timer_ops_t fp_timer_cuda = {
    .name = "CUDA events", .open = events_open, .close = events_close,
    .begin = events_begin, .end = events_end, .collect = events_collect, .resolution = events_resolution,
};

/* ---- GPU choice ---- */

/* The driver's version ("580.159.03"), which the runtime API does not give: from NVML when it
 * loads (no link-time dependency), else from the kernel module's /proc entry. */
static void nvidia_driver_version(char *out, size_t len)
{
    snprintf(out, len, "unknown");
    void *nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (nvml) {
        int (*init)(void) = (int (*)(void))dlsym(nvml, "nvmlInit_v2");
        int (*version)(char *, unsigned) = (int (*)(char *, unsigned))dlsym(nvml, "nvmlSystemGetDriverVersion");
        int (*shutdown)(void) = (int (*)(void))dlsym(nvml, "nvmlShutdown");
        if (init && version && shutdown && init() == 0) {
            char text[96];
            if (version(text, sizeof text) == 0)
                snprintf(out, len, "%s", text);
            shutdown();
        }
        dlclose(nvml);
        if (strcmp(out, "unknown") != 0)
            return;
    }
    char line[256];
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f)
        return;
    if (fgets(line, sizeof line, f)) {
        const char *p = strstr(line, "Kernel Module");
        if (p)
            sscanf(p, "Kernel Module %31[0-9.]", out);
    }
    fclose(f);
}

int fp_gpu_select(int local_rank, long requested, char *description, size_t len)
{
    int count = 0, device, driver = 0, runtime = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess)
        return fp_fail("no usable CUDA device: cudaGetDeviceCount failed: %s", cudaGetErrorString(rc));
    if (count == 0)
        return fp_fail("no CUDA device visible (CUDA_VISIBLE_DEVICES='%s')",
                       getenv("CUDA_VISIBLE_DEVICES") ? getenv("CUDA_VISIBLE_DEVICES") : "");
    if (requested >= count)
        return fp_fail("--device: %ld is out of range (accepted: 0 to %d, the visible GPUs)", requested, count - 1);
    device = requested >= 0 ? (int)requested : local_rank % count;
    FP_CUDA_CHECK(cudaSetDevice(device), 0);
    fp_selected = device;
    /* A blocking stream: copies on the default stream (validation) still order with it. */
    if (!fp_stream)
        FP_CUDA_CHECK(cudaStreamCreateWithFlags(&fp_stream, cudaStreamDefault), 0);
    struct cudaDeviceProp prop;
    char bus[32] = "";
    FP_CUDA_CHECK(cudaGetDeviceProperties(&prop, device), 0);
    cudaDeviceGetPCIBusId(bus, sizeof bus, device);
    char module[96];
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    nvidia_driver_version(module, sizeof module);
    snprintf(description, len, "device %d of %d: %s, PCI %s, driver %s (CUDA %d.%d), runtime %d.%d",
             device, count, prop.name, bus, module, driver / 1000, driver % 1000 / 10,
             runtime / 1000, runtime % 1000 / 10);
    return FP_OK;
}

int fp_gpu_built(void)
{
    return 1;
}
