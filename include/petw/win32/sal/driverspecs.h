/* SPDX-License-Identifier: MIT */
/* sal/driverspecs.h - the driver annotations of the SDK's driverspecs.h:
 * _IRQL_..., _Kernel_..., _Dispatch_type_, filter manager outputs.
 *
 * A chapter of <sal.h>, which includes it; not a header of its own. Each name
 * is an empty macro with the SDK's number of arguments. */
#ifndef PETW_ETW_SAL_DRIVERSPECS_H
#define PETW_ETW_SAL_DRIVERSPECS_H

#ifndef PETW_ETW_SAL_H
#error "include <sal.h>, not its parts"
#endif

#define _Dispatch_type_(a)
#define ___drv_unit_internal_kernel_driver
#define ___drv_unit_kernel_code
#define ___drv_unit_kernel_driver
#define ___drv_unit_user_code
#define ___drv_unit_user_driver
#define _Flt_CompletionContext_Outptr_
#define _Flt_ConnectionCookie_Outptr_
#define _IRQL_always_function_max_(a)
#define _IRQL_always_function_min_(a)
#define _IRQL_inout_
#define _IRQL_is_cancel_
#define _IRQL_limited_to_(a)
#define _IRQL_raises_(a)
#define _IRQL_requires_(a)
#define _IRQL_requires_max_(a)
#define _IRQL_requires_min_(a)
#define _IRQL_requires_same_
#define _IRQL_restores_
#define _IRQL_restores_global_(a, b)
#define _IRQL_saves_
#define _IRQL_saves_global_(a, b)
#define _IRQL_uses_cancel_
#define _Kernel_acquires_resource_(a)
#define _Kernel_clear_do_init_(a)
#define _Kernel_entry_
#define _Kernel_entry_always_
#define _Kernel_IoGetDmaAdapter_
#define _Kernel_releases_resource_(a)
#define _Kernel_requires_resource_held_(a)
#define _Kernel_requires_resource_not_held_(a)

#endif /* PETW_ETW_SAL_DRIVERSPECS_H */
