/* SPDX-License-Identifier: MIT */
/* libFuzzer target: WPP trace message format (TMF) files and the decoding
 * they drive. The input is split at its first two bytes (little-endian):
 * that many bytes of TMF text, then a payload. The TMF must be refused with
 * a reason or read; each message it lists is then decoded from the payload
 * as a TraceMessage record of that GUID and number, which must be refused
 * or decoded without reading outside it (every value, label and the
 * formatted message touched so ASan sees a stray pointer). */
#include <stdint.h>
#include <string.h>

#include <petw/petw.h>

#include "read/decode/wpp.h"
#include "fuzz_touch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t text = (size_t)data[0] | (size_t)data[1] << 8;
    if (text > size - 2)
        text = size - 2;
    const uint8_t *payload = data + 2 + text;
    size_t payload_size = size - 2 - text;
    if (payload_size > 65535)
        payload_size = 65535;
    char error[200] = "";
    petw__wpp *w;
    if (petw__wpp_parse((const char *)data + 2, text, &w, error, sizeof(error)) != 0) {
        if (!error[0])
            __builtin_trap(); /* every refusal says why */
        return 0;
    }
    petw_decoder *d;
    if (petw_decoder_new(&d) != 0 || petw_decoder_add_tmf_text(d, data + 2, text) != 0)
        __builtin_trap(); /* what parsed once parses again */
    for (uint32_t i = 0; i < petw__wpp_count(w) && i < 64; i++) {
        const petw__wpp_message *m = petw__wpp_at(w, i);
        petw_event_record r;
        memset(&r, 0, sizeof(r));
        r.header.flags =
            PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE | PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER |
            ((i & 1) ? PETW_EVENT_HEADER_FLAG_32_BIT_HEADER : PETW_EVENT_HEADER_FLAG_64_BIT_HEADER);
        r.header.provider_id = m->guid;
        r.header.descriptor.id = (uint16_t)m->number;
        r.user_data = (void *)(uintptr_t)payload;
        r.user_data_length = (uint16_t)payload_size;
        const petw_decoded_event *ev;
        if (petw_decode(d, &r, &ev) == 0)
            fuzz_touch_event(ev, payload_size);
    }
    petw_decoder_free(d);
    petw__wpp_free(w);
    return 0;
}
