/* SPDX-License-Identifier: MIT */
/* wpp.h - WPP trace message format (TMF) files, the text tracepdb writes
 * from a PDB's WPP annotations: for each message GUID its component name,
 * and for each message number its #typev name (file_line), format string,
 * level, flags, function and argument list (name, item type, number).
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 */
#ifndef PETW_DECODE_WPP_H
#define PETW_DECODE_WPP_H

#include <stddef.h>
#include <stdint.h>

#include "petw/types.h"

/* An argument's item type: how its bytes are read and shown. */
typedef enum petw__wpp_item {
    PETW__WPP_INT,     /* signed, `size` bytes */
    PETW__WPP_UINT,    /* unsigned, `size` bytes */
    PETW__WPP_HEX,     /* unsigned, shown in hexadecimal */
    PETW__WPP_POINTER, /* the writer's pointer size, hexadecimal */
    PETW__WPP_STRING,  /* ANSI, NUL-terminated */
    PETW__WPP_WSTRING, /* UTF-16LE, NUL-terminated */
    PETW__WPP_GUID,    /* 16 bytes */
    PETW__WPP_DOUBLE,  /* 8 bytes */
    PETW__WPP_ENUM,    /* unsigned, `size` bytes, named by `labels` */
    PETW__WPP_UNKNOWN  /* an item type petw does not read: the message stays raw */
} petw__wpp_item;

typedef struct petw__wpp_arg {
    const char *name; /* the expression the source logged */
    petw__wpp_item item;
    uint8_t size;       /* bytes, for the fixed-size items */
    uint32_t number;    /* %N in the format: 10 for the first argument */
    const char *labels; /* ENUM: the names, NUL-separated, ending with an empty one */
    uint32_t label_count;
} petw__wpp_arg;

typedef struct petw__wpp_message {
    petw_guid guid;        /* the message GUID (TraceMessage's MessageGuid) */
    uint32_t number;       /* TraceMessage's MessageNumber */
    const char *guid_name; /* the component the GUID line names */
    const char *type_name; /* #typev's name: the source file and line */
    const char *format;    /* the message, without its %0 prefix marker */
    const char *level, *flags, *function, *component, *subcomponent; /* or "" */
    uint32_t arg_count;
    const petw__wpp_arg *args;
} petw__wpp_message;

typedef struct petw__wpp petw__wpp;

/* Parses a TMF file's text. Returns 0 with *out set, PETW_ENOMEM, or
 * PETW_ECORRUPT with the reason (and line) in `why`. Lines it does not know
 * (comments, #enumv blocks, other directives) are skipped. */
int petw__wpp_parse(const char *text, size_t size, petw__wpp **out, char *why, size_t why_size);
void petw__wpp_free(petw__wpp *w);
/* The message `number` of message GUID `guid`, or NULL. */
const petw__wpp_message *petw__wpp_find(const petw__wpp *w, const petw_guid *guid, uint32_t number);
/* Messages in the file, and the i-th (for tests and fuzzing). */
uint32_t petw__wpp_count(const petw__wpp *w);
const petw__wpp_message *petw__wpp_at(const petw__wpp *w, uint32_t i);

#endif
