/* The roll call at a timeout (rollcall.h): rank 0's port, the answers, the finding. */
#include "rollcall.h"

#include "escape.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FP_ROLLCALL_ADDRS 8
#define FP_ROLLCALL_LISTED 8 /* ranks named per list before "and N more" */
#define FP_ROLLCALL_CONNECT_MS 1000
#define FP_ROLLCALL_STILL_MS 300 /* how long an answering rank watches its own progress */

/* What rank 0 tells the others: its port and IPv4 addresses (network order), loopback last. */
typedef struct {
    int port, count;
    unsigned int addr[FP_ROLLCALL_ADDRS];
    char host[FP_ROLLCALL_HOST];
} rollcall_contact_t;

static int rollcall_on;
static int rollcall_lockstep = 1;
static int rollcall_rank, rollcall_size;
static int rollcall_listener = -1; /* rank 0 */
static rollcall_contact_t rollcall_contact;
static char (*rollcall_hosts)[FP_ROLLCALL_HOST]; /* rank 0: every rank's host */
static char rollcall_own_host[FP_ROLLCALL_HOST];

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void own_addresses(rollcall_contact_t *c)
{
    struct ifaddrs *list = NULL, *i;
    int loopback = 0;
    c->count = 0;
    if (getifaddrs(&list) == 0) {
        for (i = list; i && c->count < FP_ROLLCALL_ADDRS - 1; i = i->ifa_next) {
            if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
                continue;
            unsigned int a = ((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr.s_addr;
            if (a == htonl(INADDR_LOOPBACK))
                loopback = 1;
            else
                c->addr[c->count++] = a;
        }
        freeifaddrs(list);
    }
    if (loopback || c->count == 0)
        c->addr[c->count++] = htonl(INADDR_LOOPBACK);
}

static int open_listener(int backlog)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY), .sin_port = 0};
    socklen_t len = sizeof sa;
    if (fd < 0)
        return -1;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, backlog) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
        close(fd);
        return -1;
    }
    rollcall_contact.port = ntohs(sa.sin_port);
    return fd;
}

void fp_rollcall_setup(MPI_Comm comm)
{
    MPI_Comm_rank(comm, &rollcall_rank);
    MPI_Comm_size(comm, &rollcall_size);
    if (gethostname(rollcall_own_host, sizeof rollcall_own_host) != 0)
        snprintf(rollcall_own_host, sizeof rollcall_own_host, "?");
    rollcall_own_host[sizeof rollcall_own_host - 1] = '\0';
    memset(&rollcall_contact, 0, sizeof rollcall_contact);
    if (rollcall_rank == 0) {
        rollcall_listener = open_listener(rollcall_size < 4096 ? rollcall_size : 4096);
        rollcall_hosts = calloc((size_t)rollcall_size, sizeof *rollcall_hosts);
        if (rollcall_listener >= 0 && rollcall_hosts) {
            own_addresses(&rollcall_contact);
            memcpy(rollcall_contact.host, rollcall_own_host, sizeof rollcall_contact.host);
        } else {
            rollcall_contact.port = 0;
        }
    }
    MPI_Bcast(&rollcall_contact, (int)sizeof rollcall_contact, MPI_BYTE, 0, comm);
    MPI_Gather(rollcall_own_host, FP_ROLLCALL_HOST, MPI_CHAR, rollcall_hosts, FP_ROLLCALL_HOST, MPI_CHAR, 0, comm);
    rollcall_on = rollcall_contact.port > 0;
    if (rollcall_rank == 0 && !rollcall_on && rollcall_size > 1)
        fprintf(stderr, "fabperf: no port for the roll call at a timeout (%s): a timeout will not name the "
                        "ranks that never arrived\n", strerror(errno));
}

/* Connects within FP_ROLLCALL_CONNECT_MS; -1 when it cannot. */
static int connect_to(unsigned int addr)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = addr,
                             .sin_port = htons((unsigned short)rollcall_contact.port)};
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0 && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    int error = 0;
    socklen_t len = sizeof error;
    if (poll(&p, 1, FP_ROLLCALL_CONNECT_MS) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0 ||
        error != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

void fp_rollcall_not_lockstep(void)
{
    rollcall_lockstep = 0;
}

void fp_rollcall_answer(const atomic_long *entered, const char *where)
{
    if (!rollcall_on || rollcall_rank == 0)
        return;
    long before = atomic_load(entered);
    usleep(FP_ROLLCALL_STILL_MS * 1000); /* a stuck rank stands still; a slow one moves on */
    long after = atomic_load(entered);
    char line[256];
    int n = snprintf(line, sizeof line, "%d %ld %d %s\n", rollcall_rank, before, after != before, where);
    if (n <= 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    int same_host = strcmp(rollcall_contact.host, rollcall_own_host) == 0;
    for (int pass = 0; pass < 2; pass++) { /* on rank 0's host loopback, then the other addresses */
        for (int i = 0; i < rollcall_contact.count; i++) {
            int loop = rollcall_contact.addr[i] == htonl(INADDR_LOOPBACK);
            if (pass == 0 ? !(loop && same_host) : loop)
                continue;
            int fd = connect_to(rollcall_contact.addr[i]);
            if (fd < 0)
                continue;
            ssize_t sent = write(fd, line, len);
            close(fd);
            if (sent == (ssize_t)len)
                return;
        }
    }
}

/* One answer "RANK ENTERED WHERE" from an accepted connection, within the deadline. */
static void read_answer(int fd, long long deadline, fp_rollcall_entry_t *entries)
{
    char buf[256];
    size_t got = 0;
    while (got < sizeof buf - 1) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        long long left = deadline - now_ms();
        if (left <= 0 || poll(&p, 1, (int)left) != 1)
            break;
        ssize_t n = read(fd, buf + got, sizeof buf - 1 - got);
        if (n <= 0)
            break;
        got += (size_t)n;
        if (memchr(buf, '\n', got))
            break;
    }
    buf[got] = '\0';
    int rank, moved, used = 0;
    long entered;
    if (sscanf(buf, "%d %ld %d %n", &rank, &entered, &moved, &used) < 3 || rank <= 0 || rank >= rollcall_size)
        return;
    fp_rollcall_entry_t *e = &entries[rank];
    e->answered = 1;
    e->moved = moved != 0;
    e->entered = entered;
    snprintf(e->where, sizeof e->where, "%.*s", (int)strcspn(buf + used, "\n"), buf + used);
    for (char *c = e->where; *c; c++) /* printed on a terminal: printable ASCII only */
        if (*c < 0x20 || *c > 0x7e)
            *c = '?';
}

void fp_rollcall_collect(const atomic_long *entered, const char *where, char *out, size_t len)
{
    out[0] = '\0';
    if (!rollcall_on || rollcall_rank != 0 || rollcall_size < 2)
        return;
    fp_rollcall_entry_t *entries = calloc((size_t)rollcall_size, sizeof *entries);
    if (!entries)
        return;
    for (int r = 0; r < rollcall_size; r++)
        snprintf(entries[r].host, sizeof entries[r].host, "%s", rollcall_hosts[r]);
    entries[0].answered = 1;
    entries[0].entered = atomic_load(entered);
    snprintf(entries[0].where, sizeof entries[0].where, "%s", where);
    long long deadline = now_ms() + FP_ROLLCALL_WAIT_S * 1000LL;
    int answered = 1;
    while (answered < rollcall_size && now_ms() < deadline) {
        struct pollfd p = {.fd = rollcall_listener, .events = POLLIN};
        if (poll(&p, 1, (int)(deadline - now_ms())) != 1)
            continue;
        int fd = accept(rollcall_listener, NULL, NULL);
        if (fd < 0)
            continue;
        read_answer(fd, deadline, entries);
        close(fd);
        answered = 0;
        for (int r = 0; r < rollcall_size; r++)
            answered += entries[r].answered;
    }
    entries[0].moved = atomic_load(entered) != entries[0].entered;
    fp_rollcall_summary(entries, rollcall_size, rollcall_lockstep, out, len);
    free(entries);
}

/* "rank 3 (n2) at size 4096 B, sample 5 of 100, rank 7 (n4) ..." for the ranks that pick() takes. */
static int list_ranks(char *out, size_t len, const fp_rollcall_entry_t *e, int n, long furthest, int silent,
                      int with_where)
{
    int count = 0;
    for (int r = 0; r < n; r++) {
        int taken = silent ? !e[r].answered : e[r].answered && e[r].entered < furthest;
        if (!taken)
            continue;
        if (count < FP_ROLLCALL_LISTED) {
            fp_append(out, len, "%srank %d (%s)", count ? ", " : "", r, e[r].host[0] ? e[r].host : "?");
            if (with_where)
                fp_append(out, len, " at %s", e[r].where);
        }
        count++;
    }
    if (count > FP_ROLLCALL_LISTED)
        fp_append(out, len, " and %d more", count - FP_ROLLCALL_LISTED);
    return count;
}

void fp_rollcall_summary(const fp_rollcall_entry_t *e, int n, int lockstep, char *out, size_t len)
{
    long furthest = -1;
    int answered = 0, lead = -1;
    for (int r = 0; r < n; r++) {
        if (!e[r].answered)
            continue;
        answered++;
        if (e[r].entered > furthest)
            furthest = e[r].entered, lead = r;
    }
    out[0] = '\0';
    fp_append(out, len, "roll call: %d of %d ranks answered; ", answered, n);
    int moving = 0;
    for (int r = 0; r < n; r++)
        moving += e[r].answered && e[r].moved;
    if (moving) { /* snapshots of a moving run are taken at different steps: none is evidence */
        fp_append(out, len, "%d of them still took steps while answering: the run is slower than the time limit, not "
                      "stuck, and no rank is named", moving);
        return;
    }
    int behind = 0;
    for (int r = 0; r < n; r++)
        behind += e[r].answered && e[r].entered < furthest;
    if (!lockstep) { /* ranks idle by design (a pair measured alone) are behind for no fault */
        fp_append(out, len, "this program's ranks do not move in step, so none is named as behind; rank 0 is at %s",
            e[0].where);
    } else if (behind) {
        fp_append(out, len, "never arrived where the others wait (%s): ", lead >= 0 ? e[lead].where : "?");
        list_ranks(out, len, e, n, furthest, 0, 1);
    } else if (answered == n) {
        fp_append(out, len, "no rank is a step behind: every rank has begun %s, where the operation did not complete "
                      "(a rank late within one step is not told apart)", lead >= 0 ? e[lead].where : "?");
    } else {
        fp_append(out, len, "every rank that answered is at %s", lead >= 0 ? e[lead].where : "?");
    }
    if (answered < n) {
        fp_append(out, len, "; did not answer (dead, stuck past its own watchdog, or no route to rank 0's port): ");
        list_ranks(out, len, e, n, furthest, 1, 0);
    }
}
