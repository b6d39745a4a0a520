/* SPDX-License-Identifier: MIT */
/* gen_hostile_strings FILE: records, through a native file session
 * (petw_session_start), TraceLogging events whose text is hostile to the
 * writers of `petw dump` and `petw convert`: strings of 10,000 bytes and
 * around 1 KiB, invalid UTF-8, quotes, backslashes, commas, CR/LF and
 * control characters, in values and in provider, event and field names
 * (long ones too), plus a 10,000-byte binary field.
 *
 * Prints on stdout a JSON manifest of what it wrote, every name and string
 * as the hex of its bytes (test/cli/tool_output.sh compares petw's output with
 * it):
 *   {"provider": HEX, "events": [{"name": HEX, "fields": [FIELD...]}...]}
 * where FIELD is [NAME_HEX, "s", VALUE_HEX] (a string), [NAME_HEX, "x",
 * HEX] (binary, shown as that hex), [NAME_HEX, "i", N] or
 * [NAME_HEX, "o", [FIELD...]] (a struct). */
#include <TraceLoggingProvider.h>
#include <petw/petw.h>
#include <stdio.h>
#include <string.h>

/* Each hex escape ends its literal: a following hex digit would join it. */
#define HOSTILE                                                                                    \
    "q\"c,n\nr\rt\tb\\ nul-ish\x01"                                                                \
    "\x1f"                                                                                         \
    "\x7f"                                                                                         \
    " bad:\x80"                                                                                    \
    "\xc0\xaf"                                                                                     \
    "\xe2\x82"                                                                                     \
    "\xed\xa0\x80"                                                                                 \
    "\xf4\x90\x80\x80"                                                                             \
    "\xff"                                                                                         \
    "\xfe"                                                                                         \
    " trunc\xf0\x9f\x98"                                                                           \
    " ok:\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"                                                     \
    " end"
#define X4(s) s s s s
#define X10(s) s s s s s s s s s s

#define PROVIDER_NAME "Hostile," HOSTILE X10(X10("Provider.Name."))
TRACELOGGING_DEFINE_PROVIDER(g_hostile, PROVIDER_NAME,
                             (0x0badf00d, 0x7e57, 0x4a11, 0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
                              0x07));

#define EV_LONG "E1 long " X4(X10(X10("EventName.")))
#define EV_BOUNDARY "E2 boundary"
#define EV_NAMES "E3 names," HOSTILE
#define EV_BINARY "E4 binary"
#define FIELD_LONG "field," HOSTILE X10(X10("FieldName."))
#define STRUCT_NAME "struct\"" HOSTILE
#define MEMBER_NAME "member\n"

static char text10000[10001], hostile10000[10001];
static char boundary[8][1100]; /* around the old writer's 1,024-byte line */
static const size_t boundary_len[8] = {1000, 1014, 1015, 1016, 1017, 1023, 1024, 1025};
static unsigned char bin10000[10000];

static void hex(const void *p, size_t n)
{
    const unsigned char *b = p;
    putchar('"');
    for (size_t i = 0; i < n; i++)
        printf("%02x", b[i]);
    putchar('"');
}

static void field_s(const char *name, const char *value, int last)
{
    putchar('[');
    hex(name, strlen(name));
    fputs(",\"s\",", stdout);
    hex(value, strlen(value));
    fputs(last ? "]" : "],", stdout);
}

static void fill_strings(void)
{
    /* Hostile text repeated, cut at 10,000 bytes (maybe inside a sequence). */
    size_t k = strlen(HOSTILE);
    for (size_t i = 0; i < 10000; i++)
        hostile10000[i] = HOSTILE[i % k];
    for (size_t i = 0; i < 10000; i++)
        text10000[i] = (char)('a' + i % 26);
    for (int b = 0; b < 8; b++) {
        memset(boundary[b], 'x', boundary_len[b]);
        /* A multi-byte character and a quote at the old cut point. */
        memcpy(boundary[b] + 1010, "\xc3\xa9\"", 3);
    }
    for (size_t i = 0; i < sizeof(bin10000); i++)
        bin10000[i] = (unsigned char)(i * 7);
}

static void write_long(void)
{
    TraceLoggingWrite(g_hostile, EV_LONG, TraceLoggingUtf8String(text10000, "text10000"),
                      TraceLoggingString(hostile10000, "hostile10000"),
                      TraceLoggingUtf8String(HOSTILE, "hostile"));
    fputs("{\"name\":", stdout);
    hex(EV_LONG, strlen(EV_LONG));
    fputs(",\"fields\":[", stdout);
    field_s("text10000", text10000, 0);
    field_s("hostile10000", hostile10000, 0);
    field_s("hostile", HOSTILE, 1);
    fputs("]},\n", stdout);
}

static void write_boundary(void)
{
    TraceLoggingWrite(
        g_hostile, EV_BOUNDARY, TraceLoggingUtf8String(boundary[0], "b1000"),
        TraceLoggingUtf8String(boundary[1], "b1014"), TraceLoggingUtf8String(boundary[2], "b1015"),
        TraceLoggingUtf8String(boundary[3], "b1016"), TraceLoggingUtf8String(boundary[4], "b1017"),
        TraceLoggingUtf8String(boundary[5], "b1023"), TraceLoggingUtf8String(boundary[6], "b1024"),
        TraceLoggingUtf8String(boundary[7], "b1025"));
    static const char *names[8] = {"b1000", "b1014", "b1015", "b1016",
                                   "b1017", "b1023", "b1024", "b1025"};
    fputs("{\"name\":", stdout);
    hex(EV_BOUNDARY, strlen(EV_BOUNDARY));
    fputs(",\"fields\":[", stdout);
    for (int b = 0; b < 8; b++)
        field_s(names[b], boundary[b], b == 7);
    fputs("]},\n", stdout);
}

static void write_names(void)
{
    TraceLoggingWrite(g_hostile, EV_NAMES, TraceLoggingInt32(-7, FIELD_LONG),
                      TraceLoggingStruct(2, STRUCT_NAME), TraceLoggingString(HOSTILE, MEMBER_NAME),
                      TraceLoggingUInt16(9, "n"));
    fputs("{\"name\":", stdout);
    hex(EV_NAMES, strlen(EV_NAMES));
    fputs(",\"fields\":[[", stdout);
    hex(FIELD_LONG, strlen(FIELD_LONG));
    fputs(",\"i\",-7],[", stdout);
    hex(STRUCT_NAME, strlen(STRUCT_NAME));
    fputs(",\"o\",[", stdout);
    field_s(MEMBER_NAME, HOSTILE, 0);
    fputs("[\"6e\",\"i\",9]]]]},\n", stdout);
}

static void write_binary(void)
{
    TraceLoggingWrite(g_hostile, EV_BINARY, TraceLoggingBinary(bin10000, sizeof(bin10000), "bin"));
    fputs("{\"name\":", stdout);
    hex(EV_BINARY, strlen(EV_BINARY));
    fputs(",\"fields\":[[\"62696e\",\"x\",", stdout);
    hex(bin10000, sizeof(bin10000));
    fputs("]]}\n", stdout);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_hostile_strings FILE\n");
        return 2;
    }
    fill_strings();
    petw_session_config cfg;
    petw_session_config_init(&cfg);
    cfg.name = "petw-test-hostile-strings";
    cfg.file_path = argv[1];
    petw_session_handle s;
    int rc = petw_session_start(&cfg, &s);
    if (rc) {
        fprintf(stderr, "gen_hostile_strings: %s: %s\n", argv[1], petw_strerror(rc));
        return 1;
    }
    petw_guid id;
    memcpy(&id, TraceLoggingProviderId(g_hostile), sizeof(id));
    if (petw_session_enable_provider(s, &id, 0, 0, 0) != 0 ||
        TraceLoggingRegister(g_hostile) != 0) {
        fprintf(stderr, "gen_hostile_strings: cannot enable the provider\n");
        return 1;
    }
    fputs("{\"provider\":", stdout);
    hex(PROVIDER_NAME, strlen(PROVIDER_NAME));
    fputs(",\"events\":[\n", stdout);
    write_long();
    write_boundary();
    write_names();
    write_binary();
    fputs("]}\n", stdout);
    TraceLoggingUnregister(g_hostile);
    petw_session_stats st;
    if (petw_session_stop(s, &st) != 0 || st.events_lost != 0) {
        fprintf(stderr, "gen_hostile_strings: stopping the session failed or lost events\n");
        return 1;
    }
    return 0;
}
