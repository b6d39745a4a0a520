/* SPDX-License-Identifier: MIT */
/* Provider GUIDs derived from names, as EventSource and TraceLogging tooling
 * derive them: SHA-1 itself against FIPS 180 test vectors (one block, two
 * blocks, empty, a million bytes fed in odd pieces), then the GUID of
 * "MySource" against the one Windows recorded for that provider in
 * SelfDescribingSingleEvent.etl (read from the file when the samples are
 * present), case-insensitivity, and argument errors. */
#include <stdio.h>
#include <stdlib.h>

#include "../../lib/base/common/sha1.h"
#include "test_util.h"

static void hex(const uint8_t d[20], char out[41])
{
    for (int i = 0; i < 20; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void sha1_is(const void *data, size_t n, size_t piece, const char *want)
{
    petw__sha1 s;
    uint8_t d[20];
    char got[41];
    petw__sha1_init(&s);
    for (size_t off = 0; off < n; off += piece)
        petw__sha1_update(&s, (const uint8_t *)data + off, n - off < piece ? n - off : piece);
    petw__sha1_final(&s, d);
    hex(d, got);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "sha1 of %zu bytes: %s, want %s\n", n, got, want);
        exit(1);
    }
}

static void guid_is(const char *name, const char *want)
{
    petw_guid g;
    char got[37];
    CHECK_EQ(petw_guid_from_name(name, &g), 0);
    petw_guid_format(&g, got);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "guid of '%s': %s, want %s\n", name, got, want);
        exit(1);
    }
}

int main(void)
{
    sha1_is("abc", 3, 3, "a9993e364706816aba3e25717850c26c9cd0d89d");
    sha1_is("", 0, 1, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    static const char two[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha1_is(two, strlen(two), 7, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    char *million = malloc(1000000);
    CHECK(million);
    memset(million, 'a', 1000000);
    sha1_is(million, 1000000, 4099, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
    free(million);

    /* The GUID Windows recorded for the EventSource "MySource". */
    const char *mysource = "a61ea624-4944-55fc-c2a8-37838829438d";
    guid_is("MySource", mysource);
    guid_is("MYSOURCE", mysource);
    guid_is("mysource", mysource);
    const char *dir = getenv("PETW_ETL_SAMPLES");
    char path[1024];
    snprintf(path, sizeof(path), "%s/SelfDescribingSingleEvent.etl", dir ? dir : "");
    FILE *f = dir ? fopen(path, "rb") : NULL;
    if (f) {
        fclose(f);
        test_events l;
        CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
        petw_guid want;
        CHECK_EQ(petw_guid_from_name("MySource", &want), 0);
        int seen = 0;
        for (size_t i = 0; i < l.count; i++)
            seen += petw_guid_equal(&l.ev[i].header.provider_id, &want);
        CHECK_EQ(seen, 1); /* the one TraceLogging event */
        test_events_free(&l);
        printf("guid_from_name: matches the provider GUID in the Windows sample\n");
    }

    petw_guid g;
    CHECK_EQ(petw_guid_from_name(NULL, &g), PETW_EINVAL);
    CHECK_EQ(petw_guid_from_name("", &g), PETW_EINVAL);
    CHECK_EQ(petw_guid_from_name("x", NULL), PETW_EINVAL);
    /* Distinct names, distinct GUIDs; every result is a version-5 GUID. */
    petw_guid a, b;
    CHECK_EQ(petw_guid_from_name("Contoso.Alpha", &a), 0);
    CHECK_EQ(petw_guid_from_name("Contoso.Beta", &b), 0);
    CHECK(!petw_guid_equal(&a, &b));
    CHECK_EQ(a.data3 >> 12, 5);
    CHECK_EQ(b.data3 >> 12, 5);
    printf("guid_from_name: sha1 vectors and name-derived GUIDs ok\n");
    return 0;
}
