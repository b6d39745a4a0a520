/* SPDX-License-Identifier: MIT */
/* mc_second_tu.c - a second translation unit including the generated
 * header: the objects mc marks __declspec(selectany) (the provider's
 * context, GUID and descriptors) must be one object per program, shared
 * with the C or C++ file of the test. */
#include <windows.h>

#include "mc_types.h"

const void *mc_second_tu_context(void);
const void *mc_second_tu_context(void)
{
    return &PETW_TEST_MCTYPES_Context;
}

ULONG mc_second_tu_write(void);
ULONG mc_second_tu_write(void)
{
    return EventWriteScalarsV1(11);
}
