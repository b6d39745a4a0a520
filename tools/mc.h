/* SPDX-License-Identifier: MIT */
/* mc.h - what `petw mc`'s files share (cmd_mc.c: the command, the symbols
 * and maps, each provider's code; mc_template.c: each event template's
 * McTemplate function; mc_common.c: the text every generated header
 * starts with). */
#ifndef PETW_TOOLS_MC_H
#define PETW_TOOLS_MC_H

#include <stdint.h>
#include <stdio.h>

#include <petw/manifest.h>

#define MC_MAX_FIELDS 128 /* top-level fields of one template (EventWrite's descriptor limit) */
#define MC_MAX_ALL_FIELDS 4096 /* fields of one template, struct members included */

typedef struct mc_gen {
    const petw_manifest *m;
    const char *manifest_name;
    const char *prefix; /* "EventWrite" unless -p */
    FILE *out;
    char error[512];
    /* McTemplate functions already written (their names encode their
     * signature). */
    char **templates;
    size_t template_count, template_cap;
    /* Symbols made here (map entries'), freed with the generator. */
    char **made;
    size_t made_count, made_cap;
} mc_gen;

/* An event template: its top-level fields, its McTemplate function's name
 * and the EventWrite macro's parameters. */
typedef struct tmpl {
    uint32_t n; /* top-level fields */
    petw_manifest_field f[MC_MAX_FIELDS];
    uint32_t arg[MC_MAX_ALL_FIELDS]; /* event field index -> argument index */
    char name[64 + 24 * MC_MAX_FIELDS];
    char args[160 * MC_MAX_FIELDS]; /* the EventWrite macro's parameters */
} tmpl;

/* Sets g->error to "MANIFEST:LINE: " and fmt with a and b; returns -1. */
int mc_fail(mc_gen *g, uint32_t line, const char *fmt, const char *a, const char *b);

/* The guarded part every generated header shares (McGen* helpers, the
 * context type, McTemplateU0). */
extern const char mc_common_text[];

/* Checks event `e`'s template and names its McTemplate function. */
int mc_check_template(mc_gen *g, uint32_t p, uint32_t e, const petw_manifest_event *ev, tmpl *t);
/* Whether t's McTemplate function is written already (and notes it if not);
 * -1 when out of memory. */
int mc_template_written(mc_gen *g, const char *name);
/* Writes t's McTemplate function. */
void mc_write_template(mc_gen *g, const tmpl *t);
/* Whether argument `f` comes after a ULONG `_Len_` argument. */
int mc_has_len_arg(const petw_manifest_field *f);

#endif
