/* SPDX-License-Identifier: MIT */
/* recording_profile.c - recording profiles (recording_profile.h): what both formats
 * share, logman provider files (read line by line), and reading a file of
 * either kind; WPR profiles are recording_profile_wprp.c's. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "recording_profile_internal.h"

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* One line, s[0, e): PROVIDER [KEYWORDS [LEVEL]], each a word or a
 * "quoted" one; KEYWORDS may be (names) with blanks inside. */
static int provider_line(const char *s, const char *e, long line, recording_profile *out, char *err,
                         size_t err_size)
{
    const char *word[3];
    size_t len[3];
    int words = 0;
    if (memchr(s, 0, (size_t)(e - s)))
        return recording_profile__fail(err, err_size, line, "a NUL byte: not a text file");
    for (;;) {
        while (s < e && blank(*s))
            s++;
        if (s == e)
            break;
        if (*s == '#' || *s == ';')
            break; /* a comment, to the end of the line */
        if (words == 3)
            return recording_profile__fail(err, err_size, line,
                                           "more than a provider, keywords and a level: '%.*s'",
                                           (int)(e - s), s);
        const char *start = s, *close = NULL;
        if (*s == '"' || *s == '(') {
            close = memchr(s + 1, *s == '"' ? '"' : ')', (size_t)(e - s - 1));
            if (!close)
                return recording_profile__fail(err, err_size, line, "no closing %s",
                                               *s == '"' ? "quote" : "')'");
            s = close + 1;
            if (s < e && !blank(*s))
                return recording_profile__fail(err, err_size, line, "text right after '%c'",
                                               *close);
            if (*start == '"')
                start++; /* the quotes are not part of the word */
            else
                close = s;
        } else {
            while (s < e && !blank(*s))
                s++;
            close = s;
        }
        word[words] = start;
        len[words++] = (size_t)(close - start);
    }
    if (words == 0)
        return 0;
    char id[sizeof(out->providers[0].id)];
    if (len[0] && word[0][0] == '*') { /* xperf's "name-hashed GUID" mark */
        word[0]++;
        len[0]--;
    }
    if (len[0] == 0 || len[0] >= sizeof(id))
        return recording_profile__fail(err, err_size, line,
                                       "a provider must be 1 to %zu characters", sizeof(id) - 1);
    memcpy(id, word[0], len[0]);
    id[len[0]] = 0;
    uint64_t keywords = 0, level = 0;
    if (words > 1 && len[1] && word[1][0] == '(')
        recording_profile__unsupported(
            out, "line %ld: '%s': keyword names %.*s (every keyword is enabled)", line, id,
            (int)len[1], word[1]);
    else if (words > 1 && recording_profile__number(word[1], len[1], UINT64_MAX, &keywords) != 0)
        return recording_profile__fail(err, err_size, line,
                                       "keywords '%.*s' are not a number (0x hex or decimal)",
                                       (int)len[1], word[1]);
    if (words > 2 && recording_profile__number(word[2], len[2], 255, &level) != 0)
        return recording_profile__fail(err, err_size, line,
                                       "level '%.*s' is not 0-255 (0x hex or decimal)", (int)len[2],
                                       word[2]);
    return recording_profile__add_provider(out, id, keywords, words > 2 ? (int)level : -1, err,
                                           err_size, line);
}

static int parse_provider_file(const char *data, size_t size, recording_profile *out, char *err,
                               size_t err_size)
{
    if (size >= 2 &&
        ((data[0] == '\xff' && data[1] == '\xfe') || (data[0] == '\xfe' && data[1] == '\xff')))
        return recording_profile__fail(err, err_size, 0,
                                       "UTF-16 text: save the provider file as UTF-8 or ASCII");
    if (size >= 3 && !memcmp(data, "\xef\xbb\xbf", 3)) { /* a UTF-8 byte order mark */
        data += 3;
        size -= 3;
    }
    const char *p = data, *end = data + size;
    for (long line = 1; p < end; line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        if (provider_line(p, eol, line, out, err, err_size) != 0)
            return -1;
        p = eol + (eol < end);
    }
    if (out->count == 0)
        return recording_profile__fail(err, err_size, 0, "no provider in the file");
    return 0;
}

int recording_profile_parse(const char *data, size_t size, int wprp, const char *select,
                            recording_profile *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof(*out));
    if (err && err_size)
        err[0] = 0;
    if (select && !select[0])
        select = NULL;
    if (!data)
        size = 0;
    if (!wprp)
        return select ? recording_profile__fail(err, err_size, 0,
                                                "a provider file has no profile '%s'", select)
                      : parse_provider_file(data ? data : "", size, out, err, err_size);
#if defined(PETW_HAVE_EXPAT)
    return recording_profile__parse_wprp(data ? data : "", size, select, out, err, err_size);
#else
    return recording_profile__fail(err, err_size, 0,
                                   "this petw was built without XML support (expat)");
#endif
}

/* ---- reading the file ---- */

/* 1 when the text starts (after blanks and a byte order mark) with '<'. */
static int looks_like_xml(const unsigned char *d, size_t n)
{
    size_t step = 1, at = 0; /* UTF-16: the ASCII byte of each unit is at `at` */
    if (n >= 3 && d[0] == 0xef && d[1] == 0xbb && d[2] == 0xbf) {
        d += 3;
        n -= 3;
    } else if (n >= 2 && ((d[0] == 0xff && d[1] == 0xfe) || (d[0] == 0xfe && d[1] == 0xff))) {
        at = d[0] == 0xfe;
        step = 2;
        d += 2;
        n -= 2;
    }
    for (size_t i = 0; i + step <= n; i += step) {
        if (step == 2 && d[i + 1 - at] != 0)
            return 0;
        if (d[i + at] != ' ' && d[i + at] != '\t' && d[i + at] != '\r' && d[i + at] != '\n')
            return d[i + at] == '<';
    }
    return 0;
}

/* The whole file (at most RECORDING_PROFILE_MAX_FILE bytes), or NULL with the reason. */
static char *read_file(const char *path, size_t *size, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        recording_profile__fail(err, err_size, 0, "%s: cannot open it", path);
        return NULL;
    }
    size_t cap = 64 << 10, n = 0;
    char *buf = malloc(cap), *p;
    const char *why = buf ? NULL : "out of memory";
    while (!why) {
        n += fread(buf + n, 1, cap - n, f);
        if (ferror(f))
            why = "cannot read it";
        else if (n > RECORDING_PROFILE_MAX_FILE)
            why = "larger than 16 MB";
        else if (n < cap)
            break;
        else if (!(p = realloc(buf, cap = cap * 2 < RECORDING_PROFILE_MAX_FILE
                                              ? cap * 2
                                              : RECORDING_PROFILE_MAX_FILE + 1)))
            why = "out of memory";
        else
            buf = p;
    }
    fclose(f);
    if (why) {
        free(buf);
        recording_profile__fail(err, err_size, 0, "%s: %s", path, why);
        return NULL;
    }
    *size = n;
    return buf;
}

int recording_profile_load(const char *spec, recording_profile *out, char *err, size_t err_size)
{
    char path[4096], reason[400];
    const char *select = NULL, *bang = strrchr(spec, '!');
    struct stat st;
    memset(out, 0, sizeof(*out));
    if (strlen(spec) >= sizeof(path))
        return recording_profile__fail(err, err_size, 0, "a profile path of over %zu characters",
                                       sizeof(path) - 1);
    snprintf(path, sizeof(path), "%s", spec);
    if (bang && stat(spec, &st) != 0) { /* FILE!PROFILE, unless FILE is all of it */
        path[bang - spec] = 0;
        select = bang + 1;
    }
    size_t size = 0, n = strlen(path);
    int builtin = !select && stat(spec, &st) != 0 && !strchr(spec, '/') && !strchr(spec, '\\');
    if (builtin && recording_profile_parse(recording_profile__builtin_wprp,
                                           strlen(recording_profile__builtin_wprp), 1, spec, out,
                                           reason, sizeof(reason)) == 0) {
        out->builtin = 1; /* a name of WPR's, not a file here */
        return 0;
    }
    char *data = read_file(path, &size, err, err_size);
    if (!data && builtin)
        return recording_profile__fail(err, err_size, 0,
                                       "%s: no such file, nor one of the built-in profiles (%s)",
                                       path, recording_profile_builtin_names);
    if (!data)
        return -1;
    int wprp = (n >= 5 && !recording_profile__casecmp(path + n - 5, ".wprp")) ||
               looks_like_xml((const unsigned char *)data, size);
    int rc = recording_profile_parse(data, size, wprp, select, out, reason, sizeof(reason));
    free(data);
    return rc ? recording_profile__fail(err, err_size, 0, "%s: %s", path, reason) : 0;
}
