/* libFuzzer target: the analysis pipeline on an untrusted trace (what
 * `petw report` and `petw convert --to folded|pprof|flamegraph` read): the
 * model (lib/read/analysis/profile.c: kernel records read at their offsets,
 * samples paired with stacks, images, switch times), then every view and
 * export the tools write, into a memory stream. No symbol files are opened
 * (no_symbols): a trace's paths must not make the fuzzer read the disk.
 * Whatever the input, reading returns 0 or an error and nothing reads or
 * writes out of bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <petw/analysis.h>

#include "analysis/analysis_tool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    petw_profile_config c;
    petw_profile_config_init(&c);
    c.no_symbols = 1;
    petw_profile *p;
    if (petw_profile_read_memory(data, size, &c, &p) != 0)
        return 0;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (out) {
        view_args a = {table_find("json"), out, 0, NULL, NULL, 0, 0, NULL};
        (void)report_cpu(p, &a);
        a.by = "thread";
        (void)report_cpu(p, &a);
        a.format = table_find("text");
        (void)report_wait(p, &a);
        (void)report_processes(p, &a);
        (void)report_disk(p, &a);
        (void)report_events(p, &a);
        (void)report_diff(p, p, &a);
        if (petw_profile_location_count(p)) {
            a.callers_of = petw_profile_location_at(p, 0)->name;
            (void)report_cpu(p, &a);
        }
        (void)export_folded(p, out);
        (void)export_pprof(p, out);
        (void)export_flamegraph(p, out, "fuzz");
        fclose(out);
    }
    free(text);
    petw_profile_free(p);
    return 0;
}
