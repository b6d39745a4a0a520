/* SPDX-License-Identifier: MIT */
/* petw's extensions: zstd-compressed buffers and xxHash64 checksums round
 * trip byte-exact, the compressed file is smaller, the file says which
 * extensions it uses, each compressed buffer states its earliest timestamp
 * (and files without it read the same), and a flipped bit is caught by
 * the checksum and reported, not delivered. */
#include "test_record_helpers.h"

int main(void)
{
    char plain[512], packed[512], sum[512];
    test_path(plain, sizeof(plain), "plain.etl");
    test_path(packed, sizeof(packed), "zstd.etl");
    test_path(sum, sizeof(sum), "sum.etl");
    const uint32_t events = 3000;
    test_record_file(plain, "petw-test-plain", events, 64, 0);
    test_record_file(packed, "petw-test-zstd", events, 64,
                     PETW_SESSION_ZSTD | PETW_SESSION_CHECKSUM);
    test_record_file(sum, "petw-test-sum", events, 64, PETW_SESSION_CHECKSUM);

    test_events a, b;
    petw_logfile_info ia, ib;
    CHECK_EQ(test_read(plain, PETW_TRACE_RAW_TIMESTAMP, &a, &ia, NULL), 0);
    CHECK_EQ(test_read(packed, PETW_TRACE_RAW_TIMESTAMP, &b, &ib, NULL), 0);
    /* (PETW_FILE_CLOCK_TSC says which clock the session read, not an extension.) */
    CHECK_EQ(ia.petw_flags & ~PETW_FILE_CLOCK_TSC, 0);
    CHECK_EQ(ib.petw_flags & ~PETW_FILE_CLOCK_TSC, PETW_SESSION_ZSTD | PETW_SESSION_CHECKSUM);
    CHECK_EQ(ia.petw_flags & PETW_FILE_CLOCK_TSC, ib.petw_flags & PETW_FILE_CLOCK_TSC);
    CHECK_EQ(a.count, events + 1);
    CHECK_EQ(b.count, events + 1);
    for (size_t i = 1; i < a.count; i++) {
        CHECK_EQ(a.ev[i].length, b.ev[i].length);
        CHECK(memcmp(a.ev[i].data, b.ev[i].data, a.ev[i].length) == 0);
        CHECK(memcmp(&a.ev[i].header.descriptor, &b.ev[i].header.descriptor,
                     sizeof(petw_event_descriptor)) == 0);
    }
    FILE *f = fopen(plain, "rb");
    fseek(f, 0, SEEK_END);
    long plain_size = ftell(f);
    fclose(f);
    f = fopen(packed, "r+b");
    fseek(f, 0, SEEK_END);
    long packed_size = ftell(f);
    CHECK(packed_size * 4 < plain_size);

    /* Each compressed buffer states its earliest record's timestamp
     * (petw flag 0x4, the u64 at 0x20): one of the file's timestamps. */
    unsigned char bh[0x48];
    long off = 4096;
    uint32_t stated = 0;
    while (off < packed_size) {
        fseek(f, off, SEEK_SET);
        CHECK_EQ(fread(bh, 1, sizeof(bh), f), sizeof(bh));
        uint32_t size;
        uint16_t pflags;
        int64_t first;
        memcpy(&size, bh, 4);
        memcpy(&pflags, bh + 0x44, 2);
        memcpy(&first, bh + 0x20, 8);
        CHECK(size > 0x48);
        CHECK_EQ(pflags & 0x6, 0x6);
        int found = 0;
        for (size_t i = 1; i < b.count && !found; i++)
            found = b.ev[i].header.timestamp == first;
        CHECK(found);
        stated++;
        off += size;
    }
    CHECK(stated > 1);
    /* Without the statement (files of earlier petw versions) the reader
     * unpacks every buffer at open instead: the same events, in order. */
    for (off = 4096; off < packed_size;) {
        fseek(f, off, SEEK_SET);
        CHECK_EQ(fread(bh, 1, sizeof(bh), f), sizeof(bh));
        uint32_t size;
        memcpy(&size, bh, 4);
        bh[0x44] &= (unsigned char)~0x4;
        fseek(f, off + 0x44, SEEK_SET);
        fputc(bh[0x44], f);
        off += size;
    }
    fflush(f);
    test_events old;
    CHECK_EQ(test_read(packed, PETW_TRACE_RAW_TIMESTAMP, &old, NULL, NULL), 0);
    CHECK_EQ(old.count, b.count);
    for (size_t i = 1; i < old.count; i++) {
        CHECK_EQ(old.ev[i].header.timestamp, b.ev[i].header.timestamp);
        CHECK(memcmp(old.ev[i].data, b.ev[i].data, old.ev[i].length) == 0);
    }
    test_events_free(&old);

    /* Flip one payload byte of the first compressed buffer. */
    fseek(f, 4096 + 0x48 + 10, SEEK_SET);
    int c = fgetc(f);
    fseek(f, 4096 + 0x48 + 10, SEEK_SET);
    fputc(c ^ 0x10, f);
    fclose(f);
    test_events d;
    petw_trace_stats st;
    CHECK_EQ(test_read(packed, 0, &d, NULL, &st), 0);
    CHECK_EQ(st.buffers_corrupt, 1);
    CHECK(d.count < events + 1);
    test_events_free(&d);

    /* Checksum without compression: a flipped bit in a record is caught. */
    f = fopen(sum, "r+b");
    fseek(f, 4096 + 0x48 + 0x50 + 1, SEEK_SET);
    c = fgetc(f);
    fseek(f, 4096 + 0x48 + 0x50 + 1, SEEK_SET);
    fputc(c ^ 0x01, f);
    fclose(f);
    CHECK_EQ(test_read(sum, 0, &d, NULL, &st), 0);
    CHECK_EQ(st.buffers_corrupt, 1);
    test_events_free(&d);

    printf("compression: %ld bytes plain, %ld zstd (%.1fx)\n", plain_size, packed_size,
           (double)plain_size / (double)packed_size);
    test_events_free(&a);
    test_events_free(&b);
    unlink(plain);
    unlink(packed);
    unlink(sum);
    return 0;
}
