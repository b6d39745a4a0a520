/* SPDX-License-Identifier: MIT */
/* EnableTraceEx2's enable properties on in-process sessions: SID, TS_ID,
 * PROCESS_START_KEY, EVENT_KEY and STACK_TRACE add their extended items to
 * every event of the session that asked, with the values they should have
 * (the user's SID, the session id, one key per process, one key per event,
 * the writing thread's stack with its callers' return addresses); another
 * session of the same provider gets none; a session without properties
 * writes what it wrote before (no extended data). */
#include "test_util.h"

#ifndef _WIN32
#include <unistd.h>
#endif

static const GUID prov = {
    0xf1170002, 0x1b0d, 0x4f4c, {0x9c, 0x11, 0x2a, 0x3b, 0x4c, 0x5d, 0x6e, 2}};

#define MAX_EV 64

typedef struct item {
    uint16_t type, size;
    uint8_t data[600];
} item;

typedef struct event {
    uint16_t id;
    uint16_t flags;
    uint32_t pid;
    uint32_t nitems;
    item items[8];
} event;

typedef struct events {
    event ev[MAX_EV];
    uint32_t count;
} events;

static void collect(petw_event_record *r, void *ctx)
{
    events *l = ctx;
    if (memcmp(&r->header.provider_id, &prov, sizeof(prov)) != 0)
        return;
    CHECK(l->count < MAX_EV);
    event *e = &l->ev[l->count++];
    memset(e, 0, sizeof(*e));
    e->id = r->header.descriptor.id;
    e->flags = r->header.flags;
    e->pid = r->header.process_id;
    CHECK(r->extended_data_count <= 8);
    e->nitems = r->extended_data_count;
    for (uint32_t i = 0; i < e->nitems; i++) {
        e->items[i].type = r->extended_data[i].ext_type;
        e->items[i].size = r->extended_data[i].data_size;
        CHECK(e->items[i].size <= sizeof(e->items[i].data));
        memcpy(e->items[i].data, (const void *)(uintptr_t)r->extended_data[i].data_ptr,
               e->items[i].size);
    }
}

static void read_events(const char *path, events *out)
{
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.on_event = collect;
    c.context = out;
    memset(out, 0, sizeof(*out));
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path, &c, &t), 0);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_close(t);
}

static const item *find(const event *e, uint16_t type)
{
    for (uint32_t i = 0; i < e->nitems; i++)
        if (e->items[i].type == type)
            return &e->items[i];
    return NULL;
}

static TRACEHANDLE start(const char *name, const char *file)
{
    test_props tp;
    test_props_init(&tp, file);
    TRACEHANDLE h = 0;
    CHECK_EQ(test_start_trace(&h, name, &tp.p), ERROR_SUCCESS);
    return h;
}

static void stop(TRACEHANDLE h)
{
    test_props tp;
    test_props_init(&tp, NULL);
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
}

static ULONG enable_props(TRACEHANDLE h, ULONG props)
{
    ENABLE_TRACE_PARAMETERS p;
    memset(&p, 0, sizeof(p));
    p.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
    p.EnableProperty = props;
    return EnableTraceEx2(h, &prov, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &p);
}

static REGHANDLE reg;
/* Where write_one returns to in main(): the stack item must hold it. */
static void *caller_return;

#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

static NOINLINE void write_one(USHORT id)
{
    caller_return = __builtin_return_address(0);
    EVENT_DESCRIPTOR d = {id, 1, 0, 4, 0, 0, 0};
    uint32_t v = id;
    EVENT_DATA_DESCRIPTOR dd;
    EventDataDescCreate(&dd, &v, 4);
    CHECK_EQ(EventWrite(reg, &d, 1, &dd), ERROR_SUCCESS);
}

static const ULONG all_props = EVENT_ENABLE_PROPERTY_SID | EVENT_ENABLE_PROPERTY_TS_ID |
                               EVENT_ENABLE_PROPERTY_PROCESS_START_KEY |
                               EVENT_ENABLE_PROPERTY_EVENT_KEY | EVENT_ENABLE_PROPERTY_STACK_TRACE;

static void check_sid(const item *it)
{
    CHECK(it != NULL);
    CHECK(it->size >= 8 && it->data[0] == 1 && it->size == 8u + 4u * it->data[1]);
#ifndef _WIN32
    /* S-1-22-1-<uid> */
    static const uint8_t head[8] = {1, 2, 0, 0, 0, 0, 0, 22};
    CHECK_EQ(it->size, 16);
    CHECK(memcmp(it->data, head, 8) == 0);
    uint32_t sub[2];
    memcpy(sub, it->data + 8, 8);
    CHECK_EQ(sub[0], 1);
    CHECK_EQ(sub[1], (uint32_t)geteuid());
#endif
}

int main(void)
{
    char path[2][512];
    test_path(path[0], sizeof(path[0]), "props-0.etl");
    test_path(path[1], sizeof(path[1]), "props-1.etl");
    CHECK_EQ(EventRegister(&prov, NULL, NULL, &reg), ERROR_SUCCESS);

    /* Session 0 asks for every property, session 1 for none. */
    TRACEHANDLE s0 = start("petw-test-props-all", path[0]);
    TRACEHANDLE s1 = start("petw-test-props-none", path[1]);
    CHECK_EQ(enable_props(s0, all_props), ERROR_SUCCESS);
    CHECK_EQ(enable_props(s1, 0), ERROR_SUCCESS);
    write_one(1);
    void *ret1 = caller_return;
    write_one(2);
    void *ret2 = caller_return;
    write_one(1);
    void *ret3 = caller_return;
    stop(s0);
    stop(s1);

    events none;
    read_events(path[1], &none);
    CHECK_EQ(none.count, 3);
    for (uint32_t i = 0; i < none.count; i++) {
        CHECK_EQ(none.ev[i].nitems, 0);
        CHECK((none.ev[i].flags & EVENT_HEADER_FLAG_EXTENDED_INFO) == 0);
    }

    static events all; /* large: not on the stack */
    read_events(path[0], &all);
    CHECK_EQ(all.count, 3);
    void *rets[3] = {ret1, ret2, ret3};
    uint64_t keys[3], start_key = 0;
    for (uint32_t i = 0; i < 3; i++) {
        const event *e = &all.ev[i];
        CHECK(e->flags & EVENT_HEADER_FLAG_EXTENDED_INFO);
        CHECK_EQ(e->nitems, 5);
        check_sid(find(e, EVENT_HEADER_EXT_TYPE_SID));
        const item *ts = find(e, EVENT_HEADER_EXT_TYPE_TS_ID);
        CHECK(ts && ts->size == 4);
#ifndef _WIN32
        uint32_t sid;
        memcpy(&sid, ts->data, 4);
        CHECK_EQ(sid, (uint32_t)getsid(0));
#endif
        const item *psk = find(e, EVENT_HEADER_EXT_TYPE_PROCESS_START_KEY);
        CHECK(psk && psk->size == 8);
        uint64_t k;
        memcpy(&k, psk->data, 8);
        CHECK(k != 0);
        CHECK(i == 0 || k == start_key); /* one per process */
        start_key = k;
        const item *ek = find(e, EVENT_HEADER_EXT_TYPE_EVENT_KEY);
        CHECK(ek && ek->size == 8);
        memcpy(&keys[i], ek->data, 8);
        const item *st = find(e, EVENT_HEADER_EXT_TYPE_STACK_TRACE64);
        CHECK(st != NULL);
#ifdef _WIN32
        CHECK(st->size >= 16 && (st->size - 8) % 8 == 0);
#else
        CHECK(st->size >= 16 && (st->size - 8) % 8 == 0);
#endif
        uint64_t match_id;
        memcpy(&match_id, st->data, 8);
        CHECK_EQ(match_id, 0);
        /* The frames include the return address into main() of write_one,
         * and one inside write_one (EventWrite's return address). */
        uint32_t frames = (st->size - 8u) / 8u, found_main = 0, found_fn = 0;
        for (uint32_t f = 0; f < frames; f++) {
            uint64_t a;
            memcpy(&a, st->data + 8 + 8 * f, 8);
            found_main |= a == (uint64_t)(uintptr_t)rets[i];
            found_fn |=
                a > (uint64_t)(uintptr_t)write_one && a < (uint64_t)(uintptr_t)write_one + 4096;
        }
        if (!found_main || !found_fn)
            fprintf(stderr, "event %u: %u frames, main %u, write_one %u\n", i, frames, found_main,
                    found_fn);
        CHECK(found_main && found_fn);
    }
    /* EVENT_KEY: the same for the same event, another for another one. */
    CHECK_EQ(keys[0], keys[2]);
    CHECK(keys[0] != keys[1]);

    /* One property alone: only its item. */
    s0 = start("petw-test-props-one", path[0]);
    CHECK_EQ(enable_props(s0, EVENT_ENABLE_PROPERTY_SID), ERROR_SUCCESS);
    write_one(3);
    stop(s0);
    read_events(path[0], &all);
    CHECK_EQ(all.count, 1);
    CHECK_EQ(all.ev[0].nitems, 1);
    check_sid(find(&all.ev[0], EVENT_HEADER_EXT_TYPE_SID));

    CHECK_EQ(EventUnregister(reg), ERROR_SUCCESS);
    remove(path[0]);
    remove(path[1]);
    printf("enable properties: ok\n");
    return 0;
}
