/* SPDX-License-Identifier: MIT */
/* recording_profile.h - recording profiles for `petw start --profile` and
 * `petw record --profile`: the providers to enable (and a few session
 * settings) read from a file written for Windows' own tools.
 *
 *  - A WPR profile (.wprp, the XML Windows Performance Recorder reads;
 *    needs expat). One <Profile> of the file is chosen (see recording_profile_parse)
 *    and everything it records resolved: its Base profiles, the
 *    EventCollectorId elements of its <Collectors> (BufferSize in KB,
 *    Buffers) and the event providers under them, referenced by
 *    EventProviderId or written inline, each through its own Base chain
 *    (Name, Level, the Keyword values OR-ed; Operation="Add" on Collectors,
 *    EventProviders and Keywords adds to what the base has, the default
 *    "Set" replaces it). LoggingMode="Memory" is an in-memory trace.
 *  - A logman provider file (`logman -pf FILE`): one provider a line,
 *    "NAME WITH SPACES", {GUID}, a bare GUID or name, then optional
 *    keywords (0x hex or decimal) and level (0x hex or decimal). Blank
 *    lines and lines starting with '#' or ';' are skipped.
 *
 *  - One of WPR's built-in profiles by its name (GeneralProfile, CPU,
 *    DiskIO, FileIO, Network, VirtualAllocation; `wpr -start NAME`): petw's
 *    own definitions of them (recording_profile_builtin.c), read as a WPR
 *    profile is.
 *
 * A profile's kernel events (<SystemCollectorId> with its SystemProviders'
 * Keywords and Stacks, WPR's names: ProcessThread, CSwitch, FileIO, ...) are
 * mapped to the kernel groups `--kernel` and `--stacks` take (`kernel`,
 * `stacks`). What the chosen profile asks for that petw does not do (a
 * system keyword or stack with no source, Stack="true" on an event
 * provider, capture state, event filters, a Base that is not in the file,
 * keyword names in a provider file...) is never dropped silently: each is
 * a line of `unsupported`.
 * Attributes that change nothing petw records (Description, NonPagedMemory,
 * Strict, Default, a collector's Name or FileName, anything "false") are
 * ignored. GUIDs and names are not checked here: the caller resolves them.
 * Reads only its input: no petw library call. */
#ifndef RECORDING_PROFILE_H
#define RECORDING_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#define RECORDING_PROFILE_MAX_PROVIDERS 32
#define RECORDING_PROFILE_MAX_UNSUPPORTED 16
#define RECORDING_PROFILE_MAX_FILE (16u << 20) /* recording_profile_load refuses larger files */

typedef struct recording_profile_provider {
    char id[256];      /* a GUID (as written) or a provider name, '*' removed */
    uint64_t keywords; /* 0: every keyword (none given) */
    uint8_t level;     /* 1..255; 5 (verbose) when not given, 255 for level 0 (every level) */
} recording_profile_provider;

typedef struct recording_profile {
    char name[128]; /* the chosen WPR profile's Id; "" for a provider file */
    recording_profile_provider
        providers[RECORDING_PROFILE_MAX_PROVIDERS]; /* each provider once (merged) */
    int count;
    uint32_t buffer_size_kb; /* 0: not given */
    uint32_t buffers;        /* 0: not given */
    int memory;              /* 1: LoggingMode="Memory" (an in-memory trace) */
    int builtin;             /* 1: one of petw's built-in profiles (WPR's names) */
    char kernel[256]; /* its kernel groups as `--kernel` names, comma-separated; "" for none */
    char stacks[128]; /* the groups whose stacks it records, as `--stacks` names */
    char unsupported[RECORDING_PROFILE_MAX_UNSUPPORTED]
                    [160]; /* what petw does not do yet, one line each */
    int unsupported_count; /* lines beyond the array are counted, and the last line says
                              "... and N more" */
} recording_profile;

/* Parses a profile from memory. `wprp`: 1 for WPR XML, 0 for a logman
 * provider file. `select`: the WPR profile to pick: a Profile Id, or
 * Name.DetailLevel, or Name (then DetailLevel "Verbose" and LoggingMode
 * "File" are preferred), compared without regard to ASCII case. NULL: the
 * only profile, or the Name every profile of the file shares (as with a
 * Name); otherwise an error listing the profile Ids. A provider named twice
 * is enabled once, with the union of its keywords and the higher level.
 * Returns 0, or -1 with a one-line reason (with a line number where there
 * is one) in err. Never crashes on any input. */
int recording_profile_parse(const char *data, size_t size, int wprp, const char *select,
                            recording_profile *out, char *err, size_t err_size);

/* Reads `spec` = FILE or FILE!PROFILE (wpr's own syntax; a FILE that
 * exists as given is never split), decides the format (a ".wprp" suffix,
 * or content whose first non-blank character is '<', is WPR XML) and
 * parses it. A spec that names no file but one of the built-in profiles
 * (recording_profile_builtin_names; NAME or NAME.DetailLevel, any case) is that
 * profile. Refuses files over RECORDING_PROFILE_MAX_FILE (16 MB). Returns 0 or -1
 * with the reason (starting with the file's name) in err. */
int recording_profile_load(const char *spec, recording_profile *out, char *err, size_t err_size);

/* The built-in profiles' names, comma-separated (for messages and help). */
extern const char recording_profile_builtin_names[];

#endif
