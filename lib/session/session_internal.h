/* session_internal.h - session functions not in the public API. */
#ifndef PETW_SESSION_INTERNAL_H
#define PETW_SESSION_INTERNAL_H

#include "petw/session.h"

/* Runs the enable callbacks of `provider` with CAPTURE_STATE, when the
 * session enables it. Returns 0, PETW_ENOTFOUND or PETW_EINVAL. */
int petw__session_capture_state(petw_session_handle session, const petw_guid *provider);

/* Records EnableFlags (reported by queries; no kernel logger uses them). */
int petw__session_set_enable_flags(petw_session_handle session, uint32_t flags);

/* The session's normalized log file mode. */
int petw__session_mode(petw_session_handle session, uint32_t *mode);

#endif
