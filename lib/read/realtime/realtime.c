/* SPDX-License-Identifier: MIT */
/* realtime.c - live consumers: a petw_trace (consume/) fed by a running
 * session's flusher (session/) instead of a file.
 *
 * Allowed dependencies: common/, session/, consume/. It is the only place
 * that joins the controller side and the reading side; neither of them
 * knows the other.
 */
#include <stdlib.h>

#include "../../base/common/common.h"
#include "../consume/consume_internal.h"
#include "../../write/session/session_internal.h"
#include "realtime.h"

int petw__realtime_open(const char *logger_name, const petw_trace_config *config, petw_trace **out)
{
    PETW__RETURN_IF(!logger_name || !config || !config->on_event || !out, PETW_EINVAL);
    petw_session_handle h;
    uint8_t *header = NULL;
    uint32_t size = 0, slots = 0;
    petw__bufqueue *q = NULL;
    petw_trace *trace = NULL;
    /* The control lock (recursive) keeps the session from stopping between
     * reading its header and attaching the queue. */
    petw__control_lock();
    int rc = petw__session_find(logger_name, &h);
    if (rc == 0)
        rc = petw__session_realtime_header(h, &header, &size, &slots);
    if (rc == 0) {
        q = petw__bufqueue_new(slots, size);
        rc = q ? 0 : PETW_ENOMEM;
    }
    if (rc == 0)
        rc = petw__trace_open_live(header, size, q, config, &trace);
    if (rc == 0)
        rc = petw__session_add_consumer(h, q);
    if (rc == 0)
        *out = trace;
    else
        petw_trace_close(trace);
    petw__control_unlock();
    free(header);
    if (q)
        petw__bufqueue_unref(q); /* the trace and the flusher hold their own */
    return rc;
}
