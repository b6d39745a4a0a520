/* petw - the command-line tool for ETL files written by petw or by Windows:
 * `petw info`, `petw dump` (petw's tracerpt), `petw convert` and
 * `petw guid`, `petw report` (where the time went), `petw export` and `forward` (into ClickHouse),
 * `petw mc` (mc.exe -um's header generator); and for shared sessions (logman's, wpr's and xperf's
 * part): `petw start`, `stop`, `flush`, `enable`, `disable`, `capture-state`, `update`, `query`,
 * `providers`, `record` and `watch`. This file dispatches to the subcommands (cmd_*.c); the output
 * formats are in output/. */
#include <stdio.h>
#include <string.h>

#include "tool.h"
#include "tool_session.h"

const char usage[] =
    "usage: petw info FILE... [--manifest PATH]...\n"
    "       petw convert FILE... --to chrome -o OUT.json [--force] [--manifest PATH]...\n"
    "       petw convert FILE... --to folded|pprof|flamegraph -o OUT [--force] [options]\n"
    "       petw report cpu|wait|disk|events|processes|diff FILE...\n"
    "                   [--format text|csv|json] [--top N] [options]\n"
    "       petw dump FILE... [--format text|csv|json] [--provider NAME|GUID]...\n"
    "                 [--start TIME] [--end TIME] [--manifest PATH]... [--tmf PATH]...\n"
    "       petw export FILE... --to clickhouse URL [options]\n"
    "       petw guid NAME...\n"
    "       petw mc [-um] [-h DIR] [-r DIR] [-z BASENAME] MANIFEST.man\n"
    "       petw record [-p PROVIDER...] [--kernel LIST] [-o FILE.etl] [start options]\n"
    "                   -- CMD ARGS...\n"
    "       petw start NAME -o FILE.etl -p PROVIDER[:KEYWORDS[:LEVEL]]... [options]\n"
    "       petw start [NAME] -o FILE.etl --kernel process,thread,... [options]\n"
    "       petw stop|flush NAME\n"
    "       petw enable|disable|capture-state NAME -p PROVIDER...\n"
    "       petw update NAME [--flush-timer S] [--buffers MAX]\n"
    "       petw query [NAME] [--json]\n"
    "       petw providers [--pid PID] [--json]\n"
    "       petw watch NAME [--format text|json] [--provider NAME|GUID]... [--manifest PATH]...\n"
    "       petw forward NAME --to clickhouse URL [options]\n"
    "`petw COMMAND --help` describes a session command; `petw report` and\n"
    "`petw convert` without arguments list their views, formats and options;\n"
    "`petw export` without arguments, and `petw forward --help`, their options.\n"
    "TIME is ISO-8601 UTC (2024-01-31T12:00:00.5Z) or a FILETIME number; --start\n"
    "and --end keep the events in that range, and always each file's header\n"
    "records (EventTrace), which describe the file, as ProcessTrace delivers them.\n"
    "--provider NAME matches the provider name the events carry (TraceLogging)\n"
    "or the GUID derived from NAME (EventSource/TraceLogging), which `petw guid`\n"
    "prints.\n"
    "petw mc writes the header mc.exe -um writes for a manifest-based provider\n"
    "(EventRegister<Provider>, EventWrite<Event>, ...), for petw's ETW headers;\n"
    "`petw mc --help` describes its options.\n"
    "--manifest PATH decodes the events of the providers an instrumentation\n"
    "manifest (.man, or a directory of them) describes; PETW_MANIFEST_PATH adds\n"
    "more (paths separated by ':'). --tmf PATH decodes WPP messages with the trace\n"
    "message format file tracepdb wrote (.tmf, or a directory of them).\n";

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    int min_args; /* fewer: the usage */
} commands[] = {
    {"info", cmd_info, 1},
    {"dump", cmd_dump, 1},
    {"guid", cmd_guid, 1},
    {"convert", cmd_convert, 1},
    {"export", cmd_export, 0},
    {"forward", cmd_forward, 0},
    {"report", cmd_report, 0},
    {"start", cmd_start, 0},
    {"stop", cmd_stop, 0},
    {"flush", cmd_flush, 0},
    {"enable", cmd_enable, 0},
    {"disable", cmd_disable, 0},
    {"update", cmd_update, 0},
    {"query", cmd_query, 0},
    {"record", cmd_record, 0},
    {"providers", cmd_providers, 0},
    {"watch", cmd_watch, 0},
    {"mc", cmd_mc, 1},
    {"capture-state", cmd_capture_state, 0},
};

int main(int argc, char **argv)
{
    static char outbuf[1 << 20];
    setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (!strcmp(argv[1], commands[i].name)) {
            if (argc - 2 < commands[i].min_args) {
                fputs(usage, stderr);
                return 2;
            }
            return commands[i].run(argc - 2, argv + 2);
        }
    fprintf(stderr, "petw: unknown command '%s'\n%s", argv[1], usage);
    return 2;
}
