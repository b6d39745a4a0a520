/* common.h - internal helpers shared by every module (no OS headers).
 *
 * Allowed dependencies: platform/, libuv. Only control.c (library init, the
 * control lock) and bufqueue.c use them; the helpers here are pure.
 */
#ifndef PETW_COMMON_H
#define PETW_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "petw/error.h"
#include "petw/types.h"

#if defined(__GNUC__) || defined(__clang__)
#define PETW__LIKELY(x) __builtin_expect(!!(x), 1)
#define PETW__UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PETW__NOINLINE __attribute__((noinline))
#define PETW__ALWAYS_INLINE inline __attribute__((always_inline))
#define PETW__ALIGNED(n) __attribute__((aligned(n)))
#else
#define PETW__LIKELY(x) (x)
#define PETW__UNLIKELY(x) (x)
#define PETW__NOINLINE
#define PETW__ALWAYS_INLINE inline
#define PETW__ALIGNED(n)
#endif

#define PETW__CACHE_LINE 64
#define PETW__ALIGN8(x) (((x) + 7u) & ~(uint32_t)7u)
#define PETW__ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Error-path helpers in the spirit of zstd's RETURN_ERROR_IF: return the code
 * when the condition holds. Built with -Derror_trace=true (PETW_ERROR_TRACE),
 * each one also says where it fired: "petw: lib/x/y.c:42: cond: PETW_EINVAL". */
#ifdef PETW_ERROR_TRACE
#define PETW__ERROR_FIRED(err, what)                                                               \
    petw__warn("%s:%d: %s: %s", __FILE__, __LINE__, what, petw_err_name(err))
#else
#define PETW__ERROR_FIRED(err, what) ((void)0)
#endif
#define PETW__RETURN_IF(cond, err)                                                                 \
    do {                                                                                           \
        if (PETW__UNLIKELY(cond)) {                                                                \
            PETW__ERROR_FIRED(err, #cond);                                                         \
            return (err);                                                                          \
        }                                                                                          \
    } while (0)
#define PETW__FORWARD_IF_ERROR(expr)                                                               \
    do {                                                                                           \
        int petw__rc = (expr);                                                                     \
        if (petw__rc < 0) {                                                                        \
            PETW__ERROR_FIRED(petw__rc, "from " #expr);                                            \
            return petw__rc;                                                                       \
        }                                                                                          \
    } while (0)

/* Little-endian loads and stores on byte buffers (the on-disk format). */
static inline uint16_t petw__rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t petw__rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t petw__rd64(const uint8_t *p)
{
    return (uint64_t)petw__rd32(p) | ((uint64_t)petw__rd32(p + 4) << 32);
}
static inline void petw__wr16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void petw__wr32(uint8_t *p, uint32_t v)
{
    petw__wr16(p, (uint16_t)v);
    petw__wr16(p + 2, (uint16_t)(v >> 16));
}
static inline void petw__wr64(uint8_t *p, uint64_t v)
{
    petw__wr32(p, (uint32_t)v);
    petw__wr32(p + 4, (uint32_t)(v >> 32));
}
static inline void petw__wr_guid(uint8_t *p, const petw_guid *g)
{
    petw__wr32(p, g->data1);
    petw__wr16(p + 4, g->data2);
    petw__wr16(p + 6, g->data3);
    memcpy(p + 8, g->data4, 8);
}
static inline void petw__rd_guid(const uint8_t *p, petw_guid *g)
{
    g->data1 = petw__rd32(p);
    g->data2 = petw__rd16(p + 4);
    g->data3 = petw__rd16(p + 6);
    memcpy(g->data4, p + 8, 8);
}

/* UTF-8 <-> UTF-16LE (on-disk names). Output is always NUL-terminated and
 * truncated to fit; return the number of code units written (no NUL). */
size_t petw__utf8_to_utf16le(const char *in, uint8_t *out, size_t out_units);
size_t petw__utf16le_to_utf8(const uint8_t *in, size_t in_units, char *out, size_t out_size);
/* wchar_t (UTF-32 on Linux, UTF-16 on Windows) <-> UTF-8. */
size_t petw__wcs_to_utf8(const wchar_t *in, char *out, size_t out_size);
/* As petw__wcs_to_utf8, for names and paths that must not be cut: returns
 * 0, or PETW_ENAMETOOLONG when the whole string did not fit. */
int petw__wcs_to_utf8_fit(const wchar_t *in, char *out, size_t out_size);
size_t petw__utf8_to_wcs(const char *in, wchar_t *out, size_t out_chars);
/* Counted conversions (MultiByteToWideChar, WideCharToMultiByte): `n`
 * units of input, NULs converted like any character, no NUL added. Each
 * character is one wchar_t (a surrogate pair where wchar_t is 16-bit).
 * What does not fit in out_chars / out_size is not written: *needed says
 * how much the whole conversion takes (out may be NULL with size 0, to
 * count). Input that is not UTF-8 (or not Unicode: a lone surrogate, a
 * value above U+10FFFF) becomes U+FFFD, or with `strict` fails with
 * PETW_EINVAL; *replaced (wcs_to_utf8_n) says whether one was made. 0 or
 * PETW_EINVAL. */
int petw__utf8_to_wcs_n(const char *in, size_t n, wchar_t *out, size_t out_chars, int strict,
                        size_t *needed);
int petw__wcs_to_utf8_n(const wchar_t *in, size_t n, char *out, size_t out_size, int strict,
                        size_t *needed, int *replaced);
/* Names and paths of the ETW functions with an A suffix, in the process's
 * ANSI code page, to UTF-8 and back (platform's conversions: a copy where
 * UTF-8 is that code page). 0, PETW_ENAMETOOLONG when the string and its
 * NUL do not fit in `out_size` bytes, PETW_EINVAL when it does not convert. */
int petw__ansi_to_utf8_fit(const char *in, char *out, size_t out_size);
int petw__utf8_to_ansi_fit(const char *in, char *out, size_t out_size);

/* SIDs (sid.c): revision, sub-authority count, 48-bit big-endian
 * authority, then the 32-bit little-endian sub-authorities. The size of
 * the SID at `p` (n bytes readable): 8 + 4 per sub-authority, or
 * PETW_ECORRUPT when it does not fit in n. */
#define PETW__SID_MAX_SUB_AUTHORITIES 15
#define PETW__SID_MAX_SIZE (8 + 4 * PETW__SID_MAX_SUB_AUTHORITIES)
/* Room for any SID's text, 255 sub-authorities included. */
#define PETW__SID_TEXT_MAX (32 + 11 * 255)
int petw__sid_size(const uint8_t *p, size_t n);
/* The SID at `p` as text, S-R-I-S-S... (the authority in decimal below
 * 2^32, else 0x and 12 hex digits, as Windows writes it), cut to fit
 * `size`. Returns the SID's size, or PETW_ECORRUPT as petw__sid_size. */
int petw__sid_text(const uint8_t *p, size_t n, char *text, size_t size);
/* S-R-I-S-S... (the authority decimal, or hex after 0x; at most 15
 * sub-authorities) into `out`: the SID's size, PETW_EINVAL when the text
 * is not a SID, PETW_EBADLENGTH when it does not fit in out_size. */
int petw__sid_parse(const char *text, uint8_t *out, size_t out_size);

/* Windows' calendar arithmetic (FileTimeToSystemTime and friends): a
 * FILETIME (100 ns since 1601-01-01 UTC, below 2^63) <-> its date fields
 * in SYSTEMTIME order: year, month, day of week (0 Sunday), day, hour,
 * minute, second, millisecond. petw__civil_from_filetime returns 0 or
 * PETW_EINVAL (2^63 or more); petw__filetime_from_civil returns 0 or
 * PETW_EINVAL (a field out of range: year 1601-30827, the day in its
 * month; the day of week is not read). */
int petw__civil_from_filetime(uint64_t ft, uint16_t out[8]);
int petw__filetime_from_civil(const uint16_t in[8], uint64_t *ft);
/* The local zone's offset now (local = UTC + offset), in 100 ns units. */
int64_t petw__local_offset_100ns(void);
/* The same at a FILETIME (UTC), by the zone's rules for that date. */
int64_t petw__local_offset_100ns_at(uint64_t ft);
/* The wall clock now as a FILETIME. */
uint64_t petw__system_filetime(void);
/* Other hosts than Windows: the process's arguments, each NUL-terminated,
 * one after the other (*out malloc'ed, *size bytes), and the current
 * directory: 0 or a PETW_E* code. */
int petw__own_command_line(char **out, size_t *size);
int petw__working_dir(char *out, size_t size);

/* Makes room for one more item in a growable array of *cap items, `count`
 * of them used (doubling, from 64). Returns 0, or PETW_ENOMEM with the
 * array unchanged. */
int petw__array_grow(void **items, uint32_t *cap, uint32_t count, size_t item_size);

/* The process-wide control lock (recursive), serializing every control
 * operation: provider (un)registration, session start/stop/enable, and
 * enable callbacks. Never taken on the EventWrite path. */
void petw__control_lock(void);
void petw__control_unlock(void);

/* Writes "petw: <message>" and a newline on stderr (error traces; never on
 * the hot path). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 1, 2)))
#endif
void petw__warn(const char *fmt, ...);

/* One-time library initialization (platform, control lock). Idempotent. */
void petw__library_init(void);

#endif /* PETW_COMMON_H */
