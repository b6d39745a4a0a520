/* SPDX-License-Identifier: MIT */
/* platform_process_win.c - Windows implementation of platform.h's
 * processes: starting a detached process (a session host) and a detached
 * thread, what is known of another process, and fork's hooks (no fork on
 * Windows). */
#include <fcntl.h>
#include <io.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "petw/error.h"
#include "platform.h" /* windows.h first: sddl.h needs it */
#include "platform_shared_win.h"
#include <aclapi.h>
#include <sddl.h>

/* ---- Starting a detached process ---- */

/* Appends `s` to the command line, quoted as the C runtime parses it. */
static void quote_arg(wchar_t *out, size_t n, const wchar_t *s)
{
    size_t k = wcslen(out);
    if (k + 2 >= n)
        return;
    out[k++] = L'"';
    for (; *s && k + 3 < n; s++) {
        size_t bs = 0;
        while (s[0] == L'\\') {
            bs++;
            s++;
        }
        if (!*s || *s == L'"') {
            bs = *s ? bs * 2 + 1 : bs * 2; /* backslashes before a quote double */
        }
        while (bs-- && k + 3 < n)
            out[k++] = L'\\';
        if (!*s)
            break;
        out[k++] = *s;
    }
    out[k++] = L'"';
    out[k] = 0;
}

/* The environment block: this process's, with `env` ("NAME=value") added
 * or replacing NAME. malloc'ed; NULL when out of memory. */
static wchar_t *environment_with(const char *env)
{
    wchar_t *add = env ? petw__win_wide(env) : NULL;
    if (env && !add)
        return NULL;
    size_t name_len = 0;
    if (add) {
        wchar_t *eq = wcschr(add, L'=');
        name_len = eq ? (size_t)(eq - add) + 1 : 0;
    }
    wchar_t *cur = GetEnvironmentStringsW();
    size_t total = 1 + (add ? wcslen(add) + 1 : 0);
    for (wchar_t *e = cur; e && *e; e += wcslen(e) + 1)
        total += wcslen(e) + 1;
    wchar_t *block = malloc(total * sizeof(wchar_t));
    if (block) {
        size_t k = 0;
        if (add) {
            memcpy(block, add, (wcslen(add) + 1) * sizeof(wchar_t));
            k += wcslen(add) + 1;
        }
        for (wchar_t *e = cur; e && *e; e += wcslen(e) + 1) {
            if (name_len && _wcsnicmp(e, add, name_len) == 0)
                continue; /* env replaces NAME */
            memcpy(block + k, e, (wcslen(e) + 1) * sizeof(wchar_t));
            k += wcslen(e) + 1;
        }
        block[k] = 0;
    }
    if (cur)
        FreeEnvironmentStringsW(cur);
    free(add);
    return block;
}

void petw__process_set_name(const char *name)
{
    (void)name;
}

int petw__spawn_detached(const char *exe, const char *env, intptr_t keep)
{
    wobj *k = keep == -1 ? NULL : obj(keep);
    if (keep != -1 && !k)
        return keep >= 0 && keep <= 2 ? PETW_EINVAL : PETW_EBADHANDLE;
    wchar_t path[MAX_PATH * 2];
    if (exe) {
        wchar_t *w = petw__win_wide(exe);
        if (!w)
            return PETW_ENOHOST;
        _snwprintf(path, MAX_PATH * 2, L"%ls", w);
        path[MAX_PATH * 2 - 1] = 0;
        free(w);
    } else {
        DWORD n = GetModuleFileNameW(NULL, path, MAX_PATH * 2);
        if (n == 0 || n >= MAX_PATH * 2)
            return PETW_ENOHOST;
    }
    wchar_t cmd[MAX_PATH * 2 + 8];
    cmd[0] = 0;
    quote_arg(cmd, sizeof(cmd) / sizeof(cmd[0]), path);
    wchar_t *block = environment_with(env);
    if (!block)
        return PETW_ENOHOST;
    /* stdin/stdout/stderr on NUL; inherited: those and `keep`, nothing
     * else (the handle list), even if the program left others
     * inheritable. */
    SECURITY_ATTRIBUTES inherit = {sizeof(inherit), NULL, TRUE};
    HANDLE nul = CreateFileW(L"NUL", GENERIC_READ | GENERIC_WRITE,
                             FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit, OPEN_EXISTING, 0, NULL);
    HANDLE list[2];
    DWORD nlist = 0;
    if (nul != INVALID_HANDLE_VALUE)
        list[nlist++] = nul;
    HANDLE kh = k ? raw(k) : NULL;
    if (kh) {
        SetHandleInformation(kh, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
        list[nlist++] = kh;
    }
    SIZE_T attr_size = 0;
    InitializeProcThreadAttributeList(NULL, 1, 0, &attr_size);
    LPPROC_THREAD_ATTRIBUTE_LIST attrs = malloc(attr_size);
    int have_list = attrs && nlist && InitializeProcThreadAttributeList(attrs, 1, 0, &attr_size) &&
                    UpdateProcThreadAttribute(attrs, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, list,
                                              nlist * sizeof(HANDLE), NULL, NULL);
    STARTUPINFOEXW si;
    memset(&si, 0, sizeof(si));
    si.StartupInfo.cb = sizeof(si);
    si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    si.StartupInfo.hStdInput = si.StartupInfo.hStdOutput = si.StartupInfo.hStdError =
        nul != INVALID_HANDLE_VALUE ? nul : NULL;
    si.lpAttributeList = have_list ? attrs : NULL;
    PROCESS_INFORMATION pi;
    /* A process of its own: no console, its own process group (a Ctrl-C
     * of the controller's console does not reach it), never our child in
     * any sense that outlives this call. */
    BOOL ok =
        CreateProcessW(path, cmd, NULL, NULL, TRUE,
                       DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP | CREATE_UNICODE_ENVIRONMENT |
                           (have_list ? EXTENDED_STARTUPINFO_PRESENT : 0),
                       block, NULL, &si.StartupInfo, &pi);
    if (kh)
        SetHandleInformation(kh, HANDLE_FLAG_INHERIT, 0);
    if (have_list)
        DeleteProcThreadAttributeList(attrs);
    free(attrs);
    if (nul != INVALID_HANDLE_VALUE)
        CloseHandle(nul);
    free(block);
    if (!ok)
        return PETW_ENOHOST;
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    return 0;
}

typedef struct detached_start {
    void (*fn)(void *);
    void *arg;
} detached_start;

static DWORD WINAPI detached_main(void *p)
{
    detached_start s = *(detached_start *)p;
    free(p);
    s.fn(s.arg);
    return 0;
}

int petw__thread_start_detached(void (*fn)(void *), void *arg)
{
    detached_start *s = malloc(sizeof(*s));
    if (!s)
        return PETW_ENOMEM;
    s->fn = fn;
    s->arg = arg;
    HANDLE t =
        CreateThread(NULL, 256 * 1024, detached_main, s, STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
    if (!t) {
        free(s);
        return PETW_ENOMEM;
    }
    CloseHandle(t);
    return 0;
}

/* ---- Processes ---- */

int petw__process_alive(uint32_t pid)
{
    if (pid == 0)
        return 0;
    HANDLE p = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION | SYNCHRONIZE, FALSE, pid);
    if (!p)
        return GetLastError() == ERROR_ACCESS_DENIED; /* exists, not ours */
    /* A process object outlives its process while handles name it. */
    int alive = WaitForSingleObject(p, 0) == WAIT_TIMEOUT;
    CloseHandle(p);
    return alive;
}

int petw__process_start_time(uint32_t pid, uint64_t *out)
{
    *out = 0;
    HANDLE p =
        pid ? OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION | SYNCHRONIZE, FALSE, pid) : NULL;
    if (!p)
        return PETW_ENOTFOUND;
    FILETIME c, e, k, u;
    int rc = WaitForSingleObject(p, 0) == WAIT_TIMEOUT && GetProcessTimes(p, &c, &e, &k, &u)
                 ? 0
                 : PETW_ENOTFOUND;
    CloseHandle(p);
    if (rc == 0)
        *out = ((uint64_t)c.dwHighDateTime << 32) | c.dwLowDateTime;
    return rc;
}

void petw__process_name(uint32_t pid, char *out, size_t size)
{
    if (!size)
        return;
    out[0] = 0;
    HANDLE p = pid ? OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid) : NULL;
    if (!p)
        return;
    wchar_t name[MAX_PATH * 2];
    DWORD n = MAX_PATH * 2;
    if (QueryFullProcessImageNameW(p, 0, name, &n)) {
        const wchar_t *base = name;
        for (const wchar_t *c = name; *c; c++)
            if (*c == L'\\' || *c == L'/')
                base = c + 1;
        int r = WideCharToMultiByte(CP_UTF8, 0, base, -1, out, (int)size, NULL, NULL);
        if (r <= 0)
            out[0] = 0;
        out[size - 1] = 0;
    }
    CloseHandle(p);
}

/* ---- No fork on Windows ---- */

void petw__on_fork_child(void (*child)(void))
{
    (void)child;
}

void petw__on_fork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
    (void)prepare;
    (void)parent;
    (void)child;
}

int petw__addr_in_program(const void *addr)
{
    HMODULE m = NULL;
    if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                                GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            (LPCWSTR)addr, &m))
        return 1; /* unknown: as before, this program is started again */
    return m == GetModuleHandleW(NULL);
}
