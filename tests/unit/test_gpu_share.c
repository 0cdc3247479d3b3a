/* One GPU per rank: the first two ranks of one host with the same GPU are named in one line;
 * the same bus id on different hosts, or no GPU at all, is not sharing. */
#include "check.h"
#include "gpu_share.h"

static int judge(const char *const *hosts, const char *const *bus, int n, char *err, size_t len)
{
    err[0] = '\0';
    return fp_gpu_share_check(hosts, bus, n, "--backend nccl", err, len);
}

int main(void)
{
    char err[512];
    const char *one_host[] = {"h1", "h1", "h1"};
    const char *distinct[] = {"0000:1b:00.0", "0000:2c:00.0", "0000:3d:00.0"};
    CHECK(judge(one_host, distinct, 3, err, sizeof err) == FP_OK && err[0] == '\0');

    const char *shared[] = {"0000:1b:00.0", "0000:2c:00.0", "0000:1b:00.0"};
    CHECK(judge(one_host, shared, 3, err, sizeof err) == FP_ERR);
    CHECK_STR(err, "--backend nccl: ranks 0 and 2 share the GPU 0000:1b:00.0 on h1, and NCCL needs one GPU per "
                   "rank (accepted: at most as many ranks per node as GPUs, each on its own)");

    /* Two nodes, each with its GPU 0: every rank has its own. */
    const char *two_hosts[] = {"h1", "h2"};
    const char *both_first[] = {"0000:1b:00.0", "0000:1b:00.0"};
    CHECK(judge(two_hosts, both_first, 2, err, sizeof err) == FP_OK);

    /* One GPU under two ranks of one node: the case of a one-GPU machine. */
    const char *pair_host[] = {"gpu-node", "gpu-node"};
    CHECK(judge(pair_host, both_first, 2, err, sizeof err) == FP_ERR && strstr(err, "ranks 0 and 1 share"));

    /* No GPU selected (empty bus id) is never sharing; one rank alone never shares. */
    const char *none[] = {"", ""};
    CHECK(judge(pair_host, none, 2, err, sizeof err) == FP_OK);
    CHECK(judge(pair_host, both_first, 1, err, sizeof err) == FP_OK);

    /* The first pair in rank order is named; the line stays one line with a short buffer. */
    const char *four_host[] = {"h", "h", "h", "h"};
    const char *later[] = {"a", "b", "b", "a"};
    CHECK(judge(four_host, later, 4, err, sizeof err) == FP_ERR && strstr(err, "ranks 0 and 3 share the GPU a"));
    char small[40];
    CHECK(judge(four_host, later, 4, small, sizeof small) == FP_ERR && strlen(small) == sizeof small - 1 &&
          !strchr(small, '\n'));
    return CHECK_DONE();
}
