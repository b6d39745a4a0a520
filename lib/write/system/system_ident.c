/* SPDX-License-Identifier: MIT */
/* system_ident.c - the identity events a later reader needs to symbolize
 * addresses after the process, the library or the machine is gone, as
 * Windows' KernelTraceControl writes ImageID and DbgID beside Image loads.
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 *
 * They are TraceLogging events of the provider "Petw-Symbols" (its GUID is
 * the one petw_guid_from_name derives): self-describing, so TDH, petw's
 * decoder and other ETL readers decode them without a manifest.
 * docs/kernel-events.md lists the events and their fields.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../base/format/etl.h"
#include "system_internal.h"

/* TraceLogging in-types (TlgIn_t) and the UTF-8 out-type. */
#define IN_UTF8 (2u | 0x80u) /* ANSISTRING with an out-type: UTF-8 */
#define IN_UINT32 8u
#define IN_UINT64 10u
#define IN_BINARY 14u /* u16 size, then the bytes */
#define IN_HEXINT64 21u
#define OUT_UTF8 35u

typedef struct field {
    const char *name;
    uint8_t in;
} field;

/* An event's TraceLogging metadata: u16 size, tags (none), its name, then
 * each field's name and types. */
static uint32_t schema(uint8_t *out, const char *event, const field *f, uint32_t n)
{
    uint32_t at = 2;
    out[at++] = 0;
    size_t len = strlen(event) + 1;
    memcpy(out + at, event, len);
    at += (uint32_t)len;
    for (uint32_t k = 0; k < n; k++) {
        len = strlen(f[k].name) + 1;
        memcpy(out + at, f[k].name, len);
        at += (uint32_t)len;
        out[at++] = f[k].in;
        if (f[k].in & 0x80u)
            out[at++] = OUT_UTF8;
    }
    petw__wr16(out, (uint16_t)at);
    return at;
}

static const field image_fields[] = {
    {"ProcessId", IN_UINT32},        {"ImageBase", IN_HEXINT64},  {"ImageSize", IN_UINT64},
    {"MappingAddress", IN_HEXINT64}, {"FileOffset", IN_HEXINT64}, {"BuildId", IN_BINARY},
    {"FileName", IN_UTF8},
};

static const field kernel_fields[] = {
    {"Address", IN_HEXINT64},
    {"Size", IN_UINT64},
    {"Name", IN_UTF8},
    {"Module", IN_UTF8},
};

static const field jit_fields[] = {
    {"ProcessId", IN_UINT32},
    {"Address", IN_HEXINT64},
    {"Size", IN_UINT64},
    {"Name", IN_UTF8},
};

void petw__system_ident_init(petw__system_ident *id)
{
    memset(id, 0, sizeof(*id));
    (void)petw_guid_from_name(PETW__SYMBOLS_PROVIDER, &id->guid);
    static const char name[] = PETW__SYMBOLS_PROVIDER;
    petw__wr16(id->traits, (uint16_t)(2 + sizeof(name)));
    memcpy(id->traits + 2, name, sizeof(name));
    id->traits_size = (uint32_t)(2 + sizeof(name));
    id->image_schema_size = schema(id->image_schema, "ImageId", image_fields,
                                   sizeof(image_fields) / sizeof(image_fields[0]));
    id->kernel_schema_size = schema(id->kernel_schema, "KernelSymbol", kernel_fields,
                                    sizeof(kernel_fields) / sizeof(kernel_fields[0]));
    id->jit_schema_size =
        schema(id->jit_schema, "JitSymbol", jit_fields, sizeof(jit_fields) / sizeof(jit_fields[0]));
}

/* One TraceLogging event (EVENT64 header, the traits and schema as
 * extended items, then the payload) into CPU `cpu`'s buffer. */
static void emit_tl(const petw__system_ident *id, petw__ring *ring, uint16_t gen, uint32_t cpu,
                    uint32_t pid, uint32_t tid, int64_t ts, const uint8_t *schema_blob,
                    uint32_t schema_size, const uint8_t *payload, uint32_t n)
{
    uint32_t ext = PETW__ALIGN8(PETW__EXT_ITEM_HEADER + id->traits_size) +
                   PETW__ALIGN8(PETW__EXT_ITEM_HEADER + schema_size);
    uint32_t size = PETW__EVENT_HEADER_SIZE + ext + n;
    if (size > 0xFFFF)
        return;
    petw__reservation res;
    if (petw__ring_reserve_on(ring, gen, cpu, PETW__ALIGN8(size), &res) != 0)
        return;
    uint8_t *r = res.record;
    memset(r, 0, PETW__EVENT_HEADER_SIZE);
    petw__wr16(r, (uint16_t)size);
    petw__wr16(r + 4, PETW_EVENT_HEADER_FLAG_EXTENDED_INFO | PETW_EVENT_HEADER_FLAG_NO_CPUTIME);
    petw__wr32(r + 8, tid);
    petw__wr32(r + 12, pid);
    petw__wr64(r + 16, (uint64_t)ts);
    memcpy(r + 24, &id->guid, 16);
    r[43] = 11; /* Channel: TraceLogging's */
    r[44] = 4;  /* Level: informational */
    uint8_t *at = petw__etl_put_ext(r + PETW__EVENT_HEADER_SIZE, PETW_EXT_TYPE_PROV_TRAITS,
                                    id->traits, id->traits_size, 1);
    at = petw__etl_put_ext(at, PETW_EXT_TYPE_EVENT_SCHEMA_TL, schema_blob, schema_size, 0);
    memcpy(at, payload, n);
    memset(r + size, 0, PETW__ALIGN8(size) - size);
    /* Compiler-only, as the provider's records: the type word last. */
    atomic_signal_fence(memory_order_seq_cst);
    petw__wr16(r + 2, (uint16_t)PETW__HDR_EVENT64_TYPE_WORD);
    petw__ring_commit(ring, &res);
}

void petw__system_ident_image(const petw__system_ident *id, petw__ring *ring, uint16_t gen,
                              uint32_t cpu, int64_t ts, const petw__sys_record *r)
{
    uint8_t p[64 + PETW__SYS_BUILD_ID_MAX + 4096 + 8];
    uint64_t base = r->addr >= r->pgoff ? r->addr - r->pgoff : r->addr;
    petw__wr32(p, r->pid);
    petw__wr64(p + 4, base);
    petw__wr64(p + 12, r->len + (r->addr - base));
    petw__wr64(p + 20, r->addr);
    petw__wr64(p + 28, r->pgoff);
    uint32_t ids = r->build_id ? r->build_id_size : 0;
    petw__wr16(p + 36, (uint16_t)ids);
    if (ids)
        memcpy(p + 38, r->build_id, ids);
    uint32_t n = 38 + ids;
    const char *name = r->text ? r->text : "";
    size_t len = strnlen(name, 4095);
    memcpy(p + n, name, len);
    p[n + len] = 0;
    n += (uint32_t)len + 1;
    emit_tl(id, ring, gen, cpu, r->pid, r->tid, ts, id->image_schema, id->image_schema_size, p, n);
}

/* ---- Kernel symbols: the functions the recorded kernel addresses fell in ---- */

#define KERNEL_SLOTS 65536u /* distinct kernel addresses remembered (more are dropped) */

static int is_kernel(uint64_t a)
{
    return a >= 0xFFFF800000000000ull; /* x86-64 and arm64 kernel halves */
}

void petw__system_ident_note(petw__system_ident *id, const uint64_t *frames, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        uint64_t a = frames[k];
        if (!is_kernel(a) || a >= 0xFFFFFFFFFFFFF000ull) /* context markers (PERF_CONTEXT_*) */
            continue;
        if (!id->kernel) {
            id->kernel = calloc(KERNEL_SLOTS, sizeof(*id->kernel));
            if (!id->kernel)
                return;
        }
        uint32_t h = (uint32_t)((a * 0x9E3779B97F4A7C15ull) >> 48);
        for (uint32_t j = 0; j < 32; j++) {
            uint64_t *e = &id->kernel[(h + j) & (KERNEL_SLOTS - 1)];
            if (*e == a)
                break;
            if (*e == 0) {
                *e = a;
                id->kernel_count++;
                break;
            }
        }
    }
}

static int by_address(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct ksym_ctx {
    const petw__system_ident *id;
    petw__ring *ring;
    uint16_t gen;
    int64_t ts;
    const uint64_t *addrs; /* sorted */
    uint32_t count, next;  /* the first address not yet covered */
    uint32_t written;
} ksym_ctx;

/* kallsyms lists symbols by address; each one that holds a recorded address
 * (up to the next symbol) is written once. */
static void on_ksym(void *ctx, uint64_t start, uint64_t end, const char *name, const char *module)
{
    ksym_ctx *k = ctx;
    while (k->next < k->count && k->addrs[k->next] < start)
        k->next++;
    if (k->next >= k->count || k->addrs[k->next] >= end)
        return;
    while (k->next < k->count && k->addrs[k->next] < end)
        k->next++;
    uint8_t p[16 + 2 * 256 + 2];
    petw__wr64(p, start);
    petw__wr64(p + 8, end - start);
    uint32_t n = 16;
    size_t len = strnlen(name, 255);
    memcpy(p + n, name, len);
    p[n + len] = 0;
    n += (uint32_t)len + 1;
    len = strnlen(module, 255);
    memcpy(p + n, module, len);
    p[n + len] = 0;
    n += (uint32_t)len + 1;
    emit_tl(k->id, k->ring, k->gen, 0, 0, 0, k->ts, k->id->kernel_schema, k->id->kernel_schema_size,
            p, n);
    k->written++;
}

void petw__system_ident_kernel(petw__system_ident *id, petw__ring *ring, uint16_t gen, int64_t ts)
{
    if (!id->kernel)
        return;
    uint64_t *a = malloc((size_t)id->kernel_count * sizeof(*a) + 8);
    if (a) {
        uint32_t n = 0;
        for (uint32_t k = 0; k < KERNEL_SLOTS; k++)
            if (id->kernel[k])
                a[n++] = id->kernel[k];
        qsort(a, n, sizeof(*a), by_address);
        ksym_ctx k = {id, ring, gen, ts, a, n, 0, 0};
        (void)petw__system_kernel_symbols(on_ksym, &k);
        free(a);
    }
    free(id->kernel);
    id->kernel = NULL;
    id->kernel_count = 0;
}

/* ---- JIT maps ---- */

typedef struct jit_ctx {
    const petw__system_ident *id;
    petw__ring *ring;
    uint16_t gen;
    int64_t ts;
    uint32_t pid;
} jit_ctx;

static void on_jit(jit_ctx *j, uint64_t start, uint64_t size, const char *name)
{
    uint8_t p[20 + 1024 + 1];
    petw__wr32(p, j->pid);
    petw__wr64(p + 4, start);
    petw__wr64(p + 12, size);
    size_t len = strnlen(name, 1024);
    memcpy(p + 20, name, len);
    p[20 + len] = 0;
    emit_tl(j->id, j->ring, j->gen, 0, j->pid, 0, j->ts, j->id->jit_schema, j->id->jit_schema_size,
            p, 20 + (uint32_t)len + 1);
}

void petw__system_ident_jit(const petw__system_ident *id, petw__ring *ring, uint16_t gen,
                            int64_t ts, uint32_t pid, uint32_t owner)
{
    jit_ctx j = {id, ring, gen, ts, pid};
    FILE *f = petw__sys_jit_map_open(pid, owner);
    if (!f)
        return;
    char line[4096];
    while (fgets(line, sizeof(line), f)) {
        unsigned long long start, size;
        int at = 0;
        if (sscanf(line, "%llx %llx %n", &start, &size, &at) < 2 || !at)
            continue;
        char *name = line + at;
        name[strcspn(name, "\r\n")] = 0;
        if (name[0])
            on_jit(&j, start, size, name);
    }
    fclose(f);
}
