/* SPDX-License-Identifier: MIT */
/* test_record_helpers.h - records a small file for tests that then damage
 * or inspect it. */
#ifndef PETW_TEST_RECORD_HELPERS_H
#define PETW_TEST_RECORD_HELPERS_H

#include "test_util.h"

DEFINE_GUID(HelperProvider, 0x5e5e5e5e, 0x9, 0x8, 0x7, 0x6, 0, 0, 0, 0, 0, 0x1);

/* Records `events` events of `size` bytes (payload: u32 index, then a
 * pattern) into `path` with 4 KB buffers and the given petw flags, from one
 * thread so buffers fill in order. Returns buffers written. */
static inline uint32_t test_record_file(const char *path, const char *name, uint32_t events,
                                        uint32_t size, uint32_t petw_flags)
{
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = name;
    c.file_path = path;
    c.buffer_size_kb = 4;
    c.minimum_buffers = c.maximum_buffers = 64;
    c.flags = petw_flags;
    petw_session_handle s;
    CHECK_EQ(petw_session_start(&c, &s), 0);
    petw_provider_handle p;
    CHECK_EQ(petw_provider_register((const petw_guid *)&HelperProvider, NULL, NULL, &p), 0);
    CHECK_EQ(petw_session_enable_provider(s, (const petw_guid *)&HelperProvider, 0, 0, 0), 0);
    uint8_t buf[1024];
    for (uint32_t i = 0; i < events; i++) {
        memcpy(buf, &i, 4);
        for (uint32_t k = 4; k < size; k++)
            buf[k] = (uint8_t)(k % 7 + i % 3); /* compressible, like real payloads */
        petw_data_descriptor d = {(uint64_t)(uintptr_t)buf, size, 0, 0, 0};
        petw_event_descriptor desc = {1, 0, 0, 4, 0, 0, 0};
        int rc;
        while ((rc = petw_event_write(p, &desc, NULL, NULL, 1, &d)) == PETW_ENOBUFS)
            petw_session_flush(s, NULL); /* keep every event: these tests need them all */
        CHECK_EQ(rc, 0);
    }
    petw_session_stats st;
    CHECK_EQ(petw_session_stop(s, &st), 0);
    CHECK_EQ(petw_provider_unregister(p), 0);
    return st.buffers_written;
}

#endif
