/* SPDX-License-Identifier: MIT */
/* system.h - the system provider: the operating system's own events
 * (processes, threads, images, context switches, CPU samples and their
 * stacks), written into a session as the NT Kernel Logger's classic event
 * classes (the GUIDs, opcodes, versions and 64-bit layouts Windows writes),
 * so every ETL reader decodes them as it decodes Windows' kernel events.
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 *
 * The OS delivers its records through platform/ (perf_event_open on
 * Linux); one thread per system session reads them every few milliseconds
 * and writes each CPU's events into that CPU's buffer of the session's
 * ring, in the order the CPU produced them. docs/kernel-events.md maps
 * every Linux record to its kernel class and says what has no equivalent.
 */
#ifndef PETW_SYSTEM_H
#define PETW_SYSTEM_H

#include "../ring/ring.h"

typedef struct petw__system_config {
    uint32_t flags;       /* PETW_SYSTEM_* asked for */
    uint32_t stack_flags; /* PETW_SYSTEM_* whose events get a StackWalk event */
    uint32_t interval_100ns;
    uint32_t target_pid; /* 0: every process */
    petw__ring *ring;    /* the session's ring and its generation */
    uint16_t ring_gen;
} petw__system_config;

typedef struct petw__system petw__system;

/* Starts collecting: the rundown (DCStart events of what exists now) is in
 * the session when this returns, then a thread follows the OS's records.
 * *granted: the PETW_SYSTEM_* flags actually recorded (the others have no
 * source on this OS yet); *limits: the PETW_SYSTEM_LIMIT_* the OS imposed
 * (kernel code refused: samples and stacks hold user code only; CSwitch
 * stacks asked and not given). Returns 0, PETW_ENOTSUP
 * (no flag can be honoured here), PETW_EACCES (the OS refuses: see
 * docs/kernel-events.md), PETW_ENOMEM. */
int petw__system_start(const petw__system_config *c, petw__system **out, uint32_t *granted,
                       uint32_t *limits);
/* Reads what the OS still holds, stops and frees (before the ring stops).
 * At the session's end (`end` nonzero) it then writes what Windows writes
 * when a kernel session stops: the DCEnd rundown of what still exists and
 * the SystemConfig events (processors, memory, disks, volumes); a restart
 * for new settings (0) writes neither. */
void petw__system_stop(petw__system *s, int end);

#endif /* PETW_SYSTEM_H */
