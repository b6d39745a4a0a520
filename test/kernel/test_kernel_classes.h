/* SPDX-License-Identifier: MIT */
/* The NT Kernel Logger's event classes the system provider writes, and
 * little-endian readers for their payloads: what the kernel-event tests
 * check at Windows' own offsets, independently of petw's decoder. */
#ifndef PETW_TEST_KERNEL_CLASSES_H
#define PETW_TEST_KERNEL_CLASSES_H

#include <stdint.h>
#include <string.h>

#include "test_util.h"

static const GUID ProcessGuid = {
    0x3d6fa8d0, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}};
static const GUID ThreadGuid = {
    0x3d6fa8d1, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}};
static const GUID ImageGuid = {
    0x2cb15d1d, 0x5fc1, 0x11d2, {0xab, 0xe1, 0x00, 0xa0, 0xc9, 0x11, 0xf5, 0x18}};
static const GUID PerfInfoGuid = {
    0xce1dbfb4, 0x137e, 0x4da6, {0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc}};
static const GUID DiskIoGuid = {
    0x3d6fa8d4, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}};
static const GUID StackWalkGuid = {
    0xdef2fe46, 0x7bd6, 0x4b80, {0xbd, 0x94, 0xf5, 0x7f, 0xe2, 0x0d, 0x0c, 0xe3}};

static inline uint32_t test_rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline uint64_t test_rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The system provider's identity events (ImageId, KernelSymbol: TraceLogging
 * events of "Petw-Symbols", docs/kernel-events.md) beside the classes. */
static const GUID PetwSymbolsGuid = {
    0x784dcbca, 0x471e, 0x55a0, {0xb9, 0xf9, 0x8b, 0x37, 0xe7, 0x96, 0x54, 0x17}};

/* Whether a collected event is class `g` (opcode `opcode`, or any: -1). */
static inline int test_is_class(const test_event *e, const GUID *g, int opcode)
{
    return memcmp(&e->header.provider_id, g, sizeof(*g)) == 0 &&
           (opcode < 0 || e->header.descriptor.opcode == opcode);
}

#endif
