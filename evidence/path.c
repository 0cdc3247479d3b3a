/* Path evidence: every node's NIC byte counters around one size, gathered on rank 0 and set
 * against the payload that had to cross nodes (which the family reports per rank). One rank per
 * node reads the counters (ranks of a node see the same ones). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "evidence.h"
#include "link_health.h"
#include "nic_expect.h"
#include "sysfs_net.h"

#define NODE_NAME 64

/* What each rank sends to rank 0 per size, then its node's NICs that moved (leaders only). */
typedef struct {
    double traffic;
    int peer, nrecs, nlinks;
} rank_head_t;

/* A link counter that moved during the size (leaders only). */
typedef struct {
    char nic[80], label[48];
    double delta;
    int cls; /* fp_link_class_t */
} link_rec_t;

typedef struct {
    char name[80], netdev[64];
    double bytes, tx, rx, line_rate_bps; /* tx, rx < 0: unknown */
    int is_virtual;
} nic_rec_t;

struct fp_path {
    fp_nic_list_t list;
    fp_nic_snapshot_t before, after;
    fp_nic_delta_t *deltas;
    nic_rec_t *mine;        /* this node's records, list.count */
    fp_link_watch_t links;  /* this node's link counters */
    fp_link_watch_t part;   /* the same, read around a part of a size (an all-pairs round) */
    link_rec_t *moved;      /* those that moved, links.count */
    int leader, nranks;
    int *host_of;           /* rank -> host index */
    char (*names)[NODE_NAME]; /* host index -> name */
    int nhosts;
    rank_head_t *heads;     /* rank 0: one per rank */
    nic_rec_t *recs;        /* rank 0: all records of a size */
    int *counts, *displs;   /* rank 0: Gatherv in bytes */
    size_t recs_cap;
    link_rec_t *link_recs;  /* rank 0: all moved link counters of a size */
    size_t link_cap;
};

void fp_path_close(fp_path_t *p)
{
    if (!p)
        return;
    fp_nic_snapshot_free(&p->before);
    fp_nic_snapshot_free(&p->after);
    fp_nic_list_free(&p->list);
    fp_link_watch_free(&p->links);
    fp_link_watch_free(&p->part);
    free(p->moved);
    free(p->link_recs);
    free(p->deltas);
    free(p->mine);
    free(p->host_of);
    free(p->names);
    free(p->heads);
    free(p->recs);
    free(p->counts);
    free(p->displs);
    free(p);
}

/* Every rank's node name; host indices in order of first rank; leader = first rank of a node. */
static int map_hosts(fp_path_t *p, fp_run_t *run)
{
    char mine[MPI_MAX_PROCESSOR_NAME + 1] = "";
    int len;
    MPI_Get_processor_name(mine, &len);
    char (*all)[NODE_NAME] = calloc((size_t)p->nranks, NODE_NAME);
    p->host_of = calloc((size_t)p->nranks, sizeof *p->host_of);
    p->names = calloc((size_t)p->nranks, NODE_NAME);
    if (!all || !p->host_of || !p->names) {
        free(all);
        return fp_fail("path evidence: out of memory for %d node names", p->nranks);
    }
    char padded[NODE_NAME] = "";
    snprintf(padded, sizeof padded, "%s", mine);
    int rc = MPI_Allgather(padded, NODE_NAME, MPI_CHAR, all, NODE_NAME, MPI_CHAR, run->ctx.comm);
    for (int r = 0; rc == MPI_SUCCESS && r < p->nranks; r++) {
        int h = 0;
        while (h < p->nhosts && strcmp(p->names[h], all[r]) != 0)
            h++;
        if (h == p->nhosts)
            memcpy(p->names[p->nhosts++], all[r], NODE_NAME);
        p->host_of[r] = h;
        if (strcmp(all[r], padded) == 0 && r < run->ctx.rank)
            p->leader = 0;
    }
    free(all);
    if (rc != MPI_SUCCESS)
        return fp_fail("MPI_Allgather of node names for the path evidence failed (error %d)", rc);
    return FP_OK;
}

int fp_path_open(fp_run_t *run, fp_path_t **path)
{
    *path = NULL;
    if (!run->params.path_evidence)
        return FP_OK;
    fp_path_t *p = calloc(1, sizeof *p);
    if (!p)
        return fp_fail("path evidence: out of memory");
    p->leader = 1;
    p->nranks = run->ctx.nranks;
    *path = p;
    FP_CHECK(map_hosts(p, run));
    if (p->leader) {
        const char *root = run->sys_root[0] ? run->sys_root : NULL;
        FP_CHECK(fp_nic_list(root, &p->list));
        FP_CHECK(fp_link_watch_open(root, &p->list, &p->links));
        FP_CHECK(fp_link_watch_open(root, &p->list, &p->part));
        p->deltas = calloc(p->list.count + 1, sizeof *p->deltas);
        p->mine = calloc(p->list.count + 1, sizeof *p->mine);
        p->moved = calloc(p->links.count + 1, sizeof *p->moved);
        if (!p->deltas || !p->mine || !p->moved)
            return fp_fail("path evidence: out of memory for %zu NICs", p->list.count);
        if (run->ctx.rank == 0)
            fp_link_watch_describe(&p->links, &p->list, run->meta.link_counters, sizeof run->meta.link_counters);
    }
    if (run->ctx.rank == 0) {
        p->heads = calloc((size_t)p->nranks, sizeof *p->heads);
        p->counts = calloc((size_t)p->nranks, sizeof *p->counts);
        p->displs = calloc((size_t)p->nranks, sizeof *p->displs);
        if (!p->heads || !p->counts || !p->displs)
            return fp_fail("path evidence: out of memory for %d ranks", p->nranks);
    }
    return FP_OK;
}

int fp_path_before(fp_path_t *p, fp_run_t *run)
{
    if (p->leader && fp_nic_snapshot(&p->list, &p->before) != FP_OK)
        return fp_fail("path evidence: reading NIC counters failed (out of memory)");
    if (p->leader)
        fp_link_watch_read(&p->links, 0);
    FP_MPI_CHECK(MPI_Barrier(run->ctx.comm));
    return FP_OK;
}

/* This node's NICs that moved bytes since the snapshot before. */
static int node_records(fp_path_t *p)
{
    int n = 0;
    if (!p->leader)
        return 0;
    if (fp_nic_snapshot(&p->list, &p->after) != FP_OK ||
        fp_nic_delta(&p->list, &p->before, &p->after, p->deltas) != FP_OK)
        return fp_fail("path evidence: reading NIC counters failed");
    for (size_t i = 0; i < p->list.count; i++) {
        const fp_nic_delta_t *d = &p->deltas[i];
        double bytes = (d->tx_known ? (double)d->tx_bytes : 0) + (d->rx_known ? (double)d->rx_bytes : 0);
        if (bytes <= 0)
            continue;
        snprintf(p->mine[n].name, sizeof p->mine[n].name, "%s", p->list.nics[i].name);
        p->mine[n].bytes = bytes;
        p->mine[n].tx = d->tx_known ? (double)d->tx_bytes : -1;
        p->mine[n].rx = d->rx_known ? (double)d->rx_bytes : -1;
        p->mine[n].line_rate_bps = p->list.nics[i].line_rate_bps;
        p->mine[n].is_virtual = p->list.nics[i].is_virtual;
        snprintf(p->mine[n].netdev, sizeof p->mine[n].netdev, "%s", p->list.nics[i].netdev);
        n++;
    }
    return n;
}

/* This node's link counters of watch w that moved since the reading before. */
static int link_records(fp_path_t *p, fp_link_watch_t *w)
{
    int n = 0;
    if (!p->leader)
        return 0;
    fp_link_watch_read(w, 1);
    for (size_t i = 0; i < w->count; i++) {
        const fp_link_file_t *f = &w->files[i];
        if (!f->moved)
            continue;
        link_rec_t *r = &p->moved[n++];
        snprintf(r->nic, sizeof r->nic, "%s", p->list.nics[f->nic].name);
        snprintf(r->label, sizeof r->label, "%s", f->counter->label);
        r->delta = (double)f->delta;
        r->cls = (int)f->counter->cls;
    }
    return n;
}

/* Rank 0: every rank's records of `size` bytes into *buf (grown as needed), p->counts[r] holding
 * rank r's count on entry (only leaders have any); their number in *total. */
static int gather_records(fp_path_t *p, fp_run_t *run, const void *mine, int n, size_t size, void **buf,
                          size_t *cap, int *total)
{
    *total = 0;
    if (run->ctx.rank == 0) {
        for (int r = 0; r < p->nranks; r++) {
            int count = p->counts[r];
            p->counts[r] = count * (int)size;
            p->displs[r] = *total * (int)size;
            *total += count;
        }
        if ((size_t)*total > *cap) {
            void *grown = realloc(*buf, (size_t)*total * size);
            if (!grown)
                return fp_fail("path evidence: out of memory for %d records of %zu B", *total, size);
            *buf = grown;
            *cap = (size_t)*total;
        }
    }
    FP_MPI_CHECK(MPI_Gatherv(mine, n * (int)size, MPI_BYTE, *buf, p->counts, p->displs, MPI_BYTE, 0, run->ctx.comm));
    return FP_OK;
}

/* Rank 0: every rank's link records (heads[r].nlinks of them). */
static int gather_links(fp_path_t *p, fp_run_t *run, int n, int *total)
{
    for (int r = 0; run->ctx.rank == 0 && r < p->nranks; r++)
        p->counts[r] = p->heads[r].nlinks;
    return gather_records(p, run, p->moved, n, sizeof(link_rec_t), (void **)&p->link_recs, &p->link_cap, total);
}

static int gather(fp_path_t *p, fp_run_t *run, const fp_row_t *row, int *total, int *links)
{
    int n = node_records(p);
    if (n < 0)
        return FP_ERR;
    int nlinks = link_records(p, &p->links);
    rank_head_t head = {row->traffic_bytes, row->traffic_peer, n, nlinks};
    FP_MPI_CHECK(MPI_Gather(&head, (int)sizeof head, MPI_BYTE, p->heads, (int)sizeof head, MPI_BYTE, 0, run->ctx.comm));
    for (int r = 0; run->ctx.rank == 0 && r < p->nranks; r++)
        p->counts[r] = p->heads[r].nrecs;
    FP_CHECK(gather_records(p, run, p->mine, n, sizeof(nic_rec_t), (void **)&p->recs, &p->recs_cap, total));
    return gather_links(p, run, nlinks, links);
}

/* "mlx5_0:1@h1: 2 link downed, 11000 symbol errors; eth0@h2: 340 receive drops (congestion)". */
static void describe_links(fp_link_set_t *set, int total)
{
    for (int i = 0; i < set->count; i++) {
        const fp_link_moved_t *m = &set->moved[i];
        int same = i > 0 && strcmp(m->node, set->moved[i - 1].node) == 0 && strcmp(m->nic, set->moved[i - 1].nic) == 0;
        if (same)
            fp_append(set->line, sizeof set->line, ", ");
        else
            fp_append(set->line, sizeof set->line, "%s%s@%s: ", i ? "; " : "", m->nic, m->node);
        fp_append(set->line, sizeof set->line, "%.0f %s%s", m->delta, m->counter, m->error ? "" : " (congestion)");
    }
    if (total > set->count)
        fp_append(set->line, sizeof set->line, "; %d more counters moved", total - set->count);
}

/* Rank 0: the link counters that moved (heads[r].nlinks of rank r, in rank order), by node. */
static void collect_links(const fp_path_t *p, int total, fp_link_set_t *set)
{
    set->count = set->errors = 0;
    set->line[0] = '\0';
    for (int r = 0, i = 0; r < p->nranks; r++)
        for (int k = 0; k < p->heads[r].nlinks && i < total; k++, i++) {
            const link_rec_t *rec = &p->link_recs[i];
            set->errors += rec->cls == FP_LINK_ERROR;
            if (set->count == FP_EVIDENCE_LINKS)
                continue;
            fp_link_moved_t *m = &set->moved[set->count++];
            snprintf(m->node, sizeof m->node, "%s", p->names[p->host_of[r]]);
            snprintf(m->nic, sizeof m->nic, "%s", rec->nic);
            snprintf(m->counter, sizeof m->counter, "%s", rec->label);
            m->delta = rec->delta;
            m->error = rec->cls == FP_LINK_ERROR;
        }
    describe_links(set, total);
}

int fp_path_part_begin(fp_path_t *p)
{
    if (p->leader)
        fp_link_watch_read(&p->part, 0);
    return FP_OK;
}

int fp_path_part_end(fp_path_t *p, fp_run_t *run, fp_link_set_t *set)
{
    int n = link_records(p, &p->part), total = 0;
    int *counts = run->ctx.rank == 0 ? p->counts : NULL;
    FP_MPI_CHECK(MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, run->ctx.comm));
    if (run->ctx.rank == 0)
        for (int r = 0; r < p->nranks; r++)
            p->heads[r].nlinks = p->counts[r];
    FP_CHECK(gather_links(p, run, n, &total));
    if (run->ctx.rank == 0)
        collect_links(p, total, set);
    return FP_OK;
}

/* Rank 0: per node the payload that had to cross (ranks whose peer is on another node). */
static void node_payloads(const fp_path_t *p, double *payload, double *exchanged, int *unknown)
{
    *unknown = 0;
    for (int r = 0; r < p->nranks; r++) {
        const rank_head_t *h = &p->heads[r];
        int host = p->host_of[r];
        exchanged[host] += h->traffic;
        if (h->peer < 0 || h->peer >= p->nranks)
            *unknown = 1;
        else if (p->host_of[h->peer] != host)
            payload[host] += h->traffic;
    }
}

static int by_bytes(const void *a, const void *b)
{
    double x = ((const fp_path_nic_t *)a)->bytes, y = ((const fp_path_nic_t *)b)->bytes;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Rank 0: the NICs that moved >= 1% of their node's reference (payload, or what it exchanged),
 * each set against all its node's ranks moved (the most the run can account for on it). */
static void collect(const fp_path_t *p, int total, fp_evidence_t *ev, double *payload, double *exchanged,
                    size_t size)
{
    int unknown, r = 0, left = p->heads[0].nrecs;
    node_payloads(p, payload, exchanged, &unknown);
    ev->payload = 0;
    ev->exchanged = 0;
    ev->nnodes = p->nhosts;
    snprintf(ev->node, sizeof ev->node, "%s", p->names[0]);
    for (int h = 0; h < p->nhosts; h++) {
        ev->payload += payload[h];
        ev->exchanged += exchanged[h];
    }
    if (unknown && p->nhosts > 1) /* on one host nothing has to cross, whatever the algorithm */
        ev->payload = -1;
    fp_path_nic_t all[FP_EVIDENCE_NICS * 4];
    int n = 0;
    for (int i = 0; i < total; i++) {
        while (left == 0)
            left = p->heads[++r].nrecs;
        left--;
        int host = p->host_of[r];
        double ref = payload[host] > 0 ? payload[host] : exchanged[host];
        const nic_rec_t *rec = &p->recs[i];
        if (rec->bytes < 0.01 * ref || rec->bytes < 4096 || n == (int)(sizeof all / sizeof all[0]))
            continue;
        fp_path_nic_t *nic = &all[n++];
        snprintf(nic->node, sizeof nic->node, "%s", p->names[host]);
        snprintf(nic->name, sizeof nic->name, "%s", rec->name);
        nic->bytes = rec->bytes;
        nic->tx = rec->tx;
        nic->rx = rec->rx;
        nic->share = ev->payload > 0 && payload[host] > 0 ? rec->bytes / payload[host] : NAN;
        nic->line_rate_bps = rec->line_rate_bps;
        nic->is_virtual = rec->is_virtual;
        snprintf(nic->netdev, sizeof nic->netdev, "%s", rec->netdev);
        /* a program that reports no traffic of its own (collectives: their algorithm's) cannot
         * account for any NIC's bytes, so none is called shared */
        nic->accountable = ev->exchanged > 0 ? exchanged[host] : -1;
        nic->other_traffic = nic->accountable >= 0 && rec->bytes > fp_wire_allowance(nic->accountable, size);
    }
    qsort(all, (size_t)n, sizeof all[0], by_bytes);
    ev->nnics = n < FP_EVIDENCE_NICS ? n : FP_EVIDENCE_NICS;
    memcpy(ev->nics, all, (size_t)ev->nnics * sizeof all[0]);
}

/* Whether recs[i] is a wire of its own: not loopback, and not a RoCE port's netdev (the port
 * counts for it); the port's netdev record, if any, in *netdev. */
static int own_wire(const nic_rec_t *recs, int count, int i, const nic_rec_t **netdev)
{
    int shadowed = 0;
    *netdev = NULL;
    for (int j = 0; j < count; j++) {
        shadowed |= recs[j].netdev[0] && strcmp(recs[j].netdev, recs[i].name) == 0;
        if (recs[i].netdev[0] && strcmp(recs[j].name, recs[i].netdev) == 0)
            *netdev = &recs[j];
    }
    return !shadowed && strcmp(recs[i].name, "lo") != 0;
}

/* One node's wires (its leader's records): bytes added up, a port and its netdev as one wire (the
 * larger of the two per direction: they may count the same bytes); shared where a NIC counted more
 * than the node's ranks can account for (accountable < 0: unknown); then its line rate, of the
 * wires that carried >= 10% of its bytes (a virtual one or one without a rate leaves it unknown). */
static void wire_node(const nic_rec_t *recs, int count, double accountable, size_t size, fp_wire_node_t *node)
{
    const nic_rec_t *netdev;
    for (int i = 0; i < count; i++) {
        if (!own_wire(recs, count, i, &netdev))
            continue;
        double tx = recs[i].tx, rx = recs[i].rx;
        if (netdev) {
            tx = netdev->tx > tx ? netdev->tx : tx;
            rx = netdev->rx > rx ? netdev->rx : rx;
        }
        node->tx = node->tx < 0 || tx < 0 ? -1 : node->tx + tx;
        node->rx = node->rx < 0 || rx < 0 ? -1 : node->rx + rx;
        node->shared |= accountable >= 0 && recs[i].bytes > fp_wire_allowance(accountable, size);
    }
    double all = node->tx + node->rx, sum = 0;
    int unknown = 0;
    char names[160] = "", virtual_names[160] = "";
    if (count == 0 || all <= 0)
        return;
    for (int i = 0; i < count; i++) {
        const nic_rec_t *rec = &recs[i];
        if (!own_wire(recs, count, i, &netdev) || rec->bytes < 0.1 * all)
            continue;
        sum += rec->line_rate_bps;
        unknown |= rec->line_rate_bps <= 0 || rec->is_virtual;
        fp_append(names, sizeof names, "%s%s", names[0] ? "+" : "", rec->name);
        if (rec->is_virtual)
            fp_append(virtual_names, sizeof virtual_names, "%s%s", virtual_names[0] ? ", " : "", rec->name);
    }
    node->line_rate_bps = unknown ? 0 : sum;
    if (!unknown)
        snprintf(node->line_from, sizeof node->line_from, "%s", names);
    else if (virtual_names[0])
        snprintf(node->line_from, sizeof node->line_from, "none: %s virtual", virtual_names);
    else
        snprintf(node->line_from, sizeof node->line_from, "unknown: %s reports no speed", names);
}

/* Rank 0: every node's wires (wire_node); a node's records sit together, in its leader's block of
 * the gather. */
static void wire_nodes(const fp_path_t *p, const double *exchanged, double all_exchanged, size_t size,
                       fp_wire_node_t *nodes)
{
    for (int h = 0; h < p->nhosts; h++)
        snprintf(nodes[h].node, sizeof nodes[h].node, "%s", p->names[h]);
    for (int r = 0, start = 0; r < p->nranks; start += p->heads[r++].nrecs) {
        int host = p->host_of[r];
        wire_node(p->recs + start, p->heads[r].nrecs, all_exchanged > 0 ? exchanged[host] : -1, size, &nodes[host]);
    }
}

/* Whether the evidence found node's NIC name shared with other traffic. */
static int shared_nic(const fp_evidence_t *ev, const char *node, const char *name)
{
    for (int i = 0; i < ev->nnics; i++)
        if (ev->nics[i].other_traffic && strcmp(ev->nics[i].node, node) == 0 && strcmp(ev->nics[i].name, name) == 0)
            return 1;
    return 0;
}

/* Rank 0: per node the bytes that had to cross (its payload; unknown: its NIC bytes off loopback)
 * and those that crossed a NIC --expect-nic names for it; then the verdict. */
static void judge_nic(const fp_path_t *p, int total, const char *spec, const double *payload, fp_evidence_t *ev,
                      size_t size)
{
    fp_nic_node_t *nodes = calloc((size_t)p->nhosts, sizeof *nodes);
    char(*patterns)[128] = calloc((size_t)p->nhosts, sizeof *patterns);
    if (!nodes || !patterns) {
        free(nodes);
        free(patterns);
        ev->nic_verdict = FP_VERDICT_FAIL;
        snprintf(ev->nic_why, sizeof ev->nic_why, "size %zu: out of memory judging %d nodes", size, p->nhosts);
        return;
    }
    for (int h = 0; h < p->nhosts; h++) {
        nodes[h].node = p->names[h];
        nodes[h].named = fp_nic_expect_pattern(spec, p->names[h], patterns[h], sizeof patterns[h]);
        nodes[h].reference = ev->payload >= 0 ? payload[h] : 0;
    }
    for (int i = 0, r = 0, left = p->heads[0].nrecs; i < total; i++, left--) {
        while (left == 0)
            left = p->heads[++r].nrecs;
        fp_nic_node_t *n = &nodes[p->host_of[r]];
        const nic_rec_t *rec = &p->recs[i];
        if (ev->payload < 0 && strcmp(rec->name, "lo") != 0)
            n->reference += rec->bytes;
        if (n->named && fp_nic_expect_matches(patterns[p->host_of[r]], rec->name)) {
            n->through += rec->bytes;
            n->other_traffic |= shared_nic(ev, p->names[p->host_of[r]], rec->name);
        }
    }
    fp_nic_judge(ev, spec, nodes, p->nhosts, size);
    free(nodes);
    free(patterns);
}

/* A NIC of rank 0's node that carried >= 10% of its payload (lo aside: it never leaves the node;
 * a NIC shared with other traffic aside: its bytes are not all this run's). */
static int carries(const fp_evidence_t *ev, const fp_path_nic_t *n)
{
    return strcmp(n->node, ev->node) == 0 && !isnan(n->share) && n->share >= 0.1 && strcmp(n->name, "lo") != 0 &&
           !n->other_traffic;
}

/* A RoCE port's netdev, when the port carries too: one wire seen twice, its rate counted once. */
static int seen_as_port(const fp_evidence_t *ev, const fp_path_nic_t *n)
{
    for (int j = 0; j < ev->nnics; j++)
        if (carries(ev, &ev->nics[j]) && ev->nics[j].netdev[0] && strcmp(ev->nics[j].netdev, n->name) == 0 &&
            strcmp(ev->nics[j].node, n->node) == 0)
            return 1;
    return 0;
}

void fp_path_rates(fp_evidence_t *ev, const fp_bench_t *bench, double p50)
{
    double carried = 0, sum = 0;
    int unknown = 0;
    ev->path_line_rate_bps = 0;
    ev->path_line_rate_from[0] = '\0';
    char names[160] = "", virtual_names[160] = "";
    for (int i = 0; i < ev->nnics; i++) {
        fp_path_nic_t *n = &ev->nics[i];
        double unit_rate = fp_line_rate_in_unit(bench, n->line_rate_bps);
        n->rate = fp_line_rate_in_unit(bench, 1) > 0 && !isnan(n->share) ? p50 * n->share : NAN;
        n->efficiency = unit_rate > 0 && isfinite(n->rate) ? n->rate / unit_rate : NAN;
        if (!carries(ev, n) || seen_as_port(ev, n))
            continue;
        carried += n->share;
        sum += n->line_rate_bps;
        unknown |= n->line_rate_bps <= 0;
        fp_append(names, sizeof names, "%s%s", names[0] ? "+" : "", n->name);
        if (n->is_virtual)
            fp_append(virtual_names, sizeof virtual_names, "%s%s", virtual_names[0] ? ", " : "", n->name);
    }
    if (carried < 0.5)
        return;
    if (!unknown) {
        ev->path_line_rate_bps = sum;
        snprintf(ev->path_line_rate_from, sizeof ev->path_line_rate_from, "%s", names);
    } else if (virtual_names[0]) {
        snprintf(ev->path_line_rate_from, sizeof ev->path_line_rate_from,
                 "none: %s virtual (no device: a nominal speed only)", virtual_names);
    } else {
        snprintf(ev->path_line_rate_from, sizeof ev->path_line_rate_from, "unknown: %s reports no speed", names);
    }
}

int fp_path_after(fp_path_t *p, fp_run_t *run, const fp_row_t *row, fp_evidence_t *ev)
{
    int total = 0, links = 0;
    FP_CHECK(gather(p, run, row, &total, &links));
    if (run->ctx.rank != 0)
        return FP_OK;
    double *payload = calloc((size_t)p->nhosts * 2, sizeof *payload);
    if (!payload)
        return fp_fail("path evidence: out of memory for %d nodes", p->nhosts);
    ev->measured = 1;
    collect(p, total, ev, payload, payload + p->nhosts, row->size);
    collect_links(p, links, &ev->link);
    fp_path_describe(ev);
    if (run->params.expect_nic)
        judge_nic(p, total, run->params.expect_nic, payload, ev, row->size);
    fp_path_rates(ev, run->bench, row->headline.p50);
    /* what left the nodes; on one host nothing of the run did (a NIC's bytes there are others') */
    fp_wire_node_t *nodes = calloc((size_t)p->nhosts, sizeof *nodes);
    if (!nodes) {
        free(payload);
        return fp_fail("path evidence: out of memory for %d nodes", p->nhosts);
    }
    wire_nodes(p, payload + p->nhosts, ev->exchanged, row->size, nodes);
    double divisor = run->bench->time_divisor > 0 ? run->bench->time_divisor : 1;
    fp_wire_rates(ev, nodes, p->nhosts > 1 ? p->nhosts : 0, run->bench, (double)run->operations,
                  row->time.p50 * 1e-6 * divisor, row->headline.p50);
    free(nodes);
    free(payload);
    return FP_OK;
}
