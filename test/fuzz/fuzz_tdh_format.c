/* SPDX-License-Identifier: MIT */
/* libFuzzer target: TdhFormatProperty, which parses event payload bytes.
 * The first bytes pick the in-type, out-type and binary length; the rest is
 * UserData. It must format or refuse without reading past UserDataLength,
 * and never claim to have consumed more than it was given. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tdh.h>

static const USHORT in_types[] = {TDH_INTYPE_UNICODESTRING,
                                  TDH_INTYPE_ANSISTRING,
                                  TDH_INTYPE_INT8,
                                  TDH_INTYPE_UINT8,
                                  TDH_INTYPE_INT16,
                                  TDH_INTYPE_UINT16,
                                  TDH_INTYPE_INT32,
                                  TDH_INTYPE_UINT32,
                                  TDH_INTYPE_INT64,
                                  TDH_INTYPE_UINT64,
                                  TDH_INTYPE_FLOAT,
                                  TDH_INTYPE_DOUBLE,
                                  TDH_INTYPE_BOOLEAN,
                                  TDH_INTYPE_BINARY,
                                  TDH_INTYPE_GUID,
                                  TDH_INTYPE_POINTER,
                                  TDH_INTYPE_FILETIME,
                                  TDH_INTYPE_SYSTEMTIME,
                                  TDH_INTYPE_HEXINT32,
                                  TDH_INTYPE_HEXINT64,
                                  TDH_INTYPE_COUNTEDSTRING,
                                  TDH_INTYPE_COUNTEDANSISTRING,
                                  TDH_INTYPE_SID};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    USHORT in = in_types[data[0] % (sizeof(in_types) / sizeof(in_types[0]))];
    USHORT out = (USHORT)(data[1] % 40), len = data[2];
    ULONG pointer_size = (data[0] & 0x80) ? 4 : 8;
    data += 3;
    size -= 3;
    if (size > 65535)
        size = 65535;
    /* A private copy, exactly `size` long, so ASan sees any over-read. */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    static WCHAR text[70000 * 3];
    ULONG bytes = sizeof(text);
    USHORT consumed = 0;
    ULONG rc = TdhFormatProperty(NULL, NULL, pointer_size, in, out, len, (USHORT)size, copy, &bytes,
                                 text, &consumed);
    free(copy);
    if (rc == ERROR_SUCCESS && consumed > size)
        __builtin_trap();
    return 0;
}
