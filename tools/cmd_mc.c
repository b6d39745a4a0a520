/* SPDX-License-Identifier: MIT */
/* cmd_mc.c - `petw mc`: the header mc.exe -um writes for a manifest-based
 * provider (EventRegister<Provider>, EventWrite<Event>, EventEnabled<Event>,
 * the McGen* helpers and McTemplate* functions, the EVENT_DESCRIPTORs, the
 * symbols' #defines and the maps' enums), as C and C++ that compile
 * against petw's ETW headers. The manifest is read by libpetw's parser
 * (petw/manifest.h).
 *
 * Text on the wire is what Windows writes: win:UnicodeString fields are
 * UTF-16LE. Where wchar_t is 32-bit the McTemplate functions convert each
 * string into a stack buffer of MCGEN_PETW_MAX_STRING UTF-16 units (2048
 * unless defined before the header): a NUL-terminated string is cut, at a
 * character boundary, to fit with its NUL; a string whose length the
 * manifest gives (length="N" or length="Field") longer than the buffer is
 * refused (ERROR_INVALID_PARAMETER, nothing written), since the length is
 * part of the event. No heap allocation happens on the write path.
 *
 * Structs and arrays of strings take the parameters mc.exe gives them: a
 * struct (or array of structs) is one blob the caller packs, after a
 * ULONG `<name>_Len_` holding one struct's size in bytes; an array of
 * NUL-terminated strings is one blob of the strings packed one after the
 * other, after a ULONG `<name>_Len_` holding its size in characters (the
 * NULs included); an array of strings with a length is count * length
 * characters, with no extra parameter. Where wchar_t is 32-bit such a blob
 * is converted to UTF-16 on the stack as a single string is, and refused
 * (ERROR_INVALID_PARAMETER) when it needs more than MCGEN_PETW_MAX_STRING
 * units: each of its strings is part of the event.
 *
 * What the generator cannot write correctly it refuses, naming the line:
 * the counted string and binary types, arrays of SIDs, binary without a
 * length, and a length or count naming a non-integer or a struct member. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <petw/manifest.h>

#include "tool.h"
#include "mc.h"

static int is_ident(const char *s)
{
    if (!s || !*s || (*s >= '0' && *s <= '9'))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return 0;
    return 1;
}

/* mc's name for a provider in macro names: its name, every character that
 * cannot be in an identifier replaced by '_'. */
static void var_name(const char *name, char *out, size_t size)
{
    size_t n = 0;
    if (*name >= '0' && *name <= '9' && n + 1 < size)
        out[n++] = '_';
    for (; *name && n + 1 < size; name++) {
        char c = *name;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        out[n++] = ok ? c : '_';
    }
    out[n] = 0;
}

/* The item kinds that define symbols: PETW_MANIFEST_TASK to _CHANNEL. */
#define MC_SYMBOL_KINDS (PETW_MANIFEST_CHANNEL + 1)

static const char *kind_name(uint32_t kind)
{
    static const char *const names[MC_SYMBOL_KINDS] = {
        [PETW_MANIFEST_TASK] = "Task",       [PETW_MANIFEST_OPCODE] = "Opcode",
        [PETW_MANIFEST_LEVEL] = "Level",     [PETW_MANIFEST_KEYWORD] = "Keyword",
        [PETW_MANIFEST_CHANNEL] = "Channel",
    };
    return kind < MC_SYMBOL_KINDS ? names[kind] : "";
}

/* Every symbol the header defines, checked once: a C identifier, unique. */
/* The C symbols the header defines so far (copies: callers' buffers are
 * reused from provider to provider). */
typedef struct symbols {
    char **s;
    uint32_t *line;
    size_t n, cap;
} symbols;

static int add_symbol(mc_gen *g, symbols *s, const char *sym, uint32_t line)
{
    if (!is_ident(sym))
        return mc_fail(g, line, "symbol \"%s\" is not a C identifier", sym, NULL);
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->s[i], sym))
            return mc_fail(g, line, "symbol \"%s\" is defined twice", sym, NULL);
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        char **ns = realloc(s->s, cap * sizeof(*ns));
        if (!ns)
            return mc_fail(g, line, "out of memory", NULL, NULL);
        s->s = ns;
        s->cap = cap;
    }
    if (!(s->s[s->n] = strdup(sym)))
        return mc_fail(g, line, "out of memory", NULL, NULL);
    s->n++;
    return 0;
}

/* The bitMaps (bitmap 1) or valueMaps with a symbol, as mc writes them: an
 * enum named by the map's symbol, an enumerator per entry with a symbol,
 * named by the map's symbol and the entry's. */
static int write_maps(mc_gen *g, uint32_t p, const petw_manifest_provider *pv, symbols *syms,
                      int bitmap)
{
    FILE *o = g->out;
    for (uint32_t i = 0; i < pv->item_count; i++) {
        petw_manifest_item map;
        petw_manifest_get_item(g->m, p, i, &map);
        if (map.kind != PETW_MANIFEST_MAP || map.value != (uint64_t)bitmap || !map.symbol ||
            i + 1 >= pv->item_count)
            continue;
        petw_manifest_item it;
        petw_manifest_get_item(g->m, p, i + 1, &it);
        if (it.kind != PETW_MANIFEST_MAP_ENTRY)
            continue; /* no entries: no enum, as mc */
        if (add_symbol(g, syms, map.symbol, map.line))
            return -1;
        fprintf(o, "#ifndef _%s_def\n#define _%s_def\ntypedef enum _%s {\n", map.symbol, map.symbol,
                map.symbol);
        for (uint32_t k = i + 1; k < pv->item_count; k++) {
            petw_manifest_get_item(g->m, p, k, &it);
            if (it.kind != PETW_MANIFEST_MAP_ENTRY)
                break;
            if (!it.symbol)
                continue;
            char *name = malloc(strlen(map.symbol) + strlen(it.symbol) + 1);
            char **grown = g->made;
            if (name && g->made_count == g->made_cap) {
                g->made_cap = g->made_cap ? 2 * g->made_cap : 16;
                grown = realloc(g->made, g->made_cap * sizeof(*grown));
            }
            if (!name || !grown) {
                free(name);
                return mc_fail(g, it.line, "out of memory", NULL, NULL);
            }
            g->made = grown;
            g->made[g->made_count++] = name;
            strcpy(name, map.symbol);
            strcat(name, it.symbol);
            if (add_symbol(g, syms, name, it.line))
                return -1;
            fprintf(o, "    %s = %d,\n", name, (int)(uint32_t)it.value);
        }
        fprintf(o, "} %s;\n#endif\n\n", map.symbol);
    }
    return 0;
}

/* The EventWrite macro's parameters for template t, into t->args: each
 * field's name, or ArgN where it is not a usable identifier. */
static const char *event_args(tmpl *t, const char *esym, const char *psym)
{
    char *args = t->args;
    size_t used = 0;
    args[0] = 0;
    for (uint32_t k = 0; k < t->n; k++) {
        /* Parameter names: the field's name when it is an identifier
         * that names nothing the macro's body uses. */
        const char *nm = t->f[k].name;
        int ok = is_ident(nm) && strlen(nm) < 64 && strcmp(nm, esym) != 0 &&
                 strcmp(nm, psym) != 0 && strcmp(nm, t->name) != 0 &&
                 strcmp(nm, "MCGEN_EVENT_ENABLED") != 0;
        for (uint32_t j = 0; ok && j < k; j++)
            ok = strcmp(t->f[j].name, nm) != 0;
        /* A struct's or string array's size comes first, named as mc.exe
         * names it: the field's name and "_Len_". */
        size_t nl = strlen(nm);
        for (uint32_t j = 0; ok && mc_has_len_arg(&t->f[k]) && j < t->n; j++)
            ok = !(strlen(t->f[j].name) == nl + 5 && !strncmp(t->f[j].name, nm, nl) &&
                   !strcmp(t->f[j].name + nl, "_Len_"));
        size_t room = sizeof(t->args) - used;
        if (ok && mc_has_len_arg(&t->f[k]))
            used += (size_t)snprintf(args + used, room, "%s%s_Len_, %s", k ? ", " : "", nm, nm);
        else if (ok)
            used += (size_t)snprintf(args + used, room, "%s%s", k ? ", " : "", nm);
        else if (mc_has_len_arg(&t->f[k]))
            used += (size_t)snprintf(args + used, room, "%sArg%u_Len_, Arg%u", k ? ", " : "", k, k);
        else
            used += (size_t)snprintf(args + used, room, "%sArg%u", k ? ", " : "", k);
    }
    return args;
}

/* The symbols of the provider's tasks, opcodes, levels, keywords and
 * channels, as #defines. */
static int write_symbols(mc_gen *g, uint32_t p, const petw_manifest_provider *pv, symbols *syms)
{
    FILE *o = g->out;
    for (uint32_t kind = 0; kind < MC_SYMBOL_KINDS; kind++) {
        int any = 0;
        for (uint32_t i = 0; i < pv->item_count; i++) {
            petw_manifest_item it;
            petw_manifest_get_item(g->m, p, i, &it);
            if (it.kind != kind || !it.symbol)
                continue;
            if (!it.valid)
                return mc_fail(g, it.line, "%s \"%s\": its value is not a number in range",
                               kind_name(kind), it.name);
            if (add_symbol(g, syms, it.symbol, it.line))
                return -1;
            if (!any)
                fprintf(o, "/* %ss */\n", kind_name(kind));
            any = 1;
            fprintf(o, "#define %s 0x%llx\n", it.symbol, (unsigned long long)it.value);
        }
        if (any)
            fprintf(o, "\n");
    }
    return 0;
}

/* A provider's events as the header names them: each event's symbol and
 * enable bit, one bit per distinct level and keywords, as mc numbers them. */
typedef struct event_table {
    uint32_t bits;
    uint32_t *bit_of;
    uint8_t *levels;
    uint64_t *keywords;
    char (*esym)[256];
} event_table;

/* The event descriptors: each event's symbol (its own, or one made from the
 * provider's var name), numbered enable bits into et. */
static int write_descriptors(mc_gen *g, uint32_t p, const petw_manifest_provider *pv,
                             const char *var, symbols *syms, event_table *et)
{
    FILE *o = g->out;
    int rc;
    fprintf(o, "/* Event descriptors */\n");
    for (uint32_t e = 0; e < pv->event_count; e++) {
        petw_manifest_event ev;
        petw_manifest_get_event(g->m, p, e, &ev);
        char *esym = et->esym[e];
        if (ev.symbol)
            snprintf(esym, sizeof(et->esym[e]), "%s", ev.symbol);
        else if (ev.version)
            snprintf(esym, sizeof(et->esym[e]), "%s_Event%u_V%u", var, ev.id, ev.version);
        else
            snprintf(esym, sizeof(et->esym[e]), "%s_Event%u", var, ev.id);
        if ((rc = add_symbol(g, syms, esym, ev.line)) != 0)
            return rc;
        uint32_t b = 0;
        while (b < et->bits && !(et->levels[b] == ev.level && et->keywords[b] == ev.keywords))
            b++;
        if (b == et->bits) {
            et->levels[et->bits] = ev.level;
            et->keywords[et->bits++] = ev.keywords;
        }
        et->bit_of[e] = b;
        fprintf(o,
                "MCGEN_PETW_EXTERN __declspec(selectany) const EVENT_DESCRIPTOR %s = {0x%x, 0x%x, "
                "0x%x, 0x%x, 0x%x, 0x%x, 0x%llx};\n#define %s_value 0x%x\n",
                esym, ev.id, ev.version, ev.channel, ev.level, ev.opcode, ev.task,
                (unsigned long long)ev.keywords, esym, ev.id);
    }
    return 0;
}

/* The enable bits, keywords and levels, the trace context and the
 * EventRegister/EventUnregister macros. */
static void write_context(mc_gen *g, const char *var, const char *psym, const event_table *et)
{
    FILE *o = g->out;
    uint32_t bits = et->bits;
    uint32_t words = bits ? (bits + 31) / 32 : 1;
    fprintf(o, "__declspec(selectany) ULONG %sEnableBits[%u] = {0};\n", var, words);
    fprintf(o, "MCGEN_PETW_EXTERN __declspec(selectany) const ULONGLONG %sKeywords[%u] = {", var,
            bits ? bits : 1);
    for (uint32_t b = 0; b < (bits ? bits : 1); b++)
        fprintf(o, "%s0x%llx", b ? ", " : "", (unsigned long long)(bits ? et->keywords[b] : 0));
    fprintf(o, "};\nMCGEN_PETW_EXTERN __declspec(selectany) const unsigned char %sLevels[%u] = {",
            var, bits ? bits : 1);
    for (uint32_t b = 0; b < (bits ? bits : 1); b++)
        fprintf(o, "%s%u", b ? ", " : "", bits ? et->levels[b] : 0);
    fprintf(o,
            "};\n"
            "__declspec(selectany) MCGEN_TRACE_CONTEXT %s_Context = {0, "
            "(ULONG_PTR)%s_Traits, 0, 0, 0, 0, 0, 0, %u, %sEnableBits, %sKeywords, %sLevels};\n\n",
            psym, psym, bits, var, var, var);
    fprintf(o, "#define %sHandle (%s_Context.RegistrationHandle)\n\n", var, psym);
    fprintf(o,
            "#ifndef EventRegister%s\n"
            "#define EventRegister%s()                                                          "
            "\\\n    McGenEventRegister(&%s, McGenControlCallbackV2, &%s_Context, &%sHandle)\n"
            "#endif\n"
            "#ifndef EventRegisterByGuid%s\n"
            "#define EventRegisterByGuid%s(Guid)                                                "
            "\\\n    McGenEventRegister(&(Guid), McGenControlCallbackV2, &%s_Context, &%sHandle)\n"
            "#endif\n"
            "#ifndef EventUnregister%s\n"
            "#define EventUnregister%s() McGenEventUnregister(&%sHandle)\n"
            "#endif\n\n",
            var, var, psym, psym, var, var, var, psym, var, var, var, var);
}

/* Each event's EventEnabled, EventWrite and _AssumeEnabled macros, and the
 * template function each first uses. */
static int write_event_macros(mc_gen *g, uint32_t p, const petw_manifest_provider *pv,
                              const char *var, const char *psym, const event_table *et, tmpl *t)
{
    FILE *o = g->out;
    int rc;
    for (uint32_t e = 0; e < pv->event_count; e++) {
        petw_manifest_event ev;
        petw_manifest_get_event(g->m, p, e, &ev);
        if ((rc = mc_check_template(g, p, e, &ev, t)) != 0)
            return rc;
        int w = mc_template_written(g, t->name);
        if (w < 0)
            return mc_fail(g, ev.line, "out of memory", NULL, NULL);
        if (w == 0 && t->n)
            mc_write_template(g, t);
        const char *args = event_args(t, et->esym[e], psym);
        const char *s = et->esym[e];
        fprintf(o, "/* Event %s (id %u, version %u) */\n", s, ev.id, ev.version);
        fprintf(o, "#define EventEnabled%s() _mcgen_EVENT_BIT_SET(%sEnableBits, %u)\n", s, var,
                et->bit_of[e]);
        fprintf(
            o,
            "#define %s%s(%s) \\\n    (MCGEN_EVENT_ENABLED(%s) ? %s(&%s_Context, &%s%s%s) : 0)\n",
            g->prefix, s, args, s, t->name, psym, s, t->n ? ", " : "", args);
        fprintf(o, "#define %s%s_AssumeEnabled(%s) (%s(&%s_Context, &%s%s%s))\n\n", g->prefix, s,
                args, t->name, psym, s, t->n ? ", " : "", args);
    }
    return 0;
}

static int generate_provider(mc_gen *g, uint32_t p, symbols *syms, tmpl *t)
{
    FILE *o = g->out;
    petw_manifest_provider pv;
    petw_manifest_get_provider(g->m, p, &pv);
    char var[256], psym[256];
    var_name(pv.name, var, sizeof(var));
    if (pv.symbol)
        snprintf(psym, sizeof(psym), "%s", pv.symbol);
    else
        snprintf(psym, sizeof(psym), "%s_Provider", var); /* mc requires one; a name of ours */
    if (add_symbol(g, syms, psym, pv.line))
        return -1;
    fprintf(o, "/* Provider \"%s\": %u events. */\n", pv.name, pv.event_count);
    const petw_guid *gd = &pv.guid;
    fprintf(o,
            "MCGEN_PETW_EXTERN __declspec(selectany) const GUID %s = {0x%08x, 0x%04x, 0x%04x, "
            "{0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x}};\n",
            psym, gd->data1, gd->data2, gd->data3, gd->data4[0], gd->data4[1], gd->data4[2],
            gd->data4[3], gd->data4[4], gd->data4[5], gd->data4[6], gd->data4[7]);
    fprintf(o, "#ifndef %s_Traits\n#define %s_Traits NULL\n#endif\n\n", psym, psym);
    if (write_symbols(g, p, &pv, syms))
        return -1;
    uint32_t n = pv.event_count ? pv.event_count : 1;
    event_table et = {0, calloc(n, sizeof(*et.bit_of)), calloc(n, 1),
                      calloc(n, sizeof(*et.keywords)), calloc(n, sizeof(*et.esym))};
    int rc = 0;
    if (!et.bit_of || !et.levels || !et.keywords || !et.esym)
        rc = mc_fail(g, pv.line, "out of memory", NULL, NULL);
    else
        rc = write_descriptors(g, p, &pv, var, syms, &et);
    if (rc == 0) {
        fprintf(o, "\n#ifndef MCGEN_DISABLE_PROVIDER_CODE_GENERATION\n");
        if ((rc = write_maps(g, p, &pv, syms, 1)) == 0)
            rc = write_maps(g, p, &pv, syms, 0);
    }
    if (rc == 0) {
        write_context(g, var, psym, &et);
        rc = write_event_macros(g, p, &pv, var, psym, &et, t);
    }
    if (rc == 0)
        fprintf(o, "#endif /* MCGEN_DISABLE_PROVIDER_CODE_GENERATION */\n\n");
    free(et.bit_of);
    free(et.levels);
    free(et.keywords);
    free(et.esym);
    return rc;
}

static int generate(mc_gen *g)
{
    FILE *o = g->out;
    const char *base = strrchr(g->manifest_name, '/');
    base = base ? base + 1 : g->manifest_name;
    fprintf(o,
            "/* Generated by petw mc from %s: the provider code mc.exe -um writes,\n"
            " * for petw's ETW headers. Do not edit: regenerate. */\n"
            "#pragma once\n\n",
            base);
    fputs(mc_common_text, o);
    fputs("\n", o);
    symbols syms;
    memset(&syms, 0, sizeof(syms));
    tmpl *t = malloc(sizeof(*t));
    int rc = t ? 0 : mc_fail(g, 0, "out of memory", NULL, NULL);
    for (uint32_t p = 0; rc == 0 && p < petw_manifest_provider_count(g->m); p++)
        rc = generate_provider(g, p, &syms, t);
    free(t);
    for (size_t i = 0; i < syms.n; i++)
        free(syms.s[i]);
    free(syms.s);
    fputs("#ifdef __cplusplus\n}\n#endif\n", o);
    return rc;
}

static int read_file(const char *path, char **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        if (cap >= (64u << 20)) {
            free(buf);
            buf = NULL;
            break;
        }
        char *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int err = ferror(f);
    fclose(f);
    if (!buf || err) {
        free(buf);
        return -1;
    }
    *data = buf;
    *size = n;
    return 0;
}

const char mc_usage[] =
    "usage: petw mc [-um] [-h DIR] [-r DIR] [-z BASENAME] [-e EXT] [-p PREFIX] MANIFEST.man\n"
    "Writes BASENAME.h (default: the manifest's name without .man) into the -h\n"
    "directory, and an empty BASENAME.rc into the -r directory (both default\n"
    "to the current one), as mc.exe -um does: the provider code for petw's ETW\n"
    "headers. -km (kernel mode) and -cs/-css (C#) are refused; -b -c -d -n -u\n"
    "-U -v -w -s and -x DIR, -W FILE, -m N are accepted and have no effect.\n";

/* What petw mc was asked: the manifest, where to write, the names. */
typedef struct mc_options {
    const char *hdir, *rdir, *base, *ext, *manifest, *prefix;
} mc_options;

/* Reads the command line into o; -1 to go on, else the exit status (0 for
 * --help, 2 for a usage error, said). */
static int mc_parse_options(int argc, char **argv, mc_options *o)
{
    *o = (mc_options){".", ".", NULL, ".h", NULL, "EventWrite"};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-?")) {
            fputs(mc_usage, stdout);
            return 0;
        } else if (!strcmp(a, "-km")) {
            fprintf(stderr, "petw mc: -km (kernel-mode code) is not supported: petw providers "
                            "run in user mode (use -um)\n");
            return 2;
        } else if (!strcmp(a, "-cs") || !strcmp(a, "-css")) {
            fprintf(stderr, "petw mc: %s (C# code) is not supported\n", a);
            return 2;
        } else if ((!strcmp(a, "-h") || !strcmp(a, "-r") || !strcmp(a, "-z") || !strcmp(a, "-e") ||
                    !strcmp(a, "-p") || !strcmp(a, "-x") || !strcmp(a, "-W") || !strcmp(a, "-m")) &&
                   has_value) {
            const char *v = argv[++i];
            if (a[1] == 'h')
                o->hdir = v;
            else if (a[1] == 'r')
                o->rdir = v;
            else if (a[1] == 'z')
                o->base = v;
            else if (a[1] == 'e')
                o->ext = v;
            else if (a[1] == 'p')
                o->prefix = v;
        } else if (!strcmp(a, "-um") || !strcmp(a, "-b") || !strcmp(a, "-c") || !strcmp(a, "-d") ||
                   !strcmp(a, "-n") || !strcmp(a, "-u") || !strcmp(a, "-U") || !strcmp(a, "-v") ||
                   !strcmp(a, "-w") || !strcmp(a, "-s")) {
            /* no effect here */
        } else if (a[0] == '-') {
            fprintf(stderr, "petw mc: unknown or incomplete option '%s'\n%s", a, mc_usage);
            return 2;
        } else if (o->manifest) {
            fprintf(stderr, "petw mc: one manifest only ('%s', '%s')\n", o->manifest, a);
            return 2;
        } else {
            o->manifest = a;
        }
    }
    if (!o->manifest) {
        fputs(mc_usage, stderr);
        return 2;
    }
    if (!is_ident(o->prefix)) {
        fprintf(stderr, "petw mc: -p '%s' is not a C identifier\n", o->prefix);
        return 2;
    }
    return -1;
}

/* Writes the header for m to hpath through a temporary file renamed into
 * place; the exit status (1 said). */
static int write_header(const mc_options *opt, petw_manifest *m, const char *hpath)
{
    char tmp[1100];
    snprintf(tmp, sizeof(tmp), "%s.tmp", hpath);
    mc_gen g;
    memset(&g, 0, sizeof(g));
    g.m = m;
    g.manifest_name = opt->manifest;
    g.prefix = opt->prefix;
    g.out = fopen(tmp, "w");
    if (!g.out) {
        fprintf(stderr, "petw mc: cannot write %s: %s\n", tmp, strerror(errno));
        return 1;
    }
    int rc = generate(&g);
    for (size_t i = 0; i < g.template_count; i++)
        free(g.templates[i]);
    free(g.templates);
    for (size_t i = 0; i < g.made_count; i++)
        free(g.made[i]);
    free(g.made);
    if (fclose(g.out) != 0 && rc == 0)
        rc = mc_fail(&g, 0, "cannot write the header", NULL, NULL);
    if (rc != 0) {
        remove(tmp);
        fprintf(stderr, "petw mc: %s\n", g.error);
        return 1;
    }
    if (rename(tmp, hpath) != 0) {
        fprintf(stderr, "petw mc: cannot write %s: %s\n", hpath, strerror(errno));
        remove(tmp);
        return 1;
    }
    return 0;
}

int cmd_mc(int argc, char **argv)
{
    mc_options opt;
    int status = mc_parse_options(argc, argv, &opt);
    if (status >= 0)
        return status;
    const char *manifest = opt.manifest;
    char stem[512];
    if (opt.base) {
        snprintf(stem, sizeof(stem), "%s", opt.base);
    } else {
        const char *b = strrchr(manifest, '/');
        b = b ? b + 1 : manifest;
        snprintf(stem, sizeof(stem), "%s", b);
        char *dot = strrchr(stem, '.');
        if (dot && dot != stem)
            *dot = 0;
    }
    char *xml;
    size_t size;
    if (read_file(manifest, &xml, &size) != 0) {
        fprintf(stderr, "petw mc: cannot read %s: %s\n", manifest, strerror(errno));
        return 1;
    }
    petw_manifest *m = NULL;
    char err[512];
    int rc = petw_manifest_parse(xml, size, &m, err, sizeof(err));
    free(xml);
    if (rc != 0) {
        fprintf(stderr, "petw mc: %s: %s\n", manifest,
                rc == PETW_ECORRUPT ? err : petw_strerror(rc));
        return 1;
    }
    char hpath[1024], rpath[1024];
    snprintf(hpath, sizeof(hpath), "%s/%s%s", opt.hdir, stem, opt.ext);
    snprintf(rpath, sizeof(rpath), "%s/%s.rc", opt.rdir, stem);
    status = write_header(&opt, m, hpath);
    petw_manifest_free(m);
    if (status)
        return status;
    FILE *rc_file = fopen(rpath, "w");
    if (!rc_file ||
        fputs("// petw mc: no message resources (the manifest is read as XML)\n", rc_file) < 0) {
        fprintf(stderr, "petw mc: cannot write %s: %s\n", rpath, strerror(errno));
        if (rc_file)
            fclose(rc_file);
        return 1;
    }
    fclose(rc_file);
    return 0;
}
