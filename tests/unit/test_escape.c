/* Escaping of outside text (environment, labels, host names) and the CPU list. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>

#include "check.h"
#include "escape.h"
#include "placement.h"

typedef void (*writer_t)(FILE *out, const char *s);

static char *render(writer_t write, const char *s)
{
    static char *text;
    size_t len = 0;
    free(text);
    FILE *out = open_memstream(&text, &len);
    write(out, s);
    fclose(out);
    return text;
}

/* One line, valid UTF-8, nothing that any reader takes for a line end. */
static int safe_line(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int len = fp_utf8_length(p);
        if (len == 0 || *p < 0x20 || *p == 0x7f)
            return 0;
        if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0) /* C1, NEL among them */
            return 0;
        if (len == 3 && p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
            return 0;
        p += len;
    }
    return 1;
}

static void every_byte(void)
{
    char all[256];
    for (int i = 1; i < 256; i++)
        all[i - 1] = (char)i;
    all[255] = '\0';
    CHECK(safe_line(render(fp_text_string, all)));
    CHECK(safe_line(render(fp_json_string, all)));
    CHECK(safe_line(render(fp_csv_field, all)));
    /* every byte alone, and each after a lead byte that expects more */
    for (int i = 1; i < 256; i++) {
        char one[4] = {(char)i, '\0'}, two[4] = {(char)0xe2, (char)i, '\0'};
        CHECK(safe_line(render(fp_text_string, one)) && safe_line(render(fp_text_string, two)));
        CHECK(safe_line(render(fp_json_string, one)) && safe_line(render(fp_json_string, two)));
        CHECK(safe_line(render(fp_csv_field, one)) && safe_line(render(fp_csv_field, two)));
    }
}

static void exact_forms(void)
{
    CHECK_STR(render(fp_text_string, "a\n4096 0.01"), "a\\n4096 0.01");
    CHECK_STR(render(fp_text_string, "\\ \t\r\x01\x7f"), "\\\\ \\t\\r\\x01\\x7f");
    CHECK_STR(render(fp_text_string, "caf\xc3\xa9 \xff \xc3"), "caf\xc3\xa9 \\xff \\xc3");
    CHECK_STR(render(fp_text_string, "\xc2\x85|\xe2\x80\xa8"), "\\u0085|\\u2028");
    CHECK_STR(render(fp_json_string, "q\"b\\\n\x01"), "\"q\\\"b\\\\\\n\\u0001\"");
    CHECK_STR(render(fp_json_string, "\xff\xc3\xa9"), "\"\\ufffd\xc3\xa9\"");
    /* overlong, surrogate, above U+10FFFF, cut short: one U+FFFD per byte */
    CHECK_STR(render(fp_json_string, "\xc0\xaf"), "\"\\ufffd\\ufffd\"");
    CHECK_STR(render(fp_json_string, "\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
    CHECK_STR(render(fp_json_string, "\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
    CHECK_STR(render(fp_json_string, "\xf0\x9f\x98\x80\xe2\x82"), "\"\xf0\x9f\x98\x80\\ufffd\\ufffd\"");
    CHECK_STR(render(fp_csv_field, "plain"), "plain");
    CHECK_STR(render(fp_csv_field, "a,b"), "\"a,b\"");
    CHECK_STR(render(fp_csv_field, "say \"hi\"\n"), "\"say \"\"hi\"\"\\n\"");
    CHECK_STR(render(fp_csv_field, " x"), "\" x\"");
}

static void cpu_lists(void)
{
    cpu_set_t set;
    char out[FP_CPU_LIST_MAX];
    CPU_ZERO(&set);
    fp_cpu_list(&set, sizeof set, out, sizeof out);
    CHECK_STR(out, "");
    for (int cpu = 0; cpu < 4; cpu++)
        CPU_SET(cpu, &set);
    CPU_SET(8, &set);
    CPU_SET(10, &set);
    CPU_SET(11, &set);
    fp_cpu_list(&set, sizeof set, out, sizeof out);
    CHECK_STR(out, "0-3,8,10-11");
    CPU_ZERO(&set);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu += 2)
        CPU_SET(cpu, &set);
    char small[32];
    fp_cpu_list(&set, sizeof set, small, sizeof small);
    CHECK(strlen(small) < sizeof small && strcmp(small + strlen(small) - 3, "...") == 0);
    CHECK(strncmp(small, "0,2,4,6,8,10,", 13) == 0);
    CHECK(fp_cpu_numa_node(-1) == -1);
    CHECK(fp_cpu_numa_node(1 << 30) == -1);
}

int main(void)
{
    every_byte();
    exact_forms();
    cpu_lists();
    return CHECK_DONE();
}
