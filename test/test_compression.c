/* petw's extensions: zstd-compressed buffers and xxHash64 checksums round
 * trip byte-exact, the compressed file is smaller, the file says which
 * extensions it uses, and a flipped bit is caught by the checksum and
 * reported, not delivered. */
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
