/* SPDX-License-Identifier: MIT */
/* petw - the command-line tool for ETL files written by petw or by Windows:
 * `petw info`, `petw dump` (petw's tracerpt), `petw convert` and
 * `petw guid`, `petw report` (where the time went), `petw mc` (mc.exe -um's header generator); and
 * for shared sessions (logman's, wpr's and xperf's part): `petw start`, `stop`, `flush`, `enable`,
 * `disable`, `capture-state`, `update`, `query`, `providers`, `record` and `watch`. This file
 * dispatches to the subcommands (cmd_*.c, listed with their help in tool_help.c); the output
 * formats are in output/. */
#include <stdio.h>
#include <string.h>

#include "tool.h"

/* Whether the arguments of command `c` ask for its help: --help or -h
 * before any "--" (petw mc's -h DIR is its option; -h alone is help). */
static int wants_help(const tool_command *c, int argc, char **argv)
{
    for (int i = 0; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--help") ||
            (!strcmp(argv[i], "-h") && (strcmp(c->name, "mc") || i + 1 == argc)))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    static char outbuf[1 << 20];
    setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
    if (argc < 2) {
        help_print(NULL, stderr);
        return 2;
    }
    const char *a = argv[1];
    if (!strcmp(a, "--help") || !strcmp(a, "-h"))
        return help_print(NULL, stdout);
    if (!strcmp(a, "--version") || !strcmp(a, "version")) {
        printf("petw %s\n", tool_version);
        return 0;
    }
    /* For the build: the manual pages and the completion script. */
    if (!strcmp(a, "--help-man") && argc == 3)
        return help_man(argv[2], stdout);
    if (!strcmp(a, "--help-completion") && argc == 2)
        return help_completion(stdout);
    if (!strcmp(a, "help")) {
        if (argc == 2)
            return help_print(NULL, stdout);
        const tool_command *c = tool_command_find(argv[2]);
        if (!c || argc > 3) {
            fprintf(stderr, "petw: no command '%s' (`petw --help` lists them)\n", argv[2]);
            return 2;
        }
        return help_print(c, stdout);
    }
    const tool_command *c = tool_command_find(a);
    if (!c) {
        fprintf(stderr, "petw: unknown %s '%s' (`petw --help` lists the commands)\n",
                a[0] == '-' ? "option" : "command", a);
        return 2;
    }
    if (wants_help(c, argc - 2, argv + 2))
        return help_print(c, stdout);
    return c->run(argc - 2, argv + 2);
}
