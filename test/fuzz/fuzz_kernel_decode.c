/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the built-in kernel schema table and the decoding it
 * drives. The input's first two bytes are a classic record's hook (event
 * class group, then opcode), the third its version, the fourth's low bit
 * says 32-bit pointers; the rest is the payload. A hook whose group names
 * no class goes under Process's GUID, so every byte value still reaches a
 * schema. The decoder must refuse or decode without reading outside the
 * payload (every value touched so ASan sees a stray pointer). */
#include <stdint.h>
#include <string.h>

#include <petw/petw.h>

#include "base/classes/kernel_class.h"
#include "fuzz_touch.h"

static petw_decoder *decoder;
static size_t payload_size;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!decoder && petw_decoder_new(&decoder) != 0)
        return 0;
    if (size < 4)
        return 0;
    uint16_t hook = (uint16_t)(data[0] << 8 | data[1]);
    const petw__kernel_class *cls = petw__kernel_class_by_hook(hook);
    petw_event_record r;
    memset(&r, 0, sizeof(r));
    r.header.provider_id = cls ? cls->guid : *PETW__KC_GUID(PETW__KC_PROCESS);
    r.header.descriptor.opcode = data[1];
    r.header.descriptor.version = data[2];
    r.header.flags = (uint16_t)(PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER |
                                ((data[3] & 1) ? PETW_EVENT_HEADER_FLAG_32_BIT_HEADER
                                               : PETW_EVENT_HEADER_FLAG_64_BIT_HEADER));
    payload_size = size - 4 > 65535 ? 65535 : size - 4;
    r.user_data = (void *)(uintptr_t)(data + 4);
    r.user_data_length = (uint16_t)payload_size;
    const petw_decoded_event *ev;
    if (petw_decode(decoder, &r, &ev) == 0)
        fuzz_touch_event(ev, payload_size);
    return 0;
}
