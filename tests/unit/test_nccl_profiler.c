/* fabperf's NCCL profiler plugin as NCCL drives it: loaded with dlopen, looked up by
 * ncclProfiler_v4, initialised with NCCL's activation mask, handed collective and group events.
 * The mask must ask for collectives only while armed; the choices come back counted. */
#include <dlfcn.h>
#include <stdlib.h>

#include "check.h"
#include "nccl_choice.h"
#include "nccl_profiler.h"

static fp_profiler_descr_v4_t coll(const char *func, const char *algo, const char *proto, int channels)
{
    fp_profiler_descr_v4_t d;
    memset(&d, 0, sizeof d);
    d.type = FP_NCCL_PROFILE_COLL;
    d.coll.func = func;
    d.coll.algo = algo;
    d.coll.proto = proto;
    d.coll.nChannels = (uint8_t)channels;
    d.coll.count = 1024;
    return d;
}

static void start(const fp_profiler_v4_t *p, fp_profiler_descr_v4_t d)
{
    void *handle = &handle;
    CHECK(p->startEvent(NULL, &handle, &d) == 0);
    CHECK(handle == NULL); /* NCCL asks nothing more about an event without a handle */
}

int main(void)
{
    void *lib = dlopen(FP_PROFILER_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "dlopen %s: %s\n", FP_PROFILER_PATH, dlerror());
        return 1;
    }
    const fp_profiler_v4_t *p = dlsym(lib, "ncclProfiler_v4");
    fp_nccl_profiler_arm_fn *arm = (fp_nccl_profiler_arm_fn *)dlsym(lib, "fp_nccl_profiler_arm");
    fp_nccl_profiler_take_fn *take = (fp_nccl_profiler_take_fn *)dlsym(lib, "fp_nccl_profiler_take");
    fp_nccl_profiler_inits_fn *inits = (fp_nccl_profiler_inits_fn *)dlsym(lib, "fp_nccl_profiler_inits");
    CHECK(p && arm && take && inits);
    if (!p || !arm || !take || !inits)
        return CHECK_DONE();
    CHECK_STR(p->name, "fabperf");
    CHECK(inits() == 0);

    int mask = -1; /* NCCL's, which the plugin sets */
    void *context = NULL;
    CHECK(p->init(&context, &mask, "comm", 42, 2, 2, 0, NULL) == 0);
    CHECK(mask == 0); /* nothing asked before a size is armed */
    CHECK(inits() == 1);

    fp_nccl_choices_t got;
    start(p, coll("AllReduce", "RING", "LL", 2)); /* disarmed: not kept */
    arm(1);
    CHECK(mask == FP_NCCL_PROFILE_COLL);
    fp_profiler_descr_v4_t group;
    memset(&group, 0, sizeof group);
    group.type = FP_NCCL_PROFILE_GROUP;
    start(p, group); /* NCCL starts the group too: not a call */
    for (int i = 0; i < 3; i++)
        start(p, coll("AllReduce", "RING", "LL128", 8));
    start(p, coll("AllReduce", "TREE", "LL", 2));
    arm(0);
    CHECK(mask == 0);
    start(p, coll("AllReduce", "NVLS", "SIMPLE", 16)); /* after the warm-up: not kept */
    take(&got);
    CHECK(got.calls == 4 && got.nkinds == 2 && got.others == 0);
    char text[512];
    fp_nccl_choices_text(&got, text, sizeof text);
    CHECK_STR(text, "AllReduce: RING LL128, 8 channels (3 calls); AllReduce: TREE LL, 2 channels (1 call)");
    const fp_nccl_choice_t *main_choice = fp_nccl_choices_main(&got);
    CHECK(main_choice && strcmp(main_choice->algo, "RING") == 0 && main_choice->channels == 8);

    /* A second communicator (a split) shares the mask; arming again forgets the last size. */
    int mask2 = -1;
    CHECK(p->init(&context, &mask2, "split", 43, 1, 2, 0, NULL) == 0);
    CHECK(inits() == 2 && mask2 == 0);
    arm(1);
    CHECK(mask2 == FP_NCCL_PROFILE_COLL);
    start(p, coll(NULL, "", "SIMPLE", 1));
    for (int i = 0; i < FP_NCCL_CHOICE_KINDS + 1; i++)
        start(p, coll("AllGather", "RING", "SIMPLE", 10 + i));
    arm(0);
    take(&got);
    CHECK(got.calls == FP_NCCL_CHOICE_KINDS + 2 && got.nkinds == FP_NCCL_CHOICE_KINDS && got.others == 2);
    fp_nccl_choices_text(&got, text, sizeof text);
    CHECK_STR(text, "?: ? SIMPLE, 1 channel (1 call); AllGather: RING SIMPLE, 10 channels (1 call); AllGather: RING "
                    "SIMPLE, 11 channels (1 call); AllGather: RING SIMPLE, 12 channels (1 call); 2 calls not listed");
    fp_nccl_choices_clear(&got);
    fp_nccl_choices_text(&got, text, sizeof text);
    CHECK_STR(text, "");
    CHECK(fp_nccl_choices_main(&got) == NULL);
    CHECK(p->finalize(context) == 0);
    dlclose(lib);
    return CHECK_DONE();
}
