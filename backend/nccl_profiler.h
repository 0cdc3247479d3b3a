/* The entry points of libfabperf-nccl-profiler.so beside the ncclProfiler_v4 table NCCL looks
 * up (backend/nccl_profiler.c). The program finds them with dlsym once NCCL has loaded the
 * library (backend/nccl_algo.c); tests call them directly. */
#ifndef FP_NCCL_PROFILER_H
#define FP_NCCL_PROFILER_H

#include <stddef.h>
#include <stdint.h>

#include "nccl_choice.h"

#define FP_NCCL_PROFILER_LIB "libfabperf-nccl-profiler.so"

/* 1: record every collective NCCL starts from now on (the choices seen are cleared); 0: ask NCCL
 * for no events at all, so that timed calls pay nothing but NCCL's test of the mask. */
typedef void fp_nccl_profiler_arm_fn(int on);
/* The choices recorded since the last arm. */
typedef void fp_nccl_profiler_take_fn(fp_nccl_choices_t *out);
/* How many communicators NCCL initialised the plugin for. */
typedef int fp_nccl_profiler_inits_fn(void);
fp_nccl_profiler_arm_fn fp_nccl_profiler_arm;
fp_nccl_profiler_take_fn fp_nccl_profiler_take;
fp_nccl_profiler_inits_fn fp_nccl_profiler_inits;

/* NCCL's profiler plugin ABI, version 4, declared here so that the plugin builds without NCCL's
 * plugin headers; only the collective's part of an event's descriptor is declared. */
typedef int fp_ncclResult_t; /* ncclSuccess is 0 */
enum { FP_NCCL_PROFILE_GROUP = 1 << 0, FP_NCCL_PROFILE_COLL = 1 << 1 };

typedef struct {
    uint8_t type; /* FP_NCCL_PROFILE_COLL for a collective */
    void *parentObj;
    int rank;
    union {
        struct {
            uint64_t seqNumber;
            const char *func;
            const void *sendBuff;
            void *recvBuff;
            size_t count;
            int root;
            const char *datatype;
            uint8_t nChannels;
            uint8_t nWarps;
            const char *algo;
            const char *proto;
        } coll; /* the other events' parts are never read here */
    };
} fp_profiler_descr_v4_t;

typedef struct {
    const char *name;
    fp_ncclResult_t (*init)(void **context, int *activation_mask, const char *comm_name, uint64_t comm_hash,
                            int nnodes, int nranks, int rank, void *logfn);
    fp_ncclResult_t (*startEvent)(void *context, void **handle, fp_profiler_descr_v4_t *descr);
    fp_ncclResult_t (*stopEvent)(void *handle);
    fp_ncclResult_t (*recordEventState)(void *handle, int state, void *args);
    fp_ncclResult_t (*finalize)(void *context);
} fp_profiler_v4_t;

#endif
