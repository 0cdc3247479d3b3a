#include "escape.h"

#include <string.h>

int fp_utf8_length(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    int len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    for (int i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80) /* also stops at the terminating NUL */
            return 0;
    /* The second byte's range rules out overlong forms, surrogates and values above U+10FFFF. */
    if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) || (c == 0xf0 && s[1] < 0x90) ||
        (c == 0xf4 && s[1] > 0x8f))
        return 0;
    return len;
}

static unsigned code_point(const unsigned char *s, int len)
{
    static const unsigned lead_mask[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
    unsigned cp = s[0] & lead_mask[len];
    for (int i = 1; i < len; i++)
        cp = cp << 6 | (s[i] & 0x3f);
    return cp;
}

/* Characters that end or disturb a line somewhere: C0, DEL, C1 (NEL among them), U+2028/9. */
static int is_line_hazard(unsigned cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029;
}

/* quoted: inside a quoted CSV field, where a quote is written twice. */
static void text_char(FILE *out, const unsigned char *p, int len, int quoted)
{
    if (len == 0) {
        fprintf(out, "\\x%02x", *p);
        return;
    }
    unsigned cp = code_point(p, len);
    if (cp == '\\')
        fputs("\\\\", out);
    else if (cp == '"' && quoted)
        fputs("\"\"", out);
    else if (cp == '\n')
        fputs("\\n", out);
    else if (cp == '\r')
        fputs("\\r", out);
    else if (cp == '\t')
        fputs("\\t", out);
    else if (cp < 0x80 && is_line_hazard(cp))
        fprintf(out, "\\x%02x", cp);
    else if (is_line_hazard(cp))
        fprintf(out, "\\u%04x", cp);
    else
        fwrite(p, 1, (size_t)len, out);
}

static void text_escaped(FILE *out, const char *s, int quoted)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int len = fp_utf8_length(p);
        text_char(out, p, len, quoted);
        p += len ? len : 1;
    }
}

void fp_text_string(FILE *out, const char *s)
{
    text_escaped(out, s, 0);
}

static void json_char(FILE *out, const unsigned char *p, int len)
{
    if (len == 0) {
        fputs("\\ufffd", out);
        return;
    }
    unsigned cp = code_point(p, len);
    if (cp == '"')
        fputs("\\\"", out);
    else if (cp == '\\')
        fputs("\\\\", out);
    else if (cp == '\n')
        fputs("\\n", out);
    else if (cp == '\r')
        fputs("\\r", out);
    else if (cp == '\t')
        fputs("\\t", out);
    else if (is_line_hazard(cp))
        fprintf(out, "\\u%04x", cp);
    else
        fwrite(p, 1, (size_t)len, out);
}

void fp_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int len = fp_utf8_length(p);
        json_char(out, p, len);
        p += len ? len : 1;
    }
    fputc('"', out);
}

void fp_csv_field(FILE *out, const char *s)
{
    size_t n = strlen(s);
    int quoted = strpbrk(s, ",\"") != NULL || (n && (s[0] == ' ' || s[n - 1] == ' '));
    if (quoted)
        fputc('"', out);
    text_escaped(out, s, quoted);
    if (quoted)
        fputc('"', out);
}
