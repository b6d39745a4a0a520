/* SPDX-License-Identifier: MIT */
/* cmd_providers.c - `petw providers [--pid PID] [--json]`: the providers
 * registered in the user's running processes, their names where their
 * traits give one, and the shared sessions that enable them (`logman query
 * providers`, `logman query providers -pid`). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "tool.h"
#include "tool_session.h"

const char providers_usage[] =
    "usage: petw providers [--pid PID] [--json]\n"
    "Lists the providers registered in this user's running processes (or process\n"
    "PID): process, GUID, name (from TraceLogging/EventSource traits; '-' when the\n"
    "provider gives none) and the shared sessions that enable it, with level and\n"
    "keywords. --json prints one document ({\"providers\":[...]}) whose schema\n"
    "docs/cli-json.md gives.\n";

/* One running session's name and enables. */
typedef struct session_view {
    char name[PETW_MAX_NAME];
    petw_shared_enable enables[PETW_MAX_SESSIONS_PER_PROVIDER * 4];
    uint32_t count;
} session_view;

static session_view *read_sessions(uint32_t *count)
{
    petw_session_handle h[PETW_MAX_SESSIONS];
    uint32_t n = 0, k = 0;
    if (petw_session_list(h, PETW_MAX_SESSIONS, &n) != 0)
        n = 0;
    n = n < PETW_MAX_SESSIONS ? n : PETW_MAX_SESSIONS;
    session_view *v = calloc(n ? n : 1, sizeof(*v));
    static petw_session_stats st;
    for (uint32_t i = 0; v && i < n; i++) {
        uint32_t max = sizeof(v[k].enables) / sizeof(v[k].enables[0]);
        if (petw_session_query(h[i], &st) != 0 ||
            petw_shared_session_enables(h[i], v[k].enables, max, &v[k].count) != 0)
            continue; /* stopped meanwhile */
        v[k].count = v[k].count < max ? v[k].count : max;
        memcpy(v[k].name, st.name, sizeof(v[k].name));
        k++;
    }
    *count = k;
    return v;
}

/* The enable of `id` by session `s`, or NULL. */
static const petw_shared_enable *enable_of(const session_view *s, const petw_guid *id)
{
    for (uint32_t i = 0; i < s->count; i++)
        if (petw_guid_equal(&s->enables[i].provider, id))
            return &s->enables[i];
    return NULL;
}

static void text_provider(const petw_shared_provider *p, const session_view *v, uint32_t nv)
{
    char g[37];
    petw_guid_format(&p->provider, g);
    printf("%-8" PRIu32 " %-16s %s  %-32s", p->process_id,
           p->process_name[0] ? p->process_name : "-", g, p->name[0] ? p->name : "-");
    int any = 0;
    for (uint32_t i = 0; i < nv; i++) {
        const petw_shared_enable *e = enable_of(&v[i], &p->provider);
        if (!e)
            continue;
        printf("%s%s (level %u, keywords 0x%" PRIx64 ")", any ? ", " : " ", v[i].name, e->level,
               e->match_any);
        any = 1;
    }
    printf("%s\n", any ? "" : " -");
}

static void json_provider_entry(sbuf *b, const petw_shared_provider *p, const session_view *v,
                                uint32_t nv)
{
    sbuf_puts(b, "{\"pid\":");
    sbuf_u64(b, p->process_id);
    sbuf_puts(b, ",\"process\":");
    json_string(b, p->process_name);
    sbuf_puts(b, ",\"guid\":\"");
    sbuf_guid(b, &p->provider);
    sbuf_puts(b, "\",\"name\":");
    if (p->name[0])
        json_string(b, p->name);
    else
        sbuf_puts(b, "null");
    sbuf_puts(b, ",\"sessions\":[");
    int any = 0;
    for (uint32_t i = 0; i < nv; i++) {
        const petw_shared_enable *e = enable_of(&v[i], &p->provider);
        if (!e)
            continue;
        sbuf_puts(b, any ? ",{\"name\":" : "{\"name\":");
        json_string(b, v[i].name);
        sbuf_puts(b, ",\"level\":");
        sbuf_u64(b, e->level);
        sbuf_puts(b, ",\"match_any\":\"");
        sbuf_hex64(b, e->match_any);
        sbuf_puts(b, "\",\"match_all\":\"");
        sbuf_hex64(b, e->match_all);
        sbuf_puts(b, "\"}");
        any = 1;
    }
    sbuf_puts(b, "]}");
}

int cmd_providers(int argc, char **argv)
{
    uint32_t pid = 0;
    int json = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        if (is_help(a)) {
            fputs(providers_usage, stdout);
            return 0;
        }
        if (!strcmp(a, "--json"))
            json = 1;
        else if (!strcmp(a, "--pid")) {
            if (!(v = option_value(argc, argv, &i)))
                return 2;
            if (parse_u32(v, 1, UINT32_MAX, &pid) != 0)
                return usage_error(providers_usage, "not a process ID: '%s'", v);
        } else
            return usage_error(providers_usage,
                               a[0] == '-' ? "unknown option '%s'" : "unexpected argument '%s'", a);
    }
    uint32_t n = 0, nv = 0;
    int rc = petw_shared_list_providers(pid, NULL, 0, &n);
    petw_shared_provider *p = NULL;
    if (rc == 0 && n) {
        uint32_t room = n + 16; /* ones that register meanwhile */
        p = calloc(room, sizeof(*p));
        rc = p ? petw_shared_list_providers(pid, p, room, &n) : PETW_ENOMEM;
        n = n < room ? n : room;
    }
    if (rc != 0) {
        free(p);
        fprintf(stderr, "petw: cannot list the providers: %s\n", petw_strerror(rc));
        return 1;
    }
    if (pid && n == 0 && !json) {
        fprintf(stderr, "petw: process %" PRIu32 " registers no provider petw can see\n", pid);
        return 1;
    }
    session_view *v = read_sessions(&nv);
    sbuf b = {0};
    if (json) {
        sbuf_puts(&b, "{\"providers\":[");
        for (uint32_t i = 0; i < n; i++) {
            if (i)
                sbuf_putc(&b, ',');
            json_provider_entry(&b, &p[i], v, nv);
        }
        sbuf_puts(&b, "]}\n");
        if (!b.failed)
            fwrite(b.data, 1, b.len, stdout);
    } else if (n == 0) {
        printf("No running process registers a provider.\n");
    } else {
        printf("%-8s %-16s %-36s  %-32s %s\n", "PID", "PROCESS", "GUID", "NAME", "SESSIONS");
        for (uint32_t i = 0; i < n; i++)
            text_provider(&p[i], v, nv);
    }
    int failed = b.failed;
    sbuf_free(&b);
    free(v);
    free(p);
    if (failed) {
        fprintf(stderr, "petw: %s\n", petw_strerror(PETW_ENOMEM));
        return 1;
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "petw: cannot write the output\n");
        return 1;
    }
    return 0;
}
