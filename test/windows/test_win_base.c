/* SPDX-License-Identifier: MIT */
/* test_win_base.c - the process heap, GetVersionEx, HRESULT_CODE, the
 * byte swaps and rotations, <intsafe.h>'s limits and __try/__finally in
 * C, as <windows.h> gives them to Windows programs. */
#include <windows.h>
#include <intsafe.h>

#include "test_util.h"

static void test_heap(void)
{
    HANDLE heap = GetProcessHeap();
    CHECK(heap != NULL);
    CHECK(heap == GetProcessHeap());
    unsigned char *p = (unsigned char *)HeapAlloc(heap, HEAP_ZERO_MEMORY, 100);
    CHECK(p != NULL);
    CHECK_EQ((uintptr_t)p % 16, 0);
    for (int i = 0; i < 100; i++)
        CHECK_EQ(p[i], 0);
    CHECK_EQ(HeapSize(heap, 0, p), 100);
    memset(p, 0xAB, 100);
    /* Grown with HEAP_ZERO_MEMORY: the old bytes kept, the new zeroed. */
    p = (unsigned char *)HeapReAlloc(heap, HEAP_ZERO_MEMORY, p, 5000);
    CHECK(p != NULL);
    CHECK_EQ(HeapSize(heap, 0, p), 5000);
    for (int i = 0; i < 100; i++)
        CHECK_EQ(p[i], 0xAB);
    for (int i = 100; i < 5000; i++)
        CHECK_EQ(p[i], 0);
    /* In place: shrinking only. */
    CHECK(HeapReAlloc(heap, HEAP_REALLOC_IN_PLACE_ONLY, p, 6000) == NULL);
    CHECK_EQ(GetLastError(), ERROR_NOT_ENOUGH_MEMORY);
    CHECK(HeapReAlloc(heap, HEAP_REALLOC_IN_PLACE_ONLY, p, 10) == p);
    CHECK_EQ(HeapSize(heap, 0, p), 10);
    CHECK_EQ(p[9], 0xAB);
    CHECK(HeapFree(heap, 0, p));
    CHECK(HeapFree(heap, 0, NULL));
    void *zero = HeapAlloc(heap, 0, 0);
    CHECK(zero != NULL);
    CHECK_EQ(HeapSize(heap, 0, zero), 0);
    HeapFree(heap, 0, zero);
    CHECK(HeapAlloc(heap, 0, (SIZE_T)-1) == NULL);
    CHECK_EQ(GetLastError(), ERROR_NOT_ENOUGH_MEMORY);
}

static void test_version(void)
{
    OSVERSIONINFOA a;
    OSVERSIONINFOEXW w;
    ZeroMemory(&a, sizeof(a));
    a.dwOSVersionInfoSize = sizeof(a);
    CHECK(GetVersionExA(&a));
    CHECK_EQ(a.dwMajorVersion, 10);
    CHECK_EQ(a.dwMinorVersion, 0);
    CHECK(a.dwBuildNumber >= 10240);
    CHECK_EQ(a.dwPlatformId, VER_PLATFORM_WIN32_NT);
    memset(&w, 0x55, sizeof(w));
    w.dwOSVersionInfoSize = sizeof(w);
    CHECK(GetVersionExW((LPOSVERSIONINFOW)&w));
    CHECK_EQ(w.dwMajorVersion, 10);
    CHECK_EQ(w.szCSDVersion[0], 0);
    CHECK_EQ(w.wProductType, VER_NT_WORKSTATION);
    CHECK_EQ(w.wServicePackMajor, 0);
    a.dwOSVersionInfoSize = 12;
    CHECK(!GetVersionExA(&a));
    CHECK_EQ(GetLastError(), ERROR_INSUFFICIENT_BUFFER);
}

static void test_macros(void)
{
    HRESULT hr = HRESULT_FROM_WIN32(ERROR_INSUFFICIENT_BUFFER);
    CHECK_EQ(HRESULT_CODE(hr), ERROR_INSUFFICIENT_BUFFER);
    CHECK_EQ(HRESULT_FACILITY(hr), FACILITY_WIN32);
    CHECK_EQ(HRESULT_SEVERITY(hr), 1);
    CHECK_EQ(MAKE_HRESULT(1, FACILITY_WIN32, ERROR_INSUFFICIENT_BUFFER), hr);
    CHECK_EQ(USHORT_MAX, 65535);
    CHECK_EQ(USHORT_MAX + 1, 65536);
    CHECK_EQ(DWORD_MAX, 0xFFFFFFFFu);
    CHECK_EQ(_byteswap_ushort(0x1234), 0x3412);
    CHECK_EQ(_byteswap_ulong(0x12345678u), 0x78563412u);
    CHECK(_byteswap_uint64(0x0102030405060708ULL) == 0x0807060504030201ULL);
    CHECK_EQ(_rotl(0x80000001u, 1), 3);
    CHECK_EQ(_rotl(0x12345678u, 0), 0x12345678u);
    CHECK_EQ(_rotl(0x12345678u, 32), 0x12345678u);
    CHECK_EQ(_rotr(3u, 1), 0x80000001u);
    CHECK_EQ(_rotl(0x12345678u, 8), 0x34567812u);
    CHECK(_rotl64(0x8000000000000001ULL, 4) == 0x18ULL);
    CHECK(_rotr64(0x18ULL, 4) == 0x8000000000000001ULL);
}

/* __finally runs after the __try block, whether it ends or leaves. */
static int finally_runs(int leave, int *trail)
{
    int steps = 0;
    __try {
        steps |= 1;
        if (leave)
            __leave;
        steps |= 2;
    } __finally {
        steps |= 4;
        *trail = AbnormalTermination();
    }
    return steps;
}

static void test_try_finally(void)
{
    int trail = -1;
    CHECK_EQ(finally_runs(0, &trail), 7);
    CHECK_EQ(trail, 0);
    CHECK_EQ(finally_runs(1, &trail), 5);
}

int main(void)
{
    test_heap();
    test_version();
    test_macros();
    test_try_finally();
    printf("win_base: ok\n");
    return 0;
}
