/* SPDX-License-Identifier: MIT */
/* Manifest-based events written by Windows decode by name and field: the
 * 112 Microsoft-Windows-PowerShell events of powershell.etl, with the
 * provider described by test/data/powershell.man. Every one of them decodes
 * (none is left as raw bytes), and three are pinned field by field. Skips
 * (77) without the samples. */
#include <sys/stat.h>

#include "test_util.h"

static const petw_guid powershell = {
    0xa0c1853b, 0x5c40, 0x4b15, {0x87, 0x66, 0x3c, 0xf1, 0xc5, 0x8f, 0x98, 0x5a}};

typedef struct seen {
    petw_decoder *dec;
    int events, decoded, by_id[3];
} seen;

static const char *text(const petw_decoded_event *ev, const char *name)
{
    for (uint32_t i = 0; i < ev->top_count; i++)
        if (!strcmp(ev->fields[i].name, name)) {
            CHECK_EQ(ev->fields[i].kind, PETW_VALUE_STRING);
            return ev->fields[i].v.s;
        }
    fprintf(stderr, "no field %s\n", name);
    exit(1);
}

static void on_event(petw_event_record *r, void *ctx)
{
    seen *s = ctx;
    if (!petw_guid_equal(&r->header.provider_id, &powershell))
        return;
    s->events++;
    const petw_decoded_event *ev;
    CHECK_EQ(petw_decode(s->dec, r, &ev), 0);
    if (!ev->has_schema)
        return;
    s->decoded++;
    CHECK_EQ(strcmp(ev->provider_name, "Microsoft-Windows-PowerShell"), 0);
    uint16_t id = r->header.descriptor.id;
    if (id == 53504) {
        s->by_id[0]++;
        CHECK_EQ(r->header.process_id, 16040);
        CHECK_EQ(strcmp(text(ev, "param1"), "16040"), 0);
        CHECK_EQ(strcmp(text(ev, "param2"), "DefaultAppDomain"), 0);
        CHECK_EQ(strcmp(ev->event_name, "PS_NAMED_PIPE_LISTENER_STARTED"), 0);
        CHECK_EQ(strcmp(ev->task_name, "PowerShell Named Pipe IPC"), 0);
        CHECK_EQ(strcmp(ev->level_name, "Information"), 0); /* written at 4, defined at 5 */
        CHECK_EQ(strcmp(ev->message, "PowerShell has started an IPC listening thread on process: "
                                     "16040 in AppDomain: DefaultAppDomain."),
                 0);
    } else if (id == 7942) {
        s->by_id[1]++;
        CHECK_EQ(strcmp(text(ev, "ClassName"), "RemoteSessionNamedPipeServer"), 0);
        CHECK_EQ(strcmp(text(ev, "MethodName"), "StartListening"), 0);
        CHECK_EQ(strcmp(text(ev, "WorkflowGuid"), "00000000-0000-0000-0000-000000000000"), 0);
        CHECK_EQ(strcmp(text(ev, "Message"),
                        "Listener thread started on Process 16040 in AppDomainName "
                        "DefaultAppDomain."),
                 0);
        CHECK_EQ(strcmp(text(ev, "Parameters"), ""), 0);
        CHECK_EQ(ev->top_count, 8);
    } else if (id == 7937 && s->by_id[2]++ == 0) {
        /* The first event of the file: task 103 (not its definition's). */
        CHECK_EQ(r->header.descriptor.task, 103);
        CHECK_EQ(strcmp(ev->task_name, "Stopping Command"), 0);
        CHECK_EQ(strcmp(text(ev, "UserData"), ""), 0);
        CHECK_EQ(strcmp(text(ev, "Payload"), "Command logman.exe is Stopped.\r\n"), 0);
        const char *ci = text(ev, "ContextInfo");
        CHECK_EQ(strlen(ci), 649);
        CHECK(strstr(ci, "Command Path = C:\\WINDOWS\\system32\\logman.exe\r\n") != NULL);
        CHECK(strncmp(ev->message, "Command logman.exe is Stopped.", 30) == 0);
    }
}

int main(void)
{
    const char *dir = getenv("PETW_ETL_SAMPLES"), *data = getenv("PETW_TEST_DATA");
    struct stat st;
    if (!dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("etl samples not found; skipping\n");
        return SKIP_TEST;
    }
    CHECK(data != NULL);
    char path[1024];
    static seen s;
    CHECK_EQ(petw_decoder_new(&s.dec), 0);
    snprintf(path, sizeof(path), "%s/powershell.man", data);
    if (petw_decoder_add_manifest(s.dec, path) != 0) {
        fprintf(stderr, "%s\n", petw_decoder_error(s.dec));
        return 1;
    }
    snprintf(path, sizeof(path), "%s/powershell.etl", dir);
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.on_event = on_event;
    c.context = &s;
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path, &c, &t), 0);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_close(t);
    CHECK_EQ(s.events, 112);
    CHECK_EQ(s.decoded, 112);
    CHECK_EQ(s.by_id[0], 1);
    CHECK_EQ(s.by_id[1], 1);
    CHECK_EQ(s.by_id[2], 101);
    petw_decoder_free(s.dec);
    printf("manifest_samples: %d of %d PowerShell events decoded\n", s.decoded, s.events);
    return 0;
}
