/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the TraceLogging decoder. The input is split into a
 * provider-traits item, a schema item and a payload (lengths from its first
 * bytes); the decoder must refuse or decode without reading outside them,
 * and every field it returns must point inside the payload or its own
 * storage (touched here so ASan sees any stray pointer). With no schema,
 * the payload is an EventSource ManifestData event (id 0xFFFE) of one
 * provider, written by thread `traits length` (its chunks collect across
 * inputs, the decoder lives on), then the same payload as that provider's
 * event `traits length % 8`, which a completed manifest describes. */
#include <stdint.h>
#include <string.h>

#include <petw/petw.h>

#include "fuzz_touch.h"

static petw_decoder *decoder;
static size_t payload_size;
static const petw_guid es_provider = {
    0x5e5e5e5e, 0xe5e5, 0x4a4a, {0x8b, 0x8b, 0x1c, 0x1c, 0x2d, 0x2d, 0x3e, 0x3e}};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!decoder && petw_decoder_new(&decoder) != 0)
        return 0;
    if (size < 4)
        return 0;
    size_t traits = data[0] % 32, schema = data[1] | ((size_t)(data[2] & 0x7) << 8);
    data += 3;
    size -= 3;
    if (traits > size)
        traits = size;
    if (schema > size - traits)
        schema = size - traits;
    size_t payload = size - traits - schema;
    if (payload > 65535)
        payload = 65535;
    petw_extended_item x[2] = {
        {0, PETW_EXT_TYPE_PROV_TRAITS, 0, (uint16_t)traits, (uint64_t)(uintptr_t)data},
        {0, PETW_EXT_TYPE_EVENT_SCHEMA_TL, 0, (uint16_t)schema,
         (uint64_t)(uintptr_t)(data + traits)}};
    petw_event_record r;
    memset(&r, 0, sizeof(r));
    r.header.flags = PETW_EVENT_HEADER_FLAG_EXTENDED_INFO;
    r.extended_data_count = 2;
    r.extended_data = x;
    r.user_data = (void *)(uintptr_t)(data + traits + schema);
    r.user_data_length = (uint16_t)payload;
    payload_size = payload;
    int events = 1;
    if (schema == 0) {
        r.extended_data_count = 1; /* the traits alone */
        r.header.provider_id = es_provider;
        r.header.thread_id = (uint32_t)traits;
        r.header.descriptor.id = 0xFFFE;
        r.header.descriptor.opcode = 0xFE;
        r.header.descriptor.task = 0xFFFE;
        events = 2;
    }
    for (int k = 0; k < events; k++) {
        if (k == 1) {
            r.header.descriptor.id = (uint16_t)(traits % 8);
            r.header.descriptor.opcode = 0;
            r.header.descriptor.task = 0;
        }
        const petw_decoded_event *ev;
        if (petw_decode(decoder, &r, &ev) == 0) {
            fuzz_touch_event(ev, payload_size);
        } else {
            (void)strlen(petw_decoder_error(decoder));
        }
    }
    return 0;
}
