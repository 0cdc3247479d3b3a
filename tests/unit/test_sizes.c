/* Size parsing and formatting. */
#include <stdint.h>

#include "check.h"
#include "options.h"

static size_t parse_ok(const char *text)
{
    size_t bytes = 0;
    char err[256];
    if (fp_size_parse(text, &bytes, err, sizeof err) != FP_OK) {
        fprintf(stderr, "'%s' rejected: %s\n", text, err);
        check_failures++;
    }
    return bytes;
}

static void parse_bad(const char *text, const char *why)
{
    size_t bytes = 0;
    char err[256] = "";
    CHECK(fp_size_parse(text, &bytes, err, sizeof err) == FP_ERR);
    if (!strstr(err, why)) {
        fprintf(stderr, "'%s': message '%s' lacks '%s'\n", text, err, why);
        check_failures++;
    }
}

int main(void)
{
    CHECK(parse_ok("1") == 1);
    CHECK(parse_ok("4096") == 4096);
    CHECK(parse_ok("4K") == 4096);
    CHECK(parse_ok("4k") == 4096);
    CHECK(parse_ok("4KB") == 4096);
    CHECK(parse_ok("4KiB") == 4096);
    CHECK(parse_ok("1M") == 1048576);
    CHECK(parse_ok("2G") == 2147483648u);
    CHECK(parse_ok("1T") == ((size_t)1 << 40));
    parse_bad("", "not a size");
    parse_bad("K", "not a size");
    parse_bad("-1", "not a size");
    parse_bad("4X", "unknown suffix");
    parse_bad("4Kx", "trailing");
    parse_bad("99999999999G", "overflows");
    parse_bad("99999999999999999999999", "overflows");
    parse_bad("16777216T", "overflows");

    char text[32];
    fp_size_format(4096, text, sizeof text);
    CHECK_STR(text, "4K");
    fp_size_format(4 << 20, text, sizeof text);
    CHECK_STR(text, "4M");
    fp_size_format(1000, text, sizeof text);
    CHECK_STR(text, "1000");
    fp_size_format(3072, text, sizeof text);
    CHECK_STR(text, "3K");
    return CHECK_DONE();
}
