/* SPDX-License-Identifier: MIT */
/* platform_bytes.h - bytes and text, the same on every host: little-endian
 * fields, GUIDs, UTF conversions, SIDs, IPv6 text.
 * Part of platform.h, which includes it (include either).
 */
#ifndef PETW_PLATFORM_BYTES_H
#define PETW_PLATFORM_BYTES_H

#include "platform.h"

/* ---- bytes and text, the same on every host ----
 * Little-endian fields (every petw format) read and written at any alignment,
 * the UTF conversions (platform_utf.c), and SIDs (platform_sid.c): the
 * Win32 base functions of platform_win32.c and platform_security.c are
 * built on them, and every module above uses them too. */

/* Little-endian loads and stores on byte buffers (the on-disk format), at
 * any alignment. On a little-endian host each is one move (memcpy of a
 * constant size): GCC does not always merge the byte-by-byte form (it did
 * not in the header of an extended item, which EventWrite fills per event). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PETW__LE_MOVE(type, bits)                                                                  \
    static inline type petw__rd##bits(const uint8_t *p)                                            \
    {                                                                                              \
        type v;                                                                                    \
        memcpy(&v, p, sizeof(v));                                                                  \
        return v;                                                                                  \
    }                                                                                              \
    static inline void petw__wr##bits(uint8_t *p, type v)                                          \
    {                                                                                              \
        memcpy(p, &v, sizeof(v));                                                                  \
    }
PETW__LE_MOVE(uint16_t, 16)
PETW__LE_MOVE(uint32_t, 32)
PETW__LE_MOVE(uint64_t, 64)
#undef PETW__LE_MOVE
#else
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
#endif
/* Host-order loads at any alignment: what the kernel wrote in this
 * machine's byte order (perf's ring records, tracepoints' raw data). */
#define PETW__HOST_LOAD(type, bits)                                                                \
    static inline type petw__ld##bits(const uint8_t *p)                                            \
    {                                                                                              \
        type v;                                                                                    \
        memcpy(&v, p, sizeof(v));                                                                  \
        return v;                                                                                  \
    }
PETW__HOST_LOAD(uint16_t, 16)
PETW__HOST_LOAD(uint32_t, 32)
PETW__HOST_LOAD(uint64_t, 64)
#undef PETW__HOST_LOAD
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

/* SIDs (platform_sid.c): revision, sub-authority count, 48-bit big-endian
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

/* The 16 bytes of an IPv6 address (network order) at `p` as text, as
 * RtlIpv6AddressToString writes it (platform_ip.c), into `text` (`size`
 * >= 46 bytes, INET6_ADDRSTRLEN). */
void petw__ipv6_text(const uint8_t *p, char *text, size_t size);
/* S-R-I-S-S... (the authority decimal, or hex after 0x; at most 15
 * sub-authorities) into `out`: the SID's size, PETW_EINVAL when the text
 * is not a SID, PETW_EBADLENGTH when it does not fit in out_size. */
int petw__sid_parse(const char *text, uint8_t *out, size_t out_size);

#endif /* PETW_PLATFORM_BYTES_H */
