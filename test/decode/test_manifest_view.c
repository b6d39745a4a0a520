/* SPDX-License-Identifier: MIT */
/* test_manifest_view.c - petw/manifest.h, the public read-only view of a
 * parsed manifest: providers with their symbols, the keywords, tasks,
 * opcodes, levels, channels and maps they define, events with their template
 * ids, and template fields with their lengths, counts, structs and lines;
 * errors name the line. */
#include <petw/manifest.h>

#include "test_util.h"

/* The line numbers below count this text's lines from 1. */
static const char xml[] =
    "<?xml version=\"1.0\"?>\n"
    "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\"\n"
    " xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/events\">\n"
    "<instrumentation><events>\n"
    "<provider name=\"P-View\" guid=\"{01020304-0506-0708-090a-0b0c0d0e0f10}\""
    " symbol=\"PV\">\n"
    " <channels><channel chid=\"C\" name=\"P-View/Debug\" type=\"Debug\" "
    "symbol=\"CH_D\"/></channels>\n"
    " <levels><level name=\"L\" value=\"17\" symbol=\"LV\"/></levels>\n"
    " <keywords><keyword name=\"K\" mask=\"0x4\" symbol=\"KW\"/>\n"
    "  <keyword name=\"Bad\" mask=\"nope\" symbol=\"KW_BAD\"/></keywords>\n"
    " <tasks><task name=\"T\" value=\"9\" symbol=\"TK\">\n"
    "  <opcodes><opcode name=\"O\" value=\"12\" symbol=\"OP\"/></opcodes></task></tasks>\n"
    " <events>\n"
    "  <event value=\"2\" symbol=\"Two\" level=\"L\" task=\"T\" opcode=\"O\" keywords=\"K\"\n"
    "   channel=\"C\" template=\"Tm\"/>\n"
    "  <event value=\"1\" version=\"3\" symbol=\"One\"/>\n"
    " </events>\n"
    " <templates><template tid=\"Tm\">\n"
    "  <data name=\"N\" inType=\"win:UInt16\"/>\n"
    "  <data name=\"S\" inType=\"win:UnicodeString\" length=\"N\"/>\n"
    "  <struct name=\"St\" count=\"2\">\n"
    "   <data name=\"A\" inType=\"win:Int8\"/><data name=\"B\" inType=\"win:GUID\"/>\n"
    "  </struct>\n"
    "  <data name=\"Z\" inType=\"win:Double\" count=\"N\" outType=\"xs:double\"/>\n"
    " </template></templates>\n"
    " <maps><valueMap name=\"VM\" symbol=\"VS\"><map value=\"1\" symbol=\"A1\"/>\n"
    "  <map value=\"2\"/></valueMap><bitMap name=\"BM\"><map value=\"0x4\" symbol=\"B4\"/></bitMap>"
    "</maps>\n"
    "</provider></events></instrumentation></instrumentationManifest>\n";

int main(void)
{
    petw_manifest *m;
    char err[256];
    CHECK_EQ(petw_manifest_parse(xml, strlen(xml), &m, err, sizeof(err)), 0);
    CHECK_EQ(petw_manifest_provider_count(m), 1);
    petw_manifest_provider p;
    CHECK_EQ(petw_manifest_get_provider(m, 0, &p), 0);
    CHECK(!strcmp(p.name, "P-View") && !strcmp(p.symbol, "PV"));
    CHECK_EQ(p.guid.data1, 0x01020304);
    CHECK_EQ(p.line, 5);
    CHECK_EQ(p.event_count, 2);
    CHECK_EQ(p.item_count, 11);
    CHECK_EQ(petw_manifest_get_provider(m, 1, &p), PETW_EINVAL);

    /* Items: tasks, opcodes, levels, keywords, channels. */
    static const struct {
        uint32_t kind;
        const char *symbol;
        uint64_t value;
        uint32_t line, task;
        int valid;
    } want[] = {
        {PETW_MANIFEST_TASK, "TK", 9, 10, PETW_MANIFEST_ANY_TASK, 1},
        {PETW_MANIFEST_OPCODE, "OP", 12, 11, 9, 1},
        {PETW_MANIFEST_LEVEL, "LV", 17, 7, PETW_MANIFEST_ANY_TASK, 1},
        {PETW_MANIFEST_KEYWORD, "KW", 4, 8, PETW_MANIFEST_ANY_TASK, 1},
        {PETW_MANIFEST_KEYWORD, "KW_BAD", 0, 9, PETW_MANIFEST_ANY_TASK, 0},
        {PETW_MANIFEST_CHANNEL, "CH_D", 16, 6, PETW_MANIFEST_ANY_TASK, 1},
    };
    for (uint32_t i = 0; i < 6; i++) {
        petw_manifest_item it;
        CHECK_EQ(petw_manifest_get_item(m, 0, i, &it), 0);
        CHECK_EQ(it.kind, want[i].kind);
        CHECK(!strcmp(it.symbol, want[i].symbol));
        CHECK_EQ(it.line, want[i].line);
        CHECK_EQ(it.valid, want[i].valid);
        CHECK_EQ(it.task, want[i].task);
        if (it.valid)
            CHECK_EQ(it.value, want[i].value);
    }
    /* Then each map, followed by its entries. */
    static const struct {
        uint32_t kind;
        const char *name, *symbol;
        uint64_t value;
        uint32_t line;
    } maps[] = {
        {PETW_MANIFEST_MAP, "VM", "VS", 0, 25},     {PETW_MANIFEST_MAP_ENTRY, "", "A1", 1, 25},
        {PETW_MANIFEST_MAP_ENTRY, "", NULL, 2, 26}, {PETW_MANIFEST_MAP, "BM", NULL, 1, 26},
        {PETW_MANIFEST_MAP_ENTRY, "", "B4", 4, 26},
    };
    for (uint32_t i = 0; i < 5; i++) {
        petw_manifest_item it;
        CHECK_EQ(petw_manifest_get_item(m, 0, 6 + i, &it), 0);
        CHECK_EQ(it.kind, maps[i].kind);
        CHECK(!strcmp(it.name, maps[i].name));
        CHECK(maps[i].symbol ? it.symbol && !strcmp(it.symbol, maps[i].symbol) : !it.symbol);
        CHECK_EQ(it.value, maps[i].value);
        CHECK_EQ(it.line, maps[i].line);
        CHECK_EQ(it.valid, 1);
    }
    CHECK_EQ(petw_manifest_get_item(m, 0, 11, NULL), PETW_EINVAL);

    /* Events, sorted by id. */
    petw_manifest_event e;
    CHECK_EQ(petw_manifest_get_event(m, 0, 0, &e), 0);
    CHECK(e.id == 1 && e.version == 3 && !strcmp(e.symbol, "One") && e.template_id == NULL);
    CHECK_EQ(e.field_count, 0);
    CHECK_EQ(e.line, 15);
    CHECK_EQ(petw_manifest_get_event(m, 0, 1, &e), 0);
    CHECK(e.id == 2 && !strcmp(e.symbol, "Two") && !strcmp(e.template_id, "Tm"));
    CHECK(e.level == 17 && e.task == 9 && e.opcode == 12 && e.keywords == 4 && e.channel == 16);
    CHECK_EQ(e.field_count, 6);
    CHECK_EQ(e.top_count, 4);
    CHECK_EQ(e.line, 13);

    petw_manifest_field f;
    CHECK_EQ(petw_manifest_get_field(m, 0, 1, 1, &f), 0);
    CHECK(!strcmp(f.name, "S") && f.in_type == PETW_IN_UNICODESTRING);
    CHECK(f.flags == PETW_MANIFEST_FIELD_LENGTH_REF && f.length == 0 && f.line == 19);
    CHECK(f.parent == UINT32_MAX && f.next == 2);
    CHECK_EQ(petw_manifest_get_field(m, 0, 1, 2, &f), 0);
    CHECK(f.in_type == PETW_IN_STRUCT && f.members == 2 && f.next == 5);
    CHECK(f.flags == (PETW_MANIFEST_FIELD_STRUCT | PETW_MANIFEST_FIELD_COUNT) && f.count == 2);
    CHECK_EQ(petw_manifest_get_field(m, 0, 1, 4, &f), 0);
    CHECK(!strcmp(f.name, "B") && f.parent == 2 && f.line == 21);
    CHECK_EQ(petw_manifest_get_field(m, 0, 1, 5, &f), 0);
    CHECK(f.flags == PETW_MANIFEST_FIELD_COUNT_REF && f.count == 0 && f.parent == UINT32_MAX);
    CHECK_EQ(petw_manifest_get_field(m, 0, 1, 6, &f), PETW_EINVAL);
    CHECK_EQ(petw_manifest_get_field(m, 0, 0, 0, &f), PETW_EINVAL);
    petw_manifest_free(m);
    petw_manifest_free(NULL);

    /* An error names the line. */
    static char bad[sizeof(xml) + 16];
    snprintf(bad, sizeof(bad), "%s", xml);
    char *at = strstr(bad, "win:GUID");
    memcpy(at, "win:GUIX", 8);
    CHECK_EQ(petw_manifest_parse(bad, strlen(bad), &m, err, sizeof(err)), PETW_ECORRUPT);
    CHECK(m == NULL);
    CHECK(strstr(err, "line 21:") != NULL);
    CHECK_EQ(petw_manifest_parse(NULL, 1, &m, err, sizeof(err)), PETW_EINVAL);
    printf("ok\n");
    return 0;
}
