/* SPDX-License-Identifier: MIT */
/* output.h - the formats `petw dump` and `petw convert` write, behind one
 * interface (begin, event, end), and the value writing they share.
 *
 * Every format builds each record in a growable buffer and writes it whole:
 * no length limit, and no partial record when memory runs out. Strings and
 * names come out as well-formed UTF-8 whatever the trace holds (ill-formed
 * sequences become U+FFFD), escaped for the format. */
#ifndef OUTPUT_H
#define OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <petw/petw.h>

#include "output_buf.h"

/* ---- output_value.c: strings for each format, and decoded values ---- */

/* `s` quoted and escaped as a JSON string. */
void json_string(sbuf *b, const char *s);
/* The event's provider as a JSON string: its name (TraceLogging traits or a
 * known class), else its GUID. */
void json_provider(sbuf *b, const petw_event_record *r, const petw_decoded_event *ev);
/* A decoded value as JSON (structs as objects, arrays as arrays). */
void json_value(sbuf *b, const petw_decoded_event *ev, const petw_field *f);
/* `count` fields from `first` as JSON members: "name":value,... */
void json_members(sbuf *b, const petw_decoded_event *ev, uint32_t first, uint32_t count);
/* `s` as one CSV field, quoted when it holds a comma, quote, CR or LF. */
void csv_field(sbuf *b, const char *s);
/* `s` for one line of plain text: control characters escaped as in JSON
 * (\u000a), the rest as it is. */
void text_string(sbuf *b, const char *s);

/* ---- output.c: the interface ---- */

typedef struct output output;

typedef struct output_format {
    const char *name;
    /* Writes what precedes the records; may set o->state. 0 or -1. */
    int (*begin)(output *o);
    /* One record; `ev` is its decoding (NULL when it could not be decoded). */
    void (*event)(output *o, const petw_event_record *r, const petw_decoded_event *ev);
    /* Writes what follows the records and frees o->state. */
    void (*end)(output *o);
} output_format;

/* Numeric fields shown as counters (--counter PROVIDER/EVENT/FIELD): the
 * provider's name (as the formats print it), the event's and the field's. */
typedef struct counter_spec {
    char provider[128], event[128], field[128];
    const char *text; /* as the user wrote it: the counter's name */
} counter_spec;
#define MAX_COUNTERS 16
typedef struct counter_list {
    counter_spec items[MAX_COUNTERS];
    uint32_t count;
} counter_list;
/* Takes "PROVIDER/EVENT/FIELD" (kept by reference); returns 0, or -1 when
 * it is not that form or there are too many (reported on stderr). */
int counter_list_add(counter_list *l, const char *spec);
/* The value of the field `c` names when `ev` (of provider `provider`) is
 * its event and the field is a number: 1 and *value, else 0. */
int counter_value(const counter_spec *c, const char *provider, const petw_decoded_event *ev,
                  double *value);

struct output {
    const output_format *format;
    FILE *file;
    sbuf line;        /* the record being built */
    void *state;      /* the format's own */
    uint64_t records; /* records written (Chrome: metadata records too) */
    uint64_t events;  /* trace records given to output_event */
    int error;        /* 0, PETW_ENOMEM or PETW_EIO */
    /* Optional (set after output_begin): 1 when the raw session timestamp
     * `raw` (a StackWalk event's EventTimeStamp) is the time `filetime` of
     * a record. NULL: only the thread ties a stack to its event. */
    int (*same_time)(void *context, int64_t raw, int64_t filetime);
    void *time_context;
    const counter_list *counters; /* optional: the fields shown as counters (chrome) */
};

extern const output_format output_text, output_csv, output_json, output_chrome;

/* The format named `name` ("text", "csv", "json", "chrome"), or NULL. */
const output_format *output_find(const char *name);

/* Starts writing `format` to `file`. Returns 0 or PETW_ENOMEM. */
int output_begin(output *o, const output_format *format, FILE *file);
void output_event(output *o, const petw_event_record *r, const petw_decoded_event *ev);
/* Finishes, flushes `file` (left open) and frees. Returns 0, PETW_ENOMEM
 * or PETW_EIO (a record could not be built or written). */
int output_end(output *o);
/* Writes o->line as one record and empties it. */
void output_record(output *o);

/* Helpers for the formats. */
/* `ev` when it carries a schema (named fields), else NULL. */
const petw_decoded_event *with_schema(const petw_decoded_event *ev);
/* The CPU the record was written on. */
unsigned record_cpu(const petw_event_record *r);
/* The record's process and thread IDs as Windows' tools show them: the
 * header's, or where the header has none (0xFFFFFFFF: kernel events such
 * as SampledProfile and StackWalk) the event's own fields (ProcessId,
 * ThreadId, TThreadId, StackProcess, StackThread; `ev` may be NULL);
 * RECORD_NO_ID when neither says. */
#define RECORD_NO_ID UINT64_MAX
void record_ids(const petw_event_record *r, const petw_decoded_event *ev, uint64_t *pid,
                uint64_t *tid);
/* A binary SID (`size` bytes) as text: S-<revision>-<authority>-<sub>...;
 * "?" when it is too short for what it says. */
void sid_text(sbuf *b, const uint8_t *p, size_t size);
/* 1 and the record's related activity ID in `related`, or 0. */
int record_related(const petw_event_record *r, petw_guid *related);
/* The items enable properties add (SID, terminal session, process start
 * key, event key, stack), appended as " name=value" (text) or
 * "\"name\":value," (JSON); nothing when the record has none. */
void record_properties(sbuf *b, const petw_event_record *r, int json);

#endif /* OUTPUT_H */
