/* SPDX-License-Identifier: MIT */
/* common.h - internal helpers shared by every module (no OS headers of its
 * own; it brings platform.h's byte, UTF and SID helpers).
 *
 * Allowed dependencies: platform/, libuv. Only control.c (library init, the
 * control lock) and bufqueue.c use them; the helpers here are pure.
 */
#ifndef PETW_COMMON_H
#define PETW_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../platform/platform.h" /* the byte, UTF and SID helpers */
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

/* Copies n bytes without a call (memcpy of a size unknown to the compiler
 * is one): moves of 16, 8, 4 or 1 bytes, the last of each size overlapping
 * the one before, so no byte outside either range is read or written. For
 * the write path, where a call would make the compiler keep every value
 * live across it on the stack; a plain loop of moves beyond 64 bytes. */
static inline void petw__copy_inline(void *dst, const void *src, uint32_t n)
{
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
    if (n > 32) {
        for (uint32_t i = 0; i + 16 < n; i += 16) {
            memcpy(d + i, s + i, 16);
#if defined(__GNUC__) || defined(__clang__)
            /* Compiler-only: keeps the loop a loop (not a memcpy call again). */
            __asm__("" : "+r"(d));
#endif
        }
        memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 16) {
        memcpy(d, s, 16);
        memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n != 0) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

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

/* Division by a divisor fixed in advance (a trace's clock frequency), as a
 * multiply and two shifts: Granlund and Montgomery, "Division by Invariant
 * Integers using Multiplication" (1994), figure 4.1. Exact for every
 * 64-bit numerator. petw__udiv_init returns 0, or PETW_ENOTSUP where the
 * compiler has no 128-bit integers (callers divide as before). */
typedef struct petw__udiv {
    uint64_t divisor;
    uint64_t magic; /* floor(2^64 * (2^l - d) / d) + 1, l = ceil(log2 d) */
    uint8_t shift1; /* min(l, 1) */
    uint8_t shift2; /* max(l - 1, 0) */
} petw__udiv;

int petw__udiv_init(petw__udiv *u, uint64_t divisor);
static inline uint64_t petw__udiv_div(const petw__udiv *u, uint64_t n)
{
#ifdef __SIZEOF_INT128__
    uint64_t t = (uint64_t)(((unsigned __int128)u->magic * n) >> 64);
    return (t + ((n - t) >> u->shift1)) >> u->shift2;
#else
    return n / u->divisor;
#endif
}
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
