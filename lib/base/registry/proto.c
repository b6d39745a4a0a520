/* SPDX-License-Identifier: MIT */
/* proto.c - control-message frames between the processes of a user (see
 * registry.h and docs/shared-memory.md). Every frame from a peer is checked
 * before use; a frame that fails a check ends the connection.
 *
 * Allowed dependencies: common/, platform/.
 */
#include <stdio.h>

#include "registry.h"

int petw__msg_send(intptr_t fd, uint16_t type, const void *payload, uint32_t size,
                   const intptr_t *handles, uint32_t count, int timeout_ms)
{
    petw__msg_header h = {PETW__MSG_MAGIC, PETW__MSG_VERSION, type, size, 0};
    int rc = petw__ipc_send(fd, &h, sizeof(h), handles, count, timeout_ms);
    if (rc == 0 && size)
        rc = petw__ipc_send(fd, payload, size, NULL, 0, timeout_ms);
    return rc;
}

int petw__msg_recv_header(intptr_t fd, petw__msg_header *h, uint32_t max, intptr_t *handles,
                          uint32_t *count, int timeout_ms)
{
    uint32_t room = count ? *count : 0;
    int rc = petw__ipc_recv(fd, h, sizeof(*h), handles, count, timeout_ms);
    if (rc == 0 && (h->magic != PETW__MSG_MAGIC || h->version != PETW__MSG_VERSION ||
                    h->type == 0 || h->type >= PETW__MSG_TYPE_COUNT || h->size > max)) {
        for (uint32_t i = 0; handles && count && i < *count; i++)
            petw__handle_close(handles[i]);
        if (count)
            *count = 0;
        rc = PETW_ECORRUPT;
    }
    (void)room;
    return rc;
}

int petw__msg_recv_fixed(intptr_t fd, uint16_t type, void *payload, uint32_t size,
                         intptr_t *handles, uint32_t *count, int timeout_ms)
{
    petw__msg_header h;
    int rc = petw__msg_recv_header(fd, &h, size, handles, count, timeout_ms);
    if (rc == 0 && (h.type != type || h.size != size))
        rc = PETW_ECORRUPT;
    if (rc == 0 && size)
        rc = petw__ipc_recv(fd, payload, size, NULL, NULL, timeout_ms);
    if (rc != 0 && handles && count) {
        for (uint32_t i = 0; i < *count; i++)
            petw__handle_close(handles[i]);
        *count = 0;
    }
    return rc;
}

static int terminated(const char *s, size_t n)
{
    return memchr(s, 0, n) != NULL;
}

int petw__msg_check_start(const petw__msg_start *m)
{
    if (!terminated(m->name, sizeof(m->name)) || !terminated(m->file_path, sizeof(m->file_path)))
        return PETW_ECORRUPT;
    return m->name[0] ? 0 : PETW_ECORRUPT;
}

int petw__msg_check_control(const petw__msg_control *m)
{
    if (m->op == 0 || m->op >= PETW__OP_COUNT || m->level > 255 ||
        !terminated(m->path, sizeof(m->path)))
        return PETW_ECORRUPT;
    if ((m->op == PETW__OP_SNAPSHOT || m->op == PETW__OP_SWITCH_FILE) && !m->path[0])
        return PETW_ECORRUPT;
    if (petw__filter_check(&m->filter) != 0 ||
        (m->op != PETW__OP_ENABLE && !petw__filter_empty(&m->filter)))
        return PETW_ECORRUPT;
    return 0;
}

int petw__xproc_socket_path(uint32_t slot, char *out, size_t size)
{
    char dir[PETW_MAX_NAME];
    PETW__FORWARD_IF_ERROR(petw__runtime_dir(dir, sizeof(dir)));
    int n = snprintf(out, size, "%s/s%u.sock", dir, slot);
    return n > 0 && (size_t)n < size ? 0 : PETW_ENAMETOOLONG;
}
