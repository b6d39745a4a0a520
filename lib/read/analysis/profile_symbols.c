/* SPDX-License-Identifier: MIT */
/* profile_symbols.c - the symbolization driver: each distinct location
 * named once, by the kernel's or a JIT's symbols, the image's PDB, libdwfl,
 * or a Windows image's export table, else module+offset; then Linux's
 * frame-pointer walks cut where they leave the mapped code.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/classes/kernel_class.h"
#include "analysis_internal.h"
#include "petw/consume.h"
#include "petw/decode.h"

/* ---- Symbolization: each distinct location once ---- */

static int by_pid_start(const void *a, const void *b)
{
    const petw__kernel_symbol *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* The symbol of `t` (sorted by process, then start) that holds address a
 * of process pid. */
static const petw__kernel_symbol *symbol_lookup(const petw__kernel_symbol *t, uint32_t n,
                                                uint32_t pid, uint64_t a)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t[mid].pid < pid || (t[mid].pid == pid && t[mid].start <= a))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return NULL;
    const petw__kernel_symbol *k = &t[lo - 1];
    return k->pid == pid && a < k->start + k->size ? k : NULL;
}

/* The source lines of location k, its function last, into lines (32 at
 * most): from the kernel's or a JIT's symbols, the image's PDB, libdwfl, or
 * a Windows image's export table. Returns how many (0: none found), or -1
 * (p->error set) when out of memory. */
static int location_lines(petw_profile *p, uint32_t k, petw_source_line *lines)
{
    petw_profile_location *l = &p->locations[k];
    uint32_t file = p->location_file[k], n = 0;
    if (file == PETW__MAP_NONE) {
        /* The kernel's functions, or the JIT code a process described. */
        const petw__kernel_symbol *ks =
            l->kernel ? symbol_lookup(p->ksyms, p->ksym_count, 0, l->address)
                      : symbol_lookup(p->jits, p->jit_count, p->location_pid[k], l->address);
        if (ks) {
            lines[0].function = ks->name;
            lines[0].file = NULL;
            lines[0].line = 0;
            n = 1;
            l->module = ks->module[0] ? ks->module : "[kernel]";
            if (!l->kernel)
                l->path = "";
            l->offset = l->address - ks->start;
        }
    } else if (file != PETW__MAP_NONE && p->files[file].pdb_name && !p->c.no_symbols) {
        const petw__image_file *f = &p->files[file];
        if (petw__pdbs_lookup(&p->pdbs, &p->c.symbolizer, &f->pdb_guid, f->pdb_age, f->pdb_name,
                              (uint32_t)l->offset, &p->strings, lines, 32, &n) != 0)
            n = 0;
    } else if (file != PETW__MAP_NONE && p->symbolizer) {
        const petw__image_file *f = &p->files[file];
        if (petw_symbolizer_lookup(p->symbolizer, f->path, f->build_id, f->build_id_size, l->offset,
                                   lines, 32, &n) != 0)
            n = 0;
    }
    /* A Windows image without a PDB: its own export table, when found. */
    const char *named = NULL;
    if (!n && file != PETW__MAP_NONE && p->files[file].windows && p->files[file].pe_known &&
        !p->c.no_symbols) {
        const petw__image_file *f = &p->files[file];
        char name[600], full[1100];
        if (petw__pdbs_export(&p->pdbs, &p->c.symbolizer, f->path, f->pe_stamp, f->pe_size,
                              (uint32_t)l->offset, name, sizeof(name))) {
            snprintf(full, sizeof(full), "%s!%s", l->module, name);
            if (!(named = petw__profile_intern(p, full))) {
                p->error = PETW_ENOMEM;
                return -1;
            }
            /* A function of its own to every view, without a source line. */
            lines[0] = (petw_source_line){.function = named, .file = NULL, .line = 0};
            n = 1;
        }
    }
    return (int)n;
}

/* Location k named: its n lines appended to p->lines, the function the
 * last one's, else module+offset. Returns 0, or -1 (p->error set) when out
 * of memory. */
static int location_name(petw_profile *p, uint32_t k, const petw_source_line *lines, uint32_t n)
{
    petw_profile_location *l = &p->locations[k];
    uint32_t file = p->location_file[k];
    if (n) {
        if (petw__grow((void **)&p->lines, &p->line_cap, p->line_count + n, sizeof(*p->lines))) {
            p->error = PETW_ENOMEM;
            return -1;
        }
        memcpy(p->lines + p->line_count, lines, n * sizeof(*lines));
        p->line_count += n;
        l->line_count = n;
        l->name = lines[n - 1].function;
    } else {
        char buf[64];
        int win = file != PETW__MAP_NONE && p->files[file].windows;
        snprintf(buf, sizeof(buf), win ? "!+0x%llx" : "+0x%llx",
                 (unsigned long long)(file == PETW__MAP_NONE ? l->address : l->offset));
        char name[1100];
        snprintf(name, sizeof(name), "%s%s", l->module, buf);
        l->name = petw__profile_intern(p, name);
    }
    return 0;
}

void petw__profile_symbolize(petw_profile *p)
{
    if (p->ksym_count)
        qsort(p->ksyms, p->ksym_count, sizeof(*p->ksyms), by_pid_start);
    petw__profile_name_clr_modules(p);
    if (p->jit_count)
        qsort(p->jits, p->jit_count, sizeof(*p->jits), by_pid_start);
    petw_source_line lines[32];
    /* Offsets into p->lines until the end (it moves as it grows). */
    uint32_t *first = calloc(p->location_count + 1u, sizeof(*first));
    if (!first) {
        p->error = PETW_ENOMEM;
        return;
    }
    for (uint32_t k = 0; k < p->location_count; k++) {
        int n = location_lines(p, k, lines);
        if (n < 0)
            break;
        first[k] = p->line_count;
        if (location_name(p, k, lines, (uint32_t)n))
            break;
    }
    for (uint32_t k = 0; k < p->location_count; k++)
        p->locations[k].lines = p->locations[k].line_count ? p->lines + first[k] : NULL;
    free(first);
}

/* Linux's user stacks are frame-pointer walks: through code built without
 * frame pointers they go on with whatever the stack holds (a string read
 * as the address 0x7370616d2f). As perf does, a walk ends at the first
 * caller in no mapping: a user address in no image that no JIT event
 * names, or a kernel address above a user frame; its samples count as
 * truncated. Stacks in Windows images are left whole: Windows walks them
 * with unwind data, and a frame in no image there is JIT code. The stacks
 * keep their numbers (the hooks reported them). */
void petw__profile_cut_walks(petw_profile *p)
{
    for (uint32_t k = 0; k < p->stack_count; k++) {
        petw_profile_stack *s = &p->stacks[k];
        int elf = 0, windows = 0;
        for (uint32_t j = 0; j < s->frame_count; j++) {
            uint32_t file = p->location_file[s->frames[j]];
            if (file != PETW__MAP_NONE && !p->locations[s->frames[j]].kernel) {
                elf |= !p->files[file].windows;
                windows |= p->files[file].windows;
            }
        }
        if (!elf || windows)
            continue;
        for (uint32_t j = 1; j < s->frame_count; j++) {
            const petw_profile_location *l = &p->locations[s->frames[j]];
            const petw_profile_location *callee = &p->locations[s->frames[j - 1]];
            if ((!l->kernel && p->location_file[s->frames[j]] == PETW__MAP_NONE &&
                 !l->line_count) ||
                (l->kernel && !callee->kernel)) {
                s->frame_count = j;
                p->truncated += s->samples;
                break;
            }
        }
    }
}
