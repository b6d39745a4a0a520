/* SPDX-License-Identifier: MIT */
/* pdb.c - the MSF 7.0 container of a PDB and the streams that describe the
 * whole image: the superblock and the stream directory, the PDB info stream
 * (GUID, named streams: "/names"), the DBI stream (modules, section
 * contributions, section headers through the optional debug header) and the
 * "/names" string table. pdb_records.c reads the type and ID streams and
 * the publics. Streams are read through the file on demand; every
 * count, size and offset the file gives is checked against what holds it.
 *
 * Allowed dependencies: common, platform.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdb_internal.h"

static const char msf7_magic[32] = "Microsoft C/C++ MSF 7.00\r\n\x1a"
                                   "DS\0\0";
static const char msf2_magic[] = "Microsoft C/C++ program database 2.00\r\n";

#define DBI_HEADER_SIZE 64
#define MODULE_INFO_FIXED 64
#define CONTRIBUTION_SIZE 28
#define CONTRIBUTION_V2_SIZE 32
#define CONTRIBUTION_VER60 (0xeffe0000u + 19970605u)
#define CONTRIBUTION_V2 (0xeffe0000u + 20140516u)
#define SECTION_HEADER_SIZE 40
#define NAMES_SIGNATURE 0xEFFEEFFEu

int petw__pdb_fail(petw_pdb *pdb, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pdb->error, sizeof(pdb->error), fmt, ap);
    va_end(ap);
    return err;
}

/* ---- the file ---- */

static int read_at(petw_pdb *pdb, uint64_t offset, void *out, size_t size)
{
    if (offset > pdb->file_size || size > pdb->file_size - offset)
        return petw__pdb_fail(pdb, PETW_ECORRUPT,
                              "the file is truncated (%zu bytes wanted at %llu, it holds %llu)",
                              size, (unsigned long long)offset, (unsigned long long)pdb->file_size);
    if (pdb->memory) {
        memcpy(out, pdb->memory + offset, size);
        return 0;
    }
    int rc = petw__file_pread(&pdb->file, out, size, offset);
    if (rc < 0)
        return petw__pdb_fail(pdb, rc, "cannot read the file: %s", petw_strerror(rc));
    return 0;
}

uint32_t petw__pdb_stream_size(const petw_pdb *pdb, uint32_t stream)
{
    return stream < pdb->stream_count ? pdb->stream_sizes[stream] : 0;
}

int petw__pdb_stream_read(petw_pdb *pdb, uint32_t stream, uint64_t offset, void *out, uint32_t size)
{
    if (stream >= pdb->stream_count)
        return petw__pdb_fail(pdb, PETW_ECORRUPT, "stream %u does not exist (%u streams)", stream,
                              pdb->stream_count);
    uint32_t total = pdb->stream_sizes[stream];
    if (offset > total || size > total - offset)
        return petw__pdb_fail(pdb, PETW_ECORRUPT,
                              "stream %u is truncated (%u bytes wanted at %llu of %u)", stream,
                              size, (unsigned long long)offset, total);
    uint8_t *p = out;
    while (size) {
        uint32_t block = (uint32_t)(offset / pdb->block_size);
        uint32_t within = (uint32_t)(offset % pdb->block_size);
        uint32_t n = pdb->block_size - within;
        if (n > size)
            n = size;
        uint64_t at = (uint64_t)pdb->stream_blocks[stream][block] * pdb->block_size + within;
        PETW__FORWARD_IF_ERROR(read_at(pdb, at, p, n));
        p += n;
        offset += n;
        size -= n;
    }
    return 0;
}

/* A whole stream (or its first `limit` bytes) into a new buffer. */
static int stream_load(petw_pdb *pdb, uint32_t stream, uint32_t limit, uint8_t **out,
                       uint32_t *size)
{
    uint32_t n = petw__pdb_stream_size(pdb, stream);
    if (n > limit)
        n = limit;
    uint8_t *b = malloc(n ? n : 1);
    PETW__RETURN_IF(!b, PETW_ENOMEM);
    int rc = petw__pdb_stream_read(pdb, stream, 0, b, n);
    if (rc < 0) {
        free(b);
        return rc;
    }
    *out = b;
    *size = n;
    return 0;
}

/* ---- interned strings ---- */

struct pdb_string_chunk {
    pdb_string_chunk *next;
    size_t used, cap;
    char text[];
};

static uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

const char *petw__pdb_intern(petw_pdb *pdb, const char *s, size_t n)
{
    if (2 * (pdb->intern_count + 1) > pdb->intern_cap) {
        uint32_t cap = pdb->intern_cap ? 2 * pdb->intern_cap : 256;
        char **slots = calloc(cap, sizeof(*slots));
        if (!slots)
            return NULL;
        for (uint32_t i = 0; i < pdb->intern_cap; i++) {
            char *t = pdb->intern_slots[i];
            if (!t)
                continue;
            uint32_t k = hash_bytes(t, strlen(t)) & (cap - 1);
            while (slots[k])
                k = (k + 1) & (cap - 1);
            slots[k] = t;
        }
        free(pdb->intern_slots);
        pdb->intern_slots = slots;
        pdb->intern_cap = cap;
    }
    uint32_t k = hash_bytes(s, n) & (pdb->intern_cap - 1);
    for (; pdb->intern_slots[k]; k = (k + 1) & (pdb->intern_cap - 1)) {
        const char *t = pdb->intern_slots[k];
        if (!strncmp(t, s, n) && t[n] == 0)
            return t;
    }
    pdb_string_chunk *c = pdb->strings;
    if (!c || c->cap - c->used < n + 1) {
        size_t cap = n + 1 > 65536 ? n + 1 : 65536;
        c = malloc(sizeof(*c) + cap);
        if (!c)
            return NULL;
        c->next = pdb->strings;
        c->used = 0;
        c->cap = cap;
        pdb->strings = c;
    }
    char *t = c->text + c->used;
    memcpy(t, s, n);
    t[n] = 0;
    c->used += n + 1;
    pdb->intern_slots[k] = t;
    pdb->intern_count++;
    return t;
}

/* ---- the /names string table ---- */

/* Reads a NUL-terminated string at `offset` of `stream` (at most 4 KB). */
const char *petw__pdb_stream_string(petw_pdb *pdb, uint32_t stream, uint64_t offset, uint64_t end)
{
    char buf[4096];
    uint32_t size = petw__pdb_stream_size(pdb, stream);
    if (end > size)
        end = size;
    if (offset >= end)
        return NULL;
    uint32_t n = end - offset > sizeof(buf) ? (uint32_t)sizeof(buf) : (uint32_t)(end - offset);
    if (petw__pdb_stream_read(pdb, stream, offset, buf, n) < 0)
        return NULL;
    char *nul = memchr(buf, 0, n);
    if (!nul)
        return NULL;
    return petw__pdb_intern(pdb, buf, (size_t)(nul - buf));
}

const char *petw__pdb_name(petw_pdb *pdb, uint32_t offset)
{
    if (pdb->names_stream == UINT32_MAX || offset >= pdb->names_size)
        return NULL;
    return petw__pdb_stream_string(pdb, pdb->names_stream, 12 + (uint64_t)offset,
                                   12 + (uint64_t)pdb->names_size);
}

/* ---- opening: superblock, directory, info, DBI ---- */

static int read_directory(petw_pdb *pdb)
{
    uint8_t sb[56];
    PETW__FORWARD_IF_ERROR(read_at(pdb, 0, sb, sizeof(sb)));
    uint32_t bs = petw__rd32(sb + 32);
    uint32_t blocks = petw__rd32(sb + 40);
    uint32_t dir_bytes = petw__rd32(sb + 44);
    uint32_t map_block = petw__rd32(sb + 52);
    if (bs < 512 || bs > 65536 || (bs & (bs - 1)))
        return petw__pdb_fail(pdb, PETW_ECORRUPT,
                              "the block size %u is not a power of two "
                              "from 512 to 65536",
                              bs);
    if ((uint64_t)blocks * bs > pdb->file_size)
        return petw__pdb_fail(pdb, PETW_ECORRUPT,
                              "the file is truncated: %u blocks of %u bytes, %llu bytes there",
                              blocks, bs, (unsigned long long)pdb->file_size);
    pdb->block_size = bs;
    pdb->block_count = blocks;
    if (dir_bytes < 4 || dir_bytes > pdb->file_size)
        return petw__pdb_fail(pdb, PETW_ECORRUPT, "the stream directory's size %u is absurd",
                              dir_bytes);
    uint32_t dir_blocks = (uint32_t)(((uint64_t)dir_bytes + bs - 1) / bs);
    if (map_block >= blocks || (uint64_t)dir_blocks * 4 > (uint64_t)(blocks - map_block) * bs)
        return petw__pdb_fail(pdb, PETW_ECORRUPT, "the block map (block %u) is out of the file",
                              map_block);
    uint32_t *map = malloc((size_t)dir_blocks * 4);
    pdb->directory = malloc((size_t)dir_blocks * bs);
    if (!map || !pdb->directory) {
        free(map);
        return PETW_ENOMEM;
    }
    int rc = read_at(pdb, (uint64_t)map_block * bs, map, (size_t)dir_blocks * 4);
    for (uint32_t i = 0; rc == 0 && i < dir_blocks; i++) {
        uint32_t b = petw__rd32((const uint8_t *)&map[i]);
        if (b >= blocks || b == 0)
            rc = petw__pdb_fail(pdb, PETW_ECORRUPT, "directory block %u is %u, out of the file", i,
                                b);
        else
            rc = read_at(pdb, (uint64_t)b * bs, (uint8_t *)pdb->directory + (size_t)i * bs, bs);
    }
    free(map);
    PETW__FORWARD_IF_ERROR(rc);

    const uint8_t *d = (const uint8_t *)pdb->directory;
    uint32_t words = dir_bytes / 4;
    uint32_t n = petw__rd32(d);
    if (n == 0 || n > words - 1)
        return petw__pdb_fail(pdb, PETW_ECORRUPT, "the directory's stream count %u is absurd", n);
    pdb->stream_count = n;
    pdb->stream_sizes = calloc(n, sizeof(uint32_t));
    pdb->stream_blocks = calloc(n, sizeof(uint32_t *));
    PETW__RETURN_IF(!pdb->stream_sizes || !pdb->stream_blocks, PETW_ENOMEM);
    uint32_t next = 1 + n; /* word index of the first stream's block list */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t size = petw__rd32(d + 4 + 4 * (size_t)i);
        if (size == 0xFFFFFFFFu)
            size = 0;
        uint32_t nb = (uint32_t)(((uint64_t)size + bs - 1) / bs);
        if (nb > words - next)
            return petw__pdb_fail(pdb, PETW_ECORRUPT,
                                  "the directory is truncated at stream %u's block list", i);
        /* The block indexes in place: converted to host order once. */
        uint32_t *list = pdb->directory + next;
        for (uint32_t k = 0; k < nb; k++) {
            uint32_t b = petw__rd32((const uint8_t *)&list[k]);
            if (b >= blocks)
                return petw__pdb_fail(pdb, PETW_ECORRUPT,
                                      "stream %u's block %u is %u, past the file's %u blocks", i, k,
                                      b, blocks);
            list[k] = b;
        }
        pdb->stream_sizes[i] = size;
        pdb->stream_blocks[i] = list;
        next += nb;
    }
    return 0;
}

static int read_info_stream(petw_pdb *pdb)
{
    uint8_t *s;
    uint32_t size;
    pdb->names_stream = UINT32_MAX;
    if (petw__pdb_stream_size(pdb, PDB_STREAM_INFO) < 28)
        return petw__pdb_fail(pdb, PETW_ECORRUPT, "the PDB info stream (1) is missing or short");
    PETW__FORWARD_IF_ERROR(stream_load(pdb, PDB_STREAM_INFO, 1u << 20, &s, &size));
    pdb->info.version = petw__rd32(s);
    pdb->info.signature = petw__rd32(s + 4);
    pdb->info.age = petw__rd32(s + 8);
    petw__rd_guid(s + 12, &pdb->info.guid);
    /* The named stream map: the names, then a hash table of (name offset,
     * stream) pairs whose present buckets a bit vector marks. */
    uint32_t at = 28;
    uint32_t names_len = size - at >= 4 ? petw__rd32(s + at) : UINT32_MAX;
    if (names_len > size - at - 4)
        goto done; /* no map: no /names, lines keep no file names */
    const char *names = (const char *)s + at + 4;
    at += 4 + names_len;
    if (size - at < 12)
        goto done;
    uint32_t count = petw__rd32(s + at), present_words = petw__rd32(s + at + 8);
    at += 12;
    if (present_words > (size - at) / 4)
        goto done;
    const uint8_t *present = s + at;
    at += 4 * present_words;
    if (size - at < 4)
        goto done;
    uint32_t deleted_words = petw__rd32(s + at);
    at += 4;
    if (deleted_words > (size - at) / 4)
        goto done;
    at += 4 * deleted_words;
    for (uint32_t bit = 0; bit < present_words * 32 && count; bit++) {
        if (!(petw__rd32(present + bit / 32 * 4) >> (bit % 32) & 1))
            continue;
        count--;
        if (size - at < 8)
            break;
        uint32_t key = petw__rd32(s + at), value = petw__rd32(s + at + 4);
        at += 8;
        if (key < names_len && memchr(names + key, 0, names_len - key) &&
            !strcmp(names + key, "/names"))
            pdb->names_stream = value;
    }
done:
    free(s);
    if (pdb->names_stream != UINT32_MAX) {
        uint8_t h[12];
        if (petw__pdb_stream_read(pdb, pdb->names_stream, 0, h, 12) < 0 ||
            petw__rd32(h) != NAMES_SIGNATURE) {
            pdb->names_stream = UINT32_MAX;
        } else {
            uint32_t total = petw__pdb_stream_size(pdb, pdb->names_stream) - 12;
            pdb->names_size = petw__rd32(h + 8) < total ? petw__rd32(h + 8) : total;
        }
    }
    pdb->error[0] = 0;
    return 0;
}

static int by_contribution(const void *a, const void *b)
{
    const pdb_contribution *x = a, *y = b;
    if (x->section != y->section)
        return x->section < y->section ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int read_modules(petw_pdb *pdb, uint32_t at, uint32_t size)
{
    uint32_t total = petw__pdb_stream_size(pdb, PDB_STREAM_DBI);
    if (size > total - at)
        return petw__pdb_fail(pdb, PETW_ECORRUPT, "the DBI's module list is truncated");
    pdb->module_info = malloc(size ? size : 1);
    PETW__RETURN_IF(!pdb->module_info, PETW_ENOMEM);
    PETW__FORWARD_IF_ERROR(petw__pdb_stream_read(pdb, PDB_STREAM_DBI, at, pdb->module_info, size));
    uint8_t *m = pdb->module_info;
    uint32_t cap = size / MODULE_INFO_FIXED;
    pdb->modules = calloc(cap ? cap : 1, sizeof(pdb_module));
    PETW__RETURN_IF(!pdb->modules, PETW_ENOMEM);
    uint32_t off = 0;
    while (size - off >= MODULE_INFO_FIXED + 2 && pdb->module_count < cap) {
        pdb_module *mod = &pdb->modules[pdb->module_count];
        const uint8_t *e = m + off;
        mod->stream = petw__rd16(e + 34);
        mod->symbol_bytes = petw__rd32(e + 36);
        mod->c11_bytes = petw__rd32(e + 40);
        mod->c13_bytes = petw__rd32(e + 44);
        char *name = (char *)e + MODULE_INFO_FIXED;
        char *end = memchr(name, 0, size - off - MODULE_INFO_FIXED);
        if (!end)
            break;
        char *obj = end + 1;
        char *obj_end =
            obj < (char *)m + size ? memchr(obj, 0, (size_t)((char *)m + size - obj)) : NULL;
        if (!obj_end)
            break;
        mod->name = name;
        pdb->module_count++;
        off = (uint32_t)((uint8_t *)obj_end + 1 - m);
        off = (off + 3) & ~3u;
        if (off > size)
            break;
    }
    return 0;
}

static int read_contributions(petw_pdb *pdb, uint32_t at, uint32_t size)
{
    if (size < 4)
        return 0;
    uint8_t v[4];
    PETW__FORWARD_IF_ERROR(petw__pdb_stream_read(pdb, PDB_STREAM_DBI, at, v, 4));
    uint32_t entry = petw__rd32(v) == CONTRIBUTION_V2 ? CONTRIBUTION_V2_SIZE : CONTRIBUTION_SIZE;
    if (petw__rd32(v) != CONTRIBUTION_V2 && petw__rd32(v) != CONTRIBUTION_VER60)
        return 0; /* an older layout: addresses fall in no module, publics name them */
    uint32_t n = (size - 4) / entry;
    pdb->contributions = calloc(n ? n : 1, sizeof(pdb_contribution));
    PETW__RETURN_IF(!pdb->contributions, PETW_ENOMEM);
    uint8_t buf[CONTRIBUTION_V2_SIZE * 128];
    for (uint32_t i = 0; i < n;) {
        uint32_t k = n - i < 128 ? n - i : 128;
        PETW__FORWARD_IF_ERROR(petw__pdb_stream_read(pdb, PDB_STREAM_DBI,
                                                     at + 4 + (uint64_t)i * entry, buf, k * entry));
        for (uint32_t j = 0; j < k; j++) {
            const uint8_t *e = buf + j * entry;
            pdb_contribution *c = &pdb->contributions[pdb->contribution_count];
            c->section = petw__rd16(e);
            c->offset = petw__rd32(e + 4);
            c->size = petw__rd32(e + 8);
            c->module = petw__rd16(e + 16);
            if (c->size && c->module < pdb->module_count)
                pdb->contribution_count++;
        }
        i += k;
    }
    qsort(pdb->contributions, pdb->contribution_count, sizeof(pdb_contribution), by_contribution);
    return 0;
}

static int read_sections(petw_pdb *pdb, uint32_t at, uint32_t size)
{
    uint8_t idx[2];
    if (size < 12)
        return 0; /* no section header stream: no RVAs (never a wrong one) */
    PETW__FORWARD_IF_ERROR(petw__pdb_stream_read(pdb, PDB_STREAM_DBI, at + 10, idx, 2));
    uint32_t stream = petw__rd16(idx);
    if (stream == PDB_NO_STREAM || stream >= pdb->stream_count)
        return 0;
    uint32_t n = petw__pdb_stream_size(pdb, stream) / SECTION_HEADER_SIZE;
    if (n > 65535)
        n = 65535;
    pdb->sections = calloc(n ? n : 1, sizeof(pdb_section));
    PETW__RETURN_IF(!pdb->sections, PETW_ENOMEM);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t h[SECTION_HEADER_SIZE];
        PETW__FORWARD_IF_ERROR(
            petw__pdb_stream_read(pdb, stream, (uint64_t)i * SECTION_HEADER_SIZE, h, sizeof(h)));
        uint32_t vsize = petw__rd32(h + 8), raw = petw__rd32(h + 16);
        pdb->sections[i].rva = petw__rd32(h + 12);
        pdb->sections[i].size = vsize > raw ? vsize : raw;
    }
    pdb->section_count = n;
    return 0;
}

static int read_dbi(petw_pdb *pdb)
{
    uint8_t h[DBI_HEADER_SIZE];
    if (petw__pdb_stream_size(pdb, PDB_STREAM_DBI) < DBI_HEADER_SIZE)
        return petw__pdb_fail(pdb, PETW_ECORRUPT, "the DBI stream (3) is missing or short");
    PETW__FORWARD_IF_ERROR(petw__pdb_stream_read(pdb, PDB_STREAM_DBI, 0, h, sizeof(h)));
    if (petw__rd32(h) != 0xFFFFFFFFu)
        return petw__pdb_fail(pdb, PETW_ECORRUPT,
                              "the DBI stream has no version signature (an old-format PDB?)");
    pdb->info.age = petw__rd32(h + 8);
    pdb->symbol_record_stream = petw__rd16(h + 20);
    pdb->info.machine = petw__rd16(h + 58);
    uint32_t sizes[7];
    static const int at[7] = {24, 28, 32, 36, 40, 52, 48}; /* in substream order */
    uint64_t total = DBI_HEADER_SIZE;
    for (int i = 0; i < 7; i++) {
        int32_t v = (int32_t)petw__rd32(h + at[i]);
        if (v < 0)
            return petw__pdb_fail(pdb, PETW_ECORRUPT, "the DBI header's substream sizes are bad");
        sizes[i] = (uint32_t)v;
        total += sizes[i];
    }
    if (total > petw__pdb_stream_size(pdb, PDB_STREAM_DBI))
        return petw__pdb_fail(pdb, PETW_ECORRUPT,
                              "the DBI stream is truncated (its substreams need %llu bytes)",
                              (unsigned long long)total);
    /* Order: modules, contributions, section map, sources, type server
     * map, EC names, optional debug header. */
    uint32_t off = DBI_HEADER_SIZE;
    PETW__FORWARD_IF_ERROR(read_modules(pdb, off, sizes[0]));
    off += sizes[0];
    PETW__FORWARD_IF_ERROR(read_contributions(pdb, off, sizes[1]));
    for (int i = 1; i < 6; i++)
        off += sizes[i];
    PETW__FORWARD_IF_ERROR(read_sections(pdb, off, sizes[6]));
    pdb->info.modules = pdb->module_count;
    pdb->info.sections = pdb->section_count;
    return 0;
}

static int open_common(petw_pdb *pdb, char *why, size_t why_size)
{
    char magic[sizeof(msf7_magic)];
    int rc = 0;
    if (pdb->file_size < sizeof(magic) + 24) {
        rc = petw__pdb_fail(pdb, PETW_ECORRUPT, "not a PDB: too short (%llu bytes)",
                            (unsigned long long)pdb->file_size);
        goto out;
    }
    rc = read_at(pdb, 0, magic, sizeof(magic));
    if (rc < 0)
        goto out;
    if (!memcmp(magic, msf2_magic, sizeof(magic))) {
        rc = petw__pdb_fail(pdb, PETW_ENOTSUP,
                            "an old-format PDB (MSF 2.00, \"Microsoft C/C++ program database "
                            "2.00\") is not supported: only MSF 7.00 PDBs are read");
        goto out;
    }
    if (memcmp(magic, msf7_magic, sizeof(magic))) {
        rc = petw__pdb_fail(pdb, PETW_ECORRUPT,
                            "not a PDB: no \"Microsoft C/C++ MSF 7.00\" signature");
        goto out;
    }
    if ((rc = read_directory(pdb)) < 0 || (rc = read_info_stream(pdb)) < 0 ||
        (rc = read_dbi(pdb)) < 0)
        goto out;
    pdb->error[0] = 0;
out:
    if (rc < 0 && why && why_size)
        snprintf(why, why_size, "%s", pdb->error[0] ? pdb->error : petw_strerror(rc));
    return rc;
}

int petw_pdb_open(const char *path, petw_pdb **out, char *why, size_t why_size)
{
    if (why && why_size)
        why[0] = 0;
    PETW__RETURN_IF(!path || !out, PETW_EINVAL);
    *out = NULL;
    petw_pdb *pdb = calloc(1, sizeof(*pdb));
    PETW__RETURN_IF(!pdb, PETW_ENOMEM);
    int rc = petw__file_open_read(path, &pdb->file, &pdb->file_size);
    if (rc < 0) {
        if (why && why_size)
            snprintf(why, why_size, "%s", petw_strerror(rc));
        free(pdb);
        return rc;
    }
    pdb->have_file = 1;
    rc = open_common(pdb, why, why_size);
    if (rc < 0) {
        petw_pdb_close(pdb);
        return rc;
    }
    *out = pdb;
    return 0;
}

int petw_pdb_open_memory(const void *data, size_t size, petw_pdb **out, char *why, size_t why_size)
{
    if (why && why_size)
        why[0] = 0;
    PETW__RETURN_IF(!out || (!data && size), PETW_EINVAL);
    *out = NULL;
    petw_pdb *pdb = calloc(1, sizeof(*pdb));
    PETW__RETURN_IF(!pdb, PETW_ENOMEM);
    static const uint8_t empty[1];
    pdb->memory = data ? data : empty;
    pdb->file_size = size;
    int rc = open_common(pdb, why, why_size);
    if (rc < 0) {
        petw_pdb_close(pdb);
        return rc;
    }
    *out = pdb;
    return 0;
}

static void module_data_free(pdb_module_data *d)
{
    if (!d)
        return;
    free(d->bytes);
    free(d->procs);
    free(d->lines);
    free(d->inlinee_at);
    free(d->inlinee_length);
    free(d);
}

void petw_pdb_close(petw_pdb *pdb)
{
    if (!pdb)
        return;
    if (pdb->have_file)
        petw__file_close(&pdb->file);
    for (uint32_t i = 0; i < pdb->module_count; i++)
        module_data_free(pdb->modules[i].data);
    free(pdb->modules);
    free(pdb->module_info);
    free(pdb->contributions);
    free(pdb->sections);
    free(pdb->publics);
    free(pdb->tpi.offsets);
    free(pdb->ipi.offsets);
    free(pdb->stream_sizes);
    free(pdb->stream_blocks);
    free(pdb->directory);
    while (pdb->strings) {
        pdb_string_chunk *c = pdb->strings;
        pdb->strings = c->next;
        free(c);
    }
    free(pdb->intern_slots);
    free(pdb);
}

int petw_pdb_get_info(const petw_pdb *pdb, petw_pdb_info *info)
{
    PETW__RETURN_IF(!pdb || !info, PETW_EINVAL);
    *info = pdb->info;
    return 0;
}

const char *petw_pdb_last_error(const petw_pdb *pdb)
{
    return pdb ? pdb->error : "";
}
