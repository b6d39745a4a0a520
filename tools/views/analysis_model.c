/* SPDX-License-Identifier: MIT */
/* analysis_model.c - reading traces into a model with the user's filters
 * and symbol options, and walking its stacks as text frames: what every
 * view and export starts from. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../tool.h"
#include "analysis_tool.h"

const char model_options_help[] =
    "  --pid PID              samples and switches of this process alone\n"
    "  --tid TID              of this thread alone\n"
    "  --process NAME         of the processes of this name alone\n"
    "  --start TIME, --end TIME  a time range (ISO-8601 UTC or FILETIME)\n"
    "  --symbols DIR          also look for symbol files in DIR (repeatable): by\n"
    "                         build-id (DIR/.build-id/xx/rest.debug) and by name;\n"
    "                         Windows images' PDBs by GUID and age (DIR/NAME.pdb,\n"
    "                         DIR/NAME.pdb/GUIDAGE/NAME.pdb), else their export\n"
    "                         tables by time stamp and size (DIR/NAME.dll,\n"
    "                         DIR/NAME.dll/STAMPSIZE/NAME.dll)\n"
    "  --no-symbols           no symbolization: frames as module+0xOFFSET\n"
    "  --no-inline            no inlined frames\n"
    "  --manifest PATH        names the events of the providers a manifest describes\n"
    "                         (also PETW_MANIFEST_PATH)\n"
    "Symbols come from the recorded paths when their build-id matches, then\n"
    "/usr/lib/debug, then --symbols; debuginfod only when DEBUGINFOD_URLS is set.\n"
    "Windows symbols also come from _NT_SYMBOL_PATH: directories, cache*DIR, and\n"
    "srv*CACHE*URL, whose server is asked over HTTP(S) when nothing local has them.\n";

static int number(const char *text, uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(text, &end, 10);
    if (!*text || *end || v > UINT32_MAX)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

int model_option(model_args *m, int argc, char **argv, int *i)
{
    const char *o = argv[*i];
    static const char *const with_value[] = {"--pid", "--tid",     "--process", "--start",
                                             "--end", "--symbols", "--manifest"};
    int takes = 0;
    for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++)
        takes |= !strcmp(o, with_value[k]);
    if (!takes) {
        if (!strcmp(o, "--no-symbols"))
            m->config.no_symbols = 1;
        else if (!strcmp(o, "--no-inline"))
            m->config.symbolizer.no_inline = 1;
        else
            return 0;
        return 1;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "petw: %s needs a value\n", o);
        return -1;
    }
    const char *v = argv[++*i];
    int rc = 0;
    if (!strcmp(o, "--pid"))
        rc = number(v, &m->config.pid);
    else if (!strcmp(o, "--tid"))
        rc = number(v, &m->config.tid);
    else if (!strcmp(o, "--process"))
        m->config.process_name = v;
    else if (!strcmp(o, "--start"))
        rc = parse_time(v, &m->config.start_time);
    else if (!strcmp(o, "--end"))
        rc = parse_time(v, &m->config.end_time);
    else if (!strcmp(o, "--manifest"))
        rc = manifest_add(&m->manifests, v);
    else if (m->config.symbolizer.dir_count < MAX_SYMBOL_DIRS)
        m->symbol_dirs[m->config.symbolizer.dir_count++] = v;
    else
        rc = -1;
    if (rc)
        fprintf(stderr, "petw: bad value for %s: '%s'\n", o, v);
    return rc ? -1 : 1;
}

petw_profile *model_read(model_args *m)
{
    m->config.symbolizer.dirs = m->symbol_dirs;
    petw_decoder *d = decoder_create(&m->manifests); /* reports its own errors */
    if (!d)
        return NULL;
    m->config.decoder = d;
    petw_profile *p = NULL;
    int rc = petw_profile_read((const char *const *)m->files, (uint32_t)m->nfiles, &m->config, &p);
    m->config.decoder = NULL;
    petw_decoder_free(d);
    if (rc) {
        fprintf(stderr, "petw: cannot read %s%s: %s\n", m->files[0], m->nfiles > 1 ? "..." : "",
                petw_strerror(rc));
        return NULL;
    }
    return p;
}

void stack_walk_root_first(const petw_profile *p, const petw_profile_stack *s, int no_inline,
                           frame_fn fn, void *ctx)
{
    for (uint32_t k = s->frame_count; k-- > 0;) {
        const petw_profile_location *l = petw_profile_location_at(p, s->frames[k]);
        if (!l->line_count) {
            fn(ctx, l, l->name, NULL);
            continue;
        }
        uint32_t from = no_inline ? l->line_count - 1 : 0;
        for (uint32_t j = l->line_count; j-- > from;)
            fn(ctx, l, l->lines[j].function, &l->lines[j]);
    }
}

static int frame_add(stack_frames *sf, const petw_profile_location *l, const char *name,
                     const petw_source_line *line)
{
    if (sf->count == sf->cap) {
        uint32_t cap = sf->cap ? 2 * sf->cap : 64;
        stack_frame *f = realloc(sf->frames, cap * sizeof(*f));
        if (!f) {
            sf->failed = 1;
            return -1;
        }
        sf->frames = f;
        sf->cap = cap;
    }
    sf->frames[sf->count++] = (stack_frame){name, l->module, l, line};
    return 0;
}

/* "module (no symbols)" for `module` (an interned string of the model:
 * one name per module pointer, kept until stack_frames_free). */
static const char *no_symbols_name(stack_frames *sf, const char *module)
{
    for (uint32_t k = 0; k < sf->nnames; k++)
        if (sf->names[k].module == module)
            return sf->names[k].name;
    if (sf->nnames == sf->names_cap) {
        uint32_t cap = sf->names_cap ? 2 * sf->names_cap : 16;
        void *n = realloc(sf->names, cap * sizeof(*sf->names));
        if (!n)
            return NULL;
        sf->names = n;
        sf->names_cap = cap;
    }
    size_t len = strlen(module) + sizeof(" (no symbols)");
    char *name = malloc(len);
    if (!name)
        return NULL;
    snprintf(name, len, "%s (no symbols)", module);
    sf->names[sf->nnames].module = module;
    sf->names[sf->nnames++].name = name;
    return name;
}

uint32_t stack_frames_get(stack_frames *sf, const petw_profile *p, const petw_profile_stack *s,
                          int addresses)
{
    sf->count = 0;
    for (uint32_t k = 0; k < s->frame_count; k++) {
        const petw_profile_location *l = petw_profile_location_at(p, s->frames[k]);
        for (uint32_t j = 0; j < l->line_count; j++)
            if (frame_add(sf, l, l->lines[j].function, &l->lines[j]))
                return sf->count;
        if (l->line_count)
            continue;
        const char *name = addresses ? l->name : no_symbols_name(sf, l->module);
        if (!name) {
            sf->failed = 1;
            name = l->name;
        }
        if (!addresses && sf->count && sf->frames[sf->count - 1].name == name)
            continue; /* a run of frames without symbols in one module: one frame */
        if (frame_add(sf, l, name, NULL))
            return sf->count;
    }
    return sf->count;
}

void stack_frames_free(stack_frames *sf)
{
    for (uint32_t k = 0; k < sf->nnames; k++)
        free(sf->names[k].name);
    free(sf->names);
    free(sf->frames);
    memset(sf, 0, sizeof(*sf));
}

const char *process_label(const petw_profile *p, uint32_t pid, char *buf, size_t size)
{
    const petw_profile_process *pr = petw_profile_process_find(p, pid);
    if (pr && pr->name[0])
        return pr->name;
    snprintf(buf, size, "pid %" PRIu32, pid);
    return buf;
}

int view_wants_pid(const petw_profile *p, const view_args *a, uint32_t pid)
{
    if (a->pid && pid != a->pid)
        return 0;
    if (a->process) {
        const petw_profile_process *pr = petw_profile_process_find(p, pid);
        if (!pr || strcmp(pr->name, a->process) != 0)
            return 0;
    }
    return 1;
}

void view_time(const petw_profile *p, const view_args *a, int64_t t, sbuf *out)
{
    if (t) {
        if (a->absolute) {
            sbuf_time(out, t);
        } else {
            int64_t first, last;
            petw_profile_bounds(p, &first, &last);
            char v[32];
            snprintf(v, sizeof(v), "%.6f", (double)(t - first) / 1e7);
            sbuf_puts(out, v);
        }
    }
    sbuf_putc(out, 0);
}

int export_value_parse(const char *name, int *value)
{
    static const char *const names[] = {"samples", "offcpu", "both"};
    for (int k = 0; k < 3; k++)
        if (!strcmp(name, names[k])) {
            *value = k;
            return 0;
        }
    return -1;
}
