/* ProcessTrace's read-ahead thread changes nothing a consumer sees: the
 * same events in the same order, the same damage reported at the same
 * place, the same statistics as with PETW_TRACE_ONE_THREAD, for one file
 * and for several merged; and a consumer that stops early (on_buffer
 * returns 0) gets PETW_ECANCELED back, the thread stopped and freed. */
#include <petw/petw.h>

#include "test_record_helpers.h"

typedef struct seen {
    uint64_t hash; /* FNV-1a over every event's time, CPU and payload, in order */
    uint64_t events;
    uint64_t reports;
    uint64_t report_hash; /* over each report's buffer index and offset */
    uint64_t buffers;
    uint64_t stop_after; /* on_buffer returns 0 after this many (0: never) */
} seen;

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

static void on_event(petw_event_record *r, void *ctx)
{
    seen *s = ctx;
    s->hash = mix(s->hash, &r->header.timestamp, 8);
    s->hash = mix(s->hash, &r->buffer_context, sizeof(r->buffer_context));
    s->hash = mix(s->hash, r->user_data, r->user_data_length);
    s->events++;
}

static void on_corrupt(petw_trace *t, uint64_t index, uint64_t offset, const char *what, void *ctx)
{
    (void)t;
    (void)what;
    seen *s = ctx;
    s->report_hash = mix(s->report_hash, &index, 8);
    s->report_hash = mix(s->report_hash, &offset, 8);
    s->reports++;
}

static int on_buffer(petw_trace *t, void *ctx)
{
    (void)t;
    seen *s = ctx;
    return !(s->stop_after && ++s->buffers >= s->stop_after);
}

/* Processes `n` files merged, with or without the read-ahead thread. */
static int process(char paths[][512], uint32_t n, uint32_t flags, seen *s, uint64_t stop_after)
{
    memset(s, 0, sizeof(*s));
    s->hash = s->report_hash = 0xCBF29CE484222325ull;
    s->stop_after = stop_after;
    petw_trace *t[2];
    for (uint32_t i = 0; i < n; i++) {
        petw_trace_config c;
        petw_trace_config_init(&c);
        c.flags = flags;
        c.on_event = on_event;
        c.on_corrupt = on_corrupt;
        c.on_buffer = on_buffer;
        c.context = s;
        CHECK_EQ(petw_trace_open(paths[i], &c, &t[i]), 0);
    }
    int rc = petw_trace_process(t, n, 0, 0);
    for (uint32_t i = 0; i < n; i++)
        petw_trace_close(t[i]);
    return rc;
}

static void same_both_ways(char paths[][512], uint32_t n, uint64_t min_events)
{
    seen one, ahead;
    CHECK_EQ(process(paths, n, PETW_TRACE_ONE_THREAD, &one, 0), 0);
    CHECK_EQ(process(paths, n, 0, &ahead, 0), 0);
    CHECK(one.events >= min_events);
    CHECK_EQ(ahead.events, one.events);
    CHECK(ahead.hash == one.hash);
    CHECK_EQ(ahead.reports, one.reports);
    CHECK(ahead.report_hash == one.report_hash);
    printf("%u file(s): %llu events, %llu damage reports, alike\n", n,
           (unsigned long long)one.events, (unsigned long long)one.reports);
}

static void copy_damaged(const char *from, const char *to, long at)
{
    FILE *f = fopen(from, "rb");
    CHECK(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n);
    CHECK(b && fread(b, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    for (long i = at; i < at + 64 && i < n; i++)
        b[i] ^= 0x5A;
    f = fopen(to, "wb");
    CHECK(f && fwrite(b, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    free(b);
}

int main(void)
{
    char paths[2][512], bad[1][512];
    test_path(paths[0], sizeof(paths[0]), "read-ahead-a.etl");
    test_path(paths[1], sizeof(paths[1]), "read-ahead-b.etl");
    test_path(bad[0], sizeof(bad[0]), "read-ahead-bad.etl");
    /* Compressed and checksummed (buffers verified and unpacked when the
     * merge reaches them, so damage is always found then) and plain. */
    uint32_t ba = test_record_file(paths[0], "petw-test-ra-a", 60000, 40,
                                   PETW_SESSION_ZSTD | PETW_SESSION_CHECKSUM);
    uint32_t bb = test_record_file(paths[1], "petw-test-ra-b", 30000, 100, 0);
    CHECK(ba > 8 && bb > 8);

    same_both_ways(paths, 1, 60001);
    same_both_ways(paths + 1, 1, 30001);
    same_both_ways(paths, 2, 90002);

    /* Damage inside a compressed buffer, found only while processing. The
     * same events are lost and the same report made either way. */
    copy_damaged(paths[0], bad[0], (long)(test_file_size(paths[0]) / 2));
    same_both_ways(bad, 1, 1);
    seen whole;
    CHECK_EQ(process(bad, 1, 0, &whole, 0), 0);
    CHECK(whole.reports >= 1 && whole.events < 60001);

    /* Stopping early: ECANCELED, the thread joined (sanitizers see leaks
     * and races), fewer events. */
    seen part;
    CHECK_EQ(process(paths, 2, 0, &part, 3), PETW_ECANCELED);
    CHECK(part.events > 0 && part.events < 90002);
    seen part_one;
    CHECK_EQ(process(paths, 2, PETW_TRACE_ONE_THREAD, &part_one, 3), PETW_ECANCELED);
    CHECK_EQ(part.events, part_one.events);
    CHECK(part.hash == part_one.hash);

    unlink(paths[0]);
    unlink(paths[1]);
    unlink(bad[0]);
    printf("read_ahead: ok\n");
    return 0;
}
