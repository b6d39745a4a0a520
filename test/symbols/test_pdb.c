/* SPDX-License-Identifier: MIT */
/* test_pdb.c - the PDB reader (petw/pdb.h) on a small PDB built in memory
 * (pdb_synth.h): identity, a procedure's lines, nested inline sites with
 * their names from the IPI and TPI, the publics' fallback with an
 * undecorated name; an old-format and a foreign file refused with the
 * reason; and damaged copies (every truncation, bytes changed at every
 * offset, absurd block sizes, counts and block maps) refused or read
 * without a crash, each in a buffer of its exact size (ASan sees any read
 * past it). */
#include <stdlib.h>
#include <string.h>

#include <petw/pdb.h>

#include "pdb_synth.h"
#include "test_util.h"

static void check_frame(const petw_pdb_frame *f, const char *function, const char *file,
                        uint32_t line)
{
    CHECK(f->function && !strcmp(f->function, function));
    if (file)
        CHECK(f->file && !strcmp(f->file, file));
    else
        CHECK(!f->file);
    CHECK_EQ(f->line, line);
}

/* Opens a copy of `size` bytes of `data` and looks up addresses around
 * the code: must not crash; returns whether it opened. */
static int try_damaged(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    CHECK(copy != NULL);
    memcpy(copy, data, size);
    petw_pdb *pdb;
    char why[200];
    int rc = petw_pdb_open_memory(copy, size, &pdb, why, sizeof(why));
    if (rc == 0) {
        petw_pdb_frame f[8];
        uint32_t n;
        for (uint32_t rva = 0xff0; rva < 0x1100; rva += 2) {
            int r = petw_pdb_lookup(pdb, rva, f, 8, &n);
            CHECK(r == 0 || r == PETW_ECORRUPT || r == PETW_EIO);
            CHECK(n <= 8);
        }
        petw_pdb_close(pdb);
    } else {
        CHECK(rc == PETW_ECORRUPT || rc == PETW_ENOTSUP);
        CHECK(why[0] != 0);
    }
    free(copy);
    return rc == 0;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

int main(void)
{
    static uint8_t pdb_bytes[PDB_SYNTH_MAX];
    uint32_t size = pdb_synth_build(pdb_bytes);
    petw_pdb *pdb;
    char why[200];
    CHECK_EQ(petw_pdb_open_memory(pdb_bytes, size, &pdb, why, sizeof(why)), 0);

    petw_pdb_info info;
    CHECK_EQ(petw_pdb_get_info(pdb, &info), 0);
    CHECK_EQ(info.age, 1);
    CHECK_EQ(info.guid.data1, 0x44332211u);
    CHECK_EQ(info.guid.data2, 0x6655);
    CHECK_EQ(info.guid.data4[7], 0x01);
    CHECK_EQ(info.modules, 1);
    CHECK_EQ(info.sections, 1);
    CHECK_EQ(info.machine, 0x8664);

    petw_pdb_frame f[8];
    uint32_t n;
    /* The procedure alone, at each of its lines. */
    CHECK_EQ(petw_pdb_lookup(pdb, 0x1010, f, 8, &n), 0);
    CHECK_EQ(n, 1);
    check_frame(&f[0], "main", "a.c", 10);
    CHECK_EQ(petw_pdb_lookup(pdb, 0x1021, f, 8, &n), 0);
    CHECK_EQ(n, 1);
    check_frame(&f[0], "main", "a.c", 12);
    /* In helper, inlined. */
    CHECK_EQ(petw_pdb_lookup(pdb, 0x1014, f, 8, &n), 0);
    CHECK_EQ(n, 2);
    check_frame(&f[0], "helper", "a.c", 20);
    check_frame(&f[1], "main", "a.c", 10);
    /* In ns::Box::get, inlined in helper, inlined in main. */
    CHECK_EQ(petw_pdb_lookup(pdb, 0x1017, f, 8, &n), 0);
    CHECK_EQ(n, 3);
    check_frame(&f[0], "ns::Box::get", "a.c", 31);
    check_frame(&f[1], "helper", "a.c", 20);
    check_frame(&f[2], "main", "a.c", 10);
    /* Fewer frames asked: the outermost are dropped. */
    CHECK_EQ(petw_pdb_lookup(pdb, 0x1017, f, 2, &n), 0);
    CHECK_EQ(n, 2);
    check_frame(&f[1], "helper", "a.c", 20);
    /* Past the inline sites. */
    CHECK_EQ(petw_pdb_lookup(pdb, 0x101c, f, 8, &n), 0);
    CHECK_EQ(n, 1);
    /* No module covers it: the public before it, undecorated with its
     * template arguments. */
    CHECK_EQ(petw_pdb_lookup(pdb, 0x1084, f, 8, &n), 0);
    CHECK_EQ(n, 1);
    check_frame(&f[0], "ns::Box<std::vector<int> >::pub", NULL, 0);
    /* Before any symbol, and outside every section. */
    CHECK_EQ(petw_pdb_lookup(pdb, 0x1004, f, 8, &n), 0);
    CHECK_EQ(n, 0);
    CHECK_EQ(petw_pdb_lookup(pdb, 0x5000, f, 8, &n), 0);
    CHECK_EQ(n, 0);
    CHECK_EQ(petw_pdb_lookup(pdb, 0x1010, NULL, 8, &n), PETW_EINVAL);
    petw_pdb_close(pdb);

    /* Refused, with the reason. */
    static const char old[] = "Microsoft C/C++ program database 2.00\r\n\x1aJG\0\0";
    uint8_t buf[1024] = {0};
    memcpy(buf, old, sizeof(old));
    CHECK_EQ(petw_pdb_open_memory(buf, sizeof(buf), &pdb, why, sizeof(why)), PETW_ENOTSUP);
    CHECK(strstr(why, "2.00") != NULL);
    memcpy(buf,
           "\x7f"
           "ELF",
           4);
    CHECK_EQ(petw_pdb_open_memory(buf, sizeof(buf), &pdb, why, sizeof(why)), PETW_ECORRUPT);
    CHECK(strstr(why, "not a PDB") != NULL);
    CHECK_EQ(petw_pdb_open(NULL, &pdb, why, sizeof(why)), PETW_EINVAL);

    /* Every truncation: refused (the blocks are not there) or read. */
    for (uint32_t cut = 0; cut < size; cut += 7)
        CHECK(!try_damaged(pdb_bytes, cut) || cut >= size);
    /* A byte changed at every offset, three ways. */
    static uint8_t bad[PDB_SYNTH_MAX];
    for (uint32_t at = 0; at < size; at++) {
        static const uint8_t values[3] = {0xff, 0x80, 0x01};
        for (int v = 0; v < 3; v++) {
            memcpy(bad, pdb_bytes, size);
            bad[at] = at % 4 == 0 ? values[v] : (uint8_t)(bad[at] ^ values[v]);
            try_damaged(bad, size);
        }
    }
    /* Absurd superblock fields: block size, block count, directory size,
     * block map address; a directory that names itself and block 0. */
    static const struct {
        uint32_t at, value;
    } absurd[] = {{32, 0},           {32, 0x12345}, {32, 1u << 30},    {40, 0xFFFFFFFFu},
                  {44, 0xFFFFFFF0u}, {44, 0},       {52, 0xFFFFFFFFu}, {52, 0}};
    for (size_t i = 0; i < sizeof(absurd) / sizeof(absurd[0]); i++) {
        memcpy(bad, pdb_bytes, size);
        put32(bad + absurd[i].at, absurd[i].value);
        CHECK(!try_damaged(bad, size));
    }
    uint32_t map = pdb_bytes[52] | (uint32_t)pdb_bytes[53] << 8;
    memcpy(bad, pdb_bytes, size);
    put32(bad + map * PDB_SYNTH_BLOCK, map); /* the directory is the block map itself */
    try_damaged(bad, size);
    /* Huge stream count and stream sizes in the directory. */
    uint32_t dir = pdb_bytes[map * PDB_SYNTH_BLOCK];
    memcpy(bad, pdb_bytes, size);
    put32(bad + dir * PDB_SYNTH_BLOCK, 0x7FFFFFFF);
    CHECK(!try_damaged(bad, size));
    for (uint32_t s = 1; s < PDB_SYNTH_STREAMS; s++) {
        memcpy(bad, pdb_bytes, size);
        put32(bad + dir * PDB_SYNTH_BLOCK + 4 * (1 + s), 0x7FFFFFF0);
        CHECK(!try_damaged(bad, size));
    }
    return 0;
}
