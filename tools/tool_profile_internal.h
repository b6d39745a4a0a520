/* SPDX-License-Identifier: MIT */
/* tool_profile_internal.h - what tool_profile.c (the shared helpers, logman
 * provider files, reading a file) and tool_profile_wprp.c (WPR profiles)
 * share. */
#ifndef TOOL_PROFILE_INTERNAL_H
#define TOOL_PROFILE_INTERNAL_H

#include "tool_profile.h"

/* Compares ASCII text without case, as strcmp. */
int profile__casecmp(const char *a, const char *b);
/* s[0, n): a whole number, 0x hex or decimal, at most `max`. Returns 0 or -1. */
int profile__number(const char *s, size_t n, uint64_t max, uint64_t *out);
/* Writes "line N: reason" (or the reason alone for line 0) into err; returns -1. */
int profile__fail(char *err, size_t size, long line, const char *fmt, ...);
/* Adds a line to out->unsupported, unless the same line is there already. */
void profile__unsupported(profile *out, const char *fmt, ...);
/* Enables `id` with `keywords` at `level` (-1: not given), merged with an
 * entry for the same provider. Returns 0 or -1 (err set). */
int profile__add_provider(profile *out, const char *id, uint64_t keywords, int level, char *err,
                          size_t err_size, long line);
/* Adds the comma-separated `names` to the comma-separated `list` (of
 * `size` bytes), each once. */
void profile__add_names(char *list, size_t size, const char *names);
/* The built-in profiles, as one WPR profile file (tool_profile_builtin.c). */
extern const char profile__builtin_wprp[];
/* A WPR profile's chosen profile (tool_profile_wprp.c; built with expat). */
int profile__parse_wprp(const char *data, size_t size, const char *select, profile *out, char *err,
                        size_t err_size);

#endif
