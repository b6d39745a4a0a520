/* SPDX-License-Identifier: MIT */
/* pdb_synth.h - a small PDB (MSF 7.0, 512-byte blocks) built in memory for
 * the PDB reader's unit test and the fuzz target's seed: one module with
 * one procedure "main" at RVA 0x1010 (0x20 bytes, lines 10 and 12 of
 * "a.c"), an inline site of "helper" (LF_FUNC_ID, first line 20) over
 * [0x1014, 0x101c) and nested in it one of "ns::Box::get" (LF_MFUNC_ID of
 * the class ns::Box, first line 30) over [0x1016, 0x1018) at line 31, and
 * a public "?pub@?$Box@V?$vector@H@std@@@ns@@QEAAXXZ" (a member of a class
 * template, decorated) at RVA 0x1080 that no module contribution covers. */
#ifndef PDB_SYNTH_H
#define PDB_SYNTH_H

#include <stdint.h>
#include <string.h>

#define PDB_SYNTH_BLOCK 512u
#define PDB_SYNTH_STREAMS 9u
#define PDB_SYNTH_MAX (64u * PDB_SYNTH_BLOCK)

typedef struct pdb_synth_buf {
    uint8_t data[4096];
    uint32_t size;
} pdb_synth_buf;

static inline void synth_put(pdb_synth_buf *b, const void *p, uint32_t n)
{
    memcpy(b->data + b->size, p, n);
    b->size += n;
}
static inline void synth_u8(pdb_synth_buf *b, uint8_t v)
{
    synth_put(b, &v, 1);
}
static inline void synth_u16(pdb_synth_buf *b, uint16_t v)
{
    synth_u8(b, (uint8_t)v);
    synth_u8(b, (uint8_t)(v >> 8));
}
static inline void synth_u32(pdb_synth_buf *b, uint32_t v)
{
    synth_u16(b, (uint16_t)v);
    synth_u16(b, (uint16_t)(v >> 16));
}
static inline void synth_str(pdb_synth_buf *b, const char *s)
{
    synth_put(b, s, (uint32_t)strlen(s) + 1);
}
static inline void synth_align(pdb_synth_buf *b, uint32_t a)
{
    while (b->size % a)
        synth_u8(b, 0);
}
static inline void synth_patch16(pdb_synth_buf *b, uint32_t at, uint16_t v)
{
    b->data[at] = (uint8_t)v;
    b->data[at + 1] = (uint8_t)(v >> 8);
}
static inline void synth_patch32(pdb_synth_buf *b, uint32_t at, uint32_t v)
{
    synth_patch16(b, at, (uint16_t)v);
    synth_patch16(b, at + 2, (uint16_t)(v >> 16));
}

/* A type record: length, kind; the caller adds the rest and ends it. */
static inline uint32_t synth_record(pdb_synth_buf *b, uint16_t kind)
{
    uint32_t at = b->size;
    synth_u16(b, 0);
    synth_u16(b, kind);
    return at;
}
static inline void synth_end_record(pdb_synth_buf *b, uint32_t at, uint32_t align)
{
    synth_align(b, align);
    synth_patch16(b, at, (uint16_t)(b->size - at - 2));
}

static inline void synth_type_header(pdb_synth_buf *b, uint32_t end, uint32_t bytes)
{
    synth_u32(b, 20040203); /* V80 */
    synth_u32(b, 56);
    synth_u32(b, 0x1000);
    synth_u32(b, end);
    synth_u32(b, bytes);
    for (int i = 0; i < 9; i++) /* hash stream, buffers: none */
        synth_u32(b, i < 2 ? 0xFFFF : 0);
}

/* Builds the PDB of identity `guid` (as stored: 16 bytes) and `age` into
 * out (PDB_SYNTH_MAX bytes); returns its size. */
static inline uint32_t pdb_synth_build_as(uint8_t *out, const uint8_t guid[16], uint32_t age)
{
    static pdb_synth_buf s[PDB_SYNTH_STREAMS];
    memset(s, 0, sizeof(s));
    pdb_synth_buf t;

    /* 1: PDB info, with the named stream map {"/names": 5}. */
    synth_u32(&s[1], 20000404);
    synth_u32(&s[1], 0x5f000000);
    synth_u32(&s[1], age);
    synth_put(&s[1], guid, 16);
    synth_u32(&s[1], 7);
    synth_str(&s[1], "/names");
    synth_u32(&s[1], 1); /* size */
    synth_u32(&s[1], 1); /* capacity */
    synth_u32(&s[1], 1); /* present: one word */
    synth_u32(&s[1], 1);
    synth_u32(&s[1], 0); /* deleted: none */
    synth_u32(&s[1], 0); /* "/names" */
    synth_u32(&s[1], 5);
    synth_u32(&s[1], 0); /* no feature codes */

    /* 2: TPI, 0x1000: struct ns::Box. */
    memset(&t, 0, sizeof(t));
    uint32_t r = synth_record(&t, 0x1505);
    synth_u16(&t, 0);
    synth_u16(&t, 0);
    synth_u32(&t, 0);
    synth_u32(&t, 0);
    synth_u32(&t, 0);
    synth_u16(&t, 4); /* size: a numeric leaf */
    synth_str(&t, "ns::Box");
    synth_end_record(&t, r, 4);
    synth_type_header(&s[2], 0x1001, t.size);
    synth_put(&s[2], t.data, t.size);

    /* 4: IPI, 0x1000: LF_FUNC_ID helper, 0x1001: LF_MFUNC_ID ns::Box::get. */
    memset(&t, 0, sizeof(t));
    r = synth_record(&t, 0x1601);
    synth_u32(&t, 0);
    synth_u32(&t, 0);
    synth_str(&t, "helper");
    synth_end_record(&t, r, 4);
    r = synth_record(&t, 0x1602);
    synth_u32(&t, 0x1000);
    synth_u32(&t, 0);
    synth_str(&t, "get");
    synth_end_record(&t, r, 4);
    synth_type_header(&s[4], 0x1002, t.size);
    synth_put(&s[4], t.data, t.size);

    /* 5: /names: "a.c" at offset 1. */
    synth_u32(&s[5], 0xEFFEEFFE);
    synth_u32(&s[5], 1);
    synth_u32(&s[5], 5);
    synth_u8(&s[5], 0);
    synth_str(&s[5], "a.c");
    synth_u32(&s[5], 0); /* no hash buckets */

    /* 6: section headers: .text at RVA 0x1000, 0x100 bytes. */
    synth_put(&s[6], ".text\0\0\0", 8);
    synth_u32(&s[6], 0x100);
    synth_u32(&s[6], 0x1000);
    synth_u32(&s[6], 0x200);
    for (int i = 0; i < 4; i++)
        synth_u32(&s[6], 0);
    synth_u32(&s[6], 0x60000020);

    /* 7: the module's symbols and C13 lines. */
    pdb_synth_buf *m = &s[7];
    synth_u32(m, 4);                         /* CV_SIGNATURE_C13 */
    uint32_t proc = synth_record(m, 0x1110); /* S_GPROC32 */
    synth_u32(m, 0);
    uint32_t proc_end = m->size;
    synth_u32(m, 0); /* End: patched */
    synth_u32(m, 0);
    synth_u32(m, 0x20); /* code size */
    synth_u32(m, 0);
    synth_u32(m, 0);
    synth_u32(m, 0);
    synth_u32(m, 0x10); /* offset */
    synth_u16(m, 1);    /* segment */
    synth_u8(m, 0);
    synth_str(m, "main");
    synth_end_record(m, proc, 4);
    uint32_t site1 = synth_record(m, 0x114d); /* S_INLINESITE helper */
    synth_u32(m, proc);
    uint32_t site1_end = m->size;
    synth_u32(m, 0);
    synth_u32(m, 0x1000);
    synth_u8(m, 3); /* ChangeCodeOffset 4 */
    synth_u8(m, 4);
    synth_u8(m, 4); /* ChangeCodeLength 8 */
    synth_u8(m, 8);
    synth_end_record(m, site1, 4);
    uint32_t site2 = synth_record(m, 0x114d); /* S_INLINESITE ns::Box::get */
    synth_u32(m, site1);
    uint32_t site2_end = m->size;
    synth_u32(m, 0);
    synth_u32(m, 0x1001);
    synth_u8(m, 11); /* ChangeCodeOffsetAndLineOffset: code +6, line +1 */
    synth_u8(m, 0x26);
    synth_u8(m, 4); /* ChangeCodeLength 2 */
    synth_u8(m, 2);
    synth_end_record(m, site2, 4);
    synth_patch32(m, site2_end, m->size);
    synth_end_record(m, synth_record(m, 0x114e), 1);
    synth_patch32(m, site1_end, m->size);
    synth_end_record(m, synth_record(m, 0x114e), 1);
    synth_patch32(m, proc_end, m->size);
    synth_end_record(m, synth_record(m, 0x0006), 1);
    uint32_t symbol_bytes = m->size;
    synth_u32(m, 0xf4); /* DEBUG_S_FILECHKSMS: "a.c", no checksum */
    synth_u32(m, 8);
    synth_u32(m, 1);
    synth_u16(m, 0);
    synth_u16(m, 0);
    synth_u32(m, 0xf2); /* DEBUG_S_LINES */
    synth_u32(m, 12 + 12 + 16);
    synth_u32(m, 0x10);
    synth_u16(m, 1);
    synth_u16(m, 0);
    synth_u32(m, 0x20);
    synth_u32(m, 0); /* file: checksum entry 0 */
    synth_u32(m, 2);
    synth_u32(m, 12 + 16);
    synth_u32(m, 0);
    synth_u32(m, 10 | 0x80000000u);
    synth_u32(m, 0x10);
    synth_u32(m, 12 | 0x80000000u);
    synth_u32(m, 0xf6); /* DEBUG_S_INLINEELINES */
    synth_u32(m, 4 + 24);
    synth_u32(m, 0);
    synth_u32(m, 0x1000);
    synth_u32(m, 0);
    synth_u32(m, 20);
    synth_u32(m, 0x1001);
    synth_u32(m, 0);
    synth_u32(m, 30);
    uint32_t c13_bytes = m->size - symbol_bytes;

    /* 8: the symbol records: the public ?pub@?$Box@V?$vector@H@std@@@ns@@QEAAXXZ. */
    r = synth_record(&s[8], 0x110e);
    synth_u32(&s[8], 2);
    synth_u32(&s[8], 0x80);
    synth_u16(&s[8], 1);
    synth_str(&s[8], "?pub@?$Box@V?$vector@H@std@@@ns@@QEAAXXZ");
    synth_end_record(&s[8], r, 4);

    /* 3: DBI: header, one module, one contribution, the optional debug
     * header naming the section header stream. */
    pdb_synth_buf mods, contribs, dbg;
    memset(&mods, 0, sizeof(mods));
    memset(&contribs, 0, sizeof(contribs));
    memset(&dbg, 0, sizeof(dbg));
    synth_u32(&mods, 0);
    for (int i = 0; i < 7; i++)
        synth_u32(&mods, 0); /* its first contribution: unused here */
    synth_u16(&mods, 0);
    synth_u16(&mods, 7); /* symbol stream */
    synth_u32(&mods, symbol_bytes);
    synth_u32(&mods, 0);
    synth_u32(&mods, c13_bytes);
    synth_u16(&mods, 1);
    synth_u16(&mods, 0);
    synth_u32(&mods, 0);
    synth_u32(&mods, 0);
    synth_u32(&mods, 0);
    synth_str(&mods, "a.obj");
    synth_str(&mods, "a.obj");
    synth_align(&mods, 4);
    synth_u32(&contribs, 0xeffe0000u + 19970605u);
    synth_u16(&contribs, 1);
    synth_u16(&contribs, 0);
    synth_u32(&contribs, 0x10);
    synth_u32(&contribs, 0x20);
    synth_u32(&contribs, 0x60000020);
    synth_u16(&contribs, 0); /* module 0 */
    synth_u16(&contribs, 0);
    synth_u32(&contribs, 0);
    synth_u32(&contribs, 0);
    for (int i = 0; i < 11; i++)
        synth_u16(&dbg, i == 5 ? 6 : 0xFFFF);
    pdb_synth_buf *d = &s[3];
    synth_u32(d, 0xFFFFFFFFu);
    synth_u32(d, 19990903);
    synth_u32(d, age);
    synth_u16(d, 0xFFFF);
    synth_u16(d, 0);
    synth_u16(d, 0xFFFF);
    synth_u16(d, 0);
    synth_u16(d, 8); /* symbol records */
    synth_u16(d, 0);
    synth_u32(d, mods.size);
    synth_u32(d, contribs.size);
    synth_u32(d, 0); /* section map */
    synth_u32(d, 0); /* source info */
    synth_u32(d, 0); /* type server map */
    synth_u32(d, 0);
    synth_u32(d, dbg.size);
    synth_u32(d, 0); /* EC */
    synth_u16(d, 0);
    synth_u16(d, 0x8664);
    synth_u32(d, 0);
    synth_put(d, mods.data, mods.size);
    synth_put(d, contribs.data, contribs.size);
    synth_put(d, dbg.data, dbg.size);

    /* The MSF: superblock (0), free block maps (1, 2), the streams, the
     * directory, the block map. */
    memset(out, 0, PDB_SYNTH_MAX);
    uint32_t next = 3;
    uint32_t dir[256], nd = 0;
    dir[nd++] = PDB_SYNTH_STREAMS;
    for (uint32_t i = 0; i < PDB_SYNTH_STREAMS; i++)
        dir[nd++] = s[i].size;
    for (uint32_t i = 0; i < PDB_SYNTH_STREAMS; i++)
        for (uint32_t at = 0; at < s[i].size; at += PDB_SYNTH_BLOCK) {
            uint32_t n = s[i].size - at < PDB_SYNTH_BLOCK ? s[i].size - at : PDB_SYNTH_BLOCK;
            memcpy(out + next * PDB_SYNTH_BLOCK, s[i].data + at, n);
            dir[nd++] = next++;
        }
    uint32_t dir_block = next++;
    for (uint32_t i = 0; i < nd; i++) {
        uint8_t *p = out + dir_block * PDB_SYNTH_BLOCK + 4 * i;
        p[0] = (uint8_t)dir[i];
        p[1] = (uint8_t)(dir[i] >> 8);
        p[2] = (uint8_t)(dir[i] >> 16);
        p[3] = (uint8_t)(dir[i] >> 24);
    }
    uint32_t map_block = next++;
    out[map_block * PDB_SYNTH_BLOCK] = (uint8_t)dir_block;
    memcpy(out,
           "Microsoft C/C++ MSF 7.00\r\n\x1a"
           "DS\0\0\0",
           32);
    uint32_t sb[6] = {PDB_SYNTH_BLOCK, 1, next, nd * 4, 0, map_block};
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 4; k++)
            out[32 + 4 * i + k] = (uint8_t)(sb[i] >> (8 * k));
    return next * PDB_SYNTH_BLOCK;
}

/* The PDB with GUID 44332211-6655-8877-99aa-bbccddeeff01, age 1. */
static inline uint32_t pdb_synth_build(uint8_t *out)
{
    static const uint8_t guid[16] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
                                     0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x01};
    return pdb_synth_build_as(out, guid, 1);
}

#endif
