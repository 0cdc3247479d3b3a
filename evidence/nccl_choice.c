/* NCCL's choice per call, counted (nccl_choice.h). */
#include "nccl_choice.h"

#include <stdio.h>
#include <string.h>

void fp_nccl_choices_clear(fp_nccl_choices_t *c)
{
    memset(c, 0, sizeof *c);
}

static const char *named(const char *s)
{
    return s && s[0] ? s : "?";
}

void fp_nccl_choices_add(fp_nccl_choices_t *c, const char *func, const char *algo, const char *proto, int channels)
{
    func = named(func);
    algo = named(algo);
    proto = named(proto);
    c->calls++;
    for (int i = 0; i < c->nkinds; i++) {
        fp_nccl_choice_t *k = &c->kind[i];
        if (k->channels == channels && strcmp(k->func, func) == 0 && strcmp(k->algo, algo) == 0 &&
            strcmp(k->proto, proto) == 0) {
            k->calls++;
            return;
        }
    }
    if (c->nkinds == FP_NCCL_CHOICE_KINDS) {
        c->others++;
        return;
    }
    fp_nccl_choice_t *k = &c->kind[c->nkinds++];
    snprintf(k->func, sizeof k->func, "%s", func);
    snprintf(k->algo, sizeof k->algo, "%s", algo);
    snprintf(k->proto, sizeof k->proto, "%s", proto);
    k->channels = channels;
    k->calls = 1;
}

const fp_nccl_choice_t *fp_nccl_choices_main(const fp_nccl_choices_t *c)
{
    const fp_nccl_choice_t *best = NULL;
    for (int i = 0; i < c->nkinds; i++)
        if (!best || c->kind[i].calls > best->calls)
            best = &c->kind[i];
    return best;
}

void fp_nccl_choices_text(const fp_nccl_choices_t *c, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < c->nkinds && used < len; i++) {
        const fp_nccl_choice_t *k = &c->kind[i];
        int n = snprintf(out + used, len - used, "%s%s: %s %s, %d channel%s (%ld call%s)", i ? "; " : "", k->func,
                         k->algo, k->proto, k->channels, k->channels == 1 ? "" : "s", k->calls,
                         k->calls == 1 ? "" : "s");
        used += n > 0 ? (size_t)n : 0;
    }
    if (c->others && used < len)
        snprintf(out + used, len - used, "; %ld call%s not listed", c->others, c->others == 1 ? "" : "s");
}
