/* SPDX-License-Identifier: MIT */
/* TraceLoggingActivity.h - the Windows SDK's C++ activity helpers for
 * TraceLogging, on petw's <TraceLoggingProvider.h>. Part of petw's
 * ETW-compatible surface. C++ only, as the SDK's (in C it declares nothing).
 *
 *   TraceLoggingActivity<provider, keyword = 0, level = 5>: an activity with
 *     its own ID; events join it with TraceLoggingWriteTagged.
 *   TraceLoggingThreadActivity<provider, keyword = 0, level = 5>: an activity
 *     that is the thread's current activity ID between its START and STOP
 *     (so plain TraceLoggingWrite events join it); activities must nest.
 *   TraceLoggingThreadActivityIdSetter: sets the thread's activity ID for its
 *     lifetime.
 *   TraceLoggingWriteStart(activity, "Name", fields...): creates the
 *     activity's ID (EventActivityIdControl) and writes its START event
 *     (opcode WINEVENT_OPCODE_START, the activity's keyword and level, the
 *     related activity set by SetRelatedActivity, or for a thread activity
 *     the thread's previous activity ID).
 *   TraceLoggingWriteStop(activity, "Name", fields...): the STOP event.
 *   TraceLoggingWriteTagged(activity, "Name", fields...): an event with the
 *     activity's ID (its own level and keyword: default 5 and 0).
 *   TraceLoggingWriteTaggedIfStarted: the same, only between START and STOP.
 *   TraceLoggingFunction: refused at compile time, naming itself (petw's
 *     event names are literals; the function's name is not one).
 * An activity destroyed while started writes "ActivityStoppedAutomatically"
 * (a STOP event), as the SDK's does. Differences: the SDK's compile-time
 * refusal of TraceLoggingKeyword/TraceLoggingLevel in START and STOP
 * arguments is not made (they override the activity's); the SDK's debug
 * assertions on misuse are not made. The provider is a template argument,
 * so it is a TraceLoggingHProvider const with linkage (a
 * TRACELOGGING_DEFINE_PROVIDER handle).
 */
#ifndef PETW_ETW_TRACELOGGINGACTIVITY_H
#define PETW_ETW_TRACELOGGINGACTIVITY_H

#if defined(_WIN32) && defined(PETW_USE_NATIVE_ETW)
#include_next <TraceLoggingActivity.h>
#else
#include <TraceLoggingProvider.h>

#ifdef __cplusplus
#include <type_traits>

extern "C++" {
struct _TlgReflectorTag_Param0IsHProvider;

template <UINT64 keyword, UINT8 level>
inline void petw__tlg_activity_auto_stop(TraceLoggingHProvider provider, const GUID *id)
{
    TraceLoggingWriteActivity(provider, "ActivityStoppedAutomatically", id, NULL,
                              TraceLoggingOpcode(WINEVENT_OPCODE_STOP),
                              TraceLoggingKeyword(keyword), TraceLoggingLevel(level));
}

/* What both activity kinds share (the SDK's _TlgActivityBase). */
template <class Derived, UINT64 keyword, UINT8 level> class petw__tlg_activity_base
{
    enum state { created, started, stopped, destroyed };
    state m_state;
    bool m_has_related;
    GUID m_id;
    GUID m_related;
    petw__tlg_activity_base(const petw__tlg_activity_base &);
    petw__tlg_activity_base &operator=(const petw__tlg_activity_base &);
    void reset()
    {
        m_state = created;
        m_has_related = false;
        memset(&m_id, 0, sizeof m_id);
        memset(&m_related, 0, sizeof m_related);
    }
    static bool zero(const GUID &g)
    {
        static const GUID none = {0, 0, 0, {0, 0, 0, 0, 0, 0, 0, 0}};
        return memcmp(&g, &none, sizeof g) == 0;
    }

  protected:
    petw__tlg_activity_base()
    {
        reset();
    }
    ~petw__tlg_activity_base()
    {
        if (m_state == started) {
            zInternalStop();
            petw__tlg_activity_auto_stop<keyword, level>(static_cast<Derived *>(this)->Provider(),
                                                         &m_id);
        }
        m_state = destroyed;
    }
    petw__tlg_activity_base(petw__tlg_activity_base &&rhs)
    {
        reset();
        *this = static_cast<petw__tlg_activity_base &&>(rhs);
    }
    petw__tlg_activity_base &operator=(petw__tlg_activity_base &&rhs)
    {
        m_state = rhs.m_state;
        m_has_related = rhs.m_has_related;
        m_id = rhs.m_id;
        m_related = rhs.m_related;
        rhs.reset();
        return *this;
    }
    void SetRelatedId(const GUID &relatedActivityId)
    {
        m_related = relatedActivityId;
        m_has_related = true;
    }
    const GUID *GetRelatedId() const
    {
        return m_has_related && !zero(m_related) ? &m_related : NULL;
    }
    /* A thread activity's START: its ID becomes the thread's, the previous
     * one its related activity. */
    void PushThreadActivityId()
    {
        m_related = m_id;
        EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_SET_ID, &m_related);
        m_has_related = true;
    }
    /* Its STOP: the thread's previous activity ID again. */
    void PopThreadActivityId()
    {
        if (m_has_related)
            EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_SET_ID, &m_related);
    }

  public:
    static const UINT64 Keyword = keyword;
    static const UINT8 Level = level;
    const GUID *Id() const
    {
        return &m_id;
    }
    bool IsStarted() const
    {
        return m_state == started;
    }
    /* For the macros. */
    void zInternalStart()
    {
        EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &m_id);
        static_cast<Derived *>(this)->OnStarted();
        m_state = started;
    }
    const GUID *zInternalRelatedId() const
    {
        return GetRelatedId();
    }
    void zInternalStop()
    {
        if (m_state == started)
            static_cast<Derived *>(this)->OnStopped();
        m_state = stopped;
    }
};

template <TraceLoggingHProvider const &provider, UINT64 keyword = 0, UINT8 level = 5,
          typename TlgReflectorTag = _TlgReflectorTag_Param0IsHProvider>
class TraceLoggingActivity
    : public petw__tlg_activity_base<
          TraceLoggingActivity<provider, keyword, level, TlgReflectorTag>, keyword, level>
{
    typedef petw__tlg_activity_base<TraceLoggingActivity, keyword, level> base;
    friend base;
    void OnStarted() {}
    void OnStopped() {}

  public:
    TraceLoggingActivity() {}
    TraceLoggingActivity(TraceLoggingActivity &&rhs) : base(static_cast<base &&>(rhs)) {}
    TraceLoggingActivity &operator=(TraceLoggingActivity &&rhs)
    {
        base::operator=(static_cast<base &&>(rhs));
        return *this;
    }
    static TraceLoggingHProvider Provider()
    {
        return provider;
    }
    /* Before START: the START event's related activity. */
    template <class ActivityTy> void SetRelatedActivity(const ActivityTy &relatedActivity)
    {
        base::SetRelatedId(*relatedActivity.Id());
    }
    void SetRelatedActivityId(const GUID &relatedActivityId)
    {
        base::SetRelatedId(relatedActivityId);
    }
    void SetRelatedActivityId(const GUID *relatedActivityId)
    {
        if (relatedActivityId)
            base::SetRelatedId(*relatedActivityId);
    }
};

template <TraceLoggingHProvider const &provider, UINT64 keyword = 0, UINT8 level = 5,
          typename TlgReflectorTag = _TlgReflectorTag_Param0IsHProvider>
class TraceLoggingThreadActivity
    : public petw__tlg_activity_base<
          TraceLoggingThreadActivity<provider, keyword, level, TlgReflectorTag>, keyword, level>
{
    typedef petw__tlg_activity_base<TraceLoggingThreadActivity, keyword, level> base;
    friend base;
    void OnStarted()
    {
        base::PushThreadActivityId();
    }
    void OnStopped()
    {
        base::PopThreadActivityId();
    }

  public:
    TraceLoggingThreadActivity() {}
    TraceLoggingThreadActivity(TraceLoggingThreadActivity &&rhs) : base(static_cast<base &&>(rhs))
    {
    }
    TraceLoggingThreadActivity &operator=(TraceLoggingThreadActivity &&rhs)
    {
        base::operator=(static_cast<base &&>(rhs));
        return *this;
    }
    static TraceLoggingHProvider Provider()
    {
        return provider;
    }
};

class TraceLoggingThreadActivityIdSetter
{
    GUID m_saved;
    TraceLoggingThreadActivityIdSetter(const TraceLoggingThreadActivityIdSetter &);
    TraceLoggingThreadActivityIdSetter &operator=(const TraceLoggingThreadActivityIdSetter &);

  public:
    explicit TraceLoggingThreadActivityIdSetter(const GUID &activityId) : m_saved(activityId)
    {
        EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_SET_ID, &m_saved);
    }
    explicit TraceLoggingThreadActivityIdSetter(const GUID *activityId) : m_saved(*activityId)
    {
        EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_SET_ID, &m_saved);
    }
    ~TraceLoggingThreadActivityIdSetter()
    {
        EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &m_saved);
    }
};
}

#define PETW__TLA_TYPE(activity) std::decay<decltype(activity)>::type
#define TraceLoggingWriteStart(activity, name, ...)                                                \
    do {                                                                                           \
        (activity).zInternalStart();                                                               \
        TraceLoggingWriteActivity(                                                                 \
            (activity).Provider(), name, (activity).Id(), (activity).zInternalRelatedId(),         \
            TraceLoggingOpcode(WINEVENT_OPCODE_START),                                             \
            TraceLoggingKeyword(PETW__TLA_TYPE(activity)::Keyword),                                \
            TraceLoggingLevel(PETW__TLA_TYPE(activity)::Level), ##__VA_ARGS__);                    \
    } while (0)
#define TraceLoggingWriteStop(activity, name, ...)                                                 \
    do {                                                                                           \
        (activity).zInternalStop();                                                                \
        TraceLoggingWriteActivity((activity).Provider(), name, (activity).Id(), NULL,              \
                                  TraceLoggingOpcode(WINEVENT_OPCODE_STOP),                        \
                                  TraceLoggingKeyword(PETW__TLA_TYPE(activity)::Keyword),          \
                                  TraceLoggingLevel(PETW__TLA_TYPE(activity)::Level),              \
                                  ##__VA_ARGS__);                                                  \
    } while (0)
#define TraceLoggingWriteTagged(activity, name, ...)                                               \
    TraceLoggingWriteActivity((activity).Provider(), name, (activity).Id(), NULL, ##__VA_ARGS__)
#define TraceLoggingWriteTaggedIfStarted(activity, name, ...)                                      \
    do {                                                                                           \
        if ((activity).IsStarted())                                                                \
            TraceLoggingWriteTagged(activity, name, ##__VA_ARGS__);                                \
    } while (0)
/* Refused at compile time, naming itself: petw's event names are string
 * literals (the metadata is built at compile time) and the function's name
 * is not one. Write TraceLoggingWriteStart with a TraceLoggingThreadActivity. */
#define TraceLoggingFunction(providerHandle, ...)                                                  \
    static_assert(sizeof(providerHandle) == 0,                                                     \
                  "petw: TraceLoggingFunction is not supported (use a TraceLoggingThreadActivity " \
                  "and TraceLoggingWriteStart)")

#endif /* __cplusplus */
#endif /* !(_WIN32 && PETW_USE_NATIVE_ETW) */
#endif /* PETW_ETW_TRACELOGGINGACTIVITY_H */
