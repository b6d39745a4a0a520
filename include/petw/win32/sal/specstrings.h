/* SPDX-License-Identifier: MIT */
/* sal/specstrings.h - SAL's old-style annotations (__in_ecount, __out_bcount,
 * __deref_out, ...), as the SDK's specstrings.h and sal.h define them; not the
 * names sal.h leaves out (see there).
 *
 * A chapter of <sal.h>, which includes it; not a header of its own. Each name
 * is an empty macro with the SDK's number of arguments. */
#ifndef PETW_ETW_SAL_SPECSTRINGS_H
#define PETW_ETW_SAL_SPECSTRINGS_H

#ifndef PETW_ETW_SAL_H
#error "include <sal.h>, not its parts"
#endif

#define __allaccess_impl_notref
#define __analysis_assert(a)
#define __analysis_assume(a)
#define __analysis_assume_nullterminated(a)
#define __analysis_hint(a)
#define __analysis_noreturn
#define __assume_bound(a)
#define __assume_validated(a)
#define __ATTR_SAL
#define __bcount(a)
#define __bcount_opt(a)
#define __blocksOn(a)
#define __byte_readableTo(a)
#define __byte_writableTo(a)
#define __checkReturn
#define __class_code_content(a)
#define __control_entrypoint(a)
#define __data_entrypoint(a)
#define __deallocate(a)
#define __deallocate_opt(a)
#define __deferTypecheck
#define __deref
#define __deref_bcount(a)
#define __deref_bcount_opt(a)
#define __deref_ecount(a)
#define __deref_ecount_opt(a)
#define __deref_in
#define __deref_in_bcount(a)
#define __deref_in_bcount_opt(a)
#define __deref_in_ecount(a)
#define __deref_in_ecount_iterator(a, b)
#define __deref_in_ecount_opt(a)
#define __deref_in_opt
#define __deref_in_opt_out
#define __deref_in_range(a, b)
#define __deref_in_xcount(a)
#define __deref_in_xcount_opt(a)
#define __deref_inout
#define __deref_inout_bcount(a)
#define __deref_inout_bcount_full(a)
#define __deref_inout_bcount_full_opt(a)
#define __deref_inout_bcount_nz(a)
#define __deref_inout_bcount_nz_opt(a)
#define __deref_inout_bcount_opt(a)
#define __deref_inout_bcount_part(a, b)
#define __deref_inout_bcount_part_opt(a, b)
#define __deref_inout_bcount_z(a)
#define __deref_inout_bcount_z_opt(a)
#define __deref_inout_ecount(a)
#define __deref_inout_ecount_full(a)
#define __deref_inout_ecount_full_opt(a)
#define __deref_inout_ecount_iterator(a, b)
#define __deref_inout_ecount_nz(a)
#define __deref_inout_ecount_nz_opt(a)
#define __deref_inout_ecount_opt(a)
#define __deref_inout_ecount_part(a, b)
#define __deref_inout_ecount_part_opt(a, b)
#define __deref_inout_ecount_z(a)
#define __deref_inout_ecount_z_opt(a)
#define __deref_inout_nz
#define __deref_inout_nz_opt
#define __deref_inout_opt
#define __deref_inout_range(a, b)
#define __deref_inout_xcount(a)
#define __deref_inout_xcount_full(a)
#define __deref_inout_xcount_full_opt(a)
#define __deref_inout_xcount_opt(a)
#define __deref_inout_xcount_part(a, b)
#define __deref_inout_xcount_part_opt(a, b)
#define __deref_inout_z
#define __deref_inout_z_opt
#define __deref_nonvolatile
#define __deref_opt_bcount(a)
#define __deref_opt_bcount_opt(a)
#define __deref_opt_ecount(a)
#define __deref_opt_ecount_opt(a)
#define __deref_opt_in
#define __deref_opt_in_bcount(a)
#define __deref_opt_in_bcount_opt(a)
#define __deref_opt_in_ecount(a)
#define __deref_opt_in_ecount_opt(a)
#define __deref_opt_in_opt
#define __deref_opt_in_xcount(a)
#define __deref_opt_in_xcount_opt(a)
#define __deref_opt_inout
#define __deref_opt_inout_bcount(a)
#define __deref_opt_inout_bcount_full(a)
#define __deref_opt_inout_bcount_full_opt(a)
#define __deref_opt_inout_bcount_nz(a)
#define __deref_opt_inout_bcount_nz_opt(a)
#define __deref_opt_inout_bcount_opt(a)
#define __deref_opt_inout_bcount_part(a, b)
#define __deref_opt_inout_bcount_z(a)
#define __deref_opt_inout_bcount_z_opt(a)
#define __deref_opt_inout_ecount(a)
#define __deref_opt_inout_ecount_full(a)
#define __deref_opt_inout_ecount_full_opt(a)
#define __deref_opt_inout_ecount_nz(a)
#define __deref_opt_inout_ecount_nz_opt(a)
#define __deref_opt_inout_ecount_opt(a)
#define __deref_opt_inout_ecount_part(a, b)
#define __deref_opt_inout_ecount_part_opt(a, b)
#define __deref_opt_inout_ecount_z(a)
#define __deref_opt_inout_ecount_z_opt(a)
#define __deref_opt_inout_nz
#define __deref_opt_inout_nz_opt
#define __deref_opt_inout_opt
#define __deref_opt_inout_xcount(a)
#define __deref_opt_inout_xcount_full(a)
#define __deref_opt_inout_xcount_full_opt(a)
#define __deref_opt_inout_xcount_opt(a)
#define __deref_opt_inout_xcount_part(a, b)
#define __deref_opt_inout_xcount_part_opt(a, b)
#define __deref_opt_inout_z
#define __deref_opt_inout_z_opt
#define __deref_opt_out
#define __deref_opt_out_bcount(a)
#define __deref_opt_out_bcount_full(a)
#define __deref_opt_out_bcount_full_opt(a)
#define __deref_opt_out_bcount_nz_opt(a)
#define __deref_opt_out_bcount_opt(a)
#define __deref_opt_out_bcount_part(a, b)
#define __deref_opt_out_bcount_part_opt(a, b)
#define __deref_opt_out_bcount_z_opt(a)
#define __deref_opt_out_ecount(a)
#define __deref_opt_out_ecount_full(a)
#define __deref_opt_out_ecount_full_opt(a)
#define __deref_opt_out_ecount_nz_opt(a)
#define __deref_opt_out_ecount_opt(a)
#define __deref_opt_out_ecount_part(a, b)
#define __deref_opt_out_ecount_part_opt(a, b)
#define __deref_opt_out_ecount_z_opt(a)
#define __deref_opt_out_nz_opt
#define __deref_opt_out_opt
#define __deref_opt_out_xcount(a)
#define __deref_opt_out_xcount_full(a)
#define __deref_opt_out_xcount_full_opt(a)
#define __deref_opt_out_xcount_opt(a)
#define __deref_opt_out_xcount_part(a, b)
#define __deref_opt_out_xcount_part_opt(a, b)
#define __deref_opt_out_z
#define __deref_opt_out_z_opt
#define __deref_opt_xcount(a)
#define __deref_opt_xcount_opt(a)
#define __deref_out
#define __deref_out_bcount(a)
#define __deref_out_bcount_full(a)
#define __deref_out_bcount_full_opt(a)
#define __deref_out_bcount_nz(a)
#define __deref_out_bcount_nz_opt(a)
#define __deref_out_bcount_opt(a)
#define __deref_out_bcount_part(a, b)
#define __deref_out_bcount_part_opt(a, b)
#define __deref_out_bcount_z(a)
#define __deref_out_bcount_z_opt(a)
#define __deref_out_bound
#define __deref_out_ecount(a)
#define __deref_out_ecount_full(a)
#define __deref_out_ecount_full_opt(a)
#define __deref_out_ecount_iterator(a, b)
#define __deref_out_ecount_nz(a)
#define __deref_out_ecount_nz_opt(a)
#define __deref_out_ecount_opt(a)
#define __deref_out_ecount_part(a, b)
#define __deref_out_ecount_part_opt(a, b)
#define __deref_out_ecount_z(a)
#define __deref_out_ecount_z_opt(a)
#define __deref_out_nz
#define __deref_out_nz_opt
#define __deref_out_opt
#define __deref_out_range(a, b)
#define __deref_out_xcount(a)
#define __deref_out_xcount_full(a)
#define __deref_out_xcount_full_opt(a)
#define __deref_out_xcount_opt(a)
#define __deref_out_xcount_part(a, b)
#define __deref_out_xcount_part_opt(a, b)
#define __deref_out_z
#define __deref_out_z_opt
#define __deref_realloc_bcount(a, b)
#define __deref_volatile
#define __deref_xcount(a)
#define __deref_xcount_opt(a)
#define __ecount(a)
#define __ecount_opt(a)
#define __elem_readableTo(a)
#define __elem_writableTo(a)
#define __encoded_array
#define __encoded_pointer
#define __exceptthat
#define __failureDefault(a)
#define __fallthrough
#define __field_bcount(a)
#define __field_bcount_full(a)
#define __field_bcount_full_opt(a)
#define __field_bcount_opt(a)
#define __field_bcount_part(a, b)
#define __field_bcount_part_opt(a, b)
#define __field_data_source(a)
#define __field_ecount(a)
#define __field_ecount_full(a)
#define __field_ecount_full_opt(a)
#define __field_ecount_opt(a)
#define __field_ecount_part(a, b)
#define __field_ecount_part_opt(a, b)
#define __field_encoded_array
#define __field_encoded_pointer
#define __field_nullterminated
#define __field_range(a, b)
#define __field_xcount(a)
#define __field_xcount_full(a)
#define __field_xcount_full_opt(a)
#define __field_xcount_opt(a)
#define __field_xcount_part(a, b)
#define __field_xcount_part_opt(a, b)
#define __file_parser(a)
#define __file_parser_class(a)
#define __file_parser_library(a)
#define __format_string
#define __gdi_entry
#define __GENSYM(a)
#define __in_awcount(a, b)
#define __in_bcount(a)
#define __in_bcount_nz(a)
#define __in_bcount_nz_opt(a)
#define __in_bcount_opt(a)
#define __in_bcount_z(a)
#define __in_bcount_z_opt(a)
#define __in_bound
#define __in_data_source(a)
#define __in_ecount(a)
#define __in_ecount_nz(a)
#define __in_ecount_nz_opt(a)
#define __in_ecount_opt(a)
#define __in_ecount_or_z(a)
#define __in_ecount_z(a)
#define __in_ecount_z_opt(a)
#define __in_nz
#define __in_nz_opt
#define __in_opt
#define __in_opt_z
#define __in_xcount(a)
#define __in_xcount_opt(a)
#define __in_z
#define __in_z_opt
#define __inout
#define __inout_bcount(a)
#define __inout_bcount_full(a)
#define __inout_bcount_full_opt(a)
#define __inout_bcount_nz(a)
#define __inout_bcount_nz_opt(a)
#define __inout_bcount_opt(a)
#define __inout_bcount_part(a, b)
#define __inout_bcount_part_opt(a, b)
#define __inout_bcount_z(a)
#define __inout_bcount_z_opt(a)
#define __inout_ecount(a)
#define __inout_ecount_full(a)
#define __inout_ecount_full_opt(a)
#define __inout_ecount_nz(a)
#define __inout_ecount_nz_opt(a)
#define __inout_ecount_opt(a)
#define __inout_ecount_part(a, b)
#define __inout_ecount_part_opt(a, b)
#define __inout_ecount_z(a)
#define __inout_ecount_z_opt(a)
#define __inout_nz
#define __inout_nz_opt
#define __inout_opt
#define __inout_xcount(a)
#define __inout_xcount_full(a)
#define __inout_xcount_full_opt(a)
#define __inout_xcount_opt(a)
#define __inout_xcount_part(a, b)
#define __inout_xcount_part_opt(a, b)
#define __inout_z
#define __inout_z_opt
#define __kernel_code
#define __kernel_driver
#define __kernel_entry
#define __maybenull
#define __maybenull_impl_notref
#define __maybereadonly
#define __maybevalid
#define __MKID(a, b)
#define ___MKID(a, b)
#define __nonvolatile
#define __nothrow
#define __notnull
#define __notnull_impl_notref
#define __notreadonly
#define __notvalid
#define __null_impl_notref
#define __nullnullterminated
#define __nullterminated
#define __on_failure(a)
#define __out_awcount(a, b)
#define __out_bcount(a)
#define __out_bcount_full(a)
#define __out_bcount_full_opt(a)
#define __out_bcount_full_z(a)
#define __out_bcount_full_z_opt(a)
#define __out_bcount_nz(a)
#define __out_bcount_nz_opt(a)
#define __out_bcount_opt(a)
#define __out_bcount_part(a, b)
#define __out_bcount_part_opt(a, b)
#define __out_bcount_part_z(a, b)
#define __out_bcount_part_z_opt(a, b)
#define __out_bcount_z(a)
#define __out_bcount_z_opt(a)
#define __out_bound
#define __out_data_source(a)
#define __out_ecount(a)
#define __out_ecount_full(a)
#define __out_ecount_full_opt(a)
#define __out_ecount_full_z(a)
#define __out_ecount_full_z_opt(a)
#define __out_ecount_nz(a)
#define __out_ecount_nz_opt(a)
#define __out_ecount_opt(a)
#define __out_ecount_part(a, b)
#define __out_ecount_part_opt(a, b)
#define __out_ecount_part_z(a, b)
#define __out_ecount_part_z_opt(a, b)
#define __out_ecount_z(a)
#define __out_ecount_z_opt(a)
#define __out_has_adt_prop(a, b)
#define __out_has_type_adt_props(a)
#define __out_not_has_adt_prop(a, b)
#define __out_nz
#define __out_nz_opt
#define __out_opt
#define __out_transfer_adt_prop(a)
#define __out_validated(a)
#define __out_xcount(a)
#define __out_xcount_full(a)
#define __out_xcount_full_opt(a)
#define __out_xcount_opt(a)
#define __out_xcount_part(a, b)
#define __out_xcount_part_opt(a, b)
#define __out_z
#define __out_z_opt
#define __possibly_notnullterminated
#define __post_bcount(a)
#define __post_deref_except_maybenull
#define __post_ecount(a)
#define __post_except_maybenull
#define __post_invalid
#define __post_nullnullterminated
#define __postcond(a)
#define __pre_deref_except_maybenull
#define __pre_except_maybenull
#define __precond(a)
#define __prefast_operator_new_null
#define __prefast_operator_new_throws
#define __range_max(a, b)
#define __range_min(a, b)
#define __readableTo(a)
#define __readaccess_impl_notref
#define __readonly
#define __refparam
#define __rpc_entry
#define __source_code_content(a)
#define __static_context(a, b)
#define __struct_bcount(a)
#define __struct_xcount(a)
#define __this_out_data_source(a)
#define __this_out_validated(a)
#define __transfer(a)
#define __type_has_adt_prop(a, b)
#define __typefix(a)
#define __useHeader
#define __user_code
#define __user_driver
#define __valueUndefined
#define __writableTo(a)
#define __writeaccess_impl_notref
#define __xcount(a)
#define __xcount_opt(a)

#endif /* PETW_ETW_SAL_SPECSTRINGS_H */
