/* SPDX-License-Identifier: MIT */
/* fuzz_touch.h - for the decoding fuzz targets: reads every byte a decoded
 * event points at (names, labels, strings, binary values, the event and
 * provider names), so ASan sees any stray pointer, and traps when a value's
 * bytes lie outside the payload or a struct or array names fields past the
 * event's. */
#ifndef FUZZ_TOUCH_H
#define FUZZ_TOUCH_H

#include <stdint.h>
#include <string.h>

#include <petw/decode.h>

static inline void fuzz_touch_field(const petw_decoded_event *ev, const petw_field *f, int depth,
                                    size_t payload_size)
{
    volatile uint8_t sink = 0;
    if (depth > 64)
        __builtin_trap(); /* the decoder bounds nesting far below this */
    if ((uint64_t)f->data_offset + f->data_size > payload_size)
        __builtin_trap(); /* the value's bytes must lie in the payload */
    if (f->name)
        sink ^= (uint8_t)f->name[strlen(f->name)];
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
            fuzz_touch_field(ev, &ev->fields[f->first + i], depth + 1, payload_size);
    }
    (void)sink;
}

static inline void fuzz_touch_event(const petw_decoded_event *ev, size_t payload_size)
{
    volatile size_t sink = 0;
    if (ev->provider_name)
        sink ^= strlen(ev->provider_name);
    if (ev->event_name)
        sink ^= strlen(ev->event_name);
    if (ev->message)
        sink ^= strlen(ev->message);
    for (uint32_t i = 0; i < ev->top_count; i++)
        fuzz_touch_field(ev, &ev->fields[i], 0, payload_size);
    (void)sink;
}

#endif
