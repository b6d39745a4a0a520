/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the control-message frames a session host (and a
 * controller or provider) reads from other processes of its user
 * (lib/base/registry/proto.c). The input is the byte stream a peer sends, at most
 * 64 KiB (a larger one is cut there), written whole into one end of a
 * socket pair that is then closed; the other end is read with a timeout of
 * 0 (the data is all there, then EOF), so nothing ever waits.
 *
 *  1. Frame by frame: petw__msg_recv_header (max: the largest frame,
 *     PETW__MSG_MAX), the payload into an allocation of exactly the size
 *     the header says (petw__ipc_recv), then petw__msg_check_start /
 *     petw__msg_check_control on a START / CONTROL payload of their size.
 *     Stops at the first error.
 *  2. The same bytes on a second pair through petw__msg_recv_fixed,
 *     expecting the type the first header claims (START when it claims
 *     none of the fixed-size ones), then the checks.
 *
 * Handles ride along: one end of a pipe is sent with the first byte and
 * with byte 16 (the first payload byte) in 1, twice with the first byte
 * in 2. Whatever the frames say, every handle must end up closed: at the
 * end the pipe must have no writer left (a leaked descriptor would keep
 * one), or the target traps. Linux only (petw__ipc_pair is PETW_ENOTSUP
 * on Windows). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#endif

#include "../../lib/base/registry/registry.h"

#if defined(_WIN32)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    return 0;
}
#else

#define MAX_INPUT (64u << 10) /* fits a Unix socket's buffer whole */

/* Sends data[from, to) with `count` copies of `handle` riding its first
 * byte. Timeout 0: the buffer holds the whole input; if it ever does not,
 * the reader just sees less. */
static void send_part(intptr_t fd, const uint8_t *data, size_t from, size_t to, intptr_t handle,
                      uint32_t count)
{
    intptr_t handles[2] = {handle, handle};
    if (from < to)
        petw__ipc_send(fd, data + from, to - from, count ? handles : NULL, count, 0);
}

static void close_handles(intptr_t *handles, uint32_t *count)
{
    for (uint32_t i = 0; i < *count; i++)
        petw__handle_close(handles[i]);
    *count = 0;
}

/* Checks a payload of a START or CONTROL frame as its receiver would. */
static void check_payload(uint16_t type, const void *payload, uint32_t size)
{
    if (type == PETW__MSG_START && size == sizeof(petw__msg_start))
        petw__msg_check_start(payload);
    else if (type == PETW__MSG_CONTROL && size == sizeof(petw__msg_control) &&
             petw__msg_check_control(payload) == 0) {
        /* A filter that passed is one the provider side can apply. */
        const petw__enable_filter *f = &((const petw__msg_control *)payload)->filter;
        if (petw__filter_check(f) != 0 || f->id_count > PETW__FILTER_IDS ||
            f->pid_count > PETW__FILTER_PIDS || !memchr(f->exe, 0, sizeof(f->exe)))
            __builtin_trap();
        petw__filter_id_pass(f, 7);
        static const uint8_t schema[] = {14,  0,   0x81, 0x01, 'A', 'l', 'p',
                                         'h', 'a', 0,    'k',  0,   8,   0};
        petw__filter_name_pass(f, 4, 0x10, schema, sizeof(schema));
        petw__filter_name_pass(f, 4, 0x10, schema, 7); /* the name cut short */
        petw__filter_admits_process(f, 4242, "fuzz.exe");
    }
}

static void read_frames(intptr_t fd)
{
    for (;;) {
        petw__msg_header h;
        intptr_t handles[2] = {-1, -1};
        uint32_t count = 2;
        if (petw__msg_recv_header(fd, &h, PETW__MSG_MAX, handles, &count, 0) != 0) {
            if (count != 0)
                __builtin_trap(); /* a failed receive hands back no handle */
            return;
        }
        if (count > 2 || h.magic != PETW__MSG_MAGIC || h.version != PETW__MSG_VERSION ||
            h.type == 0 || h.type >= PETW__MSG_TYPE_COUNT || h.size > PETW__MSG_MAX)
            __builtin_trap(); /* a header it passed must be one it checks for */
        close_handles(handles, &count);
        uint8_t *payload = malloc(h.size ? h.size : 1);
        if (!payload)
            return;
        int rc = h.size ? petw__ipc_recv(fd, payload, h.size, NULL, NULL, 0) : 0;
        if (rc == 0)
            check_payload(h.type, payload, h.size);
        free(payload);
        if (rc != 0)
            return;
    }
}

static uint32_t fixed_size(uint16_t type)
{
    switch (type) {
    case PETW__MSG_HELLO:
        return sizeof(petw__msg_hello);
    case PETW__MSG_POOL:
        return sizeof(petw__msg_pool);
    case PETW__MSG_CONTROL:
        return sizeof(petw__msg_control);
    default:
        return 0;
    }
}

static void read_fixed(intptr_t fd, uint16_t type)
{
    uint32_t size = fixed_size(type);
    if (!size) {
        type = PETW__MSG_START;
        size = sizeof(petw__msg_start);
    }
    uint8_t *payload = malloc(size);
    if (!payload)
        return;
    for (;;) {
        intptr_t handles[2] = {-1, -1};
        uint32_t count = 2;
        int rc = petw__msg_recv_fixed(fd, type, payload, size, handles, &count, 0);
        if (rc != 0) {
            if (count != 0)
                __builtin_trap();
            break;
        }
        if (count > 2)
            __builtin_trap();
        close_handles(handles, &count);
        check_payload(type, payload, size);
    }
    free(payload);
}

/* The pipe whose write end rides the frames: read() on its read end says
 * EOF only once every copy of the write end is closed. */
static int open_marker(int marker[2])
{
    if (pipe(marker) != 0)
        return -1;
    for (int i = 0; i < 2; i++)
        fcntl(marker[i], F_SETFD, FD_CLOEXEC);
    fcntl(marker[0], F_SETFL, O_NONBLOCK);
    return 0;
}

static void expect_no_writer(int rd)
{
    char c;
    ssize_t n;
    while ((n = read(rd, &c, 1)) < 0 && errno == EINTR) {
    }
    if (n != 0)
        __builtin_trap(); /* a received handle was leaked */
    close(rd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_INPUT)
        size = MAX_INPUT;
    int marker[2];
    if (open_marker(marker) != 0)
        return 0;
    intptr_t a[2], b[2];
    if (petw__ipc_pair(a) != 0) {
        close(marker[0]);
        close(marker[1]);
        return 0;
    }
    if (petw__ipc_pair(b) != 0) {
        petw__handle_close(a[0]);
        petw__handle_close(a[1]);
        close(marker[0]);
        close(marker[1]);
        return 0;
    }
    size_t cut = size < 16 ? size : 16;
    send_part(a[1], data, 0, cut, marker[1], 1);
    send_part(a[1], data, cut, size, marker[1], 1);
    send_part(b[1], data, 0, size, marker[1], 2);
    close(marker[1]); /* only the copies in flight are left */
    petw__handle_close(a[1]);
    petw__handle_close(b[1]);

    read_frames(a[0]);
    read_fixed(b[0], size >= 8 ? (uint16_t)(data[6] | data[7] << 8) : 0);

    /* Closing a socket closes the handles still queued on it. */
    petw__handle_close(a[0]);
    petw__handle_close(b[0]);
    expect_no_writer(marker[0]);
    return 0;
}
#endif
