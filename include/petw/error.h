/* SPDX-License-Identifier: MIT */
/* petw/error.h - error codes of the native API.
 *
 * Every native function that can fail returns 0 on success or a negative
 * PETW_E* code. The ETW-compatible surface (<evntprov.h>, <evntrace.h>, ...)
 * translates these codes into the Win32 codes ETW returns; see
 * petw_error_to_win32().
 */
#ifndef PETW_ERROR_H
#define PETW_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/* X(name, value, message, win32 code) */
#define PETW_ERRNO_MAP(X)                                                                          \
    X(EINVAL, -1, "invalid argument", 87 /* ERROR_INVALID_PARAMETER */)                            \
    X(EBADHANDLE, -2, "invalid, stale or unregistered handle", 6 /* ERROR_INVALID_HANDLE */)       \
    X(ETOOBIG, -3, "event larger than the 64 KB record limit",                                     \
      534 /* ERROR_ARITHMETIC_OVERFLOW */)                                                         \
    X(EMOREDATA, -4, "event larger than the session's buffer", 234 /* ERROR_MORE_DATA */)          \
    X(ENOBUFS, -5, "no free buffer: event lost", 8 /* ERROR_NOT_ENOUGH_MEMORY */)                  \
    X(ENOMEM, -6, "out of memory", 14 /* ERROR_OUTOFMEMORY */)                                     \
    X(EEXIST, -7, "a session with that name already exists", 183 /* ERROR_ALREADY_EXISTS */)       \
    X(ENOTFOUND, -8, "no such session", 4201 /* ERROR_WMI_INSTANCE_NOT_FOUND */)                   \
    X(EBADLENGTH, -9, "buffer length does not fit the data", 24 /* ERROR_BAD_LENGTH */)            \
    X(ELIMIT, -10, "too many sessions or providers", 1450 /* ERROR_NO_SYSTEM_RESOURCES */)         \
    X(EIO, -11, "input/output error", 29 /* ERROR_WRITE_FAULT */)                                  \
    X(ENOENT, -12, "no such file", 2 /* ERROR_FILE_NOT_FOUND */)                                   \
    X(EACCES, -13, "permission denied", 5 /* ERROR_ACCESS_DENIED */)                               \
    X(ECORRUPT, -14, "corrupt trace data", 1392 /* ERROR_FILE_CORRUPT */)                          \
    X(ENOTSUP, -15, "operation or mode not supported", 50 /* ERROR_NOT_SUPPORTED */)               \
    X(ECANCELED, -16, "processing canceled by the callback", 1223 /* ERROR_CANCELLED */)           \
    X(EBUSY, -17, "resource busy", 170 /* ERROR_BUSY */)                                           \
    X(ENOSPC, -18, "disk full", 112 /* ERROR_DISK_FULL */)                                         \
    X(ENAMETOOLONG, -19, "name or path too long", 161 /* ERROR_BAD_PATHNAME */)                    \
    X(ENOTREG, -20, "not a regular file (a directory, FIFO or device)",                            \
      222 /* ERROR_BAD_FILE_TYPE */)                                                               \
    X(ETIMEDOUT, -21, "timed out", 1460 /* ERROR_TIMEOUT */)                                       \
    X(EPIPE, -22, "the other process is gone", 109 /* ERROR_BROKEN_PIPE */)                        \
    X(ENOHOST, -23, "the session host could not be started or reached",                            \
      1067 /* ERROR_PROCESS_ABORTED */)

typedef enum petw_errno {
#define PETW__ERRNO_ENUM(name, value, msg, win32) PETW_##name = value,
    PETW_ERRNO_MAP(PETW__ERRNO_ENUM)
#undef PETW__ERRNO_ENUM
        PETW_ERRNO_MAX = -24
} petw_errno;

/* Human-readable message for a PETW_E* code (or "success" for 0). Never NULL. */
const char *petw_strerror(int err);

/* The code's name, e.g. "PETW_EINVAL". Never NULL. */
const char *petw_err_name(int err);

/* The Win32 error code ETW returns for a PETW_E* code (0 for 0). */
unsigned long petw_error_to_win32(int err);

#ifdef __cplusplus
}
#endif
#endif /* PETW_ERROR_H */
