/* SPDX-License-Identifier: MIT */
/* etw_tdh_manifest.c - TDH's decoder and the manifests it knows: the ones
 * TdhLoadManifest(FromMemory) loaded and, on first use, those listed in
 * PETW_MANIFEST_PATH; and the TDH functions that describe manifests without
 * an event (TdhGetManifestEventInformation, TdhEnumerateManifestProviderEvents,
 * TdhEnumerateProviders, the field-information pair) or with one
 * (TdhGetEventMapInformation).
 *
 * It is the base the other TDH functions (etw_tdh.c) stand on: the shared
 * decoder, and in-types, out-types and names as TDH gives them.
 *
 * One decoder holds every loaded manifest and serves every TDH call, under
 * the control lock (petw__tdh_enter/leave): schemas are parsed once, and a
 * call sees the manifests as they were when it started. Unloading rebuilds
 * the decoder from the manifests that remain.
 */
#include <stdlib.h>
#include <wchar.h>

#include "../../read/decode/decode_internal.h"
#include "etw_internal.h"

/* A manifest TdhLoadManifest* loaded: a path, or a copy of the bytes. */
typedef struct loaded {
    char *path;
    void *xml;
    size_t size;
} loaded;

static petw_decoder *tdh_decoder;
static loaded *tdh_loaded;
static uint32_t tdh_loaded_count, tdh_loaded_cap;

#ifdef _WIN32
#define PATH_LIST_SEP ';'
#else
#define PATH_LIST_SEP ':'
#endif

/* PETW_MANIFEST_PATH's entries; one that does not load is skipped. */
static void add_env_manifests(petw_decoder *d)
{
    const char *env = getenv("PETW_MANIFEST_PATH");
    char path[4096];
    while (env && *env) {
        const char *end = strchr(env, PATH_LIST_SEP);
        size_t n = end ? (size_t)(end - env) : strlen(env);
        if (n > 0 && n < sizeof(path)) {
            memcpy(path, env, n);
            path[n] = 0;
            (void)petw_decoder_add_manifest(d, path);
        }
        env = end ? end + 1 : NULL;
    }
}

static int add_loaded(petw_decoder *d, const loaded *l)
{
    return l->path ? petw_decoder_add_manifest(d, l->path)
                   : petw_decoder_add_manifest_xml(d, l->xml, l->size);
}

/* A decoder with the environment's manifests and the loaded ones. */
static petw_decoder *build_decoder(void)
{
    petw_decoder *d;
    if (petw_decoder_new(&d) != 0)
        return NULL;
    add_env_manifests(d);
    for (size_t i = 0; i < tdh_loaded_count; i++)
        (void)add_loaded(d, &tdh_loaded[i]); /* each loaded once already */
    return d;
}

petw_decoder *petw__tdh_enter(void)
{
    petw__library_init();
    petw__control_lock();
    if (!tdh_decoder)
        tdh_decoder = build_decoder();
    return tdh_decoder;
}

void petw__tdh_leave(void)
{
    petw__control_unlock();
}

/* ---- types and names as TDH gives them ---- */

/* TraceLogging in-types are TDH's for 0..21; the counted forms differ. */
USHORT petw__tdh_in(uint8_t in)
{
    switch (in) {
    case PETW_IN_COUNTEDSTRING:
        return TDH_INTYPE_COUNTEDSTRING;
    case PETW_IN_COUNTEDANSISTRING:
        return TDH_INTYPE_COUNTEDANSISTRING;
    case PETW_IN_COUNTEDBINARY:
        return TDH_INTYPE_BINARY;
    case PETW__IN_KERNEL_SID:
        return TDH_INTYPE_WBEMSID;
    default:
        return in;
    }
}

USHORT petw__tdh_fixed_length(USHORT tdh_in_type)
{
    switch (tdh_in_type) {
    case TDH_INTYPE_INT8:
    case TDH_INTYPE_UINT8:
        return 1;
    case TDH_INTYPE_INT16:
    case TDH_INTYPE_UINT16:
        return 2;
    case TDH_INTYPE_INT32:
    case TDH_INTYPE_UINT32:
    case TDH_INTYPE_HEXINT32:
    case TDH_INTYPE_BOOLEAN:
    case TDH_INTYPE_FLOAT:
        return 4;
    case TDH_INTYPE_INT64:
    case TDH_INTYPE_UINT64:
    case TDH_INTYPE_HEXINT64:
    case TDH_INTYPE_DOUBLE:
    case TDH_INTYPE_FILETIME:
        return 8;
    case TDH_INTYPE_GUID:
    case TDH_INTYPE_SYSTEMTIME:
        return 16;
    default:
        return 0;
    }
}

/* TraceLogging out-types are their own enumeration; TDH reports its own. */
USHORT petw__tdh_out(uint8_t out, uint8_t in)
{
    static const USHORT map[] = {[0] = TDH_OUTTYPE_NULL,
                                 [2] = TDH_OUTTYPE_STRING,
                                 [3] = TDH_OUTTYPE_BOOLEAN,
                                 [5] = TDH_OUTTYPE_PID,
                                 [6] = TDH_OUTTYPE_TID,
                                 [7] = TDH_OUTTYPE_PORT,
                                 [8] = TDH_OUTTYPE_IPV4,
                                 [9] = TDH_OUTTYPE_IPV6,
                                 [10] = TDH_OUTTYPE_SOCKETADDRESS,
                                 [11] = TDH_OUTTYPE_XML,
                                 [12] = TDH_OUTTYPE_JSON,
                                 [13] = TDH_OUTTYPE_WIN32ERROR,
                                 [14] = TDH_OUTTYPE_NTSTATUS,
                                 [15] = TDH_OUTTYPE_HRESULT,
                                 [16] = TDH_OUTTYPE_DATETIME,
                                 [35] = TDH_OUTTYPE_UTF8,
                                 [36] = TDH_OUTTYPE_PKCS7_WITH_TYPE_INFO,
                                 [37] = TDH_OUTTYPE_CODE_POINTER,
                                 [38] = TDH_OUTTYPE_DATETIME_UTC};
    if (out == 4) /* HEX: by the value's size */
        return in == PETW_IN_UINT8 || in == PETW_IN_INT8     ? TDH_OUTTYPE_HEXINT8
               : in == PETW_IN_UINT16 || in == PETW_IN_INT16 ? TDH_OUTTYPE_HEXINT16
               : in == PETW_IN_UINT64 || in == PETW_IN_INT64 ? TDH_OUTTYPE_HEXINT64
                                                             : TDH_OUTTYPE_HEXINT32;
    return out < sizeof(map) / sizeof(map[0]) ? map[out] : TDH_OUTTYPE_NULL;
}

/* WCHAR units `utf8` converts to, without the NUL (never more than its bytes). */
size_t petw__tdh_wide_len(const char *utf8)
{
    size_t cap = strlen(utf8) + 1;
    wchar_t *tmp = malloc(cap * sizeof(wchar_t));
    size_t n = tmp ? petw__utf8_to_wcs(utf8, tmp, cap) : cap;
    free(tmp);
    return n;
}

/* ---- loading ---- */

static ULONG load_status(int rc)
{
    return rc == 0                ? ERROR_SUCCESS
           : rc == PETW_ENOTFOUND ? ERROR_FILE_NOT_FOUND
           : rc == PETW_ECORRUPT  ? ERROR_XML_PARSE_ERROR
                                  : petw__etw_status(rc);
}

static int same(const loaded *l, const char *path, const void *xml, size_t size)
{
    return path ? l->path && !strcmp(l->path, path)
                : !l->path && l->size == size && !memcmp(l->xml, xml, size);
}

static ULONG load(const char *path, const void *xml, size_t size)
{
    petw_decoder *d = petw__tdh_enter();
    ULONG status = ERROR_NOT_ENOUGH_MEMORY;
    loaded l = {NULL, NULL, size};
    if (!d)
        goto out;
    for (size_t i = 0; i < tdh_loaded_count; i++)
        if (same(&tdh_loaded[i], path, xml, size)) {
            status = ERROR_SUCCESS;
            goto out;
        }
    if (petw__array_grow((void **)&tdh_loaded, &tdh_loaded_cap, tdh_loaded_count,
                         sizeof(*tdh_loaded)) != 0)
        goto out;
    l.path = path ? strdup(path) : NULL;
    l.xml = path ? NULL : malloc(size ? size : 1);
    if (path ? !l.path : !l.xml)
        goto out;
    if (!path)
        memcpy(l.xml, xml, size);
    /* A directory adds its files one by one: on a failure part of it may
     * be in; rebuild without it. */
    status = load_status(add_loaded(d, &l));
    if (status == ERROR_SUCCESS) {
        tdh_loaded[tdh_loaded_count++] = l;
        l.path = NULL, l.xml = NULL;
    } else {
        petw_decoder_free(tdh_decoder);
        tdh_decoder = build_decoder();
    }
out:
    free(l.path);
    free(l.xml);
    petw__tdh_leave();
    return status;
}

static ULONG unload(const char *path, const void *xml, size_t size)
{
    petw__tdh_enter();
    ULONG status = ERROR_NOT_FOUND;
    for (size_t i = 0; i < tdh_loaded_count; i++) {
        if (!same(&tdh_loaded[i], path, xml, size))
            continue;
        free(tdh_loaded[i].path);
        free(tdh_loaded[i].xml);
        tdh_loaded[i] = tdh_loaded[--tdh_loaded_count];
        petw_decoder_free(tdh_decoder);
        tdh_decoder = build_decoder();
        status = ERROR_SUCCESS;
        break;
    }
    petw__tdh_leave();
    return status;
}

static ULONG wide_path(PWSTR w, char *out, size_t size)
{
    if (w == NULL || w[0] == 0)
        return ERROR_INVALID_PARAMETER;
    return petw__wcs_to_utf8_fit(w, out, size) == 0 ? ERROR_SUCCESS : ERROR_BAD_PATHNAME;
}

ULONG EVNTAPI TdhLoadManifest(PWSTR Manifest)
{
    char path[4096];
    ULONG rc = wide_path(Manifest, path, sizeof(path));
    return rc != ERROR_SUCCESS ? rc : load(path, NULL, 0);
}

ULONG EVNTAPI TdhUnloadManifest(PWSTR Manifest)
{
    char path[4096];
    ULONG rc = wide_path(Manifest, path, sizeof(path));
    return rc != ERROR_SUCCESS ? rc : unload(path, NULL, 0);
}

ULONG EVNTAPI TdhLoadManifestFromMemory(LPCVOID pData, ULONG cbData)
{
    if (pData == NULL || cbData == 0)
        return ERROR_INVALID_PARAMETER;
    return load(NULL, pData, cbData);
}

ULONG EVNTAPI TdhUnloadManifestFromMemory(LPCVOID pData, ULONG cbData)
{
    if (pData == NULL || cbData == 0)
        return ERROR_INVALID_PARAMETER;
    return unload(NULL, pData, cbData);
}

ULONG EVNTAPI TdhLoadManifestFromBinary(PWSTR BinaryPath)
{
    (void)BinaryPath;
    return ERROR_NOT_SUPPORTED;
}

/* ---- lookups (under the lock) ---- */

const petw__man_provider *petw__tdh_provider(petw_decoder *d, const GUID *guid)
{
    for (uint32_t m = 0; d && m < petw__decoder_manifest_count(d); m++) {
        const petw__manifest *man = petw__decoder_manifest(d, m);
        for (uint32_t i = 0; i < petw__manifest_provider_count(man); i++) {
            const petw__man_provider *p = petw__manifest_provider(man, i);
            if (!memcmp(&p->guid, guid, sizeof(*guid)))
                return p;
        }
    }
    return NULL;
}

/* ---- building the variable-size answers ---- */

/* Sizes an answer, then writes it: `fixed` bytes of structures, then the
 * WCHAR strings put() appends. */
typedef struct out_buf {
    uint8_t *base; /* NULL while sizing */
    size_t at;
} out_buf;

static ULONG put(out_buf *o, const char *s)
{
    if (!s)
        return 0;
    size_t n = petw__tdh_wide_len(s) + 1, at = o->at;
    if (o->base)
        petw__utf8_to_wcs(s, (WCHAR *)(o->base + at), n);
    o->at += n * sizeof(WCHAR);
    return (ULONG)at;
}

/* Runs `fill` once to size and, if Buffer holds that, once to write. */
static ULONG answer(void *Buffer, ULONG *BufferSize, size_t fixed,
                    void (*fill)(out_buf *o, const void *ctx), const void *ctx)
{
    out_buf o = {NULL, fixed};
    fill(&o, ctx);
    if (o.at > 0xFFFFFFFFu || Buffer == NULL || *BufferSize < o.at) {
        *BufferSize = (ULONG)o.at;
        return ERROR_INSUFFICIENT_BUFFER;
    }
    memset(Buffer, 0, o.at);
    o.base = Buffer;
    o.at = fixed;
    fill(&o, ctx);
    *BufferSize = (ULONG)o.at;
    return ERROR_SUCCESS;
}

/* An event's template as TDH lays it out: top-level fields first, then
 * each struct's members as one block, in order (breadth first). */
typedef struct event_ctx {
    const petw__man_provider *pv;
    const petw__man_event *ev;
    uint32_t n;                                 /* properties */
    uint32_t field[PETW__MAN_MAX_FIELDS];       /* property -> template field */
    uint32_t property[PETW__MAN_MAX_FIELDS];    /* template field -> property */
    uint32_t block_start[PETW__MAN_MAX_FIELDS]; /* a struct's first member */
} event_ctx;

static void plan_event(event_ctx *c)
{
    uint32_t base = c->ev->first_field;
    c->n = 0;
    if (c->ev->field_count == 0) /* no template: and maybe no fields at all */
        return;
    const petw__man_field *fields = c->pv->fields + base;
    for (uint32_t j = 0, k = 0; k < c->ev->top_count && j < c->ev->field_count; k++) {
        c->field[c->n++] = j;
        j = fields[j].next - base;
    }
    for (uint32_t k = 0; k < c->n; k++) {
        const petw__man_field *f = &fields[c->field[k]];
        c->block_start[k] = c->n;
        if (!(f->flags & PETW__MANF_STRUCT))
            continue;
        for (uint32_t m = 0, j = c->field[k] + 1; m < f->members && j < c->ev->field_count; m++) {
            c->field[c->n++] = j;
            j = fields[j].next - base;
        }
    }
    for (uint32_t k = 0; k < c->n; k++)
        c->property[c->field[k]] = k;
}

static void fill_event(out_buf *o, const void *ctx)
{
    const event_ctx *c = ctx;
    const petw__man_event *ev = c->ev;
    TRACE_EVENT_INFO *t = (TRACE_EVENT_INFO *)o->base;
    TRACE_EVENT_INFO scratch;
    memset(&scratch, 0, sizeof(scratch));
    if (!t)
        t = &scratch; /* sizing: the offsets go nowhere */
    memcpy(&t->ProviderGuid, &c->pv->guid, sizeof(GUID));
    t->EventDescriptor.Id = ev->id;
    t->EventDescriptor.Version = ev->version;
    t->EventDescriptor.Channel = ev->channel;
    t->EventDescriptor.Level = ev->level;
    t->EventDescriptor.Opcode = ev->opcode;
    t->EventDescriptor.Task = ev->task;
    t->EventDescriptor.Keyword = ev->keywords;
    t->DecodingSource = DecodingSourceXMLFile;
    t->ProviderNameOffset = put(o, c->pv->name);
    t->EventNameOffset = put(o, ev->symbol);
    t->TaskNameOffset = put(o, ev->task_name);
    t->OpcodeNameOffset = put(o, ev->opcode_name);
    t->LevelNameOffset = put(o, ev->level_name);
    t->EventMessageOffset = put(o, ev->message);
    t->ProviderMessageOffset = put(o, c->pv->message);
    t->PropertyCount = c->n;
    t->TopLevelPropertyCount = ev->top_count;
    t->Flags = TEMPLATE_USER_DATA;
    for (uint32_t k = 0; k < c->n; k++) {
        const petw__man_field *fields = c->pv->fields + ev->first_field;
        const petw__man_field *f = &fields[c->field[k]];
        EVENT_PROPERTY_INFO pi_scratch;
        memset(&pi_scratch, 0, sizeof(pi_scratch));
        EVENT_PROPERTY_INFO *pi = o->base ? &t->EventPropertyInfoArray[k] : &pi_scratch;
        pi->NameOffset = put(o, f->name);
        pi->count = 1;
        if (f->flags & PETW__MANF_COUNT_REF) {
            pi->Flags |= PropertyParamCount;
            pi->countPropertyIndex = (USHORT)c->property[f->count];
        } else if (f->flags & PETW__MANF_COUNT) {
            pi->Flags |= PropertyParamFixedCount;
            pi->count = f->count;
        }
        if (f->flags & PETW__MANF_STRUCT) {
            pi->Flags |= PropertyStruct;
            pi->structType.StructStartIndex = (USHORT)c->block_start[k];
            pi->structType.NumOfStructMembers = f->members;
            continue;
        }
        pi->nonStructType.InType = petw__tdh_in(f->in_type);
        pi->nonStructType.OutType = petw__tdh_out(f->out_type, f->in_type);
        if (f->map >= 0 && (uint32_t)f->map < c->pv->map_count)
            pi->nonStructType.MapNameOffset = put(o, c->pv->maps[f->map].name);
        if (f->flags & PETW__MANF_LENGTH_REF) {
            pi->Flags |= PropertyParamLength;
            pi->lengthPropertyIndex = (USHORT)c->property[f->length];
        } else if (f->flags & PETW__MANF_LENGTH) {
            pi->Flags |= PropertyParamFixedLength;
            pi->length = f->length;
        } else {
            pi->length = petw__tdh_fixed_length(pi->nonStructType.InType);
        }
    }
}

ULONG petw__tdh_manifest_info(const petw__man_provider *pv, const petw__man_event *ev,
                              PTRACE_EVENT_INFO Buffer, ULONG *BufferSize)
{
    event_ctx *c = malloc(sizeof(*c));
    if (!c)
        return ERROR_NOT_ENOUGH_MEMORY;
    c->pv = pv, c->ev = ev;
    plan_event(c);
    size_t fixed = offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) +
                   (c->n ? c->n : 1) * sizeof(EVENT_PROPERTY_INFO);
    ULONG rc = answer(Buffer, BufferSize, fixed, fill_event, c);
    free(c);
    return rc;
}

ULONG EVNTAPI TdhGetManifestEventInformation(LPGUID ProviderGuid, PEVENT_DESCRIPTOR EventDescriptor,
                                             PTRACE_EVENT_INFO Buffer, ULONG *BufferSize)
{
    if (!ProviderGuid || !EventDescriptor || !BufferSize || (!Buffer && *BufferSize))
        return ERROR_INVALID_PARAMETER;
    petw_decoder *d = petw__tdh_enter();
    const petw__man_provider *pv = petw__tdh_provider(d, ProviderGuid);
    const petw__man_event *ev =
        pv ? petw__manifest_find_event(pv, EventDescriptor->Id, EventDescriptor->Version) : NULL;
    ULONG rc = !d   ? ERROR_NOT_ENOUGH_MEMORY
               : ev ? petw__tdh_manifest_info(pv, ev, Buffer, BufferSize)
                    : ERROR_NOT_FOUND;
    petw__tdh_leave();
    return rc;
}

ULONG EVNTAPI TdhEnumerateManifestProviderEvents(LPGUID ProviderGuid, PPROVIDER_EVENT_INFO Buffer,
                                                 ULONG *BufferSize)
{
    if (!ProviderGuid || !BufferSize || (!Buffer && *BufferSize))
        return ERROR_INVALID_PARAMETER;
    petw_decoder *d = petw__tdh_enter();
    const petw__man_provider *pv = petw__tdh_provider(d, ProviderGuid);
    ULONG rc = ERROR_SUCCESS;
    if (!pv) {
        rc = d ? ERROR_NOT_FOUND : ERROR_NOT_ENOUGH_MEMORY;
    } else if (pv->event_count == 0) {
        rc = ERROR_EMPTY;
    } else {
        size_t need = offsetof(PROVIDER_EVENT_INFO, EventDescriptorsArray) +
                      pv->event_count * sizeof(EVENT_DESCRIPTOR);
        if (Buffer == NULL || *BufferSize < need) {
            rc = ERROR_INSUFFICIENT_BUFFER;
        } else {
            memset(Buffer, 0, need);
            Buffer->NumberOfEvents = pv->event_count;
            for (uint32_t i = 0; i < pv->event_count; i++) {
                const petw__man_event *ev = &pv->events[i];
                EVENT_DESCRIPTOR *e = &Buffer->EventDescriptorsArray[i];
                e->Id = ev->id, e->Version = ev->version, e->Channel = ev->channel;
                e->Level = ev->level, e->Opcode = ev->opcode, e->Task = ev->task;
                e->Keyword = ev->keywords;
            }
        }
        *BufferSize = (ULONG)need;
    }
    petw__tdh_leave();
    return rc;
}

/* ---- maps ---- */

typedef struct map_ctx {
    const petw__man_provider *pv;
    const petw__man_map *map;
} map_ctx;

static void fill_map(out_buf *o, const void *ctx)
{
    const map_ctx *c = ctx;
    EVENT_MAP_INFO scratch;
    memset(&scratch, 0, sizeof(scratch));
    EVENT_MAP_INFO *m = o->base ? (EVENT_MAP_INFO *)o->base : &scratch;
    m->NameOffset = put(o, c->map->name);
    m->Flag =
        c->map->bitmap ? EVENTMAP_INFO_FLAG_MANIFEST_BITMAP : EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP;
    m->EntryCount = c->map->count;
    m->MapEntryValueType = EVENTMAP_ENTRY_VALUETYPE_ULONG;
    for (uint32_t i = 0; i < c->map->count; i++) {
        const petw__man_map_entry *e = &c->pv->map_entries[c->map->first + i];
        EVENT_MAP_ENTRY es, *out = o->base ? &m->MapEntryArray[i] : &es;
        out->OutputOffset = put(o, e->text);
        out->Value = (ULONG)e->value;
    }
}

ULONG EVNTAPI TdhGetEventMapInformation(PEVENT_RECORD Event, PWSTR MapName, PEVENT_MAP_INFO Buffer,
                                        ULONG *BufferSize)
{
    char name[512];
    if (!Event || !MapName || !BufferSize || (!Buffer && *BufferSize))
        return ERROR_INVALID_PARAMETER;
    petw__wcs_to_utf8(MapName, name, sizeof(name));
    petw_decoder *d = petw__tdh_enter();
    const petw__man_provider *pv = petw__tdh_provider(d, &Event->EventHeader.ProviderId);
    ULONG rc = d ? ERROR_NOT_FOUND : ERROR_NOT_ENOUGH_MEMORY;
    for (uint32_t i = 0; pv && i < pv->map_count; i++) {
        if (strcmp(pv->maps[i].name, name) != 0)
            continue;
        map_ctx c = {pv, &pv->maps[i]};
        size_t fixed = offsetof(EVENT_MAP_INFO, MapEntryArray) +
                       (c.map->count ? c.map->count : 1) * sizeof(EVENT_MAP_ENTRY);
        rc = answer(Buffer, BufferSize, fixed, fill_map, &c);
        break;
    }
    petw__tdh_leave();
    return rc;
}

/* ---- providers and their fields ---- */

typedef struct providers_ctx {
    petw_decoder *d;
    uint32_t n;
} providers_ctx;

/* Each provider with a schema: the manifests', then the kernel classes'
 * (the class names); written to o->base unless sizing. */
static void each_provider(const providers_ctx *c, out_buf *o, uint32_t *n)
{
    PROVIDER_ENUMERATION_INFO *pe = (PROVIDER_ENUMERATION_INFO *)o->base;
    *n = 0;
    for (uint32_t m = 0; m < petw__decoder_manifest_count(c->d); m++) {
        const petw__manifest *man = petw__decoder_manifest(c->d, m);
        for (uint32_t i = 0; i < petw__manifest_provider_count(man); i++, (*n)++) {
            const petw__man_provider *p = petw__manifest_provider(man, i);
            ULONG at = put(o, p->name);
            if (pe) {
                memcpy(&pe->TraceProviderInfoArray[*n].ProviderGuid, &p->guid, sizeof(GUID));
                pe->TraceProviderInfoArray[*n].SchemaSource = 0;
                pe->TraceProviderInfoArray[*n].ProviderNameOffset = at;
            }
        }
    }
    const petw__manifest *kernel = petw__decoder_kernel(c->d);
    for (uint32_t i = 0; kernel && i < petw__manifest_provider_count(kernel); i++, (*n)++) {
        const petw__man_provider *p = petw__manifest_provider(kernel, i);
        ULONG at = put(o, p->name);
        if (pe) {
            memcpy(&pe->TraceProviderInfoArray[*n].ProviderGuid, &p->guid, sizeof(GUID));
            pe->TraceProviderInfoArray[*n].SchemaSource = 1;
            pe->TraceProviderInfoArray[*n].ProviderNameOffset = at;
        }
    }
}

static void fill_providers(out_buf *o, const void *ctx)
{
    const providers_ctx *c = ctx;
    uint32_t n;
    each_provider(c, o, &n);
    if (o->base)
        ((PROVIDER_ENUMERATION_INFO *)o->base)->NumberOfProviders = n;
}

ULONG EVNTAPI TdhEnumerateProviders(PPROVIDER_ENUMERATION_INFO Buffer, ULONG *BufferSize)
{
    if (!BufferSize || (!Buffer && *BufferSize))
        return ERROR_INVALID_PARAMETER;
    petw_decoder *d = petw__tdh_enter();
    ULONG rc = ERROR_NOT_ENOUGH_MEMORY;
    if (d) {
        providers_ctx c = {d, 0};
        out_buf count = {NULL, 0};
        each_provider(&c, &count, &c.n);
        size_t fixed = offsetof(PROVIDER_ENUMERATION_INFO, TraceProviderInfoArray) +
                       (c.n ? c.n : 1) * sizeof(TRACE_PROVIDER_INFO);
        rc = answer(Buffer, BufferSize, fixed, fill_providers, &c);
    }
    petw__tdh_leave();
    return rc;
}

typedef struct fields_ctx {
    const petw__man_provider *pv;
    uint32_t kind;
    int query;
    uint64_t value;
    uint32_t n;
} fields_ctx;

static void fill_fields(out_buf *o, const void *ctx)
{
    const fields_ctx *c = ctx;
    PROVIDER_FIELD_INFOARRAY *a = (PROVIDER_FIELD_INFOARRAY *)o->base;
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->pv->name_count; i++) {
        const petw__man_name *nm = &c->pv->names[i];
        if (nm->kind != c->kind || (c->query && nm->value != c->value))
            continue;
        ULONG at = put(o, nm->text);
        if (a) {
            a->FieldInfoArray[n].NameOffset = at;
            a->FieldInfoArray[n].Value = nm->value;
        }
        n++;
    }
    if (a) {
        a->NumberOfElements = n;
        a->FieldType = c->kind == PETW__MAN_LEVEL  ? EventLevelInformation
                       : c->kind == PETW__MAN_TASK ? EventTaskInformation
                                                   : EventOpcodeInformation;
    }
}

static ULONG field_info(LPGUID guid, EVENT_FIELD_TYPE type, int query, ULONGLONG value,
                        PPROVIDER_FIELD_INFOARRAY Buffer, ULONG *BufferSize)
{
    if (!guid || !BufferSize || (!Buffer && *BufferSize))
        return ERROR_INVALID_PARAMETER;
    if (type == EventKeywordInformation || type == EventChannelInformation)
        return ERROR_NOT_SUPPORTED;
    if (type != EventLevelInformation && type != EventTaskInformation &&
        type != EventOpcodeInformation)
        return ERROR_INVALID_PARAMETER;
    petw_decoder *d = petw__tdh_enter();
    fields_ctx c = {petw__tdh_provider(d, guid),
                    type == EventLevelInformation  ? PETW__MAN_LEVEL
                    : type == EventTaskInformation ? PETW__MAN_TASK
                                                   : PETW__MAN_OPCODE,
                    query, value, 0};
    ULONG rc = d ? ERROR_NOT_FOUND : ERROR_NOT_ENOUGH_MEMORY;
    if (c.pv) {
        for (uint32_t i = 0; i < c.pv->name_count; i++)
            c.n += c.pv->names[i].kind == c.kind && (!query || c.pv->names[i].value == value);
        if (c.n) {
            size_t fixed = offsetof(PROVIDER_FIELD_INFOARRAY, FieldInfoArray) +
                           c.n * sizeof(PROVIDER_FIELD_INFO);
            rc = answer(Buffer, BufferSize, fixed, fill_fields, &c);
        }
    }
    petw__tdh_leave();
    return rc;
}

ULONG EVNTAPI TdhEnumerateProviderFieldInformation(LPGUID pGuid, EVENT_FIELD_TYPE EventFieldType,
                                                   PPROVIDER_FIELD_INFOARRAY pBuffer,
                                                   ULONG *pBufferSize)
{
    return field_info(pGuid, EventFieldType, 0, 0, pBuffer, pBufferSize);
}

ULONG EVNTAPI TdhQueryProviderFieldInformation(LPGUID pGuid, ULONGLONG EventFieldValue,
                                               EVENT_FIELD_TYPE EventFieldType,
                                               PPROVIDER_FIELD_INFOARRAY pBuffer,
                                               ULONG *pBufferSize)
{
    return field_info(pGuid, EventFieldType, 1, EventFieldValue, pBuffer, pBufferSize);
}
