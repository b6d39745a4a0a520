/* SPDX-License-Identifier: MIT */
/* system_internal.h - what system.c, system_ident.c and system_proc.c share.
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

/* system_build_id.c: the GNU build-id of the ELF file at `path` (an
 * absolute path, a regular file), into `out` (PETW__SYS_BUILD_ID_MAX
 * bytes); returns its size, 0 when the file is not an ELF file with one. */
uint32_t petw__system_build_id(const char *path, uint8_t *out);

/* system_proc.c: the rundown. Every process (`fn` with FORK: pid, its
 * parent in other_pid, `text` its program name), each of its threads (FORK
 * with tid != pid) and its executable mappings (MMAP), as they are now;
 * `target_pid` 0 for all, else that process and its descendants; with
 * `all_maps` its other mappings too (MAP: data, anonymous memory, heap).
 * Processes that vanish meanwhile are skipped. 0, or PETW_ENOTSUP (no /proc). */
int petw__system_rundown(uint32_t target_pid, int all_maps, petw__sys_fn fn, void *ctx);
/* system_proc.c: the kernel's text symbols in address order (/proc/kallsyms,
 * its modules included): `fn` gets each symbol's start, the next symbol's
 * start, its name and its module ("" for the kernel itself). Returns 0,
 * PETW_EACCES (the addresses are hidden: kptr_restrict, no privilege),
 * PETW_ENOTSUP, PETW_ENOMEM. */
typedef void (*petw__system_ksym_fn)(void *ctx, uint64_t start, uint64_t end, const char *name,
                                     const char *module);
int petw__system_kernel_symbols(petw__system_ksym_fn fn, void *ctx);

/* system_memory.c: the PageFault class (faults, hard faults, VirtualAlloc
 * and VirtualFree) from the OS's fault, mapping and memory-call records.
 * It writes through `emit` (system.c's: a record of `type` with `hook`,
 * `version`, the thread, time `ns` and payload) and converts times with
 * `ticks` (ns to session clock ticks). */
typedef void (*petw__system_emit_fn)(void *ctx, uint32_t cpu, uint8_t type, uint16_t hook,
                                     uint8_t version, uint32_t pid, uint32_t tid, int64_t ns,
                                     const uint8_t *payload, uint32_t n);
typedef int64_t (*petw__system_ticks_fn)(void *ctx, int64_t ns);
typedef struct petw__system_memory petw__system_memory;
/* For `flags` (PETW_SYSTEM_PAGE_FAULTS, _HARD_FAULTS, _VIRTUAL_ALLOC); NULL
 * when out of memory. */
petw__system_memory *petw__system_memory_new(uint32_t flags, petw__system_emit_fn emit,
                                             petw__system_ticks_fn ticks, void *ctx);
/* One of the OS's records (processes, mappings, faults, memory calls; the
 * rundown's too): the events it makes, if any. */
void petw__system_memory_record(petw__system_memory *m, const petw__sys_record *r);
void petw__system_memory_free(petw__system_memory *m);
/* system.c's: `n` events the OS lost, counted as the session's lost
 * events (ctx as with emit). */
typedef void (*petw__system_lost_fn)(void *ctx, uint64_t n);

/* system_file.c: file I/O (PETW_SYSTEM_FILE_IO) as the FileIo class. */
typedef struct petw__system_file petw__system_file;
/* Starts following the file calls of `target_pid` and its descendants (0:
 * every process but this one), writing through `emit` and `lost`
 * (system.c's, with `ctx`), and reads the descriptors it has open. 0,
 * or PETW_ENOTSUP, PETW_EACCES, PETW_ENOMEM with `why` saying why. */
int petw__system_file_start(petw__system_emit_fn emit, petw__system_lost_fn lost, void *ctx,
                            uint32_t target_pid, petw__system_file **out, char *why,
                            size_t why_size);
/* Writes the calls ready (the system thread, every few milliseconds). */
void petw__system_file_read(petw__system_file *f);
/* Stops, writes what is left, counts what the OS lost; frees (NULL is fine). */
void petw__system_file_stop(petw__system_file *f);

#endif /* PETW_SYSTEM_INTERNAL_H */
