/* SPDX-License-Identifier: MIT */
// A GUID wrapper class that converts to both GUID and const GUID *, as C++
// ETW libraries write one, passed straight to StringFromGUID2 and
// StringFromCLSID: Windows declares only the REFGUID (reference) forms in
// C++, so the call picks the GUID conversion; a pointer overload beside it
// would make the call ambiguous.
#include <windows.h>
#include <objbase.h>

#include <cstdio>
#include <cwchar>

class guid_wrapper
{
  public:
    explicit guid_wrapper(const GUID &g) : guid_(g) {}
    operator GUID() const
    {
        return guid_;
    }
    operator const GUID *() const
    {
        return &guid_;
    }

  private:
    GUID guid_;
};

int main()
{
    const GUID g = {0x01234567, 0x89ab, 0xcdef, {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef}};
    guid_wrapper w(g);
    wchar_t text[40];
    if (StringFromGUID2(w, text, 40) != 39 ||
        std::wcscmp(text, L"{01234567-89AB-CDEF-0123-456789ABCDEF}") != 0) {
        std::fprintf(stderr, "StringFromGUID2: %ls\n", text);
        return 1;
    }
    LPOLESTR s = NULL;
    if (FAILED(StringFromCLSID(w, &s)) || std::wcscmp(s, text) != 0) {
        std::fprintf(stderr, "StringFromCLSID failed\n");
        return 1;
    }
    CoTaskMemFree(s);
    // The plain reference forms still take a GUID lvalue.
    return StringFromGUID2(g, text, 40) == 39 ? 0 : 1;
}
