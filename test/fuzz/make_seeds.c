/* make_seeds DIR: writes small synthetic ETL files for the fuzz corpora:
 * plain, with checksums, zstd-compressed, with related activity IDs, from
 * two threads' worth of CPUs, plus a truncated one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(_WIN32)
#include <direct.h>
#define make_dir(d) _mkdir(d)
#else
#define make_dir(d) mkdir((d), 0700)
#endif

#include <petw/petw.h>

#include "../xpress_encode.h"

static const petw_guid seed_provider = {0x5eed5eed, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};

static int record(const char *dir, const char *name, uint32_t flags, uint32_t events, int related)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = name;
    c.file_path = path;
    c.buffer_size_kb = 4;
    c.minimum_buffers = c.maximum_buffers = 16;
    c.flags = flags;
    petw_session_handle s;
    petw_provider_handle p;
    if (petw_session_start(&c, &s) || petw_provider_register(&seed_provider, NULL, NULL, &p) ||
        petw_session_enable_provider(s, &seed_provider, 0, 0, 0))
        return 1;
    for (uint32_t i = 0; i < events; i++) {
        uint8_t payload[40];
        memset(payload, (int)i, sizeof(payload));
        petw_data_descriptor d = {(uint64_t)(uintptr_t)payload, 1 + i % 40, 0, 0, 0};
        petw_event_descriptor e = {(uint16_t)i, 1, 2, (uint8_t)(i % 6), 3, 4, 0x8000 + i};
        petw_guid act = {i, 1, 2, {0}};
        petw_event_write(p, &e, &act, related && i % 2 ? &act : NULL, 1, &d);
    }
    petw_provider_unregister(p);
    return petw_session_stop(s, NULL) != 0;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    make_dir(argv[1]);
    int rc = record(argv[1], "plain.etl", 0, 60, 0);
    rc |= record(argv[1], "related.etl", 0, 30, 1);
    rc |= record(argv[1], "checksum.etl", PETW_SESSION_CHECKSUM, 60, 1);
    rc |= record(argv[1], "zstd.etl", PETW_SESSION_ZSTD | PETW_SESSION_CHECKSUM, 80, 1);
    rc |= record(argv[1], "empty.etl", 0, 0, 0);
    /* The decoder's input: traits length, schema length (11 bits), traits,
     * schema, payload (see fuzz_decoder.c). A struct, an array, strings. */
    {
        static const uint8_t traits[] = {0x08, 0x00, 'p', 'r', 'o', 'v', 0, 0};
        static const uint8_t schema[] = {
            0,   0, 0,           'E', 'v', 0, /* size (patched), no tags, "Ev" */
            'a', 0, 0x18 | 0x80, 2,           /* struct a { */
            'b', 0, 0x02,                     /*   ansi b */
            'c', 0, 0x07 | 0x40,              /*   int32[] c } */
            'd', 0, 0x01,                     /* unicode d */
            'g', 0, 0x0f,                     /* guid g */
        };
        uint8_t buf[256];
        size_t n = 0;
        buf[n++] = sizeof(traits);
        buf[n++] = sizeof(schema);
        buf[n++] = 0;
        memcpy(buf + n, traits, sizeof(traits));
        n += sizeof(traits);
        memcpy(buf + n, schema, sizeof(schema));
        buf[n] = sizeof(schema);
        n += sizeof(schema);
        static const uint8_t payload[] = {'h', 'i', 0,   2, 0,  1,  0,  0,  0,  2,  0,
                                          0,   0,   'x', 0, 0,  0,  1,  2,  3,  4,  5,
                                          6,   7,   8,   9, 10, 11, 12, 13, 14, 15, 16};
        memcpy(buf + n, payload, sizeof(payload));
        n += sizeof(payload);
        char path[1024];
        snprintf(path, sizeof(path), "%s/tl-event.bin", argv[1]);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(buf, 1, n, f) != n)
            return 1;
        fclose(f);
    }
    /* A valid XPRESS stream (output size first, as fuzz_xpress.c reads it). */
    {
        static uint8_t text[3000], comp[4000];
        for (size_t i = 0; i < sizeof(text); i++)
            text[i] = (uint8_t)("trace event buffer "[i % 19] + (i / 700));
        size_t c = test_xpress_encode(text, sizeof(text), comp + 2);
        comp[0] = (uint8_t)(sizeof(text) >> 8);
        comp[1] = (uint8_t)sizeof(text);
        char path[1024];
        snprintf(path, sizeof(path), "%s/xpress.bin", argv[1]);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(comp, 1, c + 2, f) != c + 2)
            return 1;
        fclose(f);
    }
    /* A truncated copy of plain.etl. */
    char src[1024], dst[1024];
    snprintf(src, sizeof(src), "%s/plain.etl", argv[1]);
    snprintf(dst, sizeof(dst), "%s/truncated.etl", argv[1]);
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    if (!in || !out)
        return 1;
    char buf[6000];
    size_t n = fread(buf, 1, sizeof(buf), in);
    fwrite(buf, 1, n, out);
    fclose(in);
    fclose(out);
    return rc;
}
