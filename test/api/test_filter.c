/* SPDX-License-Identifier: MIT */
/* Level and keyword filtering per session, several sessions at once, and
 * enable callbacks with the least-restrictive level/keywords; enablement
 * made before a provider registers applies when it does; 8 sessions per
 * provider at most. */
#include "test_util.h"

DEFINE_GUID(FilterProvider, 0x6c7d0a10, 0x3b3b, 0x4c4c, 0x90, 0x90, 0, 0, 0, 0, 0, 0x10);

typedef struct cb_call {
    ULONG is_enabled;
    UCHAR level;
    ULONGLONG any, all;
} cb_call;
static cb_call calls[64];
static int ncalls;

static void NTAPI on_enable(LPCGUID src, ULONG is_enabled, UCHAR level, ULONGLONG any,
                            ULONGLONG all, PEVENT_FILTER_DESCRIPTOR f, PVOID ctx)
{
    CHECK(memcmp(src, &FilterProvider, sizeof(GUID)) == 0);
    CHECK(ctx == (PVOID)&calls);
    (void)f;
    /* A shared session's callbacks may run on the agent thread (a disable
     * at its stop, say): the count is atomic, each call's entry its own. */
    int n = __atomic_load_n(&ncalls, __ATOMIC_RELAXED);
    calls[n] = (cb_call){is_enabled, level, any, all};
    __atomic_store_n(&ncalls, n + 1, __ATOMIC_RELEASE);
}

typedef struct session_spec {
    const char *name;
    UCHAR level;
    ULONGLONG any, all;
} session_spec;

static int accepts(const session_spec *s, UCHAR lv, ULONGLONG kw)
{
    UCHAR sl = s->level ? s->level : 255;
    ULONGLONG any = s->any ? s->any : ~0ull;
    if (lv != 0 && lv > sl)
        return 0;
    return kw == 0 || ((kw & any) && (kw & s->all) == s->all);
}

int main(void)
{
    const session_spec specs[3] = {
        {"petw-test-filter-1", 3, 0x1, 0},     /* warnings and worse, keyword 1 */
        {"petw-test-filter-2", 0, 0, 0x6},     /* every level, keywords 2 and 4 both */
        {"petw-test-filter-3", 5, 0xF0, 0x10}, /* verbose, any of F0 with 10 */
    };
    char paths[3][512];
    test_props tp[3];
    TRACEHANDLE h[3];
    REGHANDLE reg;

    /* Session 1 enables before the provider exists. */
    for (int i = 0; i < 3; i++) {
        char name[64];
        snprintf(name, sizeof(name), "filter%d.etl", i);
        test_path(paths[i], sizeof(paths[i]), name);
        test_props_init(&tp[i], paths[i]);
        CHECK_EQ(test_start_trace(&h[i], specs[i].name, &tp[i].p), ERROR_SUCCESS);
    }
    CHECK_EQ(EnableTraceEx2(h[0], &FilterProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                            specs[0].level, specs[0].any, specs[0].all, 0, NULL),
             ERROR_SUCCESS);
    CHECK_EQ(EventRegister(&FilterProvider, on_enable, &calls, &reg), ERROR_SUCCESS);
    CHECK_EQ(__atomic_load_n(&ncalls, __ATOMIC_ACQUIRE), 1);
    CHECK_EQ(calls[0].is_enabled, 1);
    CHECK_EQ(calls[0].level, 3);
    CHECK(calls[0].any == 0x1 && calls[0].all == 0);

    CHECK_EQ(EnableTraceEx2(h[1], &FilterProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                            specs[1].level, specs[1].any, specs[1].all, 0, NULL),
             ERROR_SUCCESS);
    CHECK_EQ(__atomic_load_n(&ncalls, __ATOMIC_ACQUIRE), 2);
    CHECK_EQ(calls[1].level, 255);
    CHECK(calls[1].any == ~0ull && calls[1].all == 0);
    CHECK_EQ(EnableTraceEx2(h[2], &FilterProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                            specs[2].level, specs[2].any, specs[2].all, 0, NULL),
             ERROR_SUCCESS);
    CHECK_EQ(__atomic_load_n(&ncalls, __ATOMIC_ACQUIRE), 3);

    /* Every level x a set of keywords. */
    static const ULONGLONG kws[] = {0, 0x1, 0x2, 0x6, 0x7, 0x10, 0x30, 0x20, 0x100};
    uint32_t expect[3] = {0, 0, 0}, written = 0;
    for (UCHAR lv = 0; lv <= 6; lv++) {
        for (size_t k = 0; k < sizeof(kws) / sizeof(kws[0]); k++) {
            EVENT_DESCRIPTOR d;
            EventDescCreate(&d, (USHORT)(lv * 100 + k), 0, 0, lv, 0, 0, kws[k]);
            int any = 0;
            for (int s = 0; s < 3; s++) {
                expect[s] += (uint32_t)accepts(&specs[s], lv, kws[k]);
                any |= accepts(&specs[s], lv, kws[k]);
            }
            CHECK_EQ(EventEnabled(reg, &d), any);
            CHECK_EQ(EventProviderEnabled(reg, lv, kws[k]), any);
            ULONG id = d.Id;
            EVENT_DATA_DESCRIPTOR dd;
            EventDataDescCreate(&dd, &id, sizeof(id));
            CHECK_EQ(EventWrite(reg, &d, 1, &dd), ERROR_SUCCESS);
            written++;
        }
    }

    /* Disabling session 1 leaves 2 and 3: level 255, any ~0, all 0x6 & 0x10. */
    CHECK_EQ(EnableTraceEx2(h[0], &FilterProvider, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0,
                            NULL),
             ERROR_SUCCESS);
    CHECK_EQ(calls[__atomic_load_n(&ncalls, __ATOMIC_ACQUIRE) - 1].is_enabled, 1);
    CHECK_EQ(calls[__atomic_load_n(&ncalls, __ATOMIC_ACQUIRE) - 1].level, 255);
    CHECK(calls[__atomic_load_n(&ncalls, __ATOMIC_ACQUIRE) - 1].all == (0x6ull & 0x10ull));
    /* Capture state reaches the callback with code 2. */
    CHECK_EQ(
        EnableTraceEx2(h[1], &FilterProvider, EVENT_CONTROL_CODE_CAPTURE_STATE, 0, 0, 0, 0, NULL),
        ERROR_SUCCESS);
    CHECK_EQ(calls[__atomic_load_n(&ncalls, __ATOMIC_ACQUIRE) - 1].is_enabled, 2);

    for (int i = 0; i < 3; i++)
        CHECK_EQ(ControlTraceA(h[i], NULL, &tp[i].p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    /* The last stop disabled the provider everywhere. */
    CHECK_EQ(calls[__atomic_load_n(&ncalls, __ATOMIC_ACQUIRE) - 1].is_enabled, 0);
    EVENT_DESCRIPTOR any_d = {1, 0, 0, 0, 0, 0, 0};
    CHECK_EQ(EventEnabled(reg, &any_d), 0);

    for (int s = 0; s < 3; s++) {
        test_events l;
        CHECK_EQ(test_read(paths[s], 0, &l, NULL, NULL), 0);
        CHECK_EQ(test_count_provider(&l, &FilterProvider), expect[s]);
        for (size_t i = 0; i < l.count; i++) {
            const test_event *e = &l.ev[i];
            if (memcmp(&e->header.provider_id, &FilterProvider, sizeof(GUID)))
                continue;
            CHECK(accepts(&specs[s], e->header.descriptor.level, e->header.descriptor.keyword));
            ULONG id;
            memcpy(&id, e->data, 4);
            CHECK_EQ(id, e->header.descriptor.id);
        }
        printf("filter: session %d got %u of %u\n", s + 1, expect[s], written);
        test_events_free(&l);
        unlink(paths[s]);
    }

    /* At most 8 sessions enable one provider. */
    TRACEHANDLE many[9];
    test_props mp[9];
    for (int i = 0; i < 9; i++) {
        char name[64];
        snprintf(name, sizeof(name), "petw-test-filter-many-%d", i);
        test_props_init(&mp[i], NULL);
        CHECK_EQ(test_start_trace(&many[i], name, &mp[i].p), ERROR_SUCCESS);
        ULONG st = EnableTraceEx2(many[i], &FilterProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0,
                                  0, 0, 0, NULL);
        CHECK_EQ(st, i < 8 ? ERROR_SUCCESS : ERROR_NO_SYSTEM_RESOURCES);
    }
    for (int i = 0; i < 9; i++)
        CHECK_EQ(ControlTraceA(many[i], NULL, &mp[i].p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(EventUnregister(reg), ERROR_SUCCESS);
    return 0;
}
