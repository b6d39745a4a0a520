/* SPDX-License-Identifier: MIT */
/* sal/general.h - SAL's other new-style annotations: structures and fields,
 * functions and their success, format strings, analysis hints.
 *
 * A chapter of <sal.h>, which includes it; not a header of its own. Each name
 * is an empty macro with the SDK's number of arguments. */
#ifndef PETW_ETW_SAL_GENERAL_H
#define PETW_ETW_SAL_GENERAL_H

#ifndef PETW_ETW_SAL_H
#error "include <sal.h>, not its parts"
#endif

#define _Accessible_bytes_(a, b)
#define _Accessible_bytes_when_(a, b, c)
#define _Always_(a)
#define _Analysis_assume_(a)
#define _Analysis_assume_nullterminated_(a)
#define _Analysis_mode_(a)
#define _Analysis_noreturn_
#define _At_(a, b)
#define _At_buffer_(a, b, c, d)
#define _Called_from_function_class_(a)
#define _Check_return_
#define _COM_Outptr_
#define _COM_Outptr_opt_
#define _COM_Outptr_opt_result_maybenull_
#define _COM_Outptr_result_maybenull_
#define _Const_
#define _Enum_is_bitflag_
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
#define _Field_z_
#define _Frees_ptr_
#define _Frees_ptr_opt_
#define _Function_class_(a)
#define _Landmark_(a)
#define _Literal_
#define _Maybe_raises_SEH_exception_
#define _Maybenull_
#define _Maybevalid_
#define _Memory_origin_(a)
#define _Memory_origin_when_(a, b)
#define _Must_inspect_result_
#define _Notliteral_
#define _Notnull_
#define _Notref_
#define _Notvalid_
#define _Null_
#define _Null_terminated_
#define _NullNull_terminated_
#define _On_failure_(a)
#define _Points_to_data_
#define _Printf_format_string_
#define _Printf_format_string_params_(a)
#define _Raises_SEH_exception_
#define _Readable_bytes_(a)
#define _Readable_elements_(a)
#define _Reallocation_function_(a, b, c)
#define _Reserved_
#define _Result_nullonfailure_
#define _Result_zeroonfailure_
#define _Return_type_success_(a)
#define _Scanf_format_string_
#define _Scanf_format_string_params_(a)
#define _Scanf_s_format_string_
#define _Scanf_s_format_string_params_(a)
#define _Strict_type_match_
#define _Struct_size_bytes_(a)
#define _Success_(a)
#define _Translates_last_error_to_HRESULT_
#define _Translates_NTSTATUS_to_HRESULT_(a)
#define _Translates_Win32_to_HRESULT_(a)
#define _Unchanged_(a)
#define _Unreferenced_parameter_
#define _Use_decl_annotations_
#define _User_
#define _User_always_
#define _User_always_and_needs_probe_on_(a)
#define _User_on_(a)
#define _Valid_
#define _When_(a, b)
#define _Writable_bytes_(a)
#define _Writable_elements_(a)
#define _Writes_and_advances_ptr_(a)
#define _Writes_bytes_and_advances_ptr_(a)

#endif /* PETW_ETW_SAL_GENERAL_H */
