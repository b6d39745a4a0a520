/* SPDX-License-Identifier: MIT */
/* sal.h - the source-code annotation language (SAL) of Windows' headers, for
 * non-Windows hosts: every annotation name the Windows SDK's sal.h,
 * specstrings.h and driverspecs.h define (new style _In_..., old style
 * __in_ecount..., driver _IRQL_...), and the lock annotations of
 * concurrencysal.h, each an empty macro with the SDK's number of
 * arguments. They mean nothing to gcc or clang. Part of petw's
 * ETW-compatible surface; <windows.h> includes it. On Windows this is the
 * system's.
 *
 * Not defined: the SDK's internal helpers (_SA_..., __inner_..., ..._impl_),
 * and the old-style names standard headers use for their own variables or
 * keywords (__success, __range, __reserved, __callback, __override, __valid,
 * __pre, __post, __bound, __in_range, __out_range, __failure, __allocator,
 * __volatile, __null). `__in` and `__out` are such names in libstdc++
 * (<utility>, <tuple>, <string>, <istream>, <ostream>, <locale>,
 * <algorithm>, <memory>, <thread>, <regex>); mingw-w64 leaves them undefined
 * in C++, so that code using them does not compile there. Here, in C++ with
 * libstdc++, this header first includes those standard headers (their
 * guards then make any later #include of them a no-op) and then defines
 * `__in` and `__out`: code annotated with them compiles, and so do the
 * standard headers included before or after. Define PETW_NO_SAL_IN_OUT to
 * skip both (mingw-w64's behaviour, and less to compile). libstdc++'s
 * extension headers (<ext/...>, <experimental/...>, <tr1/...>) also use the
 * names: include them first.
 */
#if defined(_WIN32)
#include_next <sal.h>
#else
#ifndef PETW_ETW_SAL_H
#define PETW_ETW_SAL_H

/* C++ with libstdc++: its headers that name variables __in or __out, before
 * those become empty macros below. */
#if defined(__cplusplus) && !defined(PETW_NO_SAL_IN_OUT) && !defined(__in) && !defined(__out)
extern "C++" { /* even when included inside extern "C" { } */
#include <cstddef> /* defines __GLIBCXX__ with libstdc++ */
#if defined(__GLIBCXX__)
#include <algorithm>
#include <istream>
#include <locale>
#include <memory>
#include <ostream>
#include <regex>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#endif
}
#define PETW__SAL_IN_OUT 1
#elif !defined(__cplusplus)
#define PETW__SAL_IN_OUT 1
#endif
#ifdef PETW__SAL_IN_OUT
#ifndef __in
#define __in
#endif
#ifndef __out
#define __out
#endif
#endif

#define _SAL_VERSION 20

#define _Accessible_bytes_(a, b)
#define _Accessible_bytes_when_(a, b, c)
#define _Acquires_lock_(a)
#define __allaccess_impl_notref
#define _Always_(a)
#define __analysis_assert(a)
#define __analysis_assume(a)
#define _Analysis_assume_(a)
#define __analysis_assume_nullterminated(a)
#define _Analysis_assume_nullterminated_(a)
#define _Analysis_assume_section_locked_(a)
#define _Analysis_assume_section_unlocked_(a)
#define __analysis_hint(a)
#define _Analysis_mode_(a)
#define __analysis_noreturn
#define _Analysis_noreturn_
#define __assume_bound(a)
#define __assume_validated(a)
#define _At_(a, b)
#define _At_buffer_(a, b, c, d)
#define __ATTR_SAL
#define __bcount(a)
#define __bcount_opt(a)
#define __blocksOn(a)
#define __byte_readableTo(a)
#define __byte_writableTo(a)
#define _Called_from_function_class_(a)
#define _Check_return_
#define __checkReturn
#define __class_code_content(a)
#define _COM_Outptr_
#define _COM_Outptr_opt_
#define _COM_Outptr_opt_result_maybenull_
#define _COM_Outptr_result_maybenull_
#define _Const_
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
#define _Deref_in_bound_
#define __deref_in_ecount(a)
#define __deref_in_ecount_iterator(a, b)
#define __deref_in_ecount_opt(a)
#define __deref_in_opt
#define __deref_in_opt_out
#define __deref_in_range(a, b)
#define _Deref_in_range_(a, b)
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
#define _Deref_inout_bound_
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
#define _Deref_inout_z_
#define _Deref_inout_z_bytecap_c_(a)
#define _Deref_inout_z_cap_c_(a)
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
#define _Deref_opt_out_
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
#define _Deref_opt_out_opt_
#define _Deref_opt_out_opt_z_
#define __deref_opt_out_xcount(a)
#define __deref_opt_out_xcount_full(a)
#define __deref_opt_out_xcount_full_opt(a)
#define __deref_opt_out_xcount_opt(a)
#define __deref_opt_out_xcount_part(a, b)
#define __deref_opt_out_xcount_part_opt(a, b)
#define __deref_opt_out_z
#define _Deref_opt_out_z_
#define __deref_opt_out_z_opt
#define __deref_opt_xcount(a)
#define __deref_opt_xcount_opt(a)
#define __deref_out
#define _Deref_out_
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
#define _Deref_out_bound_
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
#define _Deref_out_opt_
#define _Deref_out_opt_z_
#define __deref_out_range(a, b)
#define _Deref_out_range_(a, b)
#define __deref_out_xcount(a)
#define __deref_out_xcount_full(a)
#define __deref_out_xcount_full_opt(a)
#define __deref_out_xcount_opt(a)
#define __deref_out_xcount_part(a, b)
#define __deref_out_xcount_part_opt(a, b)
#define __deref_out_z
#define _Deref_out_z_
#define _Deref_out_z_bytecap_c_(a)
#define _Deref_out_z_cap_c_(a)
#define __deref_out_z_opt
#define _Deref_post_bytecap_(a)
#define _Deref_post_bytecap_c_(a)
#define _Deref_post_bytecap_x_(a)
#define _Deref_post_bytecount_(a)
#define _Deref_post_bytecount_c_(a)
#define _Deref_post_bytecount_x_(a)
#define _Deref_post_cap_(a)
#define _Deref_post_cap_c_(a)
#define _Deref_post_cap_x_(a)
#define _Deref_post_count_(a)
#define _Deref_post_count_c_(a)
#define _Deref_post_count_x_(a)
#define _Deref_post_maybenull_
#define _Deref_post_notnull_
#define _Deref_post_null_
#define _Deref_post_opt_bytecap_(a)
#define _Deref_post_opt_bytecap_c_(a)
#define _Deref_post_opt_bytecap_x_(a)
#define _Deref_post_opt_bytecount_(a)
#define _Deref_post_opt_bytecount_c_(a)
#define _Deref_post_opt_bytecount_x_(a)
#define _Deref_post_opt_cap_(a)
#define _Deref_post_opt_cap_c_(a)
#define _Deref_post_opt_cap_x_(a)
#define _Deref_post_opt_count_(a)
#define _Deref_post_opt_count_c_(a)
#define _Deref_post_opt_count_x_(a)
#define _Deref_post_opt_valid_
#define _Deref_post_opt_valid_bytecap_(a)
#define _Deref_post_opt_valid_bytecap_c_(a)
#define _Deref_post_opt_valid_bytecap_x_(a)
#define _Deref_post_opt_valid_cap_(a)
#define _Deref_post_opt_valid_cap_c_(a)
#define _Deref_post_opt_valid_cap_x_(a)
#define _Deref_post_opt_z_
#define _Deref_post_opt_z_bytecap_(a)
#define _Deref_post_opt_z_bytecap_c_(a)
#define _Deref_post_opt_z_bytecap_x_(a)
#define _Deref_post_opt_z_cap_(a)
#define _Deref_post_opt_z_cap_c_(a)
#define _Deref_post_opt_z_cap_x_(a)
#define _Deref_post_valid_
#define _Deref_post_valid_bytecap_(a)
#define _Deref_post_valid_bytecap_c_(a)
#define _Deref_post_valid_bytecap_x_(a)
#define _Deref_post_valid_cap_(a)
#define _Deref_post_valid_cap_c_(a)
#define _Deref_post_valid_cap_x_(a)
#define _Deref_post_z_
#define _Deref_post_z_bytecap_(a)
#define _Deref_post_z_bytecap_c_(a)
#define _Deref_post_z_bytecap_x_(a)
#define _Deref_post_z_cap_(a)
#define _Deref_post_z_cap_c_(a)
#define _Deref_post_z_cap_x_(a)
#define _Deref_pre_bytecap_(a)
#define _Deref_pre_bytecap_c_(a)
#define _Deref_pre_bytecap_x_(a)
#define _Deref_pre_bytecount_(a)
#define _Deref_pre_bytecount_c_(a)
#define _Deref_pre_bytecount_x_(a)
#define _Deref_pre_cap_(a)
#define _Deref_pre_cap_c_(a)
#define _Deref_pre_cap_x_(a)
#define _Deref_pre_count_(a)
#define _Deref_pre_count_c_(a)
#define _Deref_pre_count_x_(a)
#define _Deref_pre_invalid_
#define _Deref_pre_maybenull_
#define _Deref_pre_notnull_
#define _Deref_pre_null_
#define _Deref_pre_opt_bytecap_(a)
#define _Deref_pre_opt_bytecap_c_(a)
#define _Deref_pre_opt_bytecap_x_(a)
#define _Deref_pre_opt_bytecount_(a)
#define _Deref_pre_opt_bytecount_c_(a)
#define _Deref_pre_opt_bytecount_x_(a)
#define _Deref_pre_opt_cap_(a)
#define _Deref_pre_opt_cap_c_(a)
#define _Deref_pre_opt_cap_x_(a)
#define _Deref_pre_opt_count_(a)
#define _Deref_pre_opt_count_c_(a)
#define _Deref_pre_opt_count_x_(a)
#define _Deref_pre_opt_valid_
#define _Deref_pre_opt_valid_bytecap_(a)
#define _Deref_pre_opt_valid_bytecap_c_(a)
#define _Deref_pre_opt_valid_bytecap_x_(a)
#define _Deref_pre_opt_valid_cap_(a)
#define _Deref_pre_opt_valid_cap_c_(a)
#define _Deref_pre_opt_valid_cap_x_(a)
#define _Deref_pre_opt_z_
#define _Deref_pre_opt_z_bytecap_(a)
#define _Deref_pre_opt_z_bytecap_c_(a)
#define _Deref_pre_opt_z_bytecap_x_(a)
#define _Deref_pre_opt_z_cap_(a)
#define _Deref_pre_opt_z_cap_c_(a)
#define _Deref_pre_opt_z_cap_x_(a)
#define _Deref_pre_readonly_
#define _Deref_pre_valid_
#define _Deref_pre_valid_bytecap_(a)
#define _Deref_pre_valid_bytecap_c_(a)
#define _Deref_pre_valid_bytecap_x_(a)
#define _Deref_pre_valid_cap_(a)
#define _Deref_pre_valid_cap_c_(a)
#define _Deref_pre_valid_cap_x_(a)
#define _Deref_pre_writeonly_
#define _Deref_pre_z_
#define _Deref_pre_z_bytecap_(a)
#define _Deref_pre_z_bytecap_c_(a)
#define _Deref_pre_z_bytecap_x_(a)
#define _Deref_pre_z_cap_(a)
#define _Deref_pre_z_cap_c_(a)
#define _Deref_pre_z_cap_x_(a)
#define _Deref_prepost_bytecap_(a)
#define _Deref_prepost_bytecap_x_(a)
#define _Deref_prepost_bytecount_(a)
#define _Deref_prepost_bytecount_x_(a)
#define _Deref_prepost_cap_(a)
#define _Deref_prepost_cap_x_(a)
#define _Deref_prepost_count_(a)
#define _Deref_prepost_count_x_(a)
#define _Deref_prepost_opt_bytecap_(a)
#define _Deref_prepost_opt_bytecap_x_(a)
#define _Deref_prepost_opt_bytecount_(a)
#define _Deref_prepost_opt_bytecount_x_(a)
#define _Deref_prepost_opt_cap_(a)
#define _Deref_prepost_opt_cap_x_(a)
#define _Deref_prepost_opt_count_(a)
#define _Deref_prepost_opt_count_x_(a)
#define _Deref_prepost_opt_valid_
#define _Deref_prepost_opt_valid_bytecap_(a)
#define _Deref_prepost_opt_valid_bytecap_x_(a)
#define _Deref_prepost_opt_valid_cap_(a)
#define _Deref_prepost_opt_valid_cap_x_(a)
#define _Deref_prepost_opt_z_
#define _Deref_prepost_opt_z_bytecap_(a)
#define _Deref_prepost_opt_z_cap_(a)
#define _Deref_prepost_valid_
#define _Deref_prepost_valid_bytecap_(a)
#define _Deref_prepost_valid_bytecap_x_(a)
#define _Deref_prepost_valid_cap_(a)
#define _Deref_prepost_valid_cap_x_(a)
#define _Deref_prepost_z_
#define _Deref_prepost_z_bytecap_(a)
#define _Deref_prepost_z_cap_(a)
#define __deref_realloc_bcount(a, b)
#define _Deref_ret_bound_
#define _Deref_ret_opt_z_
#define _Deref_ret_range_(a, b)
#define _Deref_ret_z_
#define __deref_volatile
#define __deref_xcount(a)
#define __deref_xcount_opt(a)
#define _Dispatch_type_(a)
#define ___drv_unit_internal_kernel_driver
#define ___drv_unit_kernel_code
#define ___drv_unit_kernel_driver
#define ___drv_unit_user_code
#define ___drv_unit_user_driver
#define __ecount(a)
#define __ecount_opt(a)
#define __elem_readableTo(a)
#define __elem_writableTo(a)
#define __encoded_array
#define __encoded_pointer
#define _Enum_is_bitflag_
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
#define _Field_range_(a, b)
#define _Field_size_(a)
#define _Field_size_bytes_(a)
#define _Field_size_bytes_full_(a)
#define _Field_size_bytes_full_opt_(a)
#define _Field_size_bytes_opt_(a)
#define _Field_size_bytes_part_(a, b)
#define _Field_size_bytes_part_opt_(a, b)
#define _Field_size_full_(a)
#define _Field_size_full_opt_(a)
#define _Field_size_opt_(a)
#define _Field_size_part_(a, b)
#define _Field_size_part_opt_(a, b)
#define __field_xcount(a)
#define __field_xcount_full(a)
#define __field_xcount_full_opt(a)
#define __field_xcount_opt(a)
#define __field_xcount_part(a, b)
#define __field_xcount_part_opt(a, b)
#define _Field_z_
#define __file_parser(a)
#define __file_parser_class(a)
#define __file_parser_library(a)
#define _Flt_CompletionContext_Outptr_
#define _Flt_ConnectionCookie_Outptr_
#define __format_string
#define _Frees_ptr_
#define _Frees_ptr_opt_
#define _Function_class_(a)
#define __gdi_entry
#define __GENSYM(a)
#define _Guarded_by_(a)
#define _In_
#define __in_awcount(a, b)
#define __in_bcount(a)
#define __in_bcount_nz(a)
#define __in_bcount_nz_opt(a)
#define __in_bcount_opt(a)
#define __in_bcount_z(a)
#define __in_bcount_z_opt(a)
#define __in_bound
#define _In_bound_
#define _In_bytecount_(a)
#define _In_bytecount_c_(a)
#define _In_bytecount_x_(a)
#define _In_count_(a)
#define _In_count_c_(a)
#define _In_count_x_(a)
#define __in_data_source(a)
#define _In_defensive_(a)
#define __in_ecount(a)
#define __in_ecount_nz(a)
#define __in_ecount_nz_opt(a)
#define __in_ecount_opt(a)
#define __in_ecount_or_z(a)
#define __in_ecount_z(a)
#define __in_ecount_z_opt(a)
#define _In_function_class_(a)
#define _In_NLS_string_(a)
#define __in_nz
#define __in_nz_opt
#define __in_opt
#define _In_opt_
#define _In_opt_bytecount_(a)
#define _In_opt_bytecount_c_(a)
#define _In_opt_bytecount_x_(a)
#define _In_opt_count_(a)
#define _In_opt_count_c_(a)
#define _In_opt_count_x_(a)
#define _In_opt_ptrdiff_count_(a)
#define __in_opt_z
#define _In_opt_z_
#define _In_opt_z_bytecount_(a)
#define _In_opt_z_bytecount_c_(a)
#define _In_opt_z_count_(a)
#define _In_opt_z_count_c_(a)
#define _In_ptrdiff_count_(a)
#define _In_range_(a, b)
#define _In_reads_(a)
#define _In_reads_bytes_(a)
#define _In_reads_bytes_opt_(a)
#define _In_reads_opt_(a)
#define _In_reads_opt_z_(a)
#define _In_reads_or_z_(a)
#define _In_reads_or_z_opt_(a)
#define _In_reads_to_ptr_(a)
#define _In_reads_to_ptr_opt_(a)
#define _In_reads_to_ptr_opt_z_(a)
#define _In_reads_to_ptr_z_(a)
#define _In_reads_z_(a)
#define __in_xcount(a)
#define __in_xcount_opt(a)
#define __in_z
#define _In_z_
#define _In_z_bytecount_(a)
#define _In_z_bytecount_c_(a)
#define _In_z_count_(a)
#define _In_z_count_c_(a)
#define __in_z_opt
#define __inout
#define _Inout_
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
#define _Inout_bytecap_(a)
#define _Inout_bytecap_c_(a)
#define _Inout_bytecap_x_(a)
#define _Inout_bytecount_(a)
#define _Inout_bytecount_c_(a)
#define _Inout_bytecount_x_(a)
#define _Inout_cap_(a)
#define _Inout_cap_c_(a)
#define _Inout_cap_x_(a)
#define _Inout_count_(a)
#define _Inout_count_c_(a)
#define _Inout_count_x_(a)
#define _Inout_defensive_(a)
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
#define _Inout_opt_
#define _Inout_opt_bytecap_(a)
#define _Inout_opt_bytecap_c_(a)
#define _Inout_opt_bytecap_x_(a)
#define _Inout_opt_bytecount_(a)
#define _Inout_opt_bytecount_c_(a)
#define _Inout_opt_bytecount_x_(a)
#define _Inout_opt_cap_(a)
#define _Inout_opt_cap_c_(a)
#define _Inout_opt_cap_x_(a)
#define _Inout_opt_count_(a)
#define _Inout_opt_count_c_(a)
#define _Inout_opt_count_x_(a)
#define _Inout_opt_ptrdiff_count_(a)
#define _Inout_opt_z_
#define _Inout_opt_z_bytecap_(a)
#define _Inout_opt_z_bytecap_c_(a)
#define _Inout_opt_z_bytecap_x_(a)
#define _Inout_opt_z_bytecount_(a)
#define _Inout_opt_z_bytecount_c_(a)
#define _Inout_opt_z_cap_(a)
#define _Inout_opt_z_cap_c_(a)
#define _Inout_opt_z_cap_x_(a)
#define _Inout_opt_z_count_(a)
#define _Inout_opt_z_count_c_(a)
#define _Inout_ptrdiff_count_(a)
#define _Inout_updates_(a)
#define _Inout_updates_all_(a)
#define _Inout_updates_all_opt_(a)
#define _Inout_updates_bytes_(a)
#define _Inout_updates_bytes_all_(a)
#define _Inout_updates_bytes_all_opt_(a)
#define _Inout_updates_bytes_opt_(a)
#define _Inout_updates_bytes_to_(a, b)
#define _Inout_updates_bytes_to_opt_(a, b)
#define _Inout_updates_opt_(a)
#define _Inout_updates_opt_z_(a)
#define _Inout_updates_to_(a, b)
#define _Inout_updates_to_opt_(a, b)
#define _Inout_updates_z_(a)
#define __inout_xcount(a)
#define __inout_xcount_full(a)
#define __inout_xcount_full_opt(a)
#define __inout_xcount_opt(a)
#define __inout_xcount_part(a, b)
#define __inout_xcount_part_opt(a, b)
#define __inout_z
#define _Inout_z_
#define _Inout_z_bytecap_(a)
#define _Inout_z_bytecap_c_(a)
#define _Inout_z_bytecap_x_(a)
#define _Inout_z_bytecount_(a)
#define _Inout_z_bytecount_c_(a)
#define _Inout_z_cap_(a)
#define _Inout_z_cap_c_(a)
#define _Inout_z_cap_x_(a)
#define _Inout_z_count_(a)
#define _Inout_z_count_c_(a)
#define __inout_z_opt
#define _Interlocked_operand_
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
#define __kernel_code
#define __kernel_driver
#define __kernel_entry
#define _Kernel_entry_
#define _Kernel_entry_always_
#define _Kernel_IoGetDmaAdapter_
#define _Kernel_releases_resource_(a)
#define _Kernel_requires_resource_held_(a)
#define _Kernel_requires_resource_not_held_(a)
#define _Landmark_(a)
#define _Literal_
#define _Maybe_raises_SEH_exception_
#define __maybenull
#define _Maybenull_
#define __maybenull_impl_notref
#define __maybereadonly
#define __maybevalid
#define _Maybevalid_
#define _Memory_origin_(a)
#define _Memory_origin_when_(a, b)
#define __MKID(a, b)
#define ___MKID(a, b)
#define _Must_inspect_result_
#define __nonvolatile
#define __nothrow
#define _Notliteral_
#define __notnull
#define _Notnull_
#define __notnull_impl_notref
#define __notreadonly
#define _Notref_
#define __notvalid
#define _Notvalid_
#define _Null_
#define __null_impl_notref
#define _Null_terminated_
#define _NullNull_terminated_
#define __nullnullterminated
#define __nullterminated
#define __on_failure(a)
#define _On_failure_(a)
#define _Out_
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
#define _Out_bound_
#define _Out_bytecap_(a)
#define _Out_bytecap_c_(a)
#define _Out_bytecap_post_bytecount_(a, b)
#define _Out_bytecap_x_(a)
#define _Out_bytecapcount_(a)
#define _Out_bytecapcount_x_(a)
#define _Out_cap_(a)
#define _Out_cap_c_(a)
#define _Out_cap_m_(a, b)
#define _Out_cap_post_count_(a, b)
#define _Out_cap_x_(a)
#define _Out_capcount_(a)
#define _Out_capcount_x_(a)
#define __out_data_source(a)
#define _Out_defensive_(a)
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
#define _Out_opt_
#define _Out_opt_bytecap_(a)
#define _Out_opt_bytecap_c_(a)
#define _Out_opt_bytecap_post_bytecount_(a, b)
#define _Out_opt_bytecap_x_(a)
#define _Out_opt_bytecapcount_(a)
#define _Out_opt_bytecapcount_x_(a)
#define _Out_opt_cap_(a)
#define _Out_opt_cap_c_(a)
#define _Out_opt_cap_m_(a, b)
#define _Out_opt_cap_post_count_(a, b)
#define _Out_opt_cap_x_(a)
#define _Out_opt_capcount_(a)
#define _Out_opt_capcount_x_(a)
#define _Out_opt_ptrdiff_cap_(a)
#define _Out_opt_z_bytecap_(a)
#define _Out_opt_z_bytecap_c_(a)
#define _Out_opt_z_bytecap_post_bytecount_(a, b)
#define _Out_opt_z_bytecap_x_(a)
#define _Out_opt_z_bytecapcount_(a)
#define _Out_opt_z_cap_(a)
#define _Out_opt_z_cap_c_(a)
#define _Out_opt_z_cap_m_(a, b)
#define _Out_opt_z_cap_post_count_(a, b)
#define _Out_opt_z_cap_x_(a)
#define _Out_opt_z_capcount_(a)
#define _Out_ptrdiff_cap_(a)
#define _Out_range_(a, b)
#define __out_transfer_adt_prop(a)
#define __out_validated(a)
#define _Out_writes_(a)
#define _Out_writes_all_(a)
#define _Out_writes_all_opt_(a)
#define _Out_writes_bytes_(a)
#define _Out_writes_bytes_all_(a)
#define _Out_writes_bytes_all_opt_(a)
#define _Out_writes_bytes_opt_(a)
#define _Out_writes_bytes_to_(a, b)
#define _Out_writes_bytes_to_opt_(a, b)
#define _Out_writes_opt_(a)
#define _Out_writes_opt_z_(a)
#define _Out_writes_to_(a, b)
#define _Out_writes_to_opt_(a, b)
#define _Out_writes_to_ptr_(a)
#define _Out_writes_to_ptr_opt_(a)
#define _Out_writes_to_ptr_opt_z_(a)
#define _Out_writes_to_ptr_z_(a)
#define _Out_writes_z_(a)
#define __out_xcount(a)
#define __out_xcount_full(a)
#define __out_xcount_full_opt(a)
#define __out_xcount_opt(a)
#define __out_xcount_part(a, b)
#define __out_xcount_part_opt(a, b)
#define __out_z
#define _Out_z_bytecap_(a)
#define _Out_z_bytecap_c_(a)
#define _Out_z_bytecap_post_bytecount_(a, b)
#define _Out_z_bytecap_x_(a)
#define _Out_z_bytecapcount_(a)
#define _Out_z_cap_(a)
#define _Out_z_cap_c_(a)
#define _Out_z_cap_m_(a, b)
#define _Out_z_cap_post_count_(a, b)
#define _Out_z_cap_x_(a)
#define _Out_z_capcount_(a)
#define __out_z_opt
#define _Outptr_
#define _Outptr_opt_
#define _Outptr_opt_result_buffer_(a)
#define _Outptr_opt_result_buffer_all_(a)
#define _Outptr_opt_result_buffer_all_maybenull_(a)
#define _Outptr_opt_result_buffer_maybenull_(a)
#define _Outptr_opt_result_buffer_to_(a, b)
#define _Outptr_opt_result_buffer_to_maybenull_(a, b)
#define _Outptr_opt_result_bytebuffer_(a)
#define _Outptr_opt_result_bytebuffer_all_(a)
#define _Outptr_opt_result_bytebuffer_all_maybenull_(a)
#define _Outptr_opt_result_bytebuffer_maybenull_(a)
#define _Outptr_opt_result_bytebuffer_to_(a, b)
#define _Outptr_opt_result_bytebuffer_to_maybenull_(a, b)
#define _Outptr_opt_result_maybenull_
#define _Outptr_opt_result_maybenull_z_
#define _Outptr_opt_result_nullonfailure_
#define _Outptr_opt_result_z_
#define _Outptr_result_buffer_(a)
#define _Outptr_result_buffer_all_(a)
#define _Outptr_result_buffer_all_maybenull_(a)
#define _Outptr_result_buffer_maybenull_(a)
#define _Outptr_result_buffer_to_(a, b)
#define _Outptr_result_buffer_to_maybenull_(a, b)
#define _Outptr_result_bytebuffer_(a)
#define _Outptr_result_bytebuffer_all_(a)
#define _Outptr_result_bytebuffer_all_maybenull_(a)
#define _Outptr_result_bytebuffer_maybenull_(a)
#define _Outptr_result_bytebuffer_to_(a, b)
#define _Outptr_result_bytebuffer_to_maybenull_(a, b)
#define _Outptr_result_maybenull_
#define _Outptr_result_maybenull_z_
#define _Outptr_result_nullonfailure_
#define _Outptr_result_z_
#define _Outref_
#define _Outref_result_buffer_(a)
#define _Outref_result_buffer_all_(a)
#define _Outref_result_buffer_all_maybenull_(a)
#define _Outref_result_buffer_maybenull_(a)
#define _Outref_result_buffer_to_(a, b)
#define _Outref_result_buffer_to_maybenull_(a, b)
#define _Outref_result_bytebuffer_(a)
#define _Outref_result_bytebuffer_all_(a)
#define _Outref_result_bytebuffer_all_maybenull_(a)
#define _Outref_result_bytebuffer_maybenull_(a)
#define _Outref_result_bytebuffer_to_(a, b)
#define _Outref_result_bytebuffer_to_maybenull_(a, b)
#define _Outref_result_maybenull_
#define _Outref_result_nullonfailure_
#define _Points_to_data_
#define __possibly_notnullterminated
#define _Post_
#define __post_bcount(a)
#define _Post_bytecap_(a)
#define _Post_bytecount_(a)
#define _Post_bytecount_c_(a)
#define _Post_bytecount_x_(a)
#define _Post_cap_(a)
#define _Post_count_(a)
#define _Post_count_c_(a)
#define _Post_count_x_(a)
#define _Post_defensive_
#define __post_deref_except_maybenull
#define __post_ecount(a)
#define _Post_equal_to_(a)
#define _Post_equals_last_error_
#define __post_except_maybenull
#define __post_invalid
#define _Post_invalid_
#define _Post_maybenull_
#define _Post_maybez_
#define _Post_notnull_
#define _Post_null_
#define __post_nullnullterminated
#define _Post_ptr_invalid_
#define _Post_readable_byte_size_(a)
#define _Post_readable_size_(a)
#define _Post_satisfies_(a)
#define _Post_valid_
#define _Post_writable_byte_size_(a)
#define _Post_writable_size_(a)
#define _Post_z_
#define _Post_z_bytecount_(a)
#define _Post_z_bytecount_c_(a)
#define _Post_z_bytecount_x_(a)
#define _Post_z_count_(a)
#define _Post_z_count_c_(a)
#define _Post_z_count_x_(a)
#define __postcond(a)
#define _Pre_
#define _Pre_accessible_bytes_(a, b)
#define _Pre_accessible_bytes_when_(a, b, c)
#define _Pre_bytecap_(a)
#define _Pre_bytecap_c_(a)
#define _Pre_bytecap_x_(a)
#define _Pre_bytecount_(a)
#define _Pre_bytecount_c_(a)
#define _Pre_bytecount_x_(a)
#define _Pre_cap_(a)
#define _Pre_cap_c_(a)
#define _Pre_cap_c_one_
#define _Pre_cap_for_(a)
#define _Pre_cap_m_(a, b)
#define _Pre_cap_x_(a)
#define _Pre_count_(a)
#define _Pre_count_c_(a)
#define _Pre_count_x_(a)
#define _Pre_defensive_
#define __pre_deref_except_maybenull
#define _Pre_equal_to_(a)
#define __pre_except_maybenull
#define _Pre_invalid_
#define _Pre_maybenull_
#define _Pre_notnull_
#define _Pre_null_
#define _Pre_opt_bytecap_(a)
#define _Pre_opt_bytecap_c_(a)
#define _Pre_opt_bytecap_x_(a)
#define _Pre_opt_bytecount_(a)
#define _Pre_opt_bytecount_c_(a)
#define _Pre_opt_bytecount_x_(a)
#define _Pre_opt_cap_(a)
#define _Pre_opt_cap_c_(a)
#define _Pre_opt_cap_c_one_
#define _Pre_opt_cap_for_(a)
#define _Pre_opt_cap_m_(a, b)
#define _Pre_opt_cap_x_(a)
#define _Pre_opt_count_(a)
#define _Pre_opt_count_c_(a)
#define _Pre_opt_count_x_(a)
#define _Pre_opt_ptrdiff_cap_(a)
#define _Pre_opt_ptrdiff_count_(a)
#define _Pre_opt_valid_
#define _Pre_opt_valid_bytecap_(a)
#define _Pre_opt_valid_bytecap_c_(a)
#define _Pre_opt_valid_bytecap_x_(a)
#define _Pre_opt_valid_cap_(a)
#define _Pre_opt_valid_cap_c_(a)
#define _Pre_opt_valid_cap_x_(a)
#define _Pre_opt_z_
#define _Pre_opt_z_bytecap_(a)
#define _Pre_opt_z_bytecap_c_(a)
#define _Pre_opt_z_bytecap_x_(a)
#define _Pre_opt_z_cap_(a)
#define _Pre_opt_z_cap_c_(a)
#define _Pre_opt_z_cap_x_(a)
#define _Pre_ptrdiff_cap_(a)
#define _Pre_ptrdiff_count_(a)
#define _Pre_readable_byte_size_(a)
#define _Pre_readable_size_(a)
#define _Pre_readonly_
#define _Pre_satisfies_(a)
#define _Pre_unknown_
#define _Pre_valid_
#define _Pre_valid_bytecap_(a)
#define _Pre_valid_bytecap_c_(a)
#define _Pre_valid_bytecap_x_(a)
#define _Pre_valid_cap_(a)
#define _Pre_valid_cap_c_(a)
#define _Pre_valid_cap_x_(a)
#define _Pre_writable_byte_size_(a)
#define _Pre_writable_size_(a)
#define _Pre_writeonly_
#define _Pre_z_
#define _Pre_z_bytecap_(a)
#define _Pre_z_bytecap_c_(a)
#define _Pre_z_bytecap_x_(a)
#define _Pre_z_cap_(a)
#define _Pre_z_cap_c_(a)
#define _Pre_z_cap_x_(a)
#define __precond(a)
#define __prefast_operator_new_null
#define __prefast_operator_new_throws
#define _Printf_format_string_
#define _Printf_format_string_params_(a)
#define _Raises_SEH_exception_
#define __range_max(a, b)
#define __range_min(a, b)
#define _Readable_bytes_(a)
#define _Readable_elements_(a)
#define __readableTo(a)
#define __readaccess_impl_notref
#define __readonly
#define _Reallocation_function_(a, b, c)
#define __refparam
#define _Releases_lock_(a)
#define _Requires_lock_held_(a)
#define _Reserved_
#define _Result_nullonfailure_
#define _Result_zeroonfailure_
#define _Ret_
#define _Ret_bound_
#define _Ret_bytecap_(a)
#define _Ret_bytecap_c_(a)
#define _Ret_bytecap_x_(a)
#define _Ret_bytecount_(a)
#define _Ret_bytecount_c_(a)
#define _Ret_bytecount_x_(a)
#define _Ret_cap_(a)
#define _Ret_cap_c_(a)
#define _Ret_cap_x_(a)
#define _Ret_count_(a)
#define _Ret_count_c_(a)
#define _Ret_count_x_(a)
#define _Ret_maybenull_
#define _Ret_maybenull_z_
#define _Ret_notnull_
#define _Ret_null_
#define _Ret_opt_
#define _Ret_opt_bytecap_(a)
#define _Ret_opt_bytecap_c_(a)
#define _Ret_opt_bytecap_x_(a)
#define _Ret_opt_bytecount_(a)
#define _Ret_opt_bytecount_c_(a)
#define _Ret_opt_bytecount_x_(a)
#define _Ret_opt_cap_(a)
#define _Ret_opt_cap_c_(a)
#define _Ret_opt_cap_x_(a)
#define _Ret_opt_count_(a)
#define _Ret_opt_count_c_(a)
#define _Ret_opt_count_x_(a)
#define _Ret_opt_valid_
#define _Ret_opt_z_
#define _Ret_opt_z_bytecap_(a)
#define _Ret_opt_z_bytecount_(a)
#define _Ret_opt_z_cap_(a)
#define _Ret_opt_z_count_(a)
#define _Ret_range_(a, b)
#define _Ret_reallocated_bytes_(a, b)
#define _Ret_valid_
#define _Ret_writes_(a)
#define _Ret_writes_bytes_(a)
#define _Ret_writes_bytes_maybenull_(a)
#define _Ret_writes_bytes_to_(a, b)
#define _Ret_writes_bytes_to_maybenull_(a, b)
#define _Ret_writes_maybenull_(a)
#define _Ret_writes_maybenull_z_(a)
#define _Ret_writes_to_(a, b)
#define _Ret_writes_to_maybenull_(a, b)
#define _Ret_writes_z_(a)
#define _Ret_z_
#define _Ret_z_bytecap_(a)
#define _Ret_z_bytecount_(a)
#define _Ret_z_cap_(a)
#define _Ret_z_count_(a)
#define _Return_type_success_(a)
#define __rpc_entry
#define _Scanf_format_string_
#define _Scanf_format_string_params_(a)
#define _Scanf_s_format_string_
#define _Scanf_s_format_string_params_(a)
#define __source_code_content(a)
#define __static_context(a, b)
#define _Strict_type_match_
#define __struct_bcount(a)
#define _Struct_size_bytes_(a)
#define __struct_xcount(a)
#define _Success_(a)
#define __this_out_data_source(a)
#define __this_out_validated(a)
#define __transfer(a)
#define _Translates_last_error_to_HRESULT_
#define _Translates_NTSTATUS_to_HRESULT_(a)
#define _Translates_Win32_to_HRESULT_(a)
#define __type_has_adt_prop(a, b)
#define __typefix(a)
#define _Unchanged_(a)
#define _Unreferenced_parameter_
#define _Use_decl_annotations_
#define __useHeader
#define _User_
#define _User_always_
#define _User_always_and_needs_probe_on_(a)
#define __user_code
#define __user_driver
#define _User_on_(a)
#define _Valid_
#define __valueUndefined
#define _When_(a, b)
#define _Writable_bytes_(a)
#define _Writable_elements_(a)
#define __writableTo(a)
#define __writeaccess_impl_notref
#define _Writes_and_advances_ptr_(a)
#define _Writes_bytes_and_advances_ptr_(a)
#define __xcount(a)
#define __xcount_opt(a)

#endif /* PETW_ETW_SAL_H */
#endif
