/* SPDX-License-Identifier: MIT */
/* The header's TIME_ZONE_INFORMATION says what Windows says of the same
 * zone: for zones set through TZ, the bias, both names, both biases and
 * both yearly change dates come out as Windows' own files carry them (New
 * York and Helsinki as in the Windows samples), in both hemispheres, with
 * a half-hour daylight shift, and without daylight time. */
#include "test_util.h"

#define LH_TIME_ZONE (0x48 + 0x20 + 0x48) /* buffer header, SYSTEM header, 64-bit layout */

typedef struct zone {
    const char *tz;
    int32_t bias, daylight_bias;
    const char *standard_name, *daylight_name;
    /* SYSTEMTIME: year, month, day of week, week of month (5: last),
     * hour, minute, second, ms */
    uint16_t standard_date[8], daylight_date[8];
} zone;

static const zone zones[] = {
    {"EST5EDT,M3.2.0,M11.1.0", 300, -60, "EST", "EDT", {0, 11, 0, 1, 2}, {0, 3, 0, 2, 2}},
    {"EET-2EEST,M3.5.0/3,M10.5.0/4", -120, -60, "EET", "EEST", {0, 10, 0, 5, 4}, {0, 3, 0, 5, 3}},
    {"AEST-10AEDT,M10.1.0,M4.1.0/3", -600, -60, "AEST", "AEDT", {0, 4, 0, 1, 3}, {0, 10, 0, 1, 2}},
    /* Lord Howe Island: daylight time half an hour ahead. */
    {"LHS-10:30LHD-11,M10.1.0,M4.1.0", -630, -30, "LHS", "LHD", {0, 4, 0, 1, 2}, {0, 10, 0, 1, 2}},
    /* Ireland's form: the winter flagged as daylight time, one hour behind
     * the summer; Windows states it the other way round. */
    {"IST-1GMT0,M10.5.0,M3.5.0/1", 0, -60, "GMT", "IST", {0, 10, 0, 5, 2}, {0, 3, 0, 5, 1}},
    {"IST-5:30", -330, 0, "IST", "IST", {0}, {0}},
    {"UTC0", 0, 0, "UTC", "UTC", {0}, {0}},
};

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static int32_t rd32s(const uint8_t *p)
{
    return (int32_t)((uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16);
}

static void check_name(const uint8_t *p, const char *want, const char *tz)
{
    size_t n = strlen(want);
    for (size_t i = 0; i <= n; i++)
        if (rd16(p + 2 * i) != (uint8_t)want[i]) {
            fprintf(stderr, "TZ=%s: name differs from %s at %zu\n", tz, want, i);
            exit(1);
        }
}

static void check_zone(const zone *z)
{
    char path[512];
    test_path(path, sizeof(path), "tz.etl");
    CHECK_EQ(setenv("TZ", z->tz, 1), 0);
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-test-header-tz";
    c.file_path = path;
    petw_session_handle s;
    CHECK_EQ(petw_session_start(&c, &s), 0);
    CHECK_EQ(petw_session_stop(s, NULL), 0);

    static uint8_t buf[4096];
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    CHECK_EQ(fread(buf, 1, sizeof(buf), f), sizeof(buf));
    fclose(f);
    unlink(path);
    const uint8_t *tz = buf + LH_TIME_ZONE;
    printf("TZ=%s\n", z->tz); /* which zone a failed check below is about */
    CHECK_EQ(rd32s(tz), z->bias);
    check_name(tz + 0x04, z->standard_name, z->tz);
    for (int i = 0; i < 8; i++)
        CHECK_EQ(rd16(tz + 0x44 + 2 * i), z->standard_date[i]);
    CHECK_EQ(rd32s(tz + 0x54), 0); /* StandardBias */
    check_name(tz + 0x58, z->daylight_name, z->tz);
    for (int i = 0; i < 8; i++)
        CHECK_EQ(rd16(tz + 0x98 + 2 * i), z->daylight_date[i]);
    CHECK_EQ(rd32s(tz + 0xA8), z->daylight_bias);
}

int main(void)
{
    for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]); i++)
        check_zone(&zones[i]);
    printf("header_time_zone: %zu zones as Windows states them\n",
           sizeof(zones) / sizeof(zones[0]));
    return 0;
}
