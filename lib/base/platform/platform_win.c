/* SPDX-License-Identifier: MIT */
/* platform_win.c - Windows implementation of platform.h. Paths are UTF-8 in
 * petw and converted to UTF-16 here. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "petw/error.h"
#include "platform.h" /* windows.h first: sddl.h needs it */
#include "platform_win_internal.h"
#include <aclapi.h>
#include <sddl.h>

uint32_t petw__pid;
int64_t petw__qpc_frequency = 1;

void petw__platform_init(void)
{
    petw__cpu_features_init();
    LARGE_INTEGER f;
    QueryPerformanceFrequency(&f);
    petw__qpc_frequency = f.QuadPart > 0 ? f.QuadPart : 1;
    petw__pid = (uint32_t)GetCurrentProcessId();
}

uint32_t petw__cpu_count(void)
{
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    /* petw__cpu_current() numbers groups of 64. */
    WORD groups = GetActiveProcessorGroupCount();
    uint32_t slots = groups > 1 ? (uint32_t)groups * 64u : (uint32_t)n;
    return slots ? slots : 1;
}

int64_t petw__clock_frequency(uint32_t clock)
{
    if (clock == PETW_CLOCK_SYSTEM)
        return 10000000;
    if (clock == PETW_CLOCK_CYCLES)
        return petw__tsc_frequency();
    return petw__qpc_frequency;
}

int64_t petw__clock_reference(void)
{
    return petw__monotonic_ns();
}

int petw__clock_is_measured(uint32_t clock)
{
    return clock == PETW_CLOCK_CYCLES;
}

int64_t petw__filetime_now(void)
{
    return petw__clock_read(PETW_CLOCK_SYSTEM);
}

int64_t petw__boot_time(void)
{
    return petw__filetime_now() - (int64_t)GetTickCount64() * 10000;
}

/* A zone name: at most 32 UTF-16 units, NUL-terminated or not. */
static void zone_name(const WCHAR *name, char *out, int size)
{
    int units = 0;
    while (units < 32 && name[units])
        units++;
    int n = WideCharToMultiByte(CP_UTF8, 0, name, units, out, size - 1, NULL, NULL);
    out[n > 0 ? n : 0] = 0;
}

static void zone_date(const SYSTEMTIME *st, uint16_t date[8])
{
    date[0] = st->wYear;
    date[1] = st->wMonth;
    date[2] = st->wDayOfWeek;
    date[3] = st->wDay;
    date[4] = st->wHour;
    date[5] = st->wMinute;
    date[6] = st->wSecond;
    date[7] = st->wMilliseconds;
}

void petw__machine_info_get(petw__machine_info *out)
{
    memset(out, 0, sizeof(*out));
    int64_t hz = petw__tsc_frequency();
    out->cpu_speed_mhz = hz >= 1000000 ? (uint32_t)(hz / 1000000) : 1;
    DWORD adjustment = 0, increment = 0;
    BOOL disabled = FALSE;
    out->timer_resolution =
        GetSystemTimeAdjustment(&adjustment, &increment, &disabled) && increment ? increment : 1;
    /* The zone as Windows' own files carry it: the whole structure. */
    TIME_ZONE_INFORMATION tz;
    if (GetTimeZoneInformation(&tz) != TIME_ZONE_ID_INVALID) {
        out->tz_bias = (int32_t)tz.Bias;
        out->tz_standard_bias = (int32_t)tz.StandardBias;
        out->tz_daylight_bias = (int32_t)tz.DaylightBias;
        zone_date(&tz.StandardDate, out->tz_standard_date);
        zone_date(&tz.DaylightDate, out->tz_daylight_date);
        zone_name(tz.StandardName, out->tz_standard, (int)sizeof(out->tz_standard));
        zone_name(tz.DaylightName, out->tz_daylight, (int)sizeof(out->tz_daylight));
    }
}

/* RtlGetVersion, not GetVersion(Ex): those answer what the program's
 * manifest claims to support (9200, Windows 8, without one). */
uint32_t petw__os_build(void)
{
    typedef LONG(WINAPI * rtl_get_version_fn)(OSVERSIONINFOW *);
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    rtl_get_version_fn get =
        ntdll ? (rtl_get_version_fn)(void (*)(void))GetProcAddress(ntdll, "RtlGetVersion") : NULL;
    OSVERSIONINFOW v;
    memset(&v, 0, sizeof(v));
    v.dwOSVersionInfoSize = sizeof(v);
    if (get && get(&v) == 0 && v.dwBuildNumber)
        return (uint32_t)v.dwBuildNumber;
    return (uint32_t)(GetVersion() >> 16) & 0xFFFF;
}

void petw__sleep_ms(uint32_t ms)
{
    Sleep(ms);
}
void petw__yield(void)
{
    SwitchToThread();
}
void petw__sleep_us(uint32_t us)
{
    if (us < 1000)
        SwitchToThread();
    else
        Sleep(us / 1000);
}

size_t petw__page_size(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwPageSize ? si.dwPageSize : 4096;
}

void *petw__vm_reserve(size_t bytes)
{
    return VirtualAlloc(NULL, bytes, MEM_RESERVE, PAGE_NOACCESS);
}

int petw__vm_commit(void *addr, size_t bytes)
{
    return VirtualAlloc(addr, bytes, MEM_COMMIT, PAGE_READWRITE) ? 0 : PETW_ENOMEM;
}

void petw__vm_release(void *addr, size_t bytes)
{
    (void)bytes;
    if (addr)
        VirtualFree(addr, 0, MEM_RELEASE);
}

int petw__win_error(DWORD e)
{
    switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
        return PETW_ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_WRITE_PROTECT:
        return PETW_EACCES;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
        return PETW_ENOSPC;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
        return PETW_ENOMEM;
    default:
        if (getenv("PETW_DEBUG_WIN"))
            fprintf(stderr, "petw: unmapped Windows error %lu\n", (unsigned long)e);
        return PETW_EIO;
    }
}

/* UTF-8 -> UTF-16 path; NULL when it does not convert. */
wchar_t *petw__win_wide(const char *path)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    if (n <= 0)
        return NULL;
    wchar_t *w = malloc((size_t)n * sizeof(wchar_t));
    if (w && MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, w, n) != n) {
        free(w);
        w = NULL;
    }
    return w;
}

/* `in` from code page `from` to code page `to`, through UTF-16. */
static int code_page_convert(UINT from, UINT to, const char *in, char *out, size_t size)
{
    int units = MultiByteToWideChar(from, 0, in, -1, NULL, 0);
    if (units <= 0)
        return PETW_EINVAL;
    wchar_t *w = malloc((size_t)units * sizeof(wchar_t));
    if (!w)
        return PETW_ENOMEM;
    int rc = 0;
    if (MultiByteToWideChar(from, 0, in, -1, w, units) != units) {
        rc = PETW_EINVAL;
    } else {
        int need = WideCharToMultiByte(to, 0, w, -1, NULL, 0, NULL, NULL);
        if (need <= 0)
            rc = PETW_EINVAL;
        else if ((size_t)need > size)
            rc = PETW_ENAMETOOLONG;
        else if (WideCharToMultiByte(to, 0, w, -1, out, need, NULL, NULL) != need)
            rc = PETW_EINVAL;
    }
    free(w);
    return rc;
}

int petw__ansi_to_utf8(const char *in, char *out, size_t size)
{
    return code_page_convert(CP_ACP, CP_UTF8, in, out, size);
}

int petw__utf8_to_ansi(const char *in, char *out, size_t size)
{
    return code_page_convert(CP_UTF8, CP_ACP, in, out, size);
}

int petw__path_exists(const char *path)
{
    wchar_t *w = petw__win_wide(path);
    int rc = w && GetFileAttributesW(w) != INVALID_FILE_ATTRIBUTES;
    free(w);
    return rc;
}

/* "D:P(A;;FA;;;<user SID>)(A;;FA;;;SY)" for the process token's user. */
int petw__win_private_sddl(wchar_t *out, size_t n)
{
    HANDLE token;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token))
        return -1;
    union {
        TOKEN_USER user;
        uint8_t bytes[256];
    } info;
    DWORD len = 0;
    BOOL ok = GetTokenInformation(token, TokenUser, &info, sizeof(info), &len);
    CloseHandle(token);
    wchar_t *sid = NULL;
    if (!ok || !ConvertSidToStringSidW(info.user.User.Sid, &sid))
        return -1;
    int rc = _snwprintf(out, n, L"D:P(A;;FA;;;%ls)(A;;FA;;;SY)", sid) > 0 ? 0 : -1;
    LocalFree(sid);
    return rc;
}

/* 1 when the open file's owner is the process token's user, or the token's
 * default owner (what an elevated administrator's new files get, so that
 * petw__file_create_private's own files qualify). The DACL such files carry
 * is owner-only already; another user's file never qualifies. */
int petw__win_owned(HANDLE h)
{
    PSID owner = NULL;
    PSECURITY_DESCRIPTOR sd = NULL;
    if (GetSecurityInfo(h, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION, &owner, NULL, NULL, NULL,
                        &sd) != ERROR_SUCCESS)
        return 0;
    int ok = 0;
    HANDLE token;
    if (owner && IsValidSid(owner) && OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
        union {
            TOKEN_USER user;
            TOKEN_OWNER owner;
            uint8_t bytes[256];
        } info;
        DWORD len = 0;
        if (GetTokenInformation(token, TokenUser, &info, sizeof(info), &len) &&
            EqualSid(owner, info.user.User.Sid))
            ok = 1;
        if (!ok && GetTokenInformation(token, TokenOwner, &info, sizeof(info), &len) &&
            info.owner.Owner && EqualSid(owner, info.owner.Owner))
            ok = 1;
        CloseHandle(token);
    }
    LocalFree(sd);
    return ok;
}

int32_t petw__local_offset_now(void)
{
    TIME_ZONE_INFORMATION tz;
    DWORD r = GetTimeZoneInformation(&tz);
    LONG bias = tz.Bias;
    if (r == TIME_ZONE_ID_DAYLIGHT)
        bias += tz.DaylightBias;
    else if (r == TIME_ZONE_ID_STANDARD)
        bias += tz.StandardBias;
    return r == TIME_ZONE_ID_INVALID ? 0 : (int32_t)(-bias * 60);
}

int32_t petw__local_offset_at(int64_t unix_seconds)
{
    /* The C runtime's calendar, as on Linux: the zone's rules at that date
     * (Windows' own, or TZ when set), read back as if it were UTC. */
    __time64_t t = unix_seconds;
    struct tm local;
    if (unix_seconds < 0 || _localtime64_s(&local, &t) != 0)
        return 0;
    __time64_t as_utc = _mkgmtime64(&local);
    return as_utc == -1 ? 0 : (int32_t)(as_utc - t);
}

/* ---- what enable properties record ---- */

void petw__process_image_name(char *out, size_t size)
{
    WCHAR path[MAX_PATH + 1];
    if (!size)
        return;
    out[0] = 0;
    DWORD n = GetModuleFileNameW(NULL, path, MAX_PATH);
    if (n == 0 || n >= MAX_PATH)
        return;
    path[n] = 0;
    const WCHAR *base = path;
    for (const WCHAR *p = path; *p; p++)
        if (*p == L'\\' || *p == L'/')
            base = p + 1;
    int m = WideCharToMultiByte(CP_UTF8, 0, base, -1, out, (int)(size > INT_MAX ? INT_MAX : size),
                                NULL, NULL);
    if (m <= 0)
        out[0] = 0;
}

uint32_t petw__user_sid(uint8_t *out, uint32_t size)
{
    HANDLE token;
    uint32_t n = 0;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token))
        return 0;
    union {
        TOKEN_USER user;
        uint8_t bytes[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
    } u;
    DWORD got = 0;
    if (GetTokenInformation(token, TokenUser, &u, sizeof(u), &got) && IsValidSid(u.user.User.Sid)) {
        DWORD len = GetLengthSid(u.user.User.Sid);
        if (len <= size && CopySid(len, out, u.user.User.Sid))
            n = len;
    }
    CloseHandle(token);
    return n;
}

void petw__thread_cpu_times(uint64_t *kernel, uint64_t *user)
{
    FILETIME created, exited, k, u;
    if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &k, &u)) {
        *kernel = *user = 0;
        return;
    }
    *kernel = ((uint64_t)k.dwHighDateTime << 32) | k.dwLowDateTime;
    *user = ((uint64_t)u.dwHighDateTime << 32) | u.dwLowDateTime;
}

uint32_t petw__terminal_session_id(void)
{
    DWORD s = 0;
    return ProcessIdToSessionId(GetCurrentProcessId(), &s) ? (uint32_t)s : 0;
}

uint64_t petw__process_start_key(void)
{
    FILETIME created, exited, kernel, user;
    uint64_t h = 0xcbf29ce484222325ull;
    uint64_t parts[2] = {0, GetCurrentProcessId()};
    if (GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user))
        parts[0] = ((uint64_t)created.dwHighDateTime << 32) | created.dwLowDateTime;
    const uint8_t *b = (const uint8_t *)parts;
    for (size_t i = 0; i < sizeof(parts); i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h ? h : 1;
}

uint32_t petw__stack_capture(uint64_t *frames, uint32_t max)
{
    void *pcs[62]; /* RtlCaptureStackBackTrace takes fewer than 63 */
    USHORT n = RtlCaptureStackBackTrace(0, max < 62 ? max : 62, pcs, NULL);
    for (USHORT i = 0; i < n; i++)
        frames[i] = (uint64_t)(uintptr_t)pcs[i];
    return n;
}

/* ---- The OS's own events: Windows has them in ETW's NT Kernel Logger,
 * which petw's own engine does not reach (PETW_USE_NATIVE_ETW does). ---- */

int petw__sys_open(const petw__sys_config *c, petw__sys **out, petw__sys_info *info)
{
    (void)c;
    *out = NULL;
    memset(info, 0, sizeof(*info));
    return PETW_ENOTSUP;
}

void petw__sys_wait(petw__sys *s, uint32_t timeout_ms)
{
    (void)s;
    petw__sleep_ms(timeout_ms);
}

uint64_t petw__sys_read(petw__sys *s, petw__sys_fn fn, void *ctx)
{
    (void)s;
    (void)fn;
    (void)ctx;
    return 0;
}

void petw__sys_drain(petw__sys *s, petw__sys_fn fn, void *ctx)
{
    (void)s;
    (void)fn;
    (void)ctx;
}

void petw__sys_close(petw__sys *s)
{
    (void)s;
}

int petw__tracepoint_id(const char *name, uint64_t *id)
{
    (void)name;
    (void)id;
    return -1;
}

size_t petw__tracepoint_format(const char *name, char *buf, size_t size)
{
    (void)name;
    if (size)
        buf[0] = 0;
    return 0;
}

int petw__tracefs_denied(void)
{
    return 0;
}

void *petw__sys_jit_map_open(uint32_t pid, uint32_t owner)
{
    (void)pid;
    (void)owner;
    return NULL;
}

void petw__sys_cmdline(uint32_t pid, char *buf, size_t size)
{
    (void)pid;
    if (size)
        buf[0] = 0;
}

uint32_t petw__sys_owner(uint32_t pid)
{
    (void)pid;
    return UINT32_MAX;
}

int petw__sys_machine_info(petw__sys_machine *m)
{
    memset(m, 0, sizeof(*m));
    return PETW_ENOTSUP;
}

int petw__sys_disks(petw__sys_disk_fn disk, petw__sys_volume_fn volume, void *ctx)
{
    (void)disk;
    (void)volume;
    (void)ctx;
    return PETW_ENOTSUP;
}

int petw__membarrier(void)
{
    FlushProcessWriteBuffers();
    return 0;
}

/* Fiber-local callbacks are WINAPI functions: one trampoline, for the one
 * exit function petw registers (a second, different one is refused). */
static void (*fls_exit_fn)(void *);
static VOID WINAPI fls_exit(PVOID value)
{
    if (value)
        fls_exit_fn(value);
}

int petw__thread_key_create(uint32_t *key, void (*exit_fn)(void *))
{
    if (fls_exit_fn && fls_exit_fn != exit_fn)
        return PETW_ENOMEM;
    fls_exit_fn = exit_fn;
    DWORD k = FlsAlloc(fls_exit);
    if (k == FLS_OUT_OF_INDEXES)
        return PETW_ENOMEM;
    *key = (uint32_t)k;
    return 0;
}

int petw__thread_key_set(uint32_t key, void *value)
{
    return FlsSetValue((DWORD)key, value) ? 0 : PETW_ENOMEM;
}
