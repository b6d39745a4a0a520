/* SPDX-License-Identifier: MIT */
/* initguid.h - makes DEFINE_GUID define its GUIDs as Windows does with
 * INITGUID: one extern "C" object per name, with selectany (weak)
 * semantics, so every translation unit that defines it shares one copy and
 * an `EXTERN_C const GUID name;` declaration refers to it.
 *
 * Part of petw's Win32 layer. On Windows this is the system's.
 */
#if defined(_WIN32)
#include_next <initguid.h>
#else
#ifndef INITGUID
#define INITGUID
#endif
#include <windows.h>
#undef DEFINE_GUID
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                               \
    PETW__GUID_EXTERN const GUID DECLSPEC_SELECTANY name = {                                       \
        l, w1, w2, {b1, b2, b3, b4, b5, b6, b7, b8}}
#endif
