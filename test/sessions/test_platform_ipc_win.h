/* SPDX-License-Identifier: MIT */
/* test_platform_ipc_win.h - test_platform_ipc's Windows half: the same
 * primitives with real processes, this program started again with
 * PETW_TEST_ROLE set (Windows has no fork). A child meets the parent at a
 * pipe path given in PETW_TEST_PIPE. */
#include <windows.h>

#include <sddl.h>

#include "test_util.h"

#include "../../lib/base/platform/platform.h"

static char base[MAX_PATH]; /* this test's private directory */
static char rt[MAX_PATH];   /* the runtime directory inside it */
static char pipe_path[MAX_PATH + 32];

/* Sets (NULL: removes) a variable for the C runtime's getenv and for
 * the processes started from here alike. */
static void set_env(const char *name, const char *value)
{
    CHECK_EQ(_putenv_s(name, value ? value : ""), 0);
}

static int under_wine(void)
{
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    return ntdll && GetProcAddress(ntdll, "wine_get_version") != NULL;
}

static int64_t ms_now(void)
{
    return (int64_t)GetTickCount64();
}

/* Open handles of this process (to see handles are not leaked); Wine's
 * GetProcessHandleCount answers 0, so they are counted by probing. */
static DWORD handle_count(void)
{
    DWORD n = 0, flags;
    if (GetProcessHandleCount(GetCurrentProcess(), &n) && n)
        return n;
    for (uintptr_t v = 4; v < 65536; v += 4)
        n += GetHandleInformation((HANDLE)v, &flags) != 0;
    return n;
}

/* Starts this program as `role`; it connects back to pipe_path. */
static HANDLE start_child(const char *role)
{
    wchar_t self[MAX_PATH];
    CHECK(GetModuleFileNameW(NULL, self, MAX_PATH) > 0);
    set_env("PETW_TEST_ROLE", role);
    set_env("PETW_TEST_PIPE", pipe_path);
    STARTUPINFOW si;
    memset(&si, 0, sizeof(si));
    si.cb = sizeof(si);
    PROCESS_INFORMATION pi;
    CHECK(CreateProcessW(self, NULL, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi));
    set_env("PETW_TEST_ROLE", NULL);
    CloseHandle(pi.hThread);
    return pi.hProcess;
}

static void wait_ok(HANDLE p)
{
    CHECK_EQ(WaitForSingleObject(p, 20000), WAIT_OBJECT_0);
    DWORD code = 99;
    CHECK(GetExitCodeProcess(p, &code));
    CHECK_EQ(code, 0);
    CloseHandle(p);
}

/* The parent's side of a child's connection. */
static intptr_t accept_child(intptr_t l, uint32_t *pid)
{
    uint8_t ready = 0;
    CHECK_EQ(petw__ipc_poll(&l, 1, &ready, 20000), 1);
    intptr_t a = -1;
    uint32_t p = 0;
    CHECK_EQ(petw__ipc_accept(l, &a, &p), 0);
    if (pid)
        *pid = p;
    return a;
}

#define SHM_SIZE (64 * 1024)
#define BIG (4u << 20)

/* ---- the children ---- */

static int child_main(const char *role)
{
    intptr_t c;
    uint32_t peer = 0;
    CHECK_EQ(petw__ipc_connect(getenv("PETW_TEST_PIPE"), &c, &peer), 0);
    if (!strcmp(role, "shm")) {
        char go[2];
        intptr_t h[4];
        uint32_t n = 4;
        CHECK_EQ(petw__ipc_recv(c, go, 2, h, &n, 5000), 0);
        CHECK_EQ(n, 1);
        petw__shm m;
        CHECK_EQ(petw__shm_map(h[0], SHM_SIZE, &m), 0);
        for (size_t i = 0; i < SHM_SIZE; i++)
            ((uint8_t *)m.addr)[i] = (uint8_t)(i * 7 + 1);
        CHECK_EQ(petw__ipc_send(c, "ok", 2, NULL, 0, 5000), 0);
        petw__shm_close(&m);
    } else if (!strcmp(role, "futex")) {
        char go;
        intptr_t h[1];
        uint32_t n = 1;
        CHECK_EQ(petw__ipc_recv(c, &go, 1, h, &n, 5000), 0);
        petw__shm m;
        CHECK_EQ(petw__shm_map(h[0], 4096, &m), 0);
        petw__sleep_ms(100);
        __atomic_store_n((uint32_t *)m.addr, 1, __ATOMIC_RELAXED);
        petw__futex_wake_all(m.addr);
        petw__shm_close(&m);
    } else if (!strcmp(role, "lock3") || !strcmp(role, "lock7")) {
        char path[MAX_PATH + 32];
        snprintf(path, sizeof(path), "%s/registry", getenv("PETW_RUNTIME_DIR"));
        petw__shm f;
        int cr;
        CHECK_EQ(petw__shared_file_open(path, 8192, 1, &cr, &f), 0);
        uint32_t index = role[4] - '0';
        CHECK_EQ(petw__lock_take(f.fd, index, index == 7), 0);
        CHECK_EQ(petw__ipc_send(c, "L", 1, NULL, 0, 5000), 0);
        if (index == 3)
            for (;;)
                Sleep(1000); /* until terminated */
        petw__sleep_ms(150);
        petw__lock_drop(f.fd, index);
    } else if (!strcmp(role, "wake")) {
        char go;
        intptr_t h[1];
        uint32_t n = 1;
        CHECK_EQ(petw__ipc_recv(c, &go, 1, h, &n, 5000), 0);
        petw__sleep_ms(50);
        petw__wake_signal(h[0]);
    } else if (!strcmp(role, "big")) {
        uint8_t *buf = malloc(BIG);
        CHECK(buf != NULL);
        for (size_t i = 0; i < BIG; i++)
            buf[i] = (uint8_t)(i % 251);
        intptr_t w;
        CHECK_EQ(petw__wake_create(&w), 0);
        CHECK_EQ(petw__ipc_send(c, buf, BIG, &w, 1, 10000), 0);
        char b;
        CHECK_EQ(petw__ipc_recv(c, &b, 1, NULL, NULL, 10000), 0); /* read before we exit */
    } else {
        return 2;
    }
    petw__handle_close(c);
    return 0;
}

/* The detached copy: reports itself and whether a handle the parent left
 * inheritable (not `keep`) came along. */
static int spawned_main(const char *value)
{
    intptr_t c;
    CHECK_EQ(petw__handle_adopt((intptr_t)_strtoi64(value, NULL, 10), &c), 0);
    const char *leak = getenv("PETW_TEST_LEAK");
    DWORD flags;
    uint32_t ids[3] = {(uint32_t)GetCurrentProcessId(), 0, 0};
    ids[1] = leak && GetHandleInformation((HANDLE)(intptr_t)_strtoi64(leak, NULL, 10), &flags);
    ids[2] = GetStdHandle(STD_OUTPUT_HANDLE) != NULL; /* NUL, not nothing */
    return petw__ipc_send(c, ids, sizeof(ids), NULL, 0, 5000) == 0 ? 0 : 1;
}

/* ---- the checks ---- */

static void test_runtime_dir(void)
{
    char out[MAX_PATH], path[MAX_PATH + 64];
    CHECK_EQ(petw__runtime_dir(out, sizeof(out)), 0);
    CHECK(strcmp(out, rt) == 0);
    DWORD attr = GetFileAttributesA(rt);
    CHECK(attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY));
    CHECK_EQ(petw__runtime_dir(out, sizeof(out)), 0);
    CHECK_EQ(petw__runtime_dir(out, strlen(rt)), PETW_ENAMETOOLONG);
    /* Open to everyone: refused. */
    snprintf(path, sizeof(path), "%s/open", base);
    PSECURITY_DESCRIPTOR sd = NULL;
    CHECK(ConvertStringSecurityDescriptorToSecurityDescriptorA("D:P(A;OICI;FA;;;WD)",
                                                               SDDL_REVISION_1, &sd, NULL));
    SECURITY_ATTRIBUTES sa = {sizeof(sa), sd, FALSE};
    CHECK(CreateDirectoryA(path, &sa));
    LocalFree(sd);
    set_env("PETW_RUNTIME_DIR", path);
    CHECK_EQ(petw__runtime_dir(out, sizeof(out)), PETW_EACCES);
    /* A regular file: refused. */
    snprintf(path, sizeof(path), "%s/file", base);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fclose(f);
    set_env("PETW_RUNTIME_DIR", path);
    CHECK_EQ(petw__runtime_dir(out, sizeof(out)), PETW_EACCES);
    set_env("PETW_RUNTIME_DIR", rt);
}

static void test_shm(intptr_t l)
{
    petw__shm s;
    CHECK_EQ(petw__shm_create(SHM_SIZE, &s), 0);
    CHECK(s.addr != NULL && s.fd > 0);
    for (size_t i = 0; i < SHM_SIZE; i++)
        CHECK_EQ(((uint8_t *)s.addr)[i], 0);
    /* To a child: it maps and writes, we see it. */
    HANDLE p = start_child("shm");
    uint32_t pid = 0;
    intptr_t a = accept_child(l, &pid);
    CHECK_EQ(pid, GetProcessId(p));
    CHECK_EQ(petw__ipc_send(a, "go", 2, &s.fd, 1, 5000), 0);
    char ok[2];
    CHECK_EQ(petw__ipc_recv(a, ok, 2, NULL, NULL, 5000), 0);
    CHECK(memcmp(ok, "ok", 2) == 0);
    for (size_t i = 0; i < SHM_SIZE; i++)
        CHECK_EQ(((uint8_t *)s.addr)[i], (uint8_t)(i * 7 + 1));
    wait_ok(p);
    petw__handle_close(a);

    /* Copies of the handle (through a pair in this process): a wrong size
     * is refused and the handle closed. */
    intptr_t pair[2];
    CHECK_EQ(petw__ipc_pair(pair), 0);
    petw__shm bad, other;
    intptr_t got[1];
    uint32_t n;
    DWORD before = handle_count();
    for (int k = 0; k < 2; k++) {
        n = 1;
        CHECK_EQ(petw__ipc_send(pair[0], "x", 1, &s.fd, 1, 1000), 0);
        CHECK_EQ(petw__ipc_recv(pair[1], ok, 1, got, &n, 1000), 0);
        CHECK_EQ(n, 1);
        CHECK_EQ(petw__shm_map(got[0], k ? SHM_SIZE - 4096 : SHM_SIZE + 4096, &bad), PETW_EINVAL);
    }
    CHECK_EQ(handle_count(), before);
    /* Not a section (an event): refused. */
    intptr_t w;
    CHECK_EQ(petw__wake_create(&w), 0);
    CHECK_EQ(petw__shm_map(w, SHM_SIZE, &bad), PETW_EINVAL);

    /* Abandoned: the address stays writable, and what is written there no
     * longer reaches the object (seen through a second mapping). */
    n = 1;
    CHECK_EQ(petw__ipc_send(pair[0], "x", 1, &s.fd, 1, 1000), 0);
    CHECK_EQ(petw__ipc_recv(pair[1], ok, 1, got, &n, 1000), 0);
    CHECK_EQ(petw__shm_map(got[0], SHM_SIZE, &other), 0);
    petw__shm_abandon(&s);
    CHECK_EQ(s.fd, -1);
    CHECK(s.addr != NULL);
    memset(s.addr, 0xEE, SHM_SIZE);
    CHECK_EQ(((uint8_t *)other.addr)[5], (uint8_t)(5 * 7 + 1));
    CHECK_EQ(((uint8_t *)other.addr)[SHM_SIZE - 1], (uint8_t)((SHM_SIZE - 1) * 7 + 1));
    petw__shm_close(&other);
    petw__handle_close(pair[0]);
    petw__handle_close(pair[1]);
    CHECK_EQ(petw__shm_create(0, &bad), PETW_EINVAL);
}

static void test_futex(intptr_t l)
{
    petw__shm s;
    CHECK_EQ(petw__shm_create(4096, &s), 0);
    uint32_t *word = s.addr;
    int64_t t0 = ms_now();
    CHECK_EQ(petw__futex_wait(word, 0, 60), PETW_ETIMEDOUT);
    CHECK(ms_now() - t0 >= 50);
    t0 = ms_now();
    CHECK_EQ(petw__futex_wait(word, 1, 5000), 0);
    CHECK(ms_now() - t0 < 1000);
    HANDLE p = start_child("futex");
    intptr_t a = accept_child(l, NULL);
    CHECK_EQ(petw__ipc_send(a, "g", 1, &s.fd, 1, 5000), 0);
    t0 = ms_now();
    while (__atomic_load_n(word, __ATOMIC_RELAXED) == 0)
        CHECK_EQ(petw__futex_wait(word, 0, 5000), 0);
    CHECK(ms_now() - t0 < 4000);
    wait_ok(p);
    petw__handle_close(a);
    petw__shm_close(&s);
}

static void test_locks(intptr_t l)
{
    char path[MAX_PATH + 32];
    snprintf(path, sizeof(path), "%s/registry", rt);
    petw__shm a;
    int created = -1;
    CHECK_EQ(petw__shared_file_open(path, 8192, 1, &created, &a), 0);
    CHECK_EQ(created, 1);
    CHECK_EQ(test_file_size(path), 8192);
    memcpy(a.addr, "registry", 8);
    petw__shm r;
    CHECK_EQ(petw__shared_file_open(path, 8192, 0, &created, &r), 0);
    CHECK_EQ(created, 0);
    CHECK(memcmp(r.addr, "registry", 8) == 0);
    petw__shm_close(&r);
    CHECK_EQ(petw__shared_file_open(path, 16384, 0, &created, &r), 0);
    CHECK_EQ(created, 1);
    CHECK_EQ(test_file_size(path), 16384);
    petw__shm_close(&r);

    /* A child holds lock 3 through its own open; it dies with the child. */
    HANDLE p = start_child("lock3");
    intptr_t c = accept_child(l, NULL);
    char b;
    CHECK_EQ(petw__ipc_recv(c, &b, 1, NULL, NULL, 10000), 0);
    CHECK_EQ(petw__lock_held(a.fd, 3), 1);
    CHECK_EQ(petw__lock_held(a.fd, 4), 0);
    CHECK_EQ(petw__lock_take(a.fd, 3, 0), PETW_EBUSY);
    CHECK_EQ(petw__lock_take(a.fd, 4, 0), 0);
    CHECK(TerminateProcess(p, 9));
    CHECK_EQ(WaitForSingleObject(p, 10000), WAIT_OBJECT_0);
    CloseHandle(p);
    int64_t t0 = ms_now();
    while (petw__lock_held(a.fd, 3) && ms_now() - t0 < 5000)
        petw__sleep_ms(10); /* the system releases it as the process ends */
    CHECK_EQ(petw__lock_held(a.fd, 3), 0);
    petw__handle_close(c);

    /* Owned by the handle: our own never shows as held to us, another
     * open in this same process conflicts. */
    CHECK_EQ(petw__lock_take(a.fd, 3, 0), 0);
    CHECK_EQ(petw__lock_held(a.fd, 3), 0);
    petw__shm a2;
    CHECK_EQ(petw__shared_file_open(path, 8192, 1, &created, &a2), 0);
    CHECK_EQ(petw__lock_held(a2.fd, 3), 1);
    CHECK_EQ(petw__lock_take(a2.fd, 3, 0), PETW_EBUSY);
    petw__lock_drop(a.fd, 3);
    CHECK_EQ(petw__lock_held(a2.fd, 3), 0);

    /* A waiting take returns when the holder (a child) lets go. */
    p = start_child("lock7");
    c = accept_child(l, NULL);
    CHECK_EQ(petw__ipc_recv(c, &b, 1, NULL, NULL, 10000), 0);
    t0 = ms_now();
    CHECK_EQ(petw__lock_take(a2.fd, 7, 1), 0);
    CHECK(ms_now() - t0 >= 50);
    wait_ok(p);
    petw__handle_close(c);
    petw__shm_close(&a2);
    petw__shm_close(&a);
}

static void test_wake(intptr_t l)
{
    intptr_t w;
    CHECK_EQ(petw__wake_create(&w), 0);
    uint8_t ready[2] = {9, 9};
    CHECK_EQ(petw__ipc_poll(&w, 1, ready, 0), 0);
    CHECK_EQ(ready[0], 0);
    petw__wake_signal(w);
    petw__wake_signal(w);
    CHECK_EQ(petw__ipc_poll(&w, 1, ready, 1000), 1);
    CHECK_EQ(ready[0], 1);
    petw__wake_drain(w);
    CHECK_EQ(petw__ipc_poll(&w, 1, ready, 0), 0);
    petw__wake_drain(w);

    /* From another process, while we wait. */
    intptr_t two[2] = {w, -1};
    CHECK_EQ(petw__wake_create(&two[1]), 0);
    HANDLE p = start_child("wake");
    intptr_t c = accept_child(l, NULL);
    CHECK_EQ(petw__ipc_send(c, "g", 1, &two[1], 1, 5000), 0);
    CHECK_EQ(petw__ipc_poll(two, 2, ready, 5000), 1);
    CHECK_EQ(ready[0], 0);
    CHECK_EQ(ready[1], 1);
    wait_ok(p);
    petw__handle_close(c);

    /* Replacing: the number now names the other object. */
    intptr_t other;
    CHECK_EQ(petw__wake_create(&other), 0);
    petw__wake_signal(other);
    CHECK_EQ(petw__handle_replace(other, two[1]), 0);
    petw__wake_drain(two[1]);
    CHECK_EQ(petw__ipc_poll(&two[1], 1, ready, 0), 0);
    petw__handle_close(two[1]);
    petw__handle_close(w);
}

static void test_pipes(void)
{
    char path[MAX_PATH + 32];
    snprintf(path, sizeof(path), "%s/host.sock", rt);
    intptr_t l, l2, c, a;
    uint32_t pid = 0, peer = 0;
    CHECK_EQ(petw__ipc_connect(path, &c, &peer), PETW_ENOTFOUND);
    CHECK_EQ(petw__ipc_listen(path, &l), 0);
    petw__ipc_unlisten(l, path);
    CHECK_EQ(petw__ipc_connect(path, &c, &peer), PETW_ENOTFOUND);
    CHECK_EQ(petw__ipc_listen(path, &l), 0);
    /* One listener a name (FILE_FLAG_FIRST_PIPE_INSTANCE; Wine does not
     * enforce it, and its clients check the server's user anyway). */
    int rc = petw__ipc_listen(path, &l2);
    if (under_wine() && rc == 0)
        petw__ipc_unlisten(l2, path);
    else
        CHECK_EQ(rc, PETW_EEXIST);
    CHECK_EQ(petw__ipc_accept(l, &a, &pid), PETW_EBUSY);
    CHECK_EQ(petw__ipc_connect(path, &c, &peer), 0);
    CHECK_EQ(peer, GetCurrentProcessId());
    uint8_t ready;
    CHECK_EQ(petw__ipc_poll(&l, 1, &ready, 1000), 1);
    CHECK_EQ(petw__ipc_accept(l, &a, &pid), 0);
    CHECK_EQ(pid, GetCurrentProcessId());

    /* Two handles ride with a message. */
    petw__shm s;
    CHECK_EQ(petw__shm_create(4096, &s), 0);
    memcpy(s.addr, "shared", 6);
    intptr_t w;
    CHECK_EQ(petw__wake_create(&w), 0);
    intptr_t send_h[2] = {s.fd, w};
    CHECK_EQ(petw__ipc_send(c, "hello", 5, send_h, 2, 1000), 0);
    char msg[8];
    intptr_t got[4] = {-1, -1, -1, -1};
    uint32_t n = 4;
    CHECK_EQ(petw__ipc_recv(a, msg, 5, got, &n, 1000), 0);
    CHECK(memcmp(msg, "hello", 5) == 0);
    CHECK_EQ(n, 2);
    petw__shm m;
    CHECK_EQ(petw__shm_map(got[0], 4096, &m), 0);
    CHECK(memcmp(m.addr, "shared", 6) == 0);
    petw__wake_signal(got[1]);
    CHECK_EQ(petw__ipc_poll(&w, 1, &ready, 1000), 1);
    petw__handle_close(got[1]);
    petw__shm_close(&m);

    /* Handles beyond the room given, or with no room at all, are closed;
     * a message split over two receives. */
    DWORD before = handle_count();
    intptr_t three[3] = {w, w, s.fd};
    CHECK_EQ(petw__ipc_send(c, "abc", 3, three, 3, 1000), 0);
    n = 1;
    CHECK_EQ(petw__ipc_recv(a, msg, 2, got, &n, 1000), 0);
    CHECK_EQ(n, 1);
    CHECK_EQ(petw__ipc_recv(a, msg + 2, 1, NULL, NULL, 1000), 0);
    CHECK(memcmp(msg, "abc", 3) == 0);
    CHECK_EQ(handle_count(), before + 1);
    petw__handle_close(got[0]);
    CHECK_EQ(petw__ipc_send(c, "abc", 3, three, 2, 1000), 0);
    CHECK_EQ(petw__ipc_recv(a, msg, 3, NULL, NULL, 1000), 0);
    CHECK_EQ(handle_count(), before);
    CHECK_EQ(petw__ipc_send(c, "x", 1, three, 5, 1000), PETW_EINVAL);
    /* Two sends, one receive. */
    CHECK_EQ(petw__ipc_send(c, "ab", 2, NULL, 0, 1000), 0);
    CHECK_EQ(petw__ipc_send(c, "cd", 2, NULL, 0, 1000), 0);
    CHECK_EQ(petw__ipc_recv(a, msg, 4, NULL, NULL, 1000), 0);
    CHECK(memcmp(msg, "abcd", 4) == 0);

    /* A large message with a handle from a child: many pieces. */
    snprintf(pipe_path, sizeof(pipe_path), "%s", path);
    HANDLE p = start_child("big");
    intptr_t b = accept_child(l, NULL);
    uint8_t *buf = malloc(BIG);
    CHECK(buf != NULL);
    memset(buf, 0, BIG);
    n = 4;
    CHECK_EQ(petw__ipc_recv(b, buf, BIG, got, &n, 10000), 0);
    CHECK_EQ(n, 1);
    petw__handle_close(got[0]);
    for (size_t i = 0; i < BIG; i++)
        CHECK_EQ(buf[i], (uint8_t)(i % 251));
    CHECK_EQ(petw__ipc_send(b, "k", 1, NULL, 0, 1000), 0);
    wait_ok(p);
    /* The child is gone: hung up counts as ready; EPIPE both ways. */
    CHECK_EQ(petw__ipc_poll(&b, 1, &ready, 1000), 1);
    CHECK_EQ(petw__ipc_recv(b, msg, 1, NULL, NULL, 1000), PETW_EPIPE);
    CHECK_EQ(petw__ipc_send(b, "x", 1, NULL, 0, 1000), PETW_EPIPE);
    petw__handle_close(b);

    /* Nobody reads: a send runs out of time, so does a recv. */
    int64_t t0 = ms_now();
    CHECK_EQ(petw__ipc_send(c, buf, BIG, NULL, 0, 100), PETW_ETIMEDOUT);
    CHECK(ms_now() - t0 >= 90);
    CHECK(ms_now() - t0 < 3000);
    free(buf);
    petw__handle_close(c);
    petw__handle_close(a);

    intptr_t pair[2];
    CHECK_EQ(petw__ipc_pair(pair), 0);
    t0 = ms_now();
    CHECK_EQ(petw__ipc_recv(pair[0], msg, 4, NULL, NULL, 100), PETW_ETIMEDOUT);
    CHECK(ms_now() - t0 >= 90);
    CHECK(ms_now() - t0 < 3000);
    /* The peer closes after part of a message (with a handle): EPIPE, and
     * the handle that came is closed. */
    before = handle_count();
    CHECK_EQ(petw__ipc_send(pair[1], "ab", 2, &w, 1, 1000), 0);
    petw__handle_close(pair[1]);
    n = 4;
    CHECK_EQ(petw__ipc_recv(pair[0], msg, 4, got, &n, 1000), PETW_EPIPE);
    CHECK_EQ(n, 0);
    CHECK_EQ(handle_count(), before - 1); /* pair[1] closed, nothing gained */
    CHECK_EQ(petw__ipc_poll(&pair[0], 1, &ready, 0), 1);
    CHECK_EQ(petw__ipc_send(pair[0], "x", 1, NULL, 0, 1000), PETW_EPIPE);
    petw__handle_close(pair[0]);
    petw__handle_close(w);
    petw__shm_close(&s);
    petw__ipc_unlisten(l, path);
}

static void test_spawn(const char *exe)
{
    intptr_t pair[2];
    CHECK_EQ(petw__ipc_pair(pair), 0);
    /* A handle left inheritable by the program must not reach the
     * spawned one. */
    SECURITY_ATTRIBUTES sa = {sizeof(sa), NULL, TRUE};
    HANDLE leak = CreateEventW(&sa, TRUE, FALSE, NULL);
    CHECK(leak != NULL);
    char env[64], leak_text[32];
    snprintf(leak_text, sizeof(leak_text), "%lld", (long long)(intptr_t)leak);
    set_env("PETW_TEST_LEAK", leak_text);
    snprintf(env, sizeof(env), "PETW_TEST_SPAWN_FD=%lld",
             (long long)petw__handle_inherited_value(pair[1]));
    CHECK_EQ(petw__spawn_detached(exe, env, pair[1]), 0);
    set_env("PETW_TEST_LEAK", NULL);
    CloseHandle(leak);
    petw__handle_close(pair[1]);
    uint32_t ids[3];
    CHECK_EQ(petw__ipc_recv(pair[0], ids, sizeof(ids), NULL, NULL, 10000), 0);
    CHECK(ids[0] != GetCurrentProcessId());
    CHECK_EQ(ids[1], 0); /* the inheritable handle stayed here */
    CHECK_EQ(ids[2], 1);
    char b;
    CHECK_EQ(petw__ipc_recv(pair[0], &b, 1, NULL, NULL, 10000), PETW_EPIPE); /* it exited */
    petw__handle_close(pair[0]);
}

static void test_processes_and_files(void)
{
    uint32_t me = GetCurrentProcessId();
    CHECK_EQ(petw__process_alive(me), 1);
    CHECK_EQ(petw__process_alive(0), 0);
    uint64_t t1 = 0, t2 = 0;
    CHECK_EQ(petw__process_start_time(me, &t1), 0);
    CHECK_EQ(petw__process_start_time(me, &t2), 0);
    CHECK(t1 != 0 && t1 == t2);
    char name[64];
    petw__process_name(me, name, sizeof(name));
    CHECK(strstr(name, "test_platform_ipc") != NULL);
    /* A process that exited: not alive, no start time. */
    HANDLE p = start_child("none");
    uint32_t gone = GetProcessId(p);
    CHECK_EQ(WaitForSingleObject(p, 20000), WAIT_OBJECT_0);
    CloseHandle(p);
    CHECK_EQ(petw__process_alive(gone), 0);
    CHECK_EQ(petw__process_start_time(gone, &t1), PETW_ENOTFOUND);

    char path[MAX_PATH + 32];
    snprintf(path, sizeof(path), "%s/list", rt);
    uint8_t *data;
    size_t size;
    CHECK_EQ(petw__file_read_private(path, 100, &data, &size), PETW_ENOTFOUND);
    CHECK_EQ(petw__file_replace_private(path, "first", 5), 0);
    CHECK_EQ(petw__file_replace_private(path, "second", 6), 0);
    CHECK_EQ(petw__file_read_private(path, 100, &data, &size), 0);
    CHECK(size == 6 && memcmp(data, "second", 6) == 0);
    free(data);
    CHECK_EQ(petw__file_read_private(path, 3, &data, &size), PETW_ELIMIT);
    CHECK_EQ(petw__file_remove(path), 0);
    CHECK_EQ(petw__file_remove(path), 0);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    const char *spawn_fd = getenv("PETW_TEST_SPAWN_FD");
    if (spawn_fd)
        return spawned_main(spawn_fd);
    const char *role = getenv("PETW_TEST_ROLE");
    if (role)
        return !strcmp(role, "none") ? 0 : child_main(role);

    char tmp[MAX_PATH];
    CHECK(GetTempPathA(sizeof(tmp), tmp) > 0);
    snprintf(base, sizeof(base), "%spetw-ipc-%lu-%llu", tmp, (unsigned long)GetCurrentProcessId(),
             (unsigned long long)GetTickCount64());
    CHECK(CreateDirectoryA(base, NULL));
    snprintf(rt, sizeof(rt), "%s\\rt", base);
    set_env("PETW_RUNTIME_DIR", rt);

    test_runtime_dir();
    snprintf(pipe_path, sizeof(pipe_path), "%s/test.sock", rt);
    intptr_t l;
    CHECK_EQ(petw__ipc_listen(pipe_path, &l), 0);
    test_shm(l);
    test_futex(l);
    test_locks(l);
    test_wake(l);
    petw__ipc_unlisten(l, pipe_path);
    test_pipes();
    test_spawn(NULL);
    char self[MAX_PATH];
    CHECK(GetModuleFileNameA(NULL, self, sizeof(self)) > 0);
    test_spawn(self);
    CHECK_EQ(petw__spawn_detached(NULL, NULL, 1), PETW_EINVAL);
    test_processes_and_files();

    char cmd[MAX_PATH + 32];
    snprintf(cmd, sizeof(cmd), "rmdir /s /q \"%s\"", base);
    system(cmd);
    printf("platform_ipc: ok\n");
    return 0;
}
