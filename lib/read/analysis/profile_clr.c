/* SPDX-License-Identifier: MIT */
/* profile_clr.c - code the trace names itself: the .NET runtime's method
 * and module events (load, unload, rundown), petw's own JitSymbol,
 * KernelSymbol and ImageId events; the JIT symbols are looked up by
 * profile_symbols.c.
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

/* The .NET runtime's event ids (clr.c's schemas): its method events, the
 * same in the runtime and its rundown, and its module events. */
#define CLR_METHOD_LOAD_VERBOSE 143   /* rundown: MethodDCStartVerbose */
#define CLR_METHOD_UNLOAD_VERBOSE 144 /* rundown: MethodDCEndVerbose */
#define CLR_MODULE_LOAD 152
#define CLR_MODULE_UNLOAD 153
#define CLR_RUNDOWN_MODULE_DCSTART 153
#define CLR_RUNDOWN_MODULE_DCEND 154

/* A new JIT symbol (NULL when memory runs out). */
static petw__kernel_symbol *new_jit(petw_profile *p)
{
    if (petw__grow((void **)&p->jits, &p->jit_cap, p->jit_count + 1, sizeof(*p->jits))) {
        p->error = PETW_ENOMEM;
        return NULL;
    }
    petw__kernel_symbol *j = &p->jits[p->jit_count++];
    memset(j, 0, sizeof(*j));
    j->module = "[jit]";
    return j;
}

/* The .NET runtime's method events (load, unload, rundown: each names
 * code it compiled, with its address and size) and module events (which
 * name the methods' modules, at the end: a rundown lists modules after
 * their methods). */
void petw__profile_on_clr(petw_profile *p, const petw_event_record *r, int rundown)
{
    uint16_t id = r->header.descriptor.id;
    int method = id == CLR_METHOD_LOAD_VERBOSE || id == CLR_METHOD_UNLOAD_VERBOSE;
    int module = rundown ? id == CLR_RUNDOWN_MODULE_DCSTART || id == CLR_RUNDOWN_MODULE_DCEND
                         : id == CLR_MODULE_LOAD || id == CLR_MODULE_UNLOAD;
    const petw_decoded_event *ev;
    if ((!method && !module) || petw_decode(p->decoder, r, &ev) != 0 || !ev->event_name)
        return;
    if (method) {
        petw__kernel_symbol *j = new_jit(p);
        if (!j)
            return;
        j->pid = r->header.process_id;
        j->start = petw__profile_field_u(ev, "MethodStartAddress");
        j->size = petw__profile_field_u(ev, "MethodSize");
        j->module_id = petw__profile_field_u(ev, "ModuleID");
        const char *ns = petw__profile_field_s(ev, "MethodNamespace"),
                   *name = petw__profile_field_s(ev, "MethodName");
        char full[1024];
        snprintf(full, sizeof(full), "%s%s%s", ns ? ns : "", ns && *ns ? "." : "",
                 name ? name : "?");
        j->name = petw__profile_intern(p, full);
        return;
    }
    if (petw__grow((void **)&p->clr_modules, &p->clr_module_cap, p->clr_module_count + 1,
                   sizeof(*p->clr_modules))) {
        p->error = PETW_ENOMEM;
        return;
    }
    /* Named as PerfView names them: the IL file's name without its extension. */
    const char *path = petw__profile_field_s(ev, "ModuleILPath");
    char name[256];
    snprintf(name, sizeof(name), "%s", petw__profile_base_name(path ? path : ""));
    char *dot = strrchr(name, '.');
    if (dot && (!strcmp(dot, ".dll") || !strcmp(dot, ".exe") || !strcmp(dot, ".DLL") ||
                !strcmp(dot, ".EXE")))
        *dot = 0;
    petw__kernel_symbol *m = &p->clr_modules[p->clr_module_count++];
    memset(m, 0, sizeof(*m));
    m->pid = r->header.process_id;
    m->start = petw__profile_field_u(ev, "ModuleID");
    m->module = petw__profile_intern(p, name);
}

/* Each .NET method's module named from the module events. */
void petw__profile_name_clr_modules(petw_profile *p)
{
    for (uint32_t k = 0; k < p->jit_count; k++) {
        petw__kernel_symbol *j = &p->jits[k];
        for (uint32_t m = 0; j->module_id && m < p->clr_module_count; m++)
            if (p->clr_modules[m].pid == j->pid && p->clr_modules[m].start == j->module_id &&
                p->clr_modules[m].module[0]) {
                j->module = p->clr_modules[m].module;
                break;
            }
    }
}

void petw__profile_on_symbols(petw_profile *p, const petw_event_record *r)
{
    const petw_decoded_event *ev;
    if (petw_decode(p->decoder, r, &ev) != 0 || !ev->event_name)
        return;
    if (!strcmp(ev->event_name, "ImageId")) {
        const petw_field *id = petw__profile_field(ev, "BuildId");
        const uint8_t *bits = id && id->kind == PETW_VALUE_BINARY ? id->v.bin.data : NULL;
        uint32_t n = bits ? id->v.bin.size : 0;
        petw__profile_image_add(
            p, (uint32_t)petw__profile_field_u(ev, "ProcessId"),
            petw__profile_field_u(ev, "ImageBase"), petw__profile_field_u(ev, "ImageSize"),
            petw__profile_file_index(p, petw__profile_field_s(ev, "FileName"), bits, n));
    } else if (!strcmp(ev->event_name, "JitSymbol")) {
        petw__kernel_symbol *j = new_jit(p);
        if (!j)
            return;
        j->pid = (uint32_t)petw__profile_field_u(ev, "ProcessId");
        j->start = petw__profile_field_u(ev, "Address");
        j->size = petw__profile_field_u(ev, "Size");
        j->name = petw__profile_intern(p, petw__profile_field_s(ev, "Name"));
    } else if (!strcmp(ev->event_name, "KernelSymbol")) {
        if (petw__grow((void **)&p->ksyms, &p->ksym_cap, p->ksym_count + 1, sizeof(*p->ksyms))) {
            p->error = PETW_ENOMEM;
            return;
        }
        petw__kernel_symbol *k = &p->ksyms[p->ksym_count++];
        k->start = petw__profile_field_u(ev, "Address");
        k->size = petw__profile_field_u(ev, "Size");
        k->name = petw__profile_intern(p, petw__profile_field_s(ev, "Name"));
        k->module = petw__profile_intern(p, petw__profile_field_s(ev, "Module"));
        k->pid = 0;
    }
}
