/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the ETL file reader and consumer (buffer headers,
 * checksums, zstd frames, records, extended data, the merge). Any input must
 * be refused or delivered without a crash, a hang or an out-of-bounds
 * read; every delivered record must lie inside its buffer. */
#include <stdint.h>
#include <string.h>

#include <petw/petw.h>

static void on_event(petw_event_record *r, void *ctx)
{
    volatile uint8_t sink = 0;
    (void)ctx;
    /* Touch every byte the record claims, so ASan sees any over-read. */
    for (uint16_t i = 0; i < r->user_data_length; i++)
        sink ^= ((const uint8_t *)r->user_data)[i];
    for (uint16_t k = 0; k < r->extended_data_count; k++)
        for (uint16_t i = 0; i < r->extended_data[k].data_size; i++)
            sink ^= ((const uint8_t *)(uintptr_t)r->extended_data[k].data_ptr)[i];
    (void)sink;
}

static int on_buffer(petw_trace *t, void *ctx)
{
    (void)t;
    (void)ctx;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.on_event = on_event;
    c.on_buffer = on_buffer;
    c.flags = size && (data[0] & 1) ? PETW_TRACE_RAW_TIMESTAMP : 0;
    petw_trace *t;
    if (petw_trace_open_memory(data, size, &c, &t) == 0) {
        petw_trace_process(&t, 1, 0, 0);
        petw_trace_close(t);
    }
    return 0;
}
