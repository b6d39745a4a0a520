/* SPDX-License-Identifier: MIT */
/* tool_time.c - FILETIMEs (100 ns since 1601, UTC) as ISO-8601 text, and
 * back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

#define UNIX_EPOCH_FILETIME 116444736000000000LL
#define TICKS_PER_SECOND 10000000LL
/* 9999-12-31T23:59:59.9999999Z, the last FILETIME with a four-digit year. */
#define LAST_FILETIME 2650467743999999999LL

/* The date and time of day are cached per second: consecutive events
 * share them. Times outside 1601..9999 (a damaged or hostile file's, or a
 * conversion that saturated) are shown clamped to that range. */
void format_time(int64_t filetime, char out[TIME_TEXT_SIZE])
{
    static time_t cached_secs = (time_t)-1;
    static char cached[64];
    if (filetime < 0)
        filetime = 0;
    if (filetime > LAST_FILETIME)
        filetime = LAST_FILETIME;
    int64_t unix100 = filetime - UNIX_EPOCH_FILETIME;
    time_t secs = (time_t)(unix100 >= 0 ? unix100 / TICKS_PER_SECOND
                                        : (unix100 - (TICKS_PER_SECOND - 1)) / TICKS_PER_SECOND);
    int64_t frac = unix100 - (int64_t)secs * TICKS_PER_SECOND;
    if (secs != cached_secs) {
        struct tm tm;
        memset(&tm, 0, sizeof(tm));
        tool_gmtime(&secs, &tm);
        snprintf(cached, sizeof(cached), "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900,
                 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
        cached_secs = secs;
    }
    memcpy(out, cached, 19);
    out[19] = '.';
    for (int i = 26; i >= 20; i--) {
        out[i] = (char)('0' + frac % 10);
        frac /= 10;
    }
    out[27] = 'Z';
    out[28] = 0;
}

int parse_time(const char *text, int64_t *filetime)
{
    char *end;
    long long v = strtoll(text, &end, 10);
    if (*end == 0) {
        *filetime = v;
        return 0;
    }
    struct tm tm;
    memset(&tm, 0, sizeof(tm));
    double sec = 0;
    if (sscanf(text, "%d-%d-%dT%d:%d:%lf", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
               &tm.tm_min, &sec) != 6)
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    tm.tm_sec = (int)sec;
    time_t t = tool_timegm(&tm);
    *filetime = (int64_t)t * TICKS_PER_SECOND + UNIX_EPOCH_FILETIME +
                (int64_t)((sec - (int)sec) * (double)TICKS_PER_SECOND + 0.5);
    return 0;
}
