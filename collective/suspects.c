/* --suspects LIST: parsing and matching (suspects.h). */
#include "suspects.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORD_MAX 256

/* The next word of list from *pos into word; 0 at the end. An empty word is returned as "". */
static int next_word(const char *list, size_t *pos, char *word)
{
    if (list[*pos] == '\0')
        return 0;
    size_t len = strcspn(list + *pos, ",");
    size_t kept = len < WORD_MAX - 1 ? len : WORD_MAX - 1;
    memcpy(word, list + *pos, kept);
    word[kept] = '\0';
    *pos += len + (list[*pos + len] == ',');
    return 1;
}

static int is_rank(const char *word)
{
    if (!*word)
        return 0;
    for (const char *c = word; *c; c++)
        if (!isdigit((unsigned char)*c))
            return 0;
    return 1;
}

static int host_char(int c)
{
    return isalnum(c) || c == '-' || c == '.' || c == '_';
}

int fp_suspects_check(const char *list, int nranks, char *err, size_t errlen)
{
    char word[WORD_MAX];
    size_t pos = 0;
    int words = 0;
    const char *accepted = "accepted: rank numbers and host names of this job, comma-separated";
    if (!list[0] || list[strlen(list) - 1] == ',') {
        snprintf(err, errlen, "--suspects: '%s' has an empty word (%s)", list, accepted);
        return -1;
    }
    while (next_word(list, &pos, word)) {
        words++;
        if (!word[0] || strlen(word) >= WORD_MAX - 1) {
            snprintf(err, errlen, "--suspects: '%s' has an empty or too long word (%s)", list, accepted);
            return -1;
        }
        if (is_rank(word)) {
            char *end;
            long r = strtol(word, &end, 10);
            if (r >= nranks || strlen(word) > 9) {
                snprintf(err, errlen, "--suspects: rank %s is out of range (accepted: 0 to %d, the ranks of this job)",
                         word, nranks - 1);
                return -1;
            }
            continue;
        }
        for (const char *c = word; *c; c++)
            if (!host_char((unsigned char)*c)) {
                snprintf(err, errlen, "--suspects: '%s' is neither a rank number nor a host name (%s)", word,
                         accepted);
                return -1;
            }
    }
    if (words > FP_SUSPECTS_MAX) {
        snprintf(err, errlen, "--suspects: %d words (accepted: at most %d)", words, FP_SUSPECTS_MAX);
        return -1;
    }
    if (words == 0) {
        snprintf(err, errlen, "--suspects: no word in '%s' (%s)", list, accepted);
        return -1;
    }
    return 0;
}

int fp_suspects_hosts_found(const char *list, const char *host, int *found, int max)
{
    char word[WORD_MAX];
    size_t pos = 0;
    int i = 0;
    while (i < max && next_word(list, &pos, word)) {
        found[i] = is_rank(word) || strcmp(word, host) == 0;
        i++;
    }
    return i;
}

int fp_suspects_word(const char *list, int i, char *word, size_t wordlen)
{
    char w[WORD_MAX];
    size_t pos = 0;
    for (int k = 0; next_word(list, &pos, w); k++)
        if (k == i) {
            snprintf(word, wordlen, "%s", w);
            return 0;
        }
    return -1;
}

int fp_suspects_mark(const char *list, int nranks, const char *const *host, char *suspect)
{
    char word[WORD_MAX];
    size_t pos = 0;
    int count = 0;
    memset(suspect, 0, (size_t)nranks);
    while (next_word(list, &pos, word))
        for (int r = 0; r < nranks; r++)
            if (is_rank(word) ? atoi(word) == r : strcmp(word, host[r]) == 0)
                suspect[r] = 1;
    for (int r = 0; r < nranks; r++)
        count += suspect[r];
    return count;
}
