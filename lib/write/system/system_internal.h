/* system_internal.h - what system.c and system_ident.c share.
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 */
#ifndef PETW_SYSTEM_INTERNAL_H
#define PETW_SYSTEM_INTERNAL_H

#include "../ring/ring.h"

/* The TraceLogging provider of the identity events (docs/kernel-events.md,
 * "Identity for symbols"). */
#define PETW__SYMBOLS_PROVIDER "Petw-Symbols"

typedef struct petw__system_ident {
    petw_guid guid;
    uint8_t traits[32];
    uint32_t traits_size;
    uint8_t image_schema[160];
    uint32_t image_schema_size;
    uint8_t kernel_schema[96];
    uint32_t kernel_schema_size;
    uint8_t jit_schema[96];
    uint32_t jit_schema_size;
    uint64_t *kernel; /* distinct kernel addresses seen (an open-addressing set) */
    uint32_t kernel_count;
} petw__system_ident;

/* The provider's traits and the events' schemas, built once. */
void petw__system_ident_init(petw__system_ident *id);
/* An ImageId event for the MMAP record `r` (an executable file mapping):
 * process, ImageBase (as Image/Load's), the mapping's address and file
 * offset, the file's build-id and path; `ts` in session clock ticks. */
void petw__system_ident_image(const petw__system_ident *id, petw__ring *ring, uint16_t gen,
                              uint32_t cpu, int64_t ts, const petw__sys_record *r);
/* JitSymbol events for the JIT map process `pid` (of user `owner`) wrote
 * for profilers (/tmp/perf-PID.map), if any. */
void petw__system_ident_jit(const petw__system_ident *id, petw__ring *ring, uint16_t gen,
                            int64_t ts, uint32_t pid, uint32_t owner);
/* Remembers the kernel addresses among `frames` (bounded: a full set
 * drops the rest, whose frames then stay unnamed). */
void petw__system_ident_note(petw__system_ident *id, const uint64_t *frames, uint32_t n);
/* A KernelSymbol event for each kernel function (from platform's kernel
 * symbol table) that holds a remembered address, then forgets them. */
void petw__system_ident_kernel(petw__system_ident *id, petw__ring *ring, uint16_t gen, int64_t ts);

#endif /* PETW_SYSTEM_INTERNAL_H */
