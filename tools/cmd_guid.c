/* SPDX-License-Identifier: MIT */
/* cmd_guid.c - `petw guid NAME...`: the GUID each provider name derives to
 * (EventSource and TraceLogging providers named but not given a GUID). */
#include <stdio.h>
#include <string.h>

#include "tool.h"

const char guid_usage[] =
    "usage: petw guid NAME...\n"
    "Prints the GUID each provider name derives to, as EventSource and TraceLogging\n"
    "derive a provider's GUID from its name (the name upper-cased, hashed with\n"
    "SHA-1 in the EventSource namespace). `petw dump --provider NAME` matches it.\n"
    "A NAME that begins with '-' goes after --.\n";

int cmd_guid(int argc, char **argv)
{
    int names = 0, dashes = 0;
    for (int i = 0; i < argc; i++)
        if (!dashes && !strcmp(argv[i], "--"))
            dashes = 1;
        else if (!dashes && argv[i][0] == '-')
            return command_usage_error("guid", "unknown option '%s'", argv[i]);
        else
            names++;
    if (!names)
        return command_usage_error("guid", "%s", "no NAME");
    for (int i = 0, after = 0; i < argc; i++) {
        if (!after && !strcmp(argv[i], "--")) {
            after = 1;
            continue;
        }
        petw_guid g;
        char text[37];
        if (petw_guid_from_name(argv[i], &g) != 0) {
            fprintf(stderr, "petw: not a provider name: '%s'\n", argv[i]);
            return 2;
        }
        petw_guid_format(&g, text);
        printf("%s %s\n", text, argv[i]);
    }
    return 0;
}
