/* A slow rank or a slow link through the MPI profiling interface, for the tests (LD_PRELOAD'ed
 * into every rank): the receiving rank sees a data message complete later than it did, so that
 * whoever waits on that rank's answer (an acknowledgement, a pong) waits longer, and only the
 * faulty direction of a pair slows.
 *
 * Environment:
 *   FP_SLOW_RANK=R      the faulty rank of MPI_COMM_WORLD; unset: the library does nothing
 *   FP_SLOW_AS=ROLE     sender (default): R's messages arrive late everywhere (cells R -> x);
 *                       receiver: R takes everything late (cells x -> R);
 *                       link: only R's messages to FP_SLOW_PEER arrive late (the cell R -> P;
 *                       P -> R stays normal)
 *                       member: R enters each collective call (MPI_Allreduce, MPI_Allgather,
 *                       MPI_Reduce_scatter_block, MPI_Bcast, MPI_Reduce, MPI_Alltoall) FP_SLOW_US
 *                       late (it sleeps first), so that every group it belongs to waits for it;
 *                       FP_SLOW_FACTOR does not apply
 *                       uplink: the uplink of the switch that ranks FP_SLOW_GROUP=A-B hang from
 *                       (A-B/S: every S-th rank from A to B)
 *                       (by FP_SLOW_HOSTS' names and a topology that puts them on one switch):
 *                       FP_SLOW_DIR=up (default) delays messages from a rank of the group to a
 *                       rank outside it, down those from outside into it
 *   FP_SLOW_PEER=P      the other end of the link (ROLE link only)
 *   FP_SLOW_HOSTS=1     each rank says it runs on host "fh<rank>" (MPI_Get_processor_name), so
 *                       that a topology file can put ranks of one machine on different switches;
 *                       also when FP_SLOW_RANK is unset
 *   FP_SLOW_FACTOR=F    (>= 1, default 1) a delayed receive is seen complete (F - 1) x (the time
 *                       from its post to when it was first seen complete) later: an operation
 *                       takes about F times as long, whatever the machine's speed
 *   FP_SLOW_US=T        a fixed extra T us per delayed receive, added to the factor's
 *   FP_SLOW_ON_S=a, FP_SLOW_OFF_S=b
 *                       intermittent: slow for a seconds, then normal for b seconds, repeating
 *                       from MPI_Init (a receive is judged when it is posted); unset: always slow
 *   FP_SLOW_AFTER_S=t   a step: normal for the first t seconds after MPI_Init, slow from then on
 * Model: only data messages (tag 1; acknowledgements and pongs use tag 2) are delayed, by the
 * rank that receives them: a receive on rank Q from S is delayed when (sender) S == R,
 * (receiver) Q == R or (link) S == R and Q == P. Nothing sleeps and a non-blocking call never
 * blocks: MPI_Test/MPI_Testall report a delayed receive unfinished (without freeing it:
 * MPI_Request_get_status only looks) until its deadline has passed; MPI_Wait/MPI_Waitall and
 * MPI_Recv, which block anyway, spin on the clock until it. The clock is CLOCK_MONOTONIC, not
 * MPI_Wtime, which another test library may move.
 * The factor scales what the receive waited: one posted after its message arrived (eager, or
 * posted late at the start of a sample of a single operation) waits about nothing and gets little
 * more than FP_SLOW_US, so that a sample of one ping shows only part of the factor; receives posted
 * one operation ahead (a window, a ping-pong's next ping) show all of it.
 * Wrapped: MPI_Init, MPI_Init_thread, MPI_Recv, MPI_Irecv with MPI_Test/Testall/Wait/Waitall
 * (what the programs complete receives with); MPI_Testany/Testsome/Waitany/Waitsome and
 * MPI_Request_free complete receives undelayed. MPI_Sendrecv (the validation rounds, untimed) is
 * not delayed. The six collectives above: delayed on entry for the member role only. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TAG_DATA 1 /* FP_TAG_DATA of engine/comm.h */
#define MAX_TRACKED 4096

enum { AS_SENDER, AS_RECEIVER, AS_LINK, AS_MEMBER, AS_UPLINK };

static struct {
    int ready, active, as;
    int rank, peer, me;
    int group_lo, group_hi, group_step, down; /* AS_UPLINK */
    double factor, extra_s, on_s, off_s, after_s, start;
} slow;

/* Delayed receives in flight, packed in [0, tracked): at most a window's worth, so a scan is cheap. */
static struct {
    MPI_Request request;
    double posted, deadline;
    int seen; /* seen complete: deadline set */
} table[MAX_TRACKED];
static int tracked;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double env_double(const char *name, double fallback)
{
    const char *text = getenv(name);
    return text && *text ? atof(text) : fallback;
}

static void setup(void)
{
    const char *rank = getenv("FP_SLOW_RANK"), *as = getenv("FP_SLOW_AS");
    int initialized = 0;
    slow.ready = 1;
    slow.start = now_s();
    PMPI_Initialized(&initialized);
    if (!rank || !*rank || !initialized)
        return;
    slow.rank = atoi(rank);
    slow.peer = (int)env_double("FP_SLOW_PEER", -1);
    PMPI_Comm_rank(MPI_COMM_WORLD, &slow.me);
    /* A misspelt setting injects nothing rather than another fault than the one asked for. */
    if (!as || !*as || !strcmp(as, "sender"))
        slow.as = AS_SENDER;
    else if (!strcmp(as, "receiver"))
        slow.as = AS_RECEIVER;
    else if (!strcmp(as, "link") && slow.peer >= 0)
        slow.as = AS_LINK;
    else if (!strcmp(as, "member"))
        slow.as = AS_MEMBER;
    else if (!strcmp(as, "uplink") && getenv("FP_SLOW_GROUP") &&
             sscanf(getenv("FP_SLOW_GROUP"), "%d-%d", &slow.group_lo, &slow.group_hi) == 2) {
        slow.as = AS_UPLINK;
        const char *step = strchr(getenv("FP_SLOW_GROUP"), '/');
        slow.group_step = step && atoi(step + 1) > 0 ? atoi(step + 1) : 1;
        slow.down = getenv("FP_SLOW_DIR") && !strcmp(getenv("FP_SLOW_DIR"), "down");
    } else {
        if (slow.me == 0)
            fprintf(stderr, "libfpslow: FP_SLOW_AS=%s%s: no fault injected (accepted: sender, receiver, "
                    "link with FP_SLOW_PEER, member, uplink with FP_SLOW_GROUP)\n", as, strcmp(as, "link") ? "" : " without FP_SLOW_PEER");
        return;
    }
    slow.factor = env_double("FP_SLOW_FACTOR", 1);
    if (slow.factor < 1)
        slow.factor = 1;
    slow.extra_s = env_double("FP_SLOW_US", 0) * 1e-6;
    slow.on_s = env_double("FP_SLOW_ON_S", 0);
    slow.off_s = env_double("FP_SLOW_OFF_S", 0);
    slow.after_s = env_double("FP_SLOW_AFTER_S", 0);
    slow.active = 1;
}

static void ensure_setup(void)
{
    if (!slow.ready)
        setup();
}

int MPI_Get_processor_name(char *name, int *len)
{
    const char *fake = getenv("FP_SLOW_HOSTS");
    int me = 0;
    if (!fake || strcmp(fake, "1") != 0)
        return PMPI_Get_processor_name(name, len);
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    *len = snprintf(name, MPI_MAX_PROCESSOR_NAME, "fh%d", me);
    return MPI_SUCCESS;
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    setup();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    setup();
    return rc;
}

/* The world rank of `source` in comm. The programs talk on MPI_COMM_WORLD itself (engine/run.c),
 * the fast path; any other communicator is translated on each post, uncached, because a freed
 * communicator's handle may come back as another one. */
static int in_group(int r)
{
    return r >= slow.group_lo && r <= slow.group_hi && (r - slow.group_lo) % slow.group_step == 0;
}

static int world_rank(int source, MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD)
        return source;
    MPI_Group group, world;
    int out = MPI_UNDEFINED;
    if (PMPI_Comm_group(comm, &group) != MPI_SUCCESS)
        return out;
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Group_translate_ranks(group, 1, &source, world, &out);
    PMPI_Group_free(&group);
    PMPI_Group_free(&world);
    return out;
}

/* A receive of data from `source` posted now is delayed. */
/* Within a slow spell (always, unless intermittent or not yet begun). */
static int in_spell(void)
{
    if (slow.after_s > 0 && now_s() - slow.start < slow.after_s)
        return 0;
    if (slow.on_s > 0 && slow.off_s > 0) {
        double period = slow.on_s + slow.off_s, since = now_s() - slow.start;
        return since - period * (double)(long)(since / period) < slow.on_s;
    }
    return 1;
}

static int delays(int source, int tag, MPI_Comm comm)
{
    ensure_setup();
    if (!slow.active || slow.as == AS_MEMBER || tag != TAG_DATA || source == MPI_PROC_NULL ||
        (slow.factor <= 1 && slow.extra_s <= 0) || !in_spell())
        return 0;
    if (slow.as == AS_RECEIVER)
        return slow.me == slow.rank;
    if (source == MPI_ANY_SOURCE)
        return 0; /* the sender is not known yet */
    int from = world_rank(source, comm);
    if (slow.as == AS_UPLINK) {
        int from_in = in_group(from), me_in = in_group(slow.me);
        return slow.down ? !from_in && me_in : from_in && !me_in;
    }
    return from == slow.rank && (slow.as == AS_SENDER || slow.me == slow.peer);
}

static double delay_of(double posted, double seen)
{
    return (slow.factor - 1) * (seen - posted) + slow.extra_s;
}

static int find(MPI_Request request)
{
    if (request == MPI_REQUEST_NULL)
        return -1;
    for (int i = 0; i < tracked; i++)
        if (table[i].request == request)
            return i;
    return -1;
}

static void forget(int i)
{
    table[i] = table[--tracked];
}

/* A new request: a handle left in the table by a completion call that is not wrapped has been
 * freed and may come back, so its entry goes whether or not the new receive is delayed. */
static void track(MPI_Request request, int delayed)
{
    int i = find(request);
    if (i >= 0)
        forget(i);
    if (!delayed || tracked == MAX_TRACKED)
        return;
    table[tracked].request = request;
    table[tracked].posted = now_s();
    table[tracked].deadline = 0;
    table[tracked].seen = 0;
    tracked++;
}

/* 1 while a delayed request among these has not passed its deadline; sets the deadline of one
 * seen complete for the first time. Nothing is freed: the handles stay the caller's. */
static int held(int count, const MPI_Request requests[])
{
    int wait = 0;
    if (!tracked)
        return 0;
    for (int r = 0; r < count; r++) {
        int i = find(requests[r]);
        if (i < 0)
            continue;
        if (!table[i].seen) {
            int flag = 0;
            if (PMPI_Request_get_status(requests[r], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                table[i].seen = 1; /* no delay: the error is the PMPI call's to report */
                continue;
            }
            if (!flag) {
                wait = 1;
                continue;
            }
            double seen = now_s();
            table[i].seen = 1;
            table[i].deadline = seen + delay_of(table[i].posted, seen);
        }
        if (now_s() < table[i].deadline)
            wait = 1;
    }
    return wait;
}

/* Requests a PMPI call completed (freed): their entries go. `before`: the handles as passed. */
static void completed(int count, const MPI_Request before[])
{
    for (int r = 0; r < count && tracked; r++) {
        int i = find(before[r]);
        if (i >= 0)
            forget(i);
    }
}

/* Blocking waits spin until the deadlines. No sched_yield: on a loaded machine each one gives the
 * core away for a whole time slice, and a delay of 100 us would take milliseconds. */
static void wait_deadlines(int count, const MPI_Request requests[])
{
    while (held(count, requests))
        ;
}

/* The handles as passed, for after a PMPI call that frees them: into local when they fit. */
#define LOCAL_REQUESTS 64
static MPI_Request *copy_requests(int count, const MPI_Request requests[], MPI_Request local[LOCAL_REQUESTS])
{
    MPI_Request *copy = count <= LOCAL_REQUESTS ? local : malloc((size_t)count * sizeof *copy);
    for (int i = 0; copy && i < count; i++)
        copy[i] = requests[i];
    return copy;
}

static void release_requests(MPI_Request *copy, const MPI_Request local[LOCAL_REQUESTS])
{
    if (copy != local)
        free(copy);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    int delayed = delays(source, tag, comm);
    double posted = now_s();
    int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
    if (delayed && rc == MPI_SUCCESS) {
        double deadline = posted + slow.factor * (now_s() - posted) + slow.extra_s;
        while (now_s() < deadline)
            ;
    }
    return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    int delayed = delays(source, tag, comm);
    int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
    if (rc == MPI_SUCCESS)
        track(*request, delayed);
    return rc;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (held(1, request)) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    MPI_Request before = *request;
    int rc = PMPI_Test(request, flag, status);
    if (rc == MPI_SUCCESS && *flag)
        completed(1, &before);
    return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    if (held(count, requests)) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    if (!tracked)
        return PMPI_Testall(count, requests, flag, statuses);
    MPI_Request local[LOCAL_REQUESTS], *before = copy_requests(count, requests, local);
    int rc = PMPI_Testall(count, requests, flag, statuses);
    if (rc == MPI_SUCCESS && *flag && before)
        completed(count, before);
    release_requests(before, local);
    return rc;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    wait_deadlines(1, request);
    MPI_Request before = *request;
    int rc = PMPI_Wait(request, status);
    completed(1, &before);
    return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    wait_deadlines(count, requests);
    if (!tracked)
        return PMPI_Waitall(count, requests, statuses);
    MPI_Request local[LOCAL_REQUESTS], *before = copy_requests(count, requests, local);
    int rc = PMPI_Waitall(count, requests, statuses);
    if (before)
        completed(count, before);
    release_requests(before, local);
    return rc;
}

/* Not used by the programs: completions go undelayed, and their entries with them, lest a freed
 * handle that comes back as a send be taken for the delayed receive. */
int MPI_Request_free(MPI_Request *request)
{
    MPI_Request before = *request;
    int rc = PMPI_Request_free(request);
    completed(1, &before);
    return rc;
}

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    MPI_Request local[LOCAL_REQUESTS], *before = copy_requests(count, requests, local);
    int rc = PMPI_Testany(count, requests, index, flag, status);
    if (rc == MPI_SUCCESS && *flag && before && *index != MPI_UNDEFINED)
        completed(1, &before[*index]);
    release_requests(before, local);
    return rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    MPI_Request local[LOCAL_REQUESTS], *before = copy_requests(count, requests, local);
    int rc = PMPI_Waitany(count, requests, index, status);
    if (rc == MPI_SUCCESS && before && *index != MPI_UNDEFINED)
        completed(1, &before[*index]);
    release_requests(before, local);
    return rc;
}

int MPI_Testsome(int count, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    MPI_Request local[LOCAL_REQUESTS], *before = copy_requests(count, requests, local);
    int rc = PMPI_Testsome(count, requests, outcount, indices, statuses);
    if (rc == MPI_SUCCESS && before && *outcount != MPI_UNDEFINED)
        for (int i = 0; i < *outcount; i++)
            completed(1, &before[indices[i]]);
    release_requests(before, local);
    return rc;
}

int MPI_Waitsome(int count, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    MPI_Request local[LOCAL_REQUESTS], *before = copy_requests(count, requests, local);
    int rc = PMPI_Waitsome(count, requests, outcount, indices, statuses);
    if (rc == MPI_SUCCESS && before && *outcount != MPI_UNDEFINED)
        for (int i = 0; i < *outcount; i++)
            completed(1, &before[indices[i]]);
    release_requests(before, local);
    return rc;
}

/* ---- member: late into every collective call ---- */

static void enter_late(void)
{
    ensure_setup();
    if (!slow.active || slow.as != AS_MEMBER || slow.me != slow.rank || slow.extra_s <= 0 || !in_spell())
        return;
    struct timespec t = {(time_t)slow.extra_s, (long)((slow.extra_s - (double)(time_t)slow.extra_s) * 1e9)};
    nanosleep(&t, NULL);
}

int MPI_Allreduce(const void *send, void *recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    enter_late();
    return PMPI_Allreduce(send, recv, count, type, op, comm);
}

int MPI_Allgather(const void *send, int scount, MPI_Datatype stype, void *recv, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm)
{
    enter_late();
    return PMPI_Allgather(send, scount, stype, recv, rcount, rtype, comm);
}

int MPI_Reduce_scatter_block(const void *send, void *recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    enter_late();
    return PMPI_Reduce_scatter_block(send, recv, count, type, op, comm);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    enter_late();
    return PMPI_Bcast(buffer, count, type, root, comm);
}

int MPI_Reduce(const void *send, void *recv, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    enter_late();
    return PMPI_Reduce(send, recv, count, type, op, root, comm);
}

int MPI_Alltoall(const void *send, int scount, MPI_Datatype stype, void *recv, int rcount, MPI_Datatype rtype,
                 MPI_Comm comm)
{
    enter_late();
    return PMPI_Alltoall(send, scount, stype, recv, rcount, rtype, comm);
}
