/* analysis_internal.h - what the analysis module's files share.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#ifndef PETW_ANALYSIS_INTERNAL_H
#define PETW_ANALYSIS_INTERNAL_H

#include "../../base/common/common.h"
#include "petw/analysis.h"

/* Growable arrays: `*items` holds at least `need` items of `size` bytes
 * (capacity doubled from 64). 0 or PETW_ENOMEM (the old array kept). */
int petw__grow(void **items, uint32_t *cap, uint32_t need, size_t size);

/* A u64 -> u32 hash map (open addressing, linear probing, never shrinks):
 * a key stays once put (its value may be put again). PETW__MAP_NONE is not
 * a value. */
#define PETW__MAP_NONE UINT32_MAX
typedef struct petw__map {
    uint64_t *keys;
    uint32_t *values; /* PETW__MAP_NONE: empty */
    uint32_t cap, count;
} petw__map;

/* A 64-bit finalizer (MurmurHash3's): keys spread over the table. */
uint64_t petw__mix(uint64_t k);
/* `key`'s value, or PETW__MAP_NONE. */
uint32_t petw__map_get(const petw__map *m, uint64_t key);
/* 0, or PETW_ENOMEM. */
int petw__map_put(petw__map *m, uint64_t key, uint32_t value);
void petw__map_free(petw__map *m);

/* Cached stacks (Windows 8 and later: "stack caching", as WPR and PerfView
 * record by default). A sample's stack comes as up to two keys, a StackKey-
 * Kernel and a StackKeyUser event naming a cache entry, and each key's
 * frames come later, when the entry leaves the cache (KeyDelete) or at the
 * trace's end (KeyRundown); a key is then free for another stack. Samples
 * are held, counted by (process, thread, keys), until their keys are
 * defined; memory grows with the distinct combinations waiting, not with
 * the samples. */
typedef struct petw__stackkeys petw__stackkeys;
/* A resolved stack: the kernel part's frames then the user part's
 * (innermost first), `count` samples of it; with their times and CPUs, in
 * the order they came, when those were kept (else NULL). */
typedef void (*petw__stackkey_emit)(void *context, uint32_t pid, uint32_t tid,
                                    const uint64_t *frames, uint32_t n, uint32_t count,
                                    const int64_t *times, const uint32_t *cpus);
/* One sample of `pid`/`tid` at `ip`, `time` and `cpu`, whose stack is
 * kernel key `kkey` and user key `ukey` (0: that part is absent); its time
 * and CPU are kept when `keep_times` (memory then grows with the samples
 * waiting). 0 or PETW_ENOMEM. */
int petw__stackkeys_reference(petw__stackkeys **s, uint32_t pid, uint32_t tid, uint64_t ip,
                              uint64_t kkey, uint64_t ukey, int64_t time, uint32_t cpu,
                              int keep_times);
/* Key `key` is `frames` (innermost first): the samples waiting on it take
 * them, and those whose keys are all defined go to `emit`. 0 or
 * PETW_ENOMEM. */
int petw__stackkeys_define(petw__stackkeys *s, uint64_t key, const uint64_t *frames, uint32_t n,
                           petw__stackkey_emit emit, void *context);
/* The trace ended: samples still waiting go to `emit` with the parts that
 * were defined (their sampled address alone when none was). */
void petw__stackkeys_finish(petw__stackkeys *s, petw__stackkey_emit emit, void *context);
void petw__stackkeys_free(petw__stackkeys *s);

/* Interned strings: each distinct text stored once, alive until freed. */
typedef struct petw__strings {
    char **slots; /* open addressing */
    uint32_t cap, count;
} petw__strings;

/* `s` interned (NULL when memory runs out). */
const char *petw__strings_intern(petw__strings *t, const char *s);
/* `symbol` demangled (C++ and Rust's legacy mangling, when `demangle`),
 * interned. */
const char *petw__strings_demangle(petw__strings *t, const char *symbol, int demangle);
void petw__strings_free(petw__strings *t);

/* Windows images' PDBs (pdb_match.c), found by their identity under the
 * config's symbol directories (DIR/NAME and the symbol store's
 * DIR/NAME/GUIDAGE/NAME), each identity searched once. Fills up to `max`
 * lines for `rva` (names interned in `strings`); *count 0 when there is
 * no such PDB or no symbol there. 0 or PETW_ENOMEM. */
typedef struct petw__pdbs petw__pdbs;
int petw__pdbs_lookup(petw__pdbs **pdbs, const petw_symbolizer_config *config,
                      const petw_guid *guid, uint32_t age, const char *name, uint32_t rva,
                      petw__strings *strings, petw_source_line *lines, uint32_t max,
                      uint32_t *count);
void petw__pdbs_free(petw__pdbs *pdbs);
/* The name of the code at `rva` of a Windows image that has no PDB, from
 * the export table of the image itself (pdb_match.c), found as the PDBs
 * are (store layout DIR/name/STAMPSIZE/name, the time stamp's 8 hex digits
 * then the size in hex, or DIR/name) and used only when its PE time stamp
 * and SizeOfImage are `time_stamp` and `image_size` (the trace's ImageID).
 * Writes "Export+0xOFFSET" (or "Export") into `out`: 1 when named, else 0. */
int petw__pdbs_export(petw__pdbs **pdbs, const petw_symbolizer_config *config,
                      const char *image_path, uint32_t time_stamp, uint32_t image_size,
                      uint32_t rva, char *out, size_t out_size);

/* pe_exports.c: a PE image's named exports (forwarders left out). Opens
 * `path` and gives its header's time stamp and SizeOfImage: 0, or
 * PETW_ENOENT, PETW_ECORRUPT (not a PE image, or damaged: `why` says
 * which), PETW_ENOMEM. */
typedef struct petw__pe_exports petw__pe_exports;
int petw__pe_exports_open(const char *path, uint32_t *time_stamp, uint32_t *image_size,
                          petw__pe_exports **out, char *why, size_t why_size);
/* The export at or before `rva` in the same section, and *offset its
 * distance; NULL when none. */
const char *petw__pe_exports_lookup(const petw__pe_exports *e, uint32_t rva, uint32_t *offset);
void petw__pe_exports_free(petw__pe_exports *e);

/* symsrv.c: a symbol server's file, asked only because the symbol path
 * names the server. Fetches server/name/key/name (key: the GUID's 32 hex
 * digits and the age in hex), or on 404 the compressed name.pd_ expanded,
 * into cache/name/key/name, whose path fills `out`. 0; PETW_ENOENT when the
 * server has neither, PETW_EIO when it cannot be reached or answers
 * otherwise, PETW_ENAMETOOLONG, or the cache directory's error: each said
 * in one line on stderr. PETW_ENOTSUP (said by no one) in a build without
 * libcurl. Never checks the file: the caller does, by GUID and age. */
int petw__symsrv_fetch(const char *server, const char *cache, const char *name, const char *key,
                       char *out, size_t size);

#endif /* PETW_ANALYSIS_INTERNAL_H */
