/* SPDX-License-Identifier: MIT */
/* tool_commands.c - the petw command's table of subcommands: each one's
 * name, entry point, one-line summary, --help text (in parts, each in its
 * command's file), examples and related commands, and the lookups by name.
 * tool_help.c makes the help, the man pages and the completion from it. */
#include <string.h>

#include "views/analysis_tool.h"
#include "tool.h"
#include "tool_session.h"

#ifndef PETW_TOOL_VERSION
#define PETW_TOOL_VERSION "unknown"
#endif

const char tool_version[] = PETW_TOOL_VERSION;

static const char *const info_help[] = {info_usage, NULL};
static const char *const dump_help[] = {dump_usage, NULL};
static const char *const guid_help[] = {guid_usage, NULL};
static const char *const convert_help[] = {convert_usage, model_options_help, NULL};
static const char *const report_help[] = {report_usage, model_options_help, NULL};
static const char *const mc_help[] = {mc_usage, NULL};
static const char *const start_help[] = {start_usage_head, start_options_usage, NULL};
static const char *const record_help[] = {record_head, start_options_usage, NULL};
static const char *const stop_help[] = {stop_usage, NULL};
static const char *const flush_help[] = {flush_usage, NULL};
static const char *const enable_help[] = {enable_usage, NULL};
static const char *const disable_help[] = {disable_usage, NULL};
static const char *const capture_help[] = {capture_usage, NULL};
static const char *const update_help[] = {update_usage, NULL};
static const char *const query_help[] = {query_usage, NULL};
static const char *const providers_help[] = {providers_usage, NULL};
static const char *const watch_help[] = {watch_usage, NULL};
static const char *const symbolize_help[] = {symbolize_usage, NULL};
static const char *const export_help[] = {export_usage, NULL};
static const char *const forward_help[] = {forward_usage, NULL};

/* Examples: a command line, then what it does, per pair of lines. */
const tool_command tool_commands[] = {
    {"record", cmd_record, "run a command and record its events (and the kernel's)", record_help,
     "petw record -- ./app args\n"
     "records every provider ./app registers into petw-record.etl\n"
     "petw record --kernel profile,cswitch,image --stacks profile -o app.etl -- ./app\n"
     "samples ./app's CPU with call stacks (its process tree, named), for petw report\n"
     "petw record -a --kernel profile --stacks profile -o all.etl -- sleep 10\n"
     "samples every process for ten seconds (needs the rights perf events need)\n",
     "report convert start"},
    {"report", cmd_report,
     "where the time went: CPU, waits, disk, files, memory, network, events, processes",
     report_help,
     "petw report cpu app.etl\n"
     "functions by self and inclusive samples\n"
     "petw report cpu app.etl --callers hot_func\n"
     "who called hot_func and what it called\n"
     "petw report wait app.etl --format csv -o wait.csv\n"
     "running, ready and waiting time per thread, as CSV\n",
     "record convert"},
    {"convert", cmd_convert, "convert traces for timeline viewers and profilers", convert_help,
     "petw convert app.etl --to perfetto -o app.pftrace\n"
     "the timeline for ui.perfetto.dev\n"
     "petw convert app.etl --to flamegraph -o app.svg\n"
     "an SVG flame graph of the CPU samples\n"
     "petw convert app.etl --to folded -o - | flamegraph.pl > app.svg\n"
     "the collapsed stacks on standard output\n",
     "report record"},
    {"info", cmd_info, "a trace file's header and its events counted by kind", info_help,
     "petw info app.etl\n"
     "the header, what was read and lost, the events by provider and ID\n",
     "dump"},
    {"dump", cmd_dump, "every event of trace files, decoded, as text, CSV or JSON", dump_help,
     "petw dump app.etl\n"
     "every event as text\n"
     "petw dump app.etl --format json --provider Contoso.Orders\n"
     "one provider's events as JSON\n",
     "info watch"},
    {"guid", cmd_guid, "the GUID a provider name derives to", guid_help,
     "petw guid Contoso.Orders\n"
     "the GUID TraceLogging and EventSource derive from the name\n",
     "dump"},
    {"mc", cmd_mc, "write the header mc.exe -um writes for an instrumentation manifest", mc_help,
     "petw mc -um -h include provider.man\n"
     "writes include/provider.h and ./provider.rc\n",
     NULL},
    {"start", cmd_start, "start a shared session", start_help,
     "petw start orders -o orders.etl -p Contoso.Orders\n"
     "records the provider in every process of this user until `petw stop orders`\n"
     "petw start live --realtime -p Contoso.Orders:0x3:info\n"
     "a real-time session for `petw watch live`\n",
     "stop query enable watch"},
    {"stop", cmd_stop, "stop a shared session", stop_help,
     "petw stop orders\n"
     "stops the session and prints its final counters\n",
     "start query"},
    {"flush", cmd_flush, "write a shared session's partly filled buffers", flush_help,
     "petw flush orders\n"
     "makes the file hold what was logged so far\n",
     "start stop"},
    {"enable", cmd_enable, "enable providers in a shared session", enable_help,
     "petw enable orders -p Contoso.Payments:0x1:warning\n"
     "adds a provider, or changes its keywords and level\n",
     "disable start"},
    {"disable", cmd_disable, "disable providers in a shared session", disable_help,
     "petw disable orders -p Contoso.Payments\n"
     "stops recording the provider\n",
     "enable start"},
    {"capture-state", cmd_capture_state, "ask providers to log their state", capture_help,
     "petw capture-state orders -p Contoso.Orders\n"
     "the providers' enable callbacks run with EVENT_CONTROL_CODE_CAPTURE_STATE\n",
     "enable"},
    {"update", cmd_update, "change a shared session's flush timer and buffers", update_help,
     "petw update orders --flush-timer 0.5\n"
     "flushes partly filled buffers every half second\n",
     "start query"},
    {"query", cmd_query, "the running shared sessions", query_help,
     "petw query\n"
     "every session of this user: file, buffers, events, providers\n"
     "petw query orders --json\n"
     "one session as JSON\n",
     "start providers"},
    {"providers", cmd_providers, "the providers registered in running processes", providers_help,
     "petw providers --pid 4242\n"
     "the providers process 4242 registered, and the sessions enabling them\n",
     "query enable"},
    {"watch", cmd_watch, "print a real-time session's events as they arrive", watch_help,
     "petw watch live --format json\n"
     "each event of the session live, as JSON lines\n",
     "start dump"},
    {"symbolize", cmd_symbolize, "an address's frames from a PDB, a PE image or an ELF file",
     symbolize_help,
     "petw symbolize app.pdb 0x1040 0x2310\n"
     "the frames at two RVAs of the image app.pdb describes\n"
     "petw symbolize app.exe 0x1040 --format json\n"
     "the same, the PDB found through the image's debug entry, as JSON\n",
     "report"},
    {"export", cmd_export, "load traces into ClickHouse", export_help,
     "petw export app.etl --to clickhouse http://127.0.0.1:8123/?database=traces\n"
     "the trace's events and its CPU samples into the database traces\n",
     "forward report"},
    {"forward", cmd_forward, "send a real-time session's events to ClickHouse as they come",
     forward_help,
     "petw forward live --to clickhouse http://127.0.0.1:8123/ --spool spool\n"
     "the session live's events, kept in spool/ while the server is away\n",
     "export start watch"},
};
const size_t tool_command_count = sizeof(tool_commands) / sizeof(tool_commands[0]);

const tool_command *tool_command_find_n(const char *name, size_t n)
{
    for (size_t i = 0; i < tool_command_count; i++)
        if (strlen(tool_commands[i].name) == n && !strncmp(tool_commands[i].name, name, n))
            return &tool_commands[i];
    return NULL;
}

const tool_command *tool_command_find(const char *name)
{
    for (size_t i = 0; i < tool_command_count; i++)
        if (!strcmp(tool_commands[i].name, name))
            return &tool_commands[i];
    return NULL;
}
