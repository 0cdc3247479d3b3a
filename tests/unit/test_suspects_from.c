/* --suspects-from: the nodes of an all-pairs results file's findings that stand or are undecided,
 * in JSON Lines, an array of records or an object holding "findings"; node names against a rank. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "suspects_from.h"

static char path[64];

static int read_text(const char *text, char *words, size_t len, int *findings, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs(text, f);
    fclose(f);
    return fp_suspects_from_file(path, words, len, findings, err, errlen);
}

int main(void)
{
    char words[64], err[1024];
    int findings = -1;
    snprintf(path, sizeof path, "/tmp/fp-suspects-%ld.json", (long)getpid());
    /* JSON Lines: a cleared finding adds nothing; a link names both ends; each node once. */
    CHECK(read_text("{\"type\":\"meta\"}\n"
                    "{\"type\":\"finding\",\"nodes\":[\"n1\"],\"status\":\"stands\"}\n\n"
                    "{\"type\":\"finding\",\"nodes\":[\"n2\",\"n1\"],\"status\":\"undecided\"}\n"
                    "{\"type\":\"finding\",\"nodes\":[\"n3\"],\"status\":\"cleared\"}\n"
                    "{\"type\":\"finding\",\"nodes\":[],\"status\":\"stands\"}\n",
                    words, sizeof words, &findings, err, sizeof err) == 0);
    CHECK_STR(words, "n1,n2");
    CHECK(findings == 3);
    /* One document: an array of records, or an object holding its findings. */
    CHECK(read_text("[{\"type\":\"meta\"},{\"type\":\"finding\",\"nodes\":[\"vm:2\"],\"status\":\"stands\"}]", words,
                    sizeof words, &findings, err, sizeof err) == 0);
    CHECK_STR(words, "vm:2");
    CHECK(read_text("{\"type\":\"meta\",\"findings\":[{\"type\":\"finding\",\"nodes\":[\"a\",\"b\"],\"status\":\"stands\"}]}",
                    words, sizeof words, &findings, err, sizeof err) == 0);
    CHECK_STR(words, "a,b");
    CHECK(findings == 1);
    /* No finding: an empty list, not an error. */
    CHECK(read_text("{\"type\":\"meta\"}\n{\"type\":\"end\"}\n", words, sizeof words, &findings, err, sizeof err) == 0);
    CHECK(words[0] == '\0' && findings == 0);
    /* Refusals: not JSON (with its line), no meta record, more names than fit, no file. */
    CHECK(read_text("{\"type\":\"meta\"}\n{\"type\":\n", words, sizeof words, &findings, err, sizeof err) == -1);
    CHECK(strstr(err, ": line 2 is not JSON (line 1, column 9: the text ends where a value should be)") != NULL);
    CHECK(read_text("{\"type\":\"finding\",\"nodes\":[\"n1\"],\"status\":\"stands\"}\n", words, sizeof words, &findings,
                    err, sizeof err) == -1);
    CHECK(strstr(err, "holds no results of a fabperf program (no meta record") != NULL);
    CHECK(read_text("{\"type\":\"meta\"}\n{\"type\":\"finding\",\"nodes\":[\"a-very-long-node-name-0001\",\"a-very-long-"
                    "node-name-0002\",\"a-very-long-node-name-0003\"],\"status\":\"stands\"}\n",
                    words, sizeof words, &findings, err, sizeof err) == -1);
    CHECK(strstr(err, "name more nodes than 63 characters hold") != NULL);
    unlink(path);
    CHECK(fp_suspects_from_file(path, words, sizeof words, &findings, err, sizeof err) == -1 &&
          strstr(err, "No such file or directory"));

    /* Node names: "host" is every rank on it, "host:R" rank R there. */
    CHECK(fp_suspects_node_rank("vm:12") == 12 && fp_suspects_node_rank("vm") == -1 && fp_suspects_node_rank("vm:") == -1);
    CHECK(fp_suspects_node_rank(":3") == -1 && fp_suspects_node_rank("a:b") == -1 && fp_suspects_node_rank("a:1x") == -1);
    CHECK(fp_suspects_node_is("vm:2", "vm", 2) && !fp_suspects_node_is("vm:2", "vm", 3) && !fp_suspects_node_is("vm:2", "vm2", 2));
    CHECK(fp_suspects_node_is("n07", "n07", 5) && !fp_suspects_node_is("n07", "n08", 5));
    return CHECK_DONE();
}
