/* Units of the command line: sizes in bytes with binary suffixes, bit rates with decimal ones. */
#include "units.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "escape.h"

int fp_size_parse(const char *text, size_t *bytes, char *err, size_t errlen)
{
    const char *p = text;
    if (!isdigit((unsigned char)*p))
        return fp_fail_text(err, errlen, "'%s' is not a size", text);
    unsigned long long value = 0;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned digit = (unsigned)(*p - '0');
        if (value > (ULLONG_MAX - digit) / 10)
            return fp_fail_text(err, errlen, "'%s' overflows", text);
        value = value * 10 + digit;
    }
    unsigned shift = 0;
    switch (toupper((unsigned char)*p)) {
    case 'K': shift = 10; break;
    case 'M': shift = 20; break;
    case 'G': shift = 30; break;
    case 'T': shift = 40; break;
    case '\0': break;
    default: return fp_fail_text(err, errlen, "'%s' has an unknown suffix (use K, M, G or T)", text);
    }
    if (shift) {
        p++;
        if (toupper((unsigned char)*p) == 'I')
            p++;
        if (toupper((unsigned char)*p) == 'B')
            p++;
        if (*p)
            return fp_fail_text(err, errlen, "'%s' has trailing characters", text);
    }
    if (shift && value > (ULLONG_MAX >> shift))
        return fp_fail_text(err, errlen, "'%s' overflows", text);
    value <<= shift;
    if (value > SIZE_MAX)
        return fp_fail_text(err, errlen, "'%s' overflows", text);
    *bytes = (size_t)value;
    return FP_OK;
}

void fp_size_format(size_t bytes, char *out, size_t outlen)
{
    static const char suffix[] = "KMGT";
    int unit = -1;
    size_t value = bytes;
    while (value >= 1024 && value % 1024 == 0 && unit < 3) {
        value /= 1024;
        unit++;
    }
    if (unit < 0)
        snprintf(out, outlen, "%zu", bytes);
    else
        snprintf(out, outlen, "%zu%c", value, suffix[unit]);
}

int fp_bitrate_parse(const char *text, double *bps)
{
    char *end;
    if (!isdigit((unsigned char)text[0]) && text[0] != '.')
        return FP_ERR;
    double v = strtod(text, &end);
    static const char units[] = "KMGT";
    const char *u = *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
    if (u) {
        v *= pow(1000.0, (double)(u - units + 1));
        end++;
    }
    if (*end && strcmp(end, "bit") && strcmp(end, "b") && strcmp(end, "bps") && strcmp(end, "bit/s"))
        return FP_ERR;
    if (!isfinite(v) || v <= 0)
        return FP_ERR;
    *bps = v;
    return FP_OK;
}
