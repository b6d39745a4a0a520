/* SPDX-License-Identifier: MIT */
/* libFuzzer target: recording profiles (tools/recording_profile.c), what
 * `petw start --profile FILE` reads: WPR XML and logman provider files.
 * The first byte picks the format (bit 0: WPR XML) and the profile
 * selector (bits 1-2): none, "Trace", "Trace.Verbose", or the text of the
 * input up to its first newline (at most 200 bytes), which then is not
 * parsed. The rest is the file. Whatever it holds, recording_profile_parse must
 * return 0 with a sane profile (providers, or kernel groups alone) or -1
 * with a reason, and never read or write out of bounds. */
#include <stdint.h>
#include <string.h>

#include "recording_profile.h"

static size_t bounded_len(const char *s, size_t cap)
{
    const char *nul = memchr(s, 0, cap);
    return nul ? (size_t)(nul - s) : cap;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const fixed[] = {NULL, "Trace", "Trace.Verbose"};
    char select[201];
    static recording_profile p;
    char err[256];
    if (size == 0)
        return 0;
    int wprp = data[0] & 1, mode = (data[0] >> 1) & 3;
    const char *sel = mode < 3 ? fixed[mode] : select;
    data++;
    size--;
    if (mode == 3) {
        const uint8_t *nl = memchr(data, '\n', size < 200 ? size : 200);
        size_t n = nl ? (size_t)(nl - data) : (size < 200 ? size : 200);
        memcpy(select, data, n);
        select[n] = 0;
        data += n + (nl != NULL);
        size -= n + (nl != NULL);
    }
    int rc = recording_profile_parse((const char *)data, size, wprp, sel, &p, err, sizeof(err));
    if (rc == -1) {
        if (bounded_len(err, sizeof(err)) == 0 || bounded_len(err, sizeof(err)) == sizeof(err))
            __builtin_trap(); /* a failure always says why, in a string */
        return 0;
    }
    size_t kernel = bounded_len(p.kernel, sizeof(p.kernel));
    if (rc != 0 || (p.count < 1 && kernel == 0) || p.count > RECORDING_PROFILE_MAX_PROVIDERS ||
        p.unsupported_count < 0 || bounded_len(p.name, sizeof(p.name)) == sizeof(p.name) ||
        kernel == sizeof(p.kernel) || bounded_len(p.stacks, sizeof(p.stacks)) == sizeof(p.stacks))
        __builtin_trap(); /* providers, or kernel groups alone (a SystemProvider's) */
    for (int i = 0; i < p.count; i++) {
        size_t n = bounded_len(p.providers[i].id, sizeof(p.providers[i].id));
        if (n == 0 || n == sizeof(p.providers[i].id) || p.providers[i].level == 0)
            __builtin_trap();
    }
    int lines = p.unsupported_count < RECORDING_PROFILE_MAX_UNSUPPORTED
                    ? p.unsupported_count
                    : RECORDING_PROFILE_MAX_UNSUPPORTED;
    for (int i = 0; i < lines; i++)
        if (bounded_len(p.unsupported[i], sizeof(p.unsupported[i])) == sizeof(p.unsupported[i]))
            __builtin_trap();
    return 0;
}
