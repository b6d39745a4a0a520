/* SPDX-License-Identifier: MIT */
/* error.c - PETW_E* messages and Win32 mapping, from the one X-macro list. */
#include "common.h"

const char *petw_strerror(int err)
{
    switch (err) {
    case 0:
        return "success";
#define PETW__ERRNO_MSG(name, value, msg, win32)                                                   \
    case value:                                                                                    \
        return msg;
        PETW_ERRNO_MAP(PETW__ERRNO_MSG)
#undef PETW__ERRNO_MSG
    default:
        return "unknown error";
    }
}

const char *petw_err_name(int err)
{
    switch (err) {
    case 0:
        return "PETW_OK";
#define PETW__ERRNO_NAME(name, value, msg, win32)                                                  \
    case value:                                                                                    \
        return "PETW_" #name;
        PETW_ERRNO_MAP(PETW__ERRNO_NAME)
#undef PETW__ERRNO_NAME
    default:
        return "PETW_EUNKNOWN";
    }
}

unsigned long petw_error_to_win32(int err)
{
    switch (err) {
    case 0:
        return 0;
#define PETW__ERRNO_WIN32(name, value, msg, win32)                                                 \
    case value:                                                                                    \
        return win32;
        PETW_ERRNO_MAP(PETW__ERRNO_WIN32)
#undef PETW__ERRNO_WIN32
    default:
        return 1627; /* ERROR_FUNCTION_FAILED */
    }
}
