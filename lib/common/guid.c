/* guid.c - GUID text form. */
#include <stdio.h>

#include "common.h"

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int petw_guid_parse(const char *text, petw_guid *out)
{
    static const int dash_at[] = {8, 13, 18, 23};
    uint8_t nib[32];
    size_t n = 0, i, len;
    int braced;

    PETW__RETURN_IF(text == NULL || out == NULL, PETW_EINVAL);
    len = strlen(text);
    braced = len == 38 && text[0] == '{' && text[37] == '}';
    if (braced) {
        text++;
        len = 36;
    }
    PETW__RETURN_IF(len != 36, PETW_EINVAL);
    for (i = 0; i < 36; i++) {
        int is_dash_pos = i == 8 || i == 13 || i == 18 || i == 23;
        if (is_dash_pos) {
            PETW__RETURN_IF(text[i] != '-', PETW_EINVAL);
            continue;
        }
        int v = hexval(text[i]);
        PETW__RETURN_IF(v < 0, PETW_EINVAL);
        nib[n++] = (uint8_t)v;
    }
    (void)dash_at;
    out->data1 = 0;
    for (i = 0; i < 8; i++)
        out->data1 = (out->data1 << 4) | nib[i];
    out->data2 = 0;
    for (i = 8; i < 12; i++)
        out->data2 = (uint16_t)((out->data2 << 4) | nib[i]);
    out->data3 = 0;
    for (i = 12; i < 16; i++)
        out->data3 = (uint16_t)((out->data3 << 4) | nib[i]);
    for (i = 0; i < 8; i++)
        out->data4[i] = (uint8_t)((nib[16 + 2 * i] << 4) | nib[17 + 2 * i]);
    return 0;
}

void petw_guid_format(const petw_guid *g, char out[37])
{
    snprintf(out, 37, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", (unsigned)g->data1,
             g->data2, g->data3, g->data4[0], g->data4[1], g->data4[2], g->data4[3], g->data4[4],
             g->data4[5], g->data4[6], g->data4[7]);
}

int petw_guid_equal(const petw_guid *a, const petw_guid *b)
{
    return memcmp(a, b, sizeof(*a)) == 0;
}
