/* SPDX-License-Identifier: MIT */
/* recording_profile_internal.h - what recording_profile.c (the shared helpers, logman
 * provider files, reading a file) and recording_profile_wprp.c and
 * recording_profile_wprp_resolve.c (WPR profiles) share. */
#ifndef RECORDING_PROFILE_INTERNAL_H
#define RECORDING_PROFILE_INTERNAL_H

#include "recording_profile.h"

/* Compares ASCII text without case, as strcmp. */
int recording_profile__casecmp(const char *a, const char *b);
/* s[0, n): a whole number, 0x hex or decimal, at most `max`. Returns 0 or -1. */
int recording_profile__number(const char *s, size_t n, uint64_t max, uint64_t *out);
/* Writes "line N: reason" (or the reason alone for line 0) into err; returns -1. */
int recording_profile__fail(char *err, size_t size, long line, const char *fmt, ...);
/* Adds a line to out->unsupported, unless the same line is there already. */
void recording_profile__unsupported(recording_profile *out, const char *fmt, ...);
/* Enables `id` with `keywords` at `level` (-1: not given), merged with an
 * entry for the same provider. Returns 0 or -1 (err set). */
int recording_profile__add_provider(recording_profile *out, const char *id, uint64_t keywords,
                                    int level, char *err, size_t err_size, long line);
/* Adds the comma-separated `names` to the comma-separated `list` (of
 * `size` bytes), each once. */
void recording_profile__add_names(char *list, size_t size, const char *names);
/* The built-in profiles, as one WPR profile file (recording_profile_builtin.c). */
extern const char recording_profile__builtin_wprp[];
/* A WPR profile's chosen profile (recording_profile_wprp.c; built with expat). */
int recording_profile__parse_wprp(const char *data, size_t size, const char *select,
                                  recording_profile *out, char *err, size_t err_size);

#endif
