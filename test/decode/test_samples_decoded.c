/* SPDX-License-Identifier: MIT */
/* Every record of the three Windows-written samples decodes by name and
 * field (TraceLogging from its metadata, PowerShell's events with its
 * manifest, the classic records of the relogged file from the built-in
 * kernel table, EventTrace's opcode 80 after the header of every file
 * included).
 * Pins values of the relogger's system-configuration records (its
 * DeviceFamily record, SystemConfigEx opcode 37, packs the build the
 * BuildInfo record names: 10.0.22000.613). Skips (77) without the samples. */
#include <sys/stat.h>

#include "test_util.h"

typedef struct tally {
    petw_decoder *d;
    int records, decoded, raw_other;
    int trace80;
    int volumes, build, paths, family;
} tally;

static const petw_field *field(const petw_decoded_event *ev, const char *name)
{
    for (uint32_t i = 0; i < ev->top_count; i++)
        if (!strcmp(ev->fields[i].name, name))
            return &ev->fields[i];
    fprintf(stderr, "no field %s in %s\n", name, ev->event_name ? ev->event_name : "?");
    exit(1);
}

static void on_event(petw_event_record *r, void *ctx)
{
    tally *t = ctx;
    const petw_decoded_event *ev;
    t->records++;
    CHECK_EQ(petw_decode(t->d, r, &ev), 0);
    if (ev->has_schema) {
        t->decoded++;
        if (ev->provider_name && !strcmp(ev->provider_name, "EventTrace") &&
            !strcmp(ev->event_name, "PartitionInfoExtensionV2")) {
            t->trace80++; /* a host's: partition type 0, zero GUIDs */
            CHECK_EQ(field(ev, "PartitionType")->v.u, 0);
            CHECK_EQ(field(ev, "ParentId")->kind, PETW_VALUE_GUID);
        }
        if (ev->provider_name && !strcmp(ev->provider_name, "SystemConfigEx")) {
            if (!strcmp(ev->event_name, "VolumeMapping")) {
                t->volumes++;
                CHECK(field(ev, "NtPath")->kind == PETW_VALUE_STRING);
            } else if (!strcmp(ev->event_name, "BuildInfo")) {
                t->build++;
                CHECK(!strncmp(field(ev, "BuildLab")->v.s, "22000.", 6));
                CHECK_EQ(field(ev, "InstallDate")->kind, PETW_VALUE_FILETIME);
            } else if (!strcmp(ev->event_name, "SystemPaths")) {
                t->paths++;
                CHECK(!strcmp(field(ev, "SystemDirectory")->v.s, "C:\\WINDOWS\\system32"));
            } else if (!strcmp(ev->event_name, "DeviceFamily")) {
                t->family++;
                CHECK_EQ(field(ev, "UAPInfo")->v.u, UINT64_C(0x000a000055f00265));
                CHECK_EQ(field(ev, "DeviceFamily")->v.u, 3);
            }
        }
        return;
    }
    t->raw_other++;
}

static void run(const char *dir, const char *name, tally *t)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.on_event = on_event;
    c.context = t;
    petw_trace *tr;
    CHECK_EQ(petw_trace_open(path, &c, &tr), 0);
    CHECK_EQ(petw_trace_process(&tr, 1, 0, 0), 0);
    petw_trace_close(tr);
    printf("%s: %d records, %d decoded\n", name, t->records, t->decoded);
}

int main(void)
{
    const char *dir = getenv("PETW_ETL_SAMPLES"), *data = getenv("PETW_TEST_DATA");
    struct stat st;
    if (!dir || stat(dir, &st) != 0) {
        printf("samples_decoded: no samples folder, skipped\n");
        return 77;
    }
    char man[1024];
    snprintf(man, sizeof(man), "%s/powershell.man", data ? data : "test/data");
    static const char *const files[] = {"primitive-types.etl", "powershell.etl",
                                        "SelfDescribingSingleEvent.etl"};
    /* Records per file, header records included (the samples' README). */
    static const int records[] = {7, 114, 23};
    for (int i = 0; i < 3; i++) {
        tally t;
        memset(&t, 0, sizeof(t));
        CHECK_EQ(petw_decoder_new(&t.d), 0);
        CHECK_EQ(petw_decoder_add_manifest(t.d, man), 0);
        run(dir, files[i], &t);
        CHECK_EQ(t.records, records[i]);
        CHECK_EQ(t.raw_other, 0);
        /* Opcode 80 (48 zero bytes) follows the header in every file. */
        CHECK_EQ(t.trace80, i < 2 ? 1 : 3);
        CHECK_EQ(t.decoded, t.records);
        if (i == 2) {
            CHECK_EQ(t.family, 1);
            CHECK_EQ(t.volumes, 10);
            CHECK_EQ(t.build, 1);
            CHECK_EQ(t.paths, 1);
        }
        petw_decoder_free(t.d);
    }
    return 0;
}
