/* SPDX-License-Identifier: MIT */
/* in6addr.h - IN6_ADDR, an IPv6 address in network byte order, as in the
 * Windows SDK (bytes as u.Byte / s6_bytes / s6_addr, 16-bit words as
 * u.Word / s6_words). Part of petw's Win32 layer: ETW consumers
 * size TDH_OUTTYPE_IPV6 properties with it. When the C library's
 * <netinet/in.h> came first, its struct in6_addr is the type (the two
 * cannot both be defined) and s6_words is not there. */
#if defined(_WIN32)
#include_next <in6addr.h>
#else
#ifndef PETW_ETW_IN6ADDR_H
#define PETW_ETW_IN6ADDR_H

#include <windows.h>

#ifndef _NETINET_IN_H
typedef struct in6_addr {
    union {
        UCHAR Byte[16];
        USHORT Word[8];
    } u;
} IN6_ADDR, *PIN6_ADDR, *LPIN6_ADDR;

#define in_addr6 in6_addr
#define _S6_un u
#define _S6_u8 Byte
#define s6_addr _S6_un._S6_u8
#define s6_bytes u.Byte
#define s6_words u.Word
#else
typedef struct in6_addr IN6_ADDR, *PIN6_ADDR, *LPIN6_ADDR;
#endif

#endif /* PETW_ETW_IN6ADDR_H */
#endif
