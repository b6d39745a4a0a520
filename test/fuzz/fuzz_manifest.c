/* SPDX-License-Identifier: MIT */
/* libFuzzer target: instrumentation manifests and the decoding they drive.
 * The input is split at its first two bytes (little-endian): that many
 * bytes of manifest XML, then a payload. A manifest must be refused (with a
 * reason) or read, strictly and leniently (as a directory's files are);
 * each event it describes is then decoded from the payload, which must be
 * refused or decoded without reading outside it (every value, label and the
 * message touched so ASan sees a stray pointer). The same manifest, loaded
 * into TDH, then describes each event with and without a record, and each
 * map (every offset checked to lie in the answer). */
#include <stdint.h>
#include <string.h>

#include <petw/petw.h>
#include <tdh.h>

#include "read/decode/manifest.h"
#include "fuzz_touch.h"

static size_t payload_size;

static uint8_t answer[1 << 20];

/* A WCHAR string at `off` must end inside the answer's `size` bytes. */
static void name_in(ULONG off, ULONG size)
{
    if (!off)
        return;
    if (off > size || (size - off) % sizeof(WCHAR))
        __builtin_trap();
    const WCHAR *w = (const WCHAR *)(answer + off);
    size_t n = (size - off) / sizeof(WCHAR), i = 0;
    while (i < n && w[i])
        i++;
    if (i == n)
        __builtin_trap();
}

static void check_info(ULONG size)
{
    const TRACE_EVENT_INFO *t = (const TRACE_EVENT_INFO *)answer;
    name_in(t->ProviderNameOffset, size), name_in(t->EventNameOffset, size);
    name_in(t->TaskNameOffset, size), name_in(t->OpcodeNameOffset, size);
    name_in(t->LevelNameOffset, size), name_in(t->EventMessageOffset, size);
    if (offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) +
            (uint64_t)t->PropertyCount * sizeof(EVENT_PROPERTY_INFO) >
        size)
        __builtin_trap();
    for (ULONG k = 0; k < t->PropertyCount; k++) {
        const EVENT_PROPERTY_INFO *pi = &t->EventPropertyInfoArray[k];
        name_in(pi->NameOffset, size);
        if (pi->Flags & PropertyStruct) {
            if ((ULONG)pi->structType.StructStartIndex + pi->structType.NumOfStructMembers >
                t->PropertyCount)
                __builtin_trap();
        } else {
            name_in(pi->nonStructType.MapNameOffset, size);
        }
        if ((pi->Flags & PropertyParamCount) && pi->countPropertyIndex >= t->PropertyCount)
            __builtin_trap();
        if ((pi->Flags & PropertyParamLength) && pi->lengthPropertyIndex >= t->PropertyCount)
            __builtin_trap();
    }
}

static void tdh_describe(const petw__man_provider *p, const petw__man_event *e,
                         const uint8_t *payload)
{
    EVENT_DESCRIPTOR desc;
    memset(&desc, 0, sizeof(desc));
    desc.Id = e->id, desc.Version = e->version;
    GUID g;
    memcpy(&g, &p->guid, sizeof(g));
    ULONG size = sizeof(answer);
    if (TdhGetManifestEventInformation(&g, &desc, (PTRACE_EVENT_INFO)answer, &size) ==
        ERROR_SUCCESS)
        check_info(size);
    EVENT_RECORD r;
    memset(&r, 0, sizeof(r));
    r.EventHeader.Flags = EVENT_HEADER_FLAG_64_BIT_HEADER;
    r.EventHeader.ProviderId = g;
    r.EventHeader.EventDescriptor = desc;
    r.UserData = (PVOID)(uintptr_t)payload;
    r.UserDataLength = (USHORT)(payload_size > 65535 ? 65535 : payload_size);
    size = sizeof(answer);
    if (TdhGetEventInformation(&r, 0, NULL, (PTRACE_EVENT_INFO)answer, &size) == ERROR_SUCCESS)
        check_info(size);
}

static void tdh_map(const petw__man_provider *p, uint32_t k)
{
    EVENT_RECORD r;
    memset(&r, 0, sizeof(r));
    memcpy(&r.EventHeader.ProviderId, &p->guid, sizeof(GUID));
    WCHAR name[256];
    size_t i = 0;
    for (; p->maps[k].name[i] && i + 1 < 256; i++)
        name[i] = (WCHAR)(unsigned char)p->maps[k].name[i];
    name[i] = 0;
    ULONG size = sizeof(answer);
    if (TdhGetEventMapInformation(&r, name, (PEVENT_MAP_INFO)answer, &size) != ERROR_SUCCESS)
        return;
    const EVENT_MAP_INFO *mi = (const EVENT_MAP_INFO *)answer;
    name_in(mi->NameOffset, size);
    for (ULONG e = 0; e < mi->EntryCount; e++)
        name_in(mi->MapEntryArray[e].OutputOffset, size);
}

/* A name the model points to: readable to its end (ASan sees a stray one). */
static void name_ok(const char *s)
{
    if (s && strlen(s) > (1u << 24))
        __builtin_trap();
}

/* The lenient reading (a directory's files): of what the strict reading
 * reads, the same with no problem; of what it refuses, a refusal with a
 * reason, or a model that counts its problems and says the first. Every
 * event of that model stays within its provider's fields and maps. */
static void lenient(const uint8_t *xml, size_t n, int strict_rc, const petw__manifest *strict)
{
    char error[200];
    uint32_t problems;
    petw__manifest *m;
    if (petw__manifest_parse_lenient(xml, n, &m, error, sizeof(error), &problems) != 0) {
        if (strict_rc == 0 || !error[0])
            __builtin_trap();
        return;
    }
    if (strict_rc == 0 &&
        (problems || petw__manifest_provider_count(m) != petw__manifest_provider_count(strict)))
        __builtin_trap();
    if (strict_rc != 0 && (!problems || !error[0]))
        __builtin_trap();
    for (uint32_t i = 0; i < petw__manifest_provider_count(m); i++) {
        const petw__man_provider *p = petw__manifest_provider(m, i);
        for (uint32_t k = 0; k < p->event_count; k++) {
            const petw__man_event *e = &p->events[k];
            name_ok(e->task_name), name_ok(e->opcode_name), name_ok(e->level_name);
            name_ok(e->message), name_ok(e->symbol);
            if (e->has_template && (e->first_field > p->field_count ||
                                    e->field_count > p->field_count - e->first_field))
                __builtin_trap();
            for (uint32_t f = 0; e->has_template && f < e->field_count; f++) {
                const petw__man_field *fd = &p->fields[e->first_field + f];
                name_ok(fd->name);
                if (fd->map >= 0 && (uint32_t)fd->map >= p->map_count)
                    __builtin_trap();
            }
            if (k && (p->events[k - 1].id > e->id ||
                      (p->events[k - 1].id == e->id && p->events[k - 1].version >= e->version)))
                __builtin_trap(); /* sorted, each id and version once */
        }
    }
    petw__manifest_free(m);
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
    int rc = petw__manifest_parse(data + 2, xml, &m, error, sizeof(error));
    lenient(data + 2, xml, rc, m);
    if (rc != 0) {
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
            fuzz_touch_event(ev, payload_size);
        }
    }
    petw_decoder_free(d);
    if (TdhLoadManifestFromMemory(data + 2, (ULONG)xml) != ERROR_SUCCESS)
        __builtin_trap(); /* what parsed once loads */
    for (uint32_t i = 0; i < petw__manifest_provider_count(m); i++) {
        const petw__man_provider *p = petw__manifest_provider(m, i);
        for (uint32_t k = 0; k < p->event_count && k < 16; k++)
            tdh_describe(p, &p->events[k], payload);
        for (uint32_t k = 0; k < p->map_count && k < 16; k++)
            tdh_map(p, k);
    }
    if (TdhUnloadManifestFromMemory(data + 2, (ULONG)xml) != ERROR_SUCCESS)
        __builtin_trap();
    petw__manifest_free(m);
    return 0;
}
