/* SPDX-License-Identifier: MIT */
/* relogger.h - the ETW relogger's COM interfaces (ITraceRelogger,
 * ITraceEvent, ITraceEventCallback) and class ID, as the Windows SDK
 * declares them, in C and C++. Part of petw's ETW-compatible surface.
 *
 * petw has no relogger: CoCreateInstance(CLSID_TraceRelogger, ...) fails
 * with REGDB_E_CLASSNOTREG and a NULL interface (see <combaseapi.h>), so
 * code written for it compiles, links and finds at run time that the class
 * is not there. (Read a trace with OpenTrace/ProcessTrace and write one with
 * a session instead.) On Windows the COM types and CoCreateInstance are the
 * system's, and so is the relogger class CoCreateInstance creates there.
 */
#if defined(_WIN32) && defined(PETW_USE_NATIVE_ETW)
#include_next <relogger.h>
#else
#ifndef PETW_ETW_RELOGGER_H
#define PETW_ETW_RELOGGER_H

#include <windows.h>
#include <objbase.h>
#include <evntcons.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef interface ITraceEvent ITraceEvent;
typedef interface ITraceEventCallback ITraceEventCallback;
typedef interface ITraceRelogger ITraceRelogger;

/* {8cc97f40-9028-4ff3-9b62-7d1f79ca7bcb} */
DEFINE_GUID(IID_ITraceEvent, 0x8cc97f40, 0x9028, 0x4ff3, 0x9b, 0x62, 0x7d, 0x1f, 0x79, 0xca, 0x7b,
            0xcb);
/* {3ed25501-593f-43e9-8f38-3ab46f5a4a52} */
DEFINE_GUID(IID_ITraceEventCallback, 0x3ed25501, 0x593f, 0x43e9, 0x8f, 0x38, 0x3a, 0xb4, 0x6f, 0x5a,
            0x4a, 0x52);
/* {f754ad43-3bcc-4286-8009-9c5da214e84e} */
DEFINE_GUID(IID_ITraceRelogger, 0xf754ad43, 0x3bcc, 0x4286, 0x80, 0x09, 0x9c, 0x5d, 0xa2, 0x14,
            0xe8, 0x4e);
/* {0764af4c-2169-49f4-8f3a-fb1ff038fce3} */
DEFINE_GUID(LIBID_TraceReloggerLib, 0x0764af4c, 0x2169, 0x49f4, 0x8f, 0x3a, 0xfb, 0x1f, 0xf0, 0x38,
            0xfc, 0xe3);
/* {7b40792d-05ff-44c4-9058-f440c71f17d4}: the class, by both its names. */
DEFINE_GUID(CLSID_CTraceRelogger, 0x7b40792d, 0x05ff, 0x44c4, 0x90, 0x58, 0xf4, 0x40, 0xc7, 0x1f,
            0x17, 0xd4);
DEFINE_GUID(CLSID_TraceRelogger, 0x7b40792d, 0x05ff, 0x44c4, 0x90, 0x58, 0xf4, 0x40, 0xc7, 0x1f,
            0x17, 0xd4);

#if defined(__cplusplus) && !defined(CINTERFACE)
}
extern "C++" {
MIDL_INTERFACE("8CC97F40-9028-4FF3-9B62-7D1F79CA7BCB")
ITraceEvent : public IUnknown
{
  public:
    virtual HRESULT STDMETHODCALLTYPE Clone(ITraceEvent * *NewEvent) = 0;
    virtual HRESULT STDMETHODCALLTYPE GetUserContext(void **UserContext) = 0;
    virtual HRESULT STDMETHODCALLTYPE GetEventRecord(PEVENT_RECORD * EventRecord) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetPayload(BYTE * Payload, ULONG PayloadSize) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetEventDescriptor(PCEVENT_DESCRIPTOR EventDescriptor) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetProcessId(ULONG ProcessId) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetProcessorIndex(ULONG ProcessorIndex) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetThreadId(ULONG ThreadId) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetThreadTimes(ULONG KernelTime, ULONG UserTime) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetActivityId(LPCGUID ActivityId) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetTimeStamp(LARGE_INTEGER * TimeStamp) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetProviderId(LPCGUID ProviderId) = 0;
};

MIDL_INTERFACE("3ED25501-593F-43E9-8F38-3AB46F5A4A52")
ITraceEventCallback : public IUnknown
{
  public:
    virtual HRESULT STDMETHODCALLTYPE OnBeginProcessTrace(ITraceEvent * HeaderEvent,
                                                          ITraceRelogger * Relogger) = 0;
    virtual HRESULT STDMETHODCALLTYPE OnFinalizeProcessTrace(ITraceRelogger * Relogger) = 0;
    virtual HRESULT STDMETHODCALLTYPE OnEvent(ITraceEvent * Event, ITraceRelogger * Relogger) = 0;
};

MIDL_INTERFACE("F754AD43-3BCC-4286-8009-9C5DA214E84E")
ITraceRelogger : public IUnknown
{
  public:
    virtual HRESULT STDMETHODCALLTYPE AddLogfileTraceStream(BSTR LogfileName, void *UserContext,
                                                            TRACEHANDLE *TraceHandle) = 0;
    virtual HRESULT STDMETHODCALLTYPE AddRealtimeTraceStream(BSTR LoggerName, void *UserContext,
                                                             TRACEHANDLE *TraceHandle) = 0;
    virtual HRESULT STDMETHODCALLTYPE RegisterCallback(ITraceEventCallback * Callback) = 0;
    virtual HRESULT STDMETHODCALLTYPE Inject(ITraceEvent * Event) = 0;
    virtual HRESULT STDMETHODCALLTYPE CreateEventInstance(TRACEHANDLE TraceHandle, ULONG Flags,
                                                          ITraceEvent * *Event) = 0;
    virtual HRESULT STDMETHODCALLTYPE ProcessTrace(void) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetOutputFilename(BSTR LogfileName) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetCompressionMode(BOOLEAN CompressionMode) = 0;
    virtual HRESULT STDMETHODCALLTYPE Cancel(void) = 0;
};

class CTraceRelogger; /* the coclass: never defined */
}
extern "C" {
#else
typedef struct ITraceEventVtbl {
    HRESULT(STDMETHODCALLTYPE *QueryInterface)(ITraceEvent *This, REFIID riid, void **ppvObject);
    ULONG(STDMETHODCALLTYPE *AddRef)(ITraceEvent *This);
    ULONG(STDMETHODCALLTYPE *Release)(ITraceEvent *This);
    HRESULT(STDMETHODCALLTYPE *Clone)(ITraceEvent *This, ITraceEvent **NewEvent);
    HRESULT(STDMETHODCALLTYPE *GetUserContext)(ITraceEvent *This, void **UserContext);
    HRESULT(STDMETHODCALLTYPE *GetEventRecord)(ITraceEvent *This, PEVENT_RECORD *EventRecord);
    HRESULT(STDMETHODCALLTYPE *SetPayload)(ITraceEvent *This, BYTE *Payload, ULONG PayloadSize);
    HRESULT(STDMETHODCALLTYPE *SetEventDescriptor)
    (ITraceEvent *This, PCEVENT_DESCRIPTOR EventDescriptor);
    HRESULT(STDMETHODCALLTYPE *SetProcessId)(ITraceEvent *This, ULONG ProcessId);
    HRESULT(STDMETHODCALLTYPE *SetProcessorIndex)(ITraceEvent *This, ULONG ProcessorIndex);
    HRESULT(STDMETHODCALLTYPE *SetThreadId)(ITraceEvent *This, ULONG ThreadId);
    HRESULT(STDMETHODCALLTYPE *SetThreadTimes)(ITraceEvent *This, ULONG KernelTime, ULONG UserTime);
    HRESULT(STDMETHODCALLTYPE *SetActivityId)(ITraceEvent *This, LPCGUID ActivityId);
    HRESULT(STDMETHODCALLTYPE *SetTimeStamp)(ITraceEvent *This, LARGE_INTEGER *TimeStamp);
    HRESULT(STDMETHODCALLTYPE *SetProviderId)(ITraceEvent *This, LPCGUID ProviderId);
} ITraceEventVtbl;
interface ITraceEvent
{
    const struct ITraceEventVtbl *lpVtbl;
};

typedef struct ITraceEventCallbackVtbl {
    HRESULT(STDMETHODCALLTYPE *QueryInterface)
    (ITraceEventCallback *This, REFIID riid, void **ppvObject);
    ULONG(STDMETHODCALLTYPE *AddRef)(ITraceEventCallback *This);
    ULONG(STDMETHODCALLTYPE *Release)(ITraceEventCallback *This);
    HRESULT(STDMETHODCALLTYPE *OnBeginProcessTrace)
    (ITraceEventCallback *This, ITraceEvent *HeaderEvent, ITraceRelogger *Relogger);
    HRESULT(STDMETHODCALLTYPE *OnFinalizeProcessTrace)
    (ITraceEventCallback *This, ITraceRelogger *Relogger);
    HRESULT(STDMETHODCALLTYPE *OnEvent)
    (ITraceEventCallback *This, ITraceEvent *Event, ITraceRelogger *Relogger);
} ITraceEventCallbackVtbl;
interface ITraceEventCallback
{
    const struct ITraceEventCallbackVtbl *lpVtbl;
};

typedef struct ITraceReloggerVtbl {
    HRESULT(STDMETHODCALLTYPE *QueryInterface)(ITraceRelogger *This, REFIID riid, void **ppvObject);
    ULONG(STDMETHODCALLTYPE *AddRef)(ITraceRelogger *This);
    ULONG(STDMETHODCALLTYPE *Release)(ITraceRelogger *This);
    HRESULT(STDMETHODCALLTYPE *AddLogfileTraceStream)
    (ITraceRelogger *This, BSTR LogfileName, void *UserContext, TRACEHANDLE *TraceHandle);
    HRESULT(STDMETHODCALLTYPE *AddRealtimeTraceStream)
    (ITraceRelogger *This, BSTR LoggerName, void *UserContext, TRACEHANDLE *TraceHandle);
    HRESULT(STDMETHODCALLTYPE *RegisterCallback)
    (ITraceRelogger *This, ITraceEventCallback *Callback);
    HRESULT(STDMETHODCALLTYPE *Inject)(ITraceRelogger *This, ITraceEvent *Event);
    HRESULT(STDMETHODCALLTYPE *CreateEventInstance)
    (ITraceRelogger *This, TRACEHANDLE TraceHandle, ULONG Flags, ITraceEvent **Event);
    HRESULT(STDMETHODCALLTYPE *ProcessTrace)(ITraceRelogger *This);
    HRESULT(STDMETHODCALLTYPE *SetOutputFilename)(ITraceRelogger *This, BSTR LogfileName);
    HRESULT(STDMETHODCALLTYPE *SetCompressionMode)(ITraceRelogger *This, BOOLEAN CompressionMode);
    HRESULT(STDMETHODCALLTYPE *Cancel)(ITraceRelogger *This);
} ITraceReloggerVtbl;
interface ITraceRelogger
{
    const struct ITraceReloggerVtbl *lpVtbl;
};
typedef struct CTraceRelogger CTraceRelogger; /* the coclass: never defined */
#endif

#ifdef __cplusplus
}
#endif
#endif /* PETW_ETW_RELOGGER_H */
#endif
