/* SPDX-License-Identifier: MIT */
/* wintime.c - FILETIME <-> calendar date, in the proleptic Gregorian
 * calendar Windows uses, and the local zone's current offset. */
#include "../platform/platform.h"
#include "common.h"

#define TICKS_PER_MS 10000ULL
#define TICKS_PER_DAY (86400ULL * 1000ULL * TICKS_PER_MS)

static int is_leap(unsigned y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static unsigned month_days(unsigned y, unsigned m)
{
    static const unsigned char days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

/* Days from 1601-01-01 to y-m-d (Howard Hinnant's days_from_civil, moved
 * from 1970 to 1601: 1601-01-01 is day 134774 before the Unix epoch). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468 + 134774;
}

int petw__civil_from_filetime(uint64_t ft, uint16_t out[8])
{
    if (ft >> 63)
        return PETW_EINVAL;
    uint64_t days = ft / TICKS_PER_DAY;
    uint64_t rem = ft % TICKS_PER_DAY;
    /* civil_from_days, from the Unix epoch. */
    int64_t z = (int64_t)days - 134774 + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    unsigned d = doy - (153 * mp + 2) / 5 + 1;
    unsigned m = mp < 10 ? mp + 3 : mp - 9;
    int64_t y = (int64_t)yoe + era * 400 + (m <= 2);
    out[0] = (uint16_t)y;
    out[1] = (uint16_t)m;
    out[2] = (uint16_t)((days + 1) % 7); /* 1601-01-01 was a Monday */
    out[3] = (uint16_t)d;
    out[4] = (uint16_t)(rem / (3600000ULL * TICKS_PER_MS));
    out[5] = (uint16_t)(rem / (60000ULL * TICKS_PER_MS) % 60);
    out[6] = (uint16_t)(rem / (1000ULL * TICKS_PER_MS) % 60);
    out[7] = (uint16_t)(rem / TICKS_PER_MS % 1000);
    return 0;
}

int petw__filetime_from_civil(const uint16_t in[8], uint64_t *ft)
{
    unsigned y = in[0], m = in[1], d = in[3];
    if (y < 1601 || y > 30827 || m < 1 || m > 12 || d < 1 || d > month_days(y, m) || in[4] > 23 ||
        in[5] > 59 || in[6] > 59 || in[7] > 999)
        return PETW_EINVAL;
    uint64_t days = (uint64_t)days_from_civil(y, m, d);
    *ft = days * TICKS_PER_DAY +
          (((uint64_t)in[4] * 60 + in[5]) * 60 + in[6]) * 1000 * TICKS_PER_MS +
          (uint64_t)in[7] * TICKS_PER_MS;
    return 0;
}

int64_t petw__local_offset_100ns(void)
{
    return (int64_t)petw__local_offset_now() * 10000000;
}

int64_t petw__local_offset_100ns_at(uint64_t ft)
{
    int64_t unix_seconds = (int64_t)(ft / 10000000u) - 11644473600LL;
    return (int64_t)petw__local_offset_at(unix_seconds) * 10000000;
}

uint64_t petw__system_filetime(void)
{
    return (uint64_t)petw__filetime_now();
}

int petw__udiv_init(petw__udiv *u, uint64_t d)
{
    if (d == 0)
        return PETW_EINVAL;
    u->divisor = d;
#ifdef __SIZEOF_INT128__
    unsigned l = 0;
    while (l < 64 && ((uint64_t)1 << l) < d)
        l++;
    /* 2^l - d < d, so the quotient fits 64 bits; l = 64 only when d > 2^63. */
    unsigned __int128 two_l = (unsigned __int128)1 << l;
    u->magic = (uint64_t)((((unsigned __int128)1 << 64) * (two_l - d)) / d + 1);
    u->shift1 = (uint8_t)(l < 1 ? l : 1);
    u->shift2 = (uint8_t)(l > 1 ? l - 1 : 0);
    return 0;
#else
    return PETW_ENOTSUP;
#endif
}
