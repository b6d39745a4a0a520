/* SPDX-License-Identifier: MIT */
/* sal/concurrencysal.h - the lock annotations of the SDK's concurrencysal.h.
 *
 * A chapter of <sal.h>, which includes it; not a header of its own. Each name
 * is an empty macro with the SDK's number of arguments. */
#ifndef PETW_ETW_SAL_CONCURRENCYSAL_H
#define PETW_ETW_SAL_CONCURRENCYSAL_H

#ifndef PETW_ETW_SAL_H
#error "include <sal.h>, not its parts"
#endif

#define _Acquires_lock_(a)
#define _Analysis_assume_section_locked_(a)
#define _Analysis_assume_section_unlocked_(a)
#define _Guarded_by_(a)
#define _Interlocked_operand_
#define _Releases_lock_(a)
#define _Requires_lock_held_(a)

#endif /* PETW_ETW_SAL_CONCURRENCYSAL_H */
