/* petw - the command-line tool for ETL files written by petw or by Windows:
 * `petw info`, `petw dump` (petw's tracerpt), `petw convert` and
 * `petw guid`. This file dispatches to the subcommands (cmd_*.c); the output
 * formats are in output/. */
#include <stdio.h>
#include <string.h>

#include "tool.h"

const char usage[] = "usage: petw info FILE...\n"
                     "       petw convert FILE... --to chrome -o OUT.json [--force]\n"
                     "       petw dump FILE... [--format text|csv|json] [--provider NAME|GUID]...\n"
                     "                 [--start TIME] [--end TIME]\n"
                     "       petw guid NAME...\n"
                     "TIME is ISO-8601 UTC (2024-01-31T12:00:00.5Z) or a FILETIME number.\n"
                     "--provider NAME matches the provider name the events carry (TraceLogging)\n"
                     "or the GUID derived from NAME (EventSource/TraceLogging), which `petw guid`\n"
                     "prints.\n";

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"info", cmd_info},
    {"dump", cmd_dump},
    {"guid", cmd_guid},
    {"convert", cmd_convert},
};

int main(int argc, char **argv)
{
    static char outbuf[1 << 20];
    setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
    if (argc < 3) {
        fputs(usage, stderr);
        return 2;
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 2, argv + 2);
    fprintf(stderr, "petw: unknown command '%s'\n%s", argv[1], usage);
    return 2;
}
