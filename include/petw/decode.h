/* SPDX-License-Identifier: MIT */
/* petw/decode.h - decoding events into named, typed fields.
 *
 * Where the names come from, first match wins:
 *   1. TraceLogging events carry their own schema (the PROV_TRAITS and
 *      EVENT_SCHEMA_TL extended-data items, as Windows writes them):
 *      provider name, event name, and each field's name, type and value,
 *      nested structs and arrays included.
 *   2. EventWriteString events: one string field named "string".
 *   3. Events of a provider described by an instrumentation manifest added
 *      with petw_decoder_add_manifest(), matched by provider GUID, event id
 *      and version: the template's fields (lengths and counts from other
 *      fields, structs, value and bit maps), the task, opcode and level
 *      names, and the message with its inserts. Then the manifests .NET
 *      EventSource providers write into the trace (ManifestData events,
 *      id 0xFFFE, opcode 0xFE, in chunks): petw_decode collects them and
 *      decodes the provider's later events with them; the ManifestData
 *      events themselves decode as "ManifestData" (fields Format,
 *      MajorVersion, MinorVersion, Magic, TotalChunks, ChunkNumber,
 *      ChunkSize). A manifest event without a symbol is named by its task
 *      and opcode ("TaskScheduled/Send"; the task alone for Info).
 *   4. Classic kernel records (NT Kernel Logger classes, a file's EventTrace
 *      header): a built-in table of the layouts Microsoft documents,
 *      matched by class GUID, opcode and version (petw_kernel_class_name()
 *      names the class; the opcode's name is the event name).
 *   5. Anything else: one binary field named "data".
 * Decoding never trusts the record: a malformed schema or a payload
 * shorter than it says is an error for that event, never an over-read.
 *
 * Thread safety: a petw_decoder is used by one thread at a time; what it
 * returns is valid until its next call or petw_decoder_free().
 */
#ifndef PETW_DECODE_H
#define PETW_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TraceLogging / TDH input types (TDH_INTYPE_* values). */
#define PETW_IN_NULL 0
#define PETW_IN_UNICODESTRING 1
#define PETW_IN_ANSISTRING 2
#define PETW_IN_INT8 3
#define PETW_IN_UINT8 4
#define PETW_IN_INT16 5
#define PETW_IN_UINT16 6
#define PETW_IN_INT32 7
#define PETW_IN_UINT32 8
#define PETW_IN_INT64 9
#define PETW_IN_UINT64 10
#define PETW_IN_FLOAT 11
#define PETW_IN_DOUBLE 12
#define PETW_IN_BOOL32 13
#define PETW_IN_BINARY 14
#define PETW_IN_GUID 15
#define PETW_IN_POINTER 16
#define PETW_IN_FILETIME 17
#define PETW_IN_SYSTEMTIME 18
#define PETW_IN_SID 19
#define PETW_IN_HEXINT32 20
#define PETW_IN_HEXINT64 21
#define PETW_IN_COUNTEDSTRING 22
#define PETW_IN_COUNTEDANSISTRING 23
#define PETW_IN_STRUCT 24
#define PETW_IN_COUNTEDBINARY 25

/* Output types that change how a value reads (TDH_OUTTYPE_*). */
#define PETW_OUT_STRING 2
#define PETW_OUT_BOOLEAN 3
#define PETW_OUT_HEX 4
#define PETW_OUT_PID 5
#define PETW_OUT_TID 6
#define PETW_OUT_PORT 7
#define PETW_OUT_IPV4 8
#define PETW_OUT_IPV6 9
#define PETW_OUT_WIN32ERROR 13
#define PETW_OUT_NTSTATUS 14
#define PETW_OUT_HRESULT 15
#define PETW_OUT_UTF8 35

typedef enum petw_value_kind {
    PETW_VALUE_NONE,
    PETW_VALUE_INT,        /* signed integer: v.i */
    PETW_VALUE_UINT,       /* unsigned integer: v.u */
    PETW_VALUE_HEX,        /* unsigned, shown in hexadecimal: v.u */
    PETW_VALUE_FLOAT,      /* v.f */
    PETW_VALUE_BOOL,       /* v.u is 0 or 1 */
    PETW_VALUE_STRING,     /* UTF-8, NUL-terminated: v.s */
    PETW_VALUE_GUID,       /* v.guid */
    PETW_VALUE_FILETIME,   /* v.i, 100 ns since 1601 */
    PETW_VALUE_SYSTEMTIME, /* v.st[8]: year, month, weekday, day, h, m, s, ms */
    PETW_VALUE_BINARY,     /* v.bin */
    PETW_VALUE_STRUCT,     /* children: `count` fields from `first` */
    PETW_VALUE_ARRAY       /* children: `count` elements from `first` */
} petw_value_kind;

typedef struct petw_field {
    const char *name; /* UTF-8; elements of an array carry the array's name */
    uint8_t in_type;  /* PETW_IN_* */
    uint8_t out_type; /* PETW_OUT_* or 0 */
    petw_value_kind kind;
    uint32_t parent; /* index of the struct/array holding it, or UINT32_MAX */
    uint32_t first;  /* struct/array: index of the first child */
    uint32_t count;  /* struct/array: number of children */
    union {
        int64_t i;
        uint64_t u;
        double f;
        const char *s;
        petw_guid guid;
        uint16_t st[8];
        struct {
            const uint8_t *data;
            uint32_t size;
        } bin;
    } v;
    uint32_t data_offset; /* the value's bytes: user_data + data_offset, */
    uint32_t data_size;   /* data_size long (a struct's or array's: all of it) */
    const char *label;    /* a manifest value map's or bitmap's text, or NULL */
} petw_field;

typedef struct petw_decoded_event {
    const char *provider_name; /* from the provider traits, or NULL */
    const char *event_name;    /* from the event schema, or NULL */
    uint32_t top_count;        /* top-level fields: fields[0..top_count) */
    uint32_t field_count;      /* all fields, nested ones after their parents' level */
    petw_field *fields;
    int has_schema; /* 0: one binary field "data" */
    /* Manifest-described events (NULL otherwise): the names of the event's
     * task, opcode and level (their message text where the manifest gives
     * one), and its message with the inserts filled in. */
    const char *task_name, *opcode_name, *level_name, *message;
    /* WPP messages a TMF file describes (NULL otherwise): the #typev name
     * (the source file and line, also event_name), the function, the flags'
     * name, the component and subcomponent ("" when the TMF names none).
     * provider_name is then the component the message GUID line names,
     * level_name the level's and message the formatted text. */
    const char *wpp_type_name, *wpp_function, *wpp_flags, *wpp_component, *wpp_subcomponent;
} petw_decoded_event;

typedef struct petw_decoder petw_decoder;

/* A decoder keeps the schemas it has seen and the memory of the last
 * decoded event; one thread at a time. Each distinct schema is parsed once
 * (up to 256 schemas or 4 MB are kept, the oldest dropped first), so
 * decoding costs time in proportion to the event's size (its schema's
 * bytes, its payload and the fields it yields).
 * Returns 0, PETW_EINVAL (`out` NULL) or PETW_ENOMEM. */
int petw_decoder_new(petw_decoder **out);
/* Frees the decoder; NULL is fine. */
void petw_decoder_free(petw_decoder *decoder);

/* Adds the instrumentation manifest at `path` (an XML .man file as mc.exe
 * takes it or `wevtutil gp PROVIDER /ge /gm /f:xml` writes it), or every
 * *.man and *.xml file of the directory `path`. Providers are matched by
 * GUID; those added first win. A file named as `path` must load whole; of
 * a directory's files, one with slips (a name an event uses that the
 * manifest does not define, as exported manifests have) is added without
 * what is wrong (an event naming an unknown task has no task name; an
 * event or provider that cannot be read is left out) and one that is no
 * manifest (not XML, cut short) is passed over, each with one line in
 * petw_decoder_warnings(). Returns 0, PETW_ENOTFOUND (no such path, or a
 * directory without a .man or .xml file), PETW_ECORRUPT (malformed XML, or
 * a name an event uses that the manifest does not define), PETW_ELIMIT
 * (over 64 MB), PETW_EIO or PETW_ENOMEM; petw_decoder_error() then says
 * which file, line and why. */
int petw_decoder_add_manifest(petw_decoder *decoder, const char *path);
/* The same, from `size` bytes of XML in memory. */
int petw_decoder_add_manifest_xml(petw_decoder *decoder, const void *xml, size_t size);
/* Adds the WPP trace message format file at `path` (a .tmf, the text
 * tracepdb writes from a PDB), or every *.tmf file of the directory `path`:
 * WPP messages (PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE records, TraceMessage's)
 * whose message GUID and number it lists then decode to their arguments
 * (named as the source logged them) and their formatted text (`message`),
 * as TDH_CONTEXT_WPP_TMFFILE and tracefmt decode them. Files added first
 * win. Returns 0, PETW_ENOTFOUND, PETW_ECORRUPT (a line that is not TMF:
 * petw_decoder_error() says which), PETW_ELIMIT (over 64 MB), PETW_EIO or
 * PETW_ENOMEM. */
int petw_decoder_add_tmf(petw_decoder *decoder, const char *path);
/* The same, from `size` bytes of TMF text in memory. */
int petw_decoder_add_tmf_text(petw_decoder *decoder, const void *text, size_t size);
/* What the last petw_decoder_add_manifest() of a directory passed over:
 * one line per file read in part or not at all ("FILE: line N: what
 * (read without what it names)" or "FILE: ... (not read)"), each ending in
 * '\n'; "" if none. Valid until the next such call. */
const char *petw_decoder_warnings(const petw_decoder *decoder);
/* What the last failed petw_decoder_add_manifest* call, or the last
 * petw_decode of a ManifestData event, found wrong ("" if none); valid
 * until the next such call. */
const char *petw_decoder_error(const petw_decoder *decoder);

/* Decodes one event. Returns 0 with *out set, PETW_ECORRUPT (malformed
 * schema or short payload: the event cannot be decoded; for a ManifestData
 * event, a bad envelope, a chunk out of sequence or a manifest that does
 * not parse, petw_decoder_error() saying which), PETW_ELIMIT (a
 * ManifestData event past the limits on manifests collected: 64 MB of
 * chunks in flight, 256 providers' or 64 MB of manifests kept),
 * PETW_EINVAL or PETW_ENOMEM. Decoding goes on after any of them. */
int petw_decode(petw_decoder *decoder, const petw_event_record *record,
                const petw_decoded_event **out);

#ifdef __cplusplus
}
#endif
#endif
