#include "escape.h"

#include "error.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
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

/* The escapes text and JSON share: backslash and the common control characters. */
static const char *short_escape(unsigned cp)
{
    switch (cp) {
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: return NULL;
    }
}

/* One character of text. len 0: a byte that is not UTF-8. MODE_QUOTED_CSV: inside a quoted
 * CSV field, where a quote is written twice; MODE_JSON: JSON string escapes. */
enum { MODE_TEXT = 0, MODE_QUOTED_CSV = 1, MODE_JSON = 2 };

static void escaped_char(FILE *out, const unsigned char *p, int len, int mode)
{
    if (len == 0) {
        if (mode == MODE_JSON)
            fputs("\\ufffd", out);
        else
            fprintf(out, "\\x%02x", *p);
        return;
    }
    unsigned cp = code_point(p, len);
    const char *esc = short_escape(cp);
    if (esc)
        fputs(esc, out);
    else if (cp == '"' && mode == MODE_JSON)
        fputs("\\\"", out);
    else if (cp == '"' && mode == MODE_QUOTED_CSV)
        fputs("\"\"", out);
    else if (mode != MODE_JSON && cp < 0x80 && is_line_hazard(cp))
        fprintf(out, "\\x%02x", cp);
    else if (is_line_hazard(cp))
        fprintf(out, "\\u%04x", cp);
    else
        fwrite(p, 1, (size_t)len, out);
}

static void escaped(FILE *out, const char *s, int mode)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int len = fp_utf8_length(p);
        escaped_char(out, p, len, mode);
        p += len ? len : 1;
    }
}

void fp_text_string(FILE *out, const char *s)
{
    escaped(out, s, MODE_TEXT);
}

void fp_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    escaped(out, s, MODE_JSON);
    fputc('"', out);
}

void fp_json_string_or_null(FILE *out, const char *s)
{
    if (s && s[0])
        fp_json_string(out, s);
    else
        fputs("null", out);
}

void fp_json_number_or_null(FILE *out, double x)
{
    if (isfinite(x))
        fprintf(out, "%.9g", x);
    else
        fputs("null", out);
}

void fp_append(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

void fp_csv_field(FILE *out, const char *s)
{
    size_t n = strlen(s);
    int quoted = strpbrk(s, ",\"") != NULL || (n && (s[0] == ' ' || s[n - 1] == ' '));
    if (quoted)
        fputc('"', out);
    escaped(out, s, quoted ? MODE_QUOTED_CSV : MODE_TEXT);
    if (quoted)
        fputc('"', out);
}

/* Prints `text` from the current column `column` on (a space first), in lines of at most 80
 * columns: a word that would pass column 80 starts a new line indented to `indent`. '\a' is a
 * space that never breaks ("[default:\aauto]" stays together). */
void fp_text_wrapped(FILE *out, const char *text, int column, int indent)
{
    int fresh = 0; /* at the start of a continuation line: no space before the word */
    while (*text) {
        while (*text == ' ')
            text++;
        size_t word = strcspn(text, " ");
        if (!word)
            break;
        if (!fresh && column + 1 + (int)word > 80 && column > indent) {
            fprintf(out, "\n%*s", indent, "");
            column = indent;
            fresh = 1;
        }
        if (!fresh) {
            fputc(' ', out);
            column++;
        }
        for (size_t k = 0; k < word; k++)
            fputc(text[k] == '\a' ? ' ' : text[k], out);
        column += (int)word;
        text += word;
        fresh = 0;
    }
    fputc('\n', out);
}

int fp_fail_text(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    for (char *p = err; errlen && *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    return FP_ERR;
}

int fp_expand_rank_host(const char *pattern, int rank, const char *host, char *out, size_t len)
{
    size_t used = 0;
    for (const char *p = pattern; *p; p++) {
        char piece[300];
        if (p[0] == '%' && p[1] == 'r')
            snprintf(piece, sizeof piece, "%d", rank), p++;
        else if (p[0] == '%' && p[1] == 'h')
            snprintf(piece, sizeof piece, "%s", host), p++;
        else
            snprintf(piece, sizeof piece, "%c", *p);
        size_t n = strlen(piece);
        if (used + n >= len)
            return -1;
        memcpy(out + used, piece, n + 1);
        used += n;
    }
    if (used == 0 && len)
        out[0] = '\0';
    return 0;
}
