/* SPDX-License-Identifier: MIT */
/* test_xproc_filters.c - event filters and enable properties of shared
 * sessions reach providers in other processes: a PID filter enables only
 * the process it names, an executable-name filter only processes of that
 * executable, an event ID filter applies in the writing process (and only
 * to the session that set it), and enable properties add their items to
 * the events other processes write.
 *
 * Each scenario starts a shared session here, enables with the filter,
 * then releases forked provider processes that register, write events 1..3
 * (each carrying its ID) and exit; the file is read back.
 */
#include <errno.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wchar.h>

#include "test_util.h"

static const GUID prov = {
    0xf1170003, 0x1b0d, 0x4f4c, {0x9c, 0x11, 0x2a, 0x3b, 0x4c, 0x5d, 0x6e, 3}};

typedef struct child {
    pid_t pid;
    int go; /* parent -> child: one byte releases it */
} child;

/* A provider process, waiting for the go byte before it registers. */
static child spawn(void)
{
    int p[2];
    CHECK(pipe(p) == 0);
    child c;
    c.pid = fork();
    CHECK(c.pid >= 0);
    if (c.pid == 0) {
        close(p[1]);
        char b;
        if (read(p[0], &b, 1) != 1)
            _exit(2);
        REGHANDLE reg;
        if (EventRegister(&prov, NULL, NULL, &reg) != ERROR_SUCCESS)
            _exit(3);
        for (USHORT id = 1; id <= 3; id++) {
            EVENT_DESCRIPTOR d = {id, 0, 0, 4, 0, 0, 0};
            uint32_t v = id;
            EVENT_DATA_DESCRIPTOR dd;
            EventDataDescCreate(&dd, &v, 4);
            if (EventWrite(reg, &d, 1, &dd) != ERROR_SUCCESS)
                _exit(4);
        }
        EventUnregister(reg);
        _exit(0);
    }
    close(p[0]);
    c.go = p[1];
    return c;
}

static void release_and_wait(child *c)
{
    CHECK(write(c->go, "g", 1) == 1);
    close(c->go);
    int st;
    CHECK(waitpid(c->pid, &st, 0) == c->pid);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static TRACEHANDLE start(const char *what, const char *file)
{
    char name[64];
    snprintf(name, sizeof(name), "xproc-%d-%s", (int)getpid(), what);
    test_props tp;
    test_props_init(&tp, file);
    tp.p.FlushTimer = 1;
    TRACEHANDLE h = 0;
    CHECK_EQ(StartTraceA(&h, name, &tp.p), ERROR_SUCCESS);
    return h;
}

static void stop(TRACEHANDLE h)
{
    test_props tp;
    test_props_init(&tp, NULL);
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(tp.p.EventsLost, 0);
}

static ULONG enable_with(TRACEHANDLE h, EVENT_FILTER_DESCRIPTOR *d, ULONG n, ULONG props)
{
    ENABLE_TRACE_PARAMETERS p;
    memset(&p, 0, sizeof(p));
    p.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
    p.EnableProperty = props;
    p.EnableFilterDesc = d;
    p.FilterDescCount = n;
    return EnableTraceEx2(h, &prov, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &p);
}

/* Per process: a mask of the event IDs it recorded (bit id); and the
 * events' extended items checked by `check` when not NULL. */
typedef struct seen {
    uint32_t pid[4], mask[4], n;
    uint32_t with_sid, with_key, with_stack;
} seen;

static void on_event(petw_event_record *r, void *ctx)
{
    seen *s = ctx;
    if (memcmp(&r->header.provider_id, &prov, sizeof(prov)) != 0)
        return;
    uint32_t k = 0;
    while (k < s->n && s->pid[k] != r->header.process_id)
        k++;
    if (k == s->n) {
        CHECK(s->n < 4);
        s->pid[s->n] = r->header.process_id;
        s->mask[s->n++] = 0;
    }
    uint32_t v;
    CHECK_EQ(r->user_data_length, 4);
    memcpy(&v, r->user_data, 4);
    CHECK_EQ(v, r->header.descriptor.id);
    CHECK((s->mask[k] & (1u << v)) == 0);
    s->mask[k] |= 1u << v;
    for (int i = 0; i < r->extended_data_count; i++) {
        const petw_extended_item *it = &r->extended_data[i];
        const uint8_t *p = (const uint8_t *)(uintptr_t)it->data_ptr;
        if (it->ext_type == EVENT_HEADER_EXT_TYPE_SID) {
            uint32_t sub[2];
            CHECK_EQ(it->data_size, 16);
            memcpy(sub, p + 8, 8);
            CHECK(p[0] == 1 && p[1] == 2 && p[7] == 22 && sub[0] == 1 && sub[1] == geteuid());
            s->with_sid++;
        } else if (it->ext_type == EVENT_HEADER_EXT_TYPE_EVENT_KEY) {
            CHECK_EQ(it->data_size, 8);
            s->with_key++;
        } else if (it->ext_type == EVENT_HEADER_EXT_TYPE_STACK_TRACE64) {
            CHECK(it->data_size >= 16);
            s->with_stack++;
        }
    }
}

static void read_seen(const char *path, seen *out)
{
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.on_event = on_event;
    c.context = out;
    memset(out, 0, sizeof(*out));
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path, &c, &t), 0);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_close(t);
}

static uint32_t mask_of(const seen *s, pid_t pid)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->pid[i] == (uint32_t)pid)
            return s->mask[i];
    return 0;
}

static void pid_filter(const char *file)
{
    child a = spawn(), b = spawn();
    TRACEHANDLE h = start("pid", file);
    ULONG pids[2] = {1, (ULONG)a.pid};
    EVENT_FILTER_DESCRIPTOR d = {(ULONGLONG)(uintptr_t)pids, sizeof(pids), EVENT_FILTER_TYPE_PID};
    CHECK_EQ(enable_with(h, &d, 1, 0), ERROR_SUCCESS);
    release_and_wait(&a);
    release_and_wait(&b);
    stop(h);
    seen s;
    read_seen(file, &s);
    CHECK_EQ(mask_of(&s, a.pid), 0xEu);
    CHECK_EQ(mask_of(&s, b.pid), 0);
    CHECK_EQ(s.n, 1);
}

static void exe_filter(const char *file)
{
    static const WCHAR *lists[] = {L"other;TEST_XPROC_FILTERS", L"other;test_xproc_filter"};
    static const uint32_t expect[] = {0xEu, 0};
    for (int i = 0; i < 2; i++) {
        child a = spawn();
        TRACEHANDLE h = start("exe", file);
        EVENT_FILTER_DESCRIPTOR d = {(ULONGLONG)(uintptr_t)lists[i],
                                     (ULONG)((wcslen(lists[i]) + 1) * sizeof(WCHAR)),
                                     EVENT_FILTER_TYPE_EXECUTABLE_NAME};
        CHECK_EQ(enable_with(h, &d, 1, 0), ERROR_SUCCESS);
        release_and_wait(&a);
        stop(h);
        seen s;
        read_seen(file, &s);
        CHECK_EQ(mask_of(&s, a.pid), expect[i]);
    }
}

/* Event IDs: session 0 keeps {2} only, session 1 drops {2}; both hear the
 * same two processes. Session 1 also asks for properties. */
static void id_filter_and_props(const char *file0, const char *file1)
{
    child a = spawn(), b = spawn();
    TRACEHANDLE h0 = start("ids-in", file0), h1 = start("ids-out", file1);
    struct {
        EVENT_FILTER_EVENT_ID f;
        USHORT more[4];
    } in = {{TRUE, 0, 1, {2}}, {0}}, out = {{FALSE, 0, 1, {2}}, {0}};
    EVENT_FILTER_DESCRIPTOR d0 = {(ULONGLONG)(uintptr_t)&in, sizeof(EVENT_FILTER_EVENT_ID),
                                  EVENT_FILTER_TYPE_EVENT_ID};
    EVENT_FILTER_DESCRIPTOR d1 = {(ULONGLONG)(uintptr_t)&out, sizeof(EVENT_FILTER_EVENT_ID),
                                  EVENT_FILTER_TYPE_EVENT_ID};
    CHECK_EQ(enable_with(h0, &d0, 1, 0), ERROR_SUCCESS);
    CHECK_EQ(enable_with(h1, &d1, 1,
                         EVENT_ENABLE_PROPERTY_SID | EVENT_ENABLE_PROPERTY_EVENT_KEY |
                             EVENT_ENABLE_PROPERTY_STACK_TRACE),
             ERROR_SUCCESS);
    release_and_wait(&a);
    release_and_wait(&b);
    stop(h0);
    stop(h1);
    seen s;
    read_seen(file0, &s);
    CHECK_EQ(mask_of(&s, a.pid), 1u << 2);
    CHECK_EQ(mask_of(&s, b.pid), 1u << 2);
    CHECK_EQ(s.with_sid + s.with_key + s.with_stack, 0);
    read_seen(file1, &s);
    CHECK_EQ(mask_of(&s, a.pid), (1u << 1) | (1u << 3));
    CHECK_EQ(mask_of(&s, b.pid), (1u << 1) | (1u << 3));
    CHECK_EQ(s.with_sid, 4);
    CHECK_EQ(s.with_key, 4);
    CHECK_EQ(s.with_stack, 4);
}

int main(void)
{
    if (getenv("PETW_TEST_TSAN") && getenv("PETW_TEST_TSAN")[0] == '1')
        return SKIP_TEST;
    char f0[512], f1[512];
    test_path(f0, sizeof(f0), "xproc-filters-0.etl");
    test_path(f1, sizeof(f1), "xproc-filters-1.etl");
    pid_filter(f0);
    exe_filter(f0);
    id_filter_and_props(f0, f1);
    remove(f0);
    remove(f1);
    printf("xproc filters: ok\n");
    return 0;
}
