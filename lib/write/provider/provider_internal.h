/* SPDX-License-Identifier: MIT */
/* provider_internal.h - what the session module tells the provider module.
 *
 * Allowed dependencies: common/, platform/, ring/, format/, registry/. format/ gives the
 * record layout EventWrite writes in place. A session is named here
 * by a "session ref": ((generation << 8) | (slot + 1)), never 0.
 */
#ifndef PETW_PROVIDER_INTERNAL_H
#define PETW_PROVIDER_INTERNAL_H

#include "../../base/common/common.h"
#include "../../base/common/filter.h"
#include "petw/provider.h"
#include "../../base/registry/registry.h"

/* A session ref keeps the slot in 8 bits; a provider's state word keeps
 * one bit per enabling session in its low 32 bits. */
_Static_assert(PETW_MAX_SESSIONS < 256, "session refs hold the slot in 8 bits");
_Static_assert(PETW_MAX_SESSIONS_PER_PROVIDER <= 32, "provider state mask is 32 bits");

#define PETW__SESSION_REF(slot, gen) (((uint32_t)(gen) << 8) | ((uint32_t)(slot) + 1u))
#define PETW__SESSION_REF_SLOT(ref) (((ref)&0xFFu) - 1u)
#define PETW__SESSION_REF_GEN(ref) ((uint16_t)((ref) >> 8))

/* Registration in this process only (provider.c); petw_provider_register,
 * _unregister and _set_traits (register.c) add what shared sessions need:
 * the agent's attach and the provider directory. Same contracts as those. */
int petw__provider_register(const petw_guid *id, petw_enable_callback cb, void *ctx,
                            petw_provider_handle *out);
int petw__provider_unregister(petw_provider_handle h);
int petw__provider_set_traits(petw_provider_handle h, const void *blob, uint32_t size);

/* All of these run under the control lock and may call enable callbacks. */

/* Enables `guid` for a session (or updates its level/keywords and
 * filter; `filter` NULL: none, else checked by the caller). A PID or
 * executable-name filter that leaves this process out keeps the entry
 * without enabling anything here. Returns 0, PETW_ENOMEM or PETW_ELIMIT
 * when 8 other sessions enable it already. */
int petw__provider_enable(const petw_guid *guid, uint32_t session_ref, uint8_t level,
                          uint64_t match_any, uint64_t match_all,
                          const petw__enable_filter *filter);
/* Returns 0, or PETW_ENOTFOUND when the session did not enable `guid`. */
int petw__provider_disable(const petw_guid *guid, uint32_t session_ref);
/* Removes a stopping session from every provider. */
void petw__provider_disable_session(uint32_t session_ref);
/* Runs the enable callbacks of `guid`'s providers with CAPTURE_STATE. */
int petw__provider_capture_state(const petw_guid *guid, uint32_t session_ref);

/* For the agent (shared sessions). */
int petw__provider_is_registered(const petw_guid *guid);
/* The distinct GUIDs registered here, each with the name its traits give
 * ("" when none), up to max; returns how many were stored. */
uint32_t petw__provider_list(petw__proc_entry *out, uint32_t max);
/* The enable of `guid` by session `ref` (its filter: NULL when none, when
 * `filter` is not NULL): 0 or PETW_ENOTFOUND. */
int petw__provider_enabled_by(const petw_guid *guid, uint32_t ref, uint8_t *level, uint64_t *any,
                              uint64_t *all, const petw__enable_filter **filter);
/* 1 when this process passes `filter`'s PID and executable-name filters
 * (NULL: no filter). */
int petw__provider_admits_process(const petw__enable_filter *filter);
/* The GUIDs session `ref` enables (up to max); returns how many were stored. */
uint32_t petw__provider_enables_of(uint32_t ref, petw_guid *out, uint32_t max);
/* Moves every enable of `old_ref` to `new_ref`, without callbacks (the
 * provider's state is the same; only the ring behind it changed). */
void petw__provider_retarget(uint32_t old_ref, uint32_t new_ref);

/* agent.c: brings this process's attachments to shared sessions in line
 * with the registry (control lock held; may run enable callbacks). Starts
 * the agent thread the first time. A no-op when shared sessions are off. */
void petw__agent_sync(void);
/* agent.c: rewrites this process's list in the provider directory when
 * the registered providers or their names changed (control lock held). */
void petw__agent_publish(void);

#endif
