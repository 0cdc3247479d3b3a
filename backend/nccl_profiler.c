/* An NCCL profiler plugin (interface version 4: NCCL 2.25 and later) that keeps, for each
 * collective NCCL launches while armed, the algorithm, protocol and channel count NCCL chose.
 * NCCL hands these to the plugin when it starts a collective's event, after its tuning; its INFO
 * log of the tuning subsystem would print them too, but as one line per call written inside the
 * timed region. Disarmed, the plugin sets NCCL's activation mask to 0, and NCCL starts no event.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "nccl_choice.h"
#include "nccl_profiler.h"

extern fp_profiler_v4_t ncclProfiler_v4;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int *mask;  /* NCCL's activation mask, one for the process */
static int armed, inits;
static fp_nccl_choices_t seen;

static fp_ncclResult_t plugin_init(void **context, int *activation_mask, const char *comm_name, uint64_t comm_hash,
                                   int nnodes, int nranks, int rank, void *logfn)
{
    (void)comm_name, (void)comm_hash, (void)nnodes, (void)nranks, (void)rank, (void)logfn;
    pthread_mutex_lock(&lock);
    mask = activation_mask;
    *mask = armed ? FP_NCCL_PROFILE_COLL : 0;
    inits++;
    pthread_mutex_unlock(&lock);
    *context = &seen;
    return 0;
}

/* No handle: NCCL then asks nothing more about the event. */
static fp_ncclResult_t plugin_start(void *context, void **handle, fp_profiler_descr_v4_t *d)
{
    (void)context;
    *handle = NULL;
    if (d->type != FP_NCCL_PROFILE_COLL)
        return 0;
    pthread_mutex_lock(&lock);
    if (armed)
        fp_nccl_choices_add(&seen, d->coll.func, d->coll.algo, d->coll.proto, d->coll.nChannels);
    pthread_mutex_unlock(&lock);
    return 0;
}

static fp_ncclResult_t plugin_stop(void *handle)
{
    (void)handle;
    return 0;
}

static fp_ncclResult_t plugin_state(void *handle, int state, void *args)
{
    (void)handle, (void)state, (void)args;
    return 0;
}

static fp_ncclResult_t plugin_finalize(void *context)
{
    (void)context;
    return 0;
}

/* The symbol NCCL looks up. */
fp_profiler_v4_t ncclProfiler_v4 = {"fabperf", plugin_init, plugin_start, plugin_stop, plugin_state,
                                    plugin_finalize};

void fp_nccl_profiler_arm(int on)
{
    pthread_mutex_lock(&lock);
    armed = on;
    if (on)
        fp_nccl_choices_clear(&seen);
    if (mask)
        __atomic_store_n(mask, on ? FP_NCCL_PROFILE_COLL : 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&lock);
}

void fp_nccl_profiler_take(fp_nccl_choices_t *out)
{
    pthread_mutex_lock(&lock);
    *out = seen;
    pthread_mutex_unlock(&lock);
}

int fp_nccl_profiler_inits(void)
{
    pthread_mutex_lock(&lock);
    int n = inits;
    pthread_mutex_unlock(&lock);
    return n;
}
