/* SPDX-License-Identifier: MIT */
/* combaseapi.h - StringFromGUID2 and the COM types ETW code takes from it, for
 * non-Windows hosts (StringFromGUID2 is in <windows.h>, as Windows' own
 * windows.h includes this header). Part of petw's Win32 layer.
 * On Windows this is the system's.
 *
 * The COM here is what ETW code needs to compile (the <relogger.h>
 * interfaces): IUnknown, BSTR, the HRESULTs, and CoCreateInstance, which
 * creates nothing: petw has no COM classes (no relogger), so it fails with
 * REGDB_E_CLASSNOTREG and a NULL object, as on a Windows without the class.
 * CoInitialize(Ex) and CoUninitialize have nothing to do and succeed.
 * SysAllocString and friends make BSTRs (a length prefix, then the string).
 */
#if defined(_WIN32)
#include_next <combaseapi.h>
#else
#ifndef PETW_ETW_COMBASEAPI_H
#define PETW_ETW_COMBASEAPI_H

#include <minwindef.h>
#include <winerror.h>

#ifdef __cplusplus
extern "C" {
#endif

/* COM's GUID text: "{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}", upper case, into
 * lpsz. Returns the characters written with the NUL (39), or 0 when cchMax
 * is below 39. OLECHAR is WCHAR: 4 bytes a character on Linux. The GUID
 * is a REFGUID, as in Windows' declaration: a pointer in C, a reference in
 * C++, with no pointer overload (a class converting to both stays
 * unambiguous). */
typedef WCHAR OLECHAR, *LPOLESTR;
typedef const WCHAR *LPCOLESTR;
int StringFromGUID2(REFGUID rguid, LPOLESTR lpsz, int cchMax);

/* COM's task memory and GUID text as a new string: CoTaskMemAlloc/CoTaskMemFree are malloc
 * and free; StringFromCLSID returns in *lplpsz the StringFromGUID2 text,
 * which the caller frees with CoTaskMemFree: S_OK, E_INVALIDARG for a NULL
 * pointer (*lplpsz NULL), E_OUTOFMEMORY. */
LPVOID CoTaskMemAlloc(SIZE_T cb);
void CoTaskMemFree(LPVOID pv);
HRESULT StringFromCLSID(REFGUID rclsid, LPOLESTR *lplpsz);

#ifndef E_NOTIMPL
#define E_NOTIMPL ((HRESULT)0x80004001L)
#endif
#ifndef E_NOINTERFACE
#define E_NOINTERFACE ((HRESULT)0x80004002L)
#endif
#ifndef E_POINTER
#define E_POINTER ((HRESULT)0x80004003L)
#endif
#ifndef E_ABORT
#define E_ABORT ((HRESULT)0x80004004L)
#endif
#ifndef E_UNEXPECTED
#define E_UNEXPECTED ((HRESULT)0x8000FFFFL)
#endif
#define REGDB_E_CLASSNOTREG ((HRESULT)0x80040154L)
#define CLASS_E_NOAGGREGATION ((HRESULT)0x80040110L)
#define CO_E_NOTINITIALIZED ((HRESULT)0x800401F0L)

#define CLSCTX_INPROC_SERVER 0x1
#define CLSCTX_INPROC_HANDLER 0x2
#define CLSCTX_LOCAL_SERVER 0x4
#define CLSCTX_REMOTE_SERVER 0x10
#define CLSCTX_INPROC (CLSCTX_INPROC_SERVER | CLSCTX_INPROC_HANDLER)
#define CLSCTX_SERVER (CLSCTX_INPROC_SERVER | CLSCTX_LOCAL_SERVER | CLSCTX_REMOTE_SERVER)
#define CLSCTX_ALL                                                                                 \
    (CLSCTX_INPROC_SERVER | CLSCTX_INPROC_HANDLER | CLSCTX_LOCAL_SERVER | CLSCTX_REMOTE_SERVER)

typedef enum tagCOINIT {
    COINIT_APARTMENTTHREADED = 0x2,
    COINIT_MULTITHREADED = 0x0,
    COINIT_DISABLE_OLE1DDE = 0x4,
    COINIT_SPEED_OVER_MEMORY = 0x8
} COINIT;

#ifdef __cplusplus
#define REFIID const IID &
#define REFCLSID const IID &
#else
#define REFIID const IID *
#define REFCLSID const IID *
#endif

typedef OLECHAR *BSTR;

/* Interfaces: `interface`, MIDL_INTERFACE, STDMETHOD and the C vtable
 * helpers, as Windows' objbase.h defines them. */
#ifndef interface
#define interface struct
#endif
#define BEGIN_INTERFACE
#define END_INTERFACE
#define MIDL_INTERFACE(x) struct DECLSPEC_UUID(x) DECLSPEC_NOVTABLE
#define STDMETHODIMP HRESULT STDMETHODCALLTYPE
#define STDMETHODIMP_(type) type STDMETHODCALLTYPE
#define STDAPI EXTERN_C HRESULT STDAPICALLTYPE
#define STDAPICALLTYPE
#ifdef __cplusplus
#define STDMETHOD(method) virtual HRESULT STDMETHODCALLTYPE method
#define STDMETHOD_(type, method) virtual type STDMETHODCALLTYPE method
#define PURE = 0
#define THIS_
#define THIS void
#else
#define STDMETHOD(method) HRESULT(STDMETHODCALLTYPE *method)
#define STDMETHOD_(type, method) type(STDMETHODCALLTYPE *method)
#define PURE
#define THIS_ INTERFACE *This,
#define THIS INTERFACE *This
#endif

/* {00000000-0000-0000-c000-000000000046} */
DEFINE_GUID(IID_IUnknown, 0x00000000, 0x0000, 0x0000, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x46);

#ifdef __cplusplus
}
extern "C++" {
struct IUnknown {
    virtual HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppvObject) = 0;
    virtual ULONG STDMETHODCALLTYPE AddRef(void) = 0;
    virtual ULONG STDMETHODCALLTYPE Release(void) = 0;
};
}
extern "C" {
#else
typedef struct IUnknown IUnknown;
typedef struct IUnknownVtbl {
    HRESULT(STDMETHODCALLTYPE *QueryInterface)(IUnknown *This, REFIID riid, void **ppvObject);
    ULONG(STDMETHODCALLTYPE *AddRef)(IUnknown *This);
    ULONG(STDMETHODCALLTYPE *Release)(IUnknown *This);
} IUnknownVtbl;
struct IUnknown {
    const IUnknownVtbl *lpVtbl;
};
#endif
typedef IUnknown *LPUNKNOWN;

HRESULT CoInitialize(LPVOID pvReserved);
HRESULT CoInitializeEx(LPVOID pvReserved, DWORD dwCoInit);
void CoUninitialize(void);
/* Always REGDB_E_CLASSNOTREG (*ppv set to NULL; E_POINTER without ppv). */
HRESULT CoCreateInstance(REFCLSID rclsid, LPUNKNOWN pUnkOuter, DWORD dwClsContext, REFIID riid,
                         LPVOID *ppv);

/* BSTRs (oleauto.h): NULL when out of memory. */
BSTR SysAllocString(const OLECHAR *psz);
BSTR SysAllocStringLen(const OLECHAR *strIn, UINT ui);
void SysFreeString(BSTR bstrString);
UINT SysStringLen(BSTR pbstr);

#ifdef __cplusplus
}
#endif
#endif /* PETW_ETW_COMBASEAPI_H */
#endif
