/* cmd_guid.c - `petw guid NAME...`: the GUID each provider name derives to
 * (EventSource and TraceLogging providers named but not given a GUID). */
#include <stdio.h>

#include "tool.h"

int cmd_guid(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
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
