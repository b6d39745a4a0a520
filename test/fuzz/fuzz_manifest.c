/* libFuzzer target: instrumentation manifests and the decoding they drive.
 * The input is split at its first two bytes (little-endian): that many
 * bytes of manifest XML, then a payload. A manifest must be refused (with a
 * reason) or read; each event it describes is then decoded from the
 * payload, which must be refused or decoded without reading outside it
 * (every value, label and the message touched so ASan sees a stray
 * pointer). */
#include <stdint.h>
#include <string.h>

#include <petw/petw.h>

#include "decode/manifest.h"

static size_t payload_size;

static void touch(const petw_decoded_event *ev, const petw_field *f, int depth)
{
    volatile uint8_t sink = 0;
    if (depth > 64)
        __builtin_trap();
    if ((uint64_t)f->data_offset + f->data_size > payload_size)
        __builtin_trap(); /* the value's bytes must lie in the payload */
    sink ^= (uint8_t)f->name[0];
    if (f->label)
        sink ^= (uint8_t)f->label[strlen(f->label)];
    if (f->kind == PETW_VALUE_STRING)
        sink ^= (uint8_t)f->v.s[strlen(f->v.s)];
    if (f->kind == PETW_VALUE_BINARY)
        for (uint32_t i = 0; i < f->v.bin.size; i++)
            sink ^= f->v.bin.data[i];
    if (f->kind == PETW_VALUE_STRUCT || f->kind == PETW_VALUE_ARRAY) {
        if (f->first + f->count > ev->field_count)
            __builtin_trap();
        for (uint32_t i = 0; i < f->count; i++)
            touch(ev, &ev->fields[f->first + i], depth + 1);
    }
    (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t xml = (size_t)data[0] | (size_t)data[1] << 8;
    if (xml > size - 2)
        xml = size - 2;
    const uint8_t *payload = data + 2 + xml;
    payload_size = size - 2 - xml;
    char error[200];
    petw__manifest *m;
    if (petw__manifest_parse(data + 2, xml, &m, error, sizeof(error)) != 0) {
        if (!error[0])
            __builtin_trap(); /* every refusal says why */
        return 0;
    }
    petw_decoder *d;
    if (petw_decoder_new(&d) != 0 || petw_decoder_add_manifest_xml(d, data + 2, xml) != 0)
        __builtin_trap(); /* what parsed once parses again */
    for (uint32_t i = 0; i < petw__manifest_provider_count(m); i++) {
        const petw__man_provider *p = petw__manifest_provider(m, i);
        for (uint32_t k = 0; k < p->event_count && k < 64; k++) {
            petw_event_record r;
            memset(&r, 0, sizeof(r));
            r.header.flags = (k & 1) ? PETW_EVENT_HEADER_FLAG_32_BIT_HEADER
                                     : PETW_EVENT_HEADER_FLAG_64_BIT_HEADER;
            r.header.provider_id = p->guid;
            r.header.descriptor.id = p->events[k].id;
            r.header.descriptor.version = p->events[k].version;
            r.user_data = (void *)(uintptr_t)payload;
            r.user_data_length = (uint16_t)(payload_size > 65535 ? 65535 : payload_size);
            const petw_decoded_event *ev;
            if (petw_decode(d, &r, &ev) != 0)
                continue;
            for (uint32_t f = 0; f < ev->top_count; f++)
                touch(ev, &ev->fields[f], 0);
            if (ev->message)
                (void)strlen(ev->message);
        }
    }
    petw_decoder_free(d);
    petw__manifest_free(m);
    return 0;
}
