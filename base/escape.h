/* Writing text that came from outside (environment, labels, host names) so that it can never
 * break the line or the format it lands in, whatever its bytes. */
#ifndef FP_ESCAPE_H
#define FP_ESCAPE_H

#include <stdio.h>

/* Text output: valid UTF-8 passes through; a backslash becomes \\, C0/C1 controls, DEL and the
 * Unicode line and paragraph separators \n \r \t or \xHH / \uHHHH, and a byte that is not part
 * of valid UTF-8 \xHH. The result is one line and the original can be read back from it. */
void fp_text_string(FILE *out, const char *s);

/* JSON: a string literal, quotes included. Controls and the line separators are \u-escaped;
 * a byte that is not part of valid UTF-8 becomes U+FFFD (the Unicode replacement character),
 * so that every JSON decoder accepts the line. */
void fp_json_string(FILE *out, const char *s);

/* fp_json_string, or null where s is NULL or empty. */
void fp_json_string_or_null(FILE *out, const char *s);
/* A finite number (%.9g), or null: JSON has no NaN or infinity. */
void fp_json_number_or_null(FILE *out, double x);

/* Appends printf-style text to the NUL-terminated buf of len bytes, truncating; a full buffer
 * stays as it is. */
void fp_append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* CSV: the text escaping above, then quoted (RFC 4180, "" for ") when it holds a comma, a quote,
 * or leading or trailing blanks. A field never spans lines. */
void fp_csv_field(FILE *out, const char *s);

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when the bytes there are not one
 * (overlong forms, surrogates and code points above U+10FFFF are not valid). */
int fp_utf8_length(const unsigned char *s);

/* Help text: `text` from column `column` on (a space first), in lines of at most 80 columns,
 * continuation lines indented to `indent`; ends the line. '\a' is a space that never breaks. */
void fp_text_wrapped(FILE *out, const char *text, int column, int indent);

/* Formats a message into err (printf-style) on one line, control characters as '?' (messages quote
 * user input), and returns FP_ERR (-1): the parsers' one-line errors. */
int fp_fail_text(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* pattern with %r replaced by rank and %h by host (per-rank paths: --sysfs-root); 0, or -1 when the
 * result does not fit in len. */
int fp_expand_rank_host(const char *pattern, int rank, const char *host, char *out, size_t len);

#endif
