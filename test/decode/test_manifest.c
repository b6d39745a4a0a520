/* SPDX-License-Identifier: MIT */
/* Instrumentation manifests: a manifest read from XML decodes the events it
 * describes (names, every kind of field layout, value and bit maps, the
 * message with its inserts); names are resolved wherever they appear in
 * the file; malformed manifests are refused with the line and the reason;
 * a payload shorter than its template is an error for that event. */
#include "test_util.h"

static const petw_guid demo = {
    0x1b4e3f2a, 0x8c2d, 0x4f0e, {0x9a, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77}};

/* Events come before the tasks, maps and templates they name, as in most
 * real manifests; the string table comes last. */
static const char manifest[] =
    "<?xml version='1.0' encoding='utf-8'?>\n"
    "<instrumentationManifest xmlns='http://schemas.microsoft.com/win/2004/08/events'\n"
    "    xmlns:win='http://manifests.microsoft.com/win/2004/08/windows/events'>\n"
    " <instrumentation><events>\n"
    "  <provider name='Demo-Provider' guid='{1b4e3f2a-8c2d-4f0e-9a11-223344556677}'\n"
    "      symbol='DEMO' message='$(string.Provider)'>\n"
    "   <events>\n"
    "    <event value='1' version='0' level='win:Informational' task='Copy' opcode='win:Start'\n"
    "        keywords='Io Net' template='CopyStart' symbol='CopyStart' message='$(string.Copy)'/>\n"
    "    <event value='1' version='1' level='Chatty' task='Copy' opcode='Retry' "
    "symbol='CopyRetry'/>\n"
    "    <event value='2' level='win:Error' template='Shapes' symbol='Shapes'/>\n"
    "    <event value='3' level='win:Always' channel='c1' symbol='Always'/>\n"
    "   </events>\n"
    "   <levels><level name='Chatty' value='16' message='$(string.Chatty)'/></levels>\n"
    /* Not a level, nor keywords: a channel's publishing settings. */
    "   <channels><channel chid='c1' name='Demo/Operational' type='Operational'>\n"
    "     <publishing><level>2</level><keywords>0x1</keywords></publishing></channel>\n"
    "   </channels>\n"
    "   <tasks><task name='Copy' value='7' message='$(string.CopyTask)'>\n"
    "     <opcodes><opcode name='Retry' value='11'/></opcodes></task></tasks>\n"
    "   <keywords><keyword name='Io' mask='0x1'/><keyword name='Net' mask='0x20'/></keywords>\n"
    "   <maps>\n"
    "    <valueMap name='Mode'><map value='0' message='$(string.Fast)'/>\n"
    "      <map value='1' message='$(string.Safe)'/></valueMap>\n"
    "    <bitMap name='Flags'><map value='0x1' message='$(string.Read)'/>\n"
    "      <map value='0x4' message='$(string.Write)'/></bitMap>\n"
    "   </maps>\n"
    "   <templates>\n"
    "    <template tid='CopyStart'>\n"
    "     <data name='Path' inType='win:UnicodeString'/>\n"
    "     <data name='Size' inType='win:UInt64'/>\n"
    "     <data name='Mode' inType='win:UInt32' map='Mode'/>\n"
    "     <data name='Flags' inType='win:UInt32' map='Flags'/>\n"
    "     <data name='Ok' inType='win:Boolean'/>\n"
    "     <data name='Id' inType='win:GUID'/>\n"
    "    </template>\n"
    "    <template tid='Shapes'>\n"
    "     <data name='Tag' inType='win:AnsiString' length='4'/>\n"
    "     <data name='N' inType='win:UInt16'/>\n"
    "     <data name='Values' inType='win:Int32' count='N'/>\n"
    "     <data name='Len' inType='win:UInt8'/>\n"
    "     <data name='Blob' inType='win:Binary' length='Len'/>\n"
    "     <struct name='Points' count='2'>\n"
    "      <data name='X' inType='win:Int16'/>\n"
    "      <data name='Y' inType='win:Int16'/>\n"
    "     </struct>\n"
    "     <data name='Err' inType='win:UInt32' outType='win:HexInt32'/>\n"
    "    </template>\n"
    "   </templates>\n"
    "  </provider>\n"
    " </events>\n"
    /* Performance counters: their <provider> is not an event provider. */
    " <counters xmlns='http://schemas.microsoft.com/win/2005/12/counters'>\n"
    "  <provider providerGuid='{1b4e3f2a-8c2d-4f0e-9a11-000000000000}' providerType='userMode'>\n"
    "   <counterSet guid='{1b4e3f2a-8c2d-4f0e-9a11-000000000001}' name='Set'/></provider>\n"
    " </counters></instrumentation>\n"
    " <localization><resources culture='de-DE'><stringTable>\n"
    "   <string id='Copy' value='Kopiere %1'/></stringTable></resources>\n"
    "  <resources culture='en-US'><stringTable>\n"
    "   <string id='Provider' value='Demo provider'/>\n"
    "   <string id='Copy' value='Copying %1 (%2!I64u! bytes, mode %3):%n%4 100%% done'/>\n"
    "   <string id='CopyTask' value='File copy'/>\n"
    "   <string id='Chatty' value='Chatty level'/>\n"
    "   <string id='Fast' value='fast'/><string id='Safe' value='safe'/>\n"
    "   <string id='Read' value='read'/><string id='Write' value='write'/>\n"
    "  </stringTable></resources></localization>\n"
    "</instrumentationManifest>\n";

static uint8_t payload[512];
static size_t plen;

static void put(const void *p, size_t n)
{
    memcpy(payload + plen, p, n);
    plen += n;
}

static void put_u16s(const char *ascii)
{
    for (size_t i = 0; i <= strlen(ascii); i++) {
        uint8_t u[2] = {(uint8_t)ascii[i], 0};
        put(u, 2);
    }
}

static int decode(petw_decoder *d, uint16_t id, uint8_t version, uint8_t level, uint8_t task,
                  uint8_t opcode, const petw_decoded_event **ev)
{
    petw_event_record r;
    memset(&r, 0, sizeof(r));
    r.header.flags = PETW_EVENT_HEADER_FLAG_64_BIT_HEADER;
    r.header.provider_id = demo;
    r.header.descriptor.id = id;
    r.header.descriptor.version = version;
    r.header.descriptor.level = level;
    r.header.descriptor.task = task;
    r.header.descriptor.opcode = opcode;
    r.user_data = payload;
    r.user_data_length = (uint16_t)plen;
    return petw_decode(d, &r, ev);
}

static const petw_field *top(const petw_decoded_event *ev, const char *name)
{
    for (uint32_t i = 0; i < ev->top_count; i++)
        if (!strcmp(ev->fields[i].name, name))
            return &ev->fields[i];
    fprintf(stderr, "no field %s\n", name);
    exit(1);
}

/* The manifest with `from` replaced by `to`: refused, and the reason
 * names `why`. */
static void refused(const char *from, const char *to, const char *why)
{
    static char bad[sizeof(manifest) + 256];
    const char *at = strstr(manifest, from);
    CHECK(at != NULL);
    size_t head = (size_t)(at - manifest);
    snprintf(bad, sizeof(bad), "%.*s%s%s", (int)head, manifest, to, at + strlen(from));
    petw_decoder *d;
    CHECK_EQ(petw_decoder_new(&d), 0);
    CHECK_EQ(petw_decoder_add_manifest_xml(d, bad, strlen(bad)), PETW_ECORRUPT);
    if (!strstr(petw_decoder_error(d), why)) {
        fprintf(stderr, "error '%s' does not say '%s'\n", petw_decoder_error(d), why);
        exit(1);
    }
    CHECK(strncmp(petw_decoder_error(d), "line ", 5) == 0 || strstr(why, "XML") ||
          strstr(why, "provider"));
    petw_decoder_free(d);
}

/* An empty template that two events use (a real manifest does this): the
 * provider has no fields at all, and freeing it frees nothing twice. */
static void empty_template_shared(void)
{
    static const char xml[] =
        "<instrumentationManifest><instrumentation><events>"
        "<provider name='Empty' guid='{0e0e0e0e-1111-2222-3333-444455556666}'><events>"
        "<event value='1' template='t1'/><event value='2' template='t1'/></events>"
        "<templates><template tid='t1'></template></templates></provider>"
        "</events></instrumentation></instrumentationManifest>";
    for (int round = 0; round < 2; round++) {
        petw_decoder *d;
        CHECK_EQ(petw_decoder_new(&d), 0);
        CHECK_EQ(petw_decoder_add_manifest_xml(d, xml, strlen(xml)), 0);
        petw_event_record r;
        memset(&r, 0, sizeof(r));
        static const petw_guid g = {
            0x0e0e0e0e, 0x1111, 0x2222, {0x33, 0x33, 0x44, 0x44, 0x55, 0x55, 0x66, 0x66}};
        r.header.provider_id = g;
        r.header.descriptor.id = 2;
        const petw_decoded_event *ev;
        CHECK_EQ(petw_decode(d, &r, &ev), 0);
        CHECK(ev->has_schema);
        CHECK_EQ(ev->top_count, 0);
        petw_decoder_free(d);
    }
}

int main(void)
{
    petw_decoder *d;
    const petw_decoded_event *ev;
    empty_template_shared();
    CHECK_EQ(petw_decoder_new(&d), 0);
    CHECK_EQ(petw_decoder_add_manifest_xml(d, manifest, strlen(manifest)), 0);
    CHECK_EQ(strcmp(petw_decoder_error(d), ""), 0);

    /* 1. Event 1 v0: strings, numbers, value map, bitmap, BOOL, GUID;
     * names of task, opcode and level; the en-US message, inserts filled. */
    plen = 0;
    put_u16s("C:\\a.txt");
    uint64_t size = 123456789012ull;
    uint32_t mode = 1, flags = 5, ok = 1;
    put(&size, 8);
    put(&mode, 4);
    put(&flags, 4);
    put(&ok, 4);
    put(&demo, 16);
    CHECK_EQ(decode(d, 1, 0, 4, 7, 1, &ev), 0);
    CHECK(ev->has_schema);
    CHECK_EQ(strcmp(ev->provider_name, "Demo-Provider"), 0);
    CHECK_EQ(strcmp(ev->event_name, "CopyStart"), 0);
    CHECK_EQ(strcmp(ev->task_name, "File copy"), 0);
    CHECK_EQ(strcmp(ev->opcode_name, "Start"), 0);
    CHECK_EQ(strcmp(ev->level_name, "Information"), 0);
    CHECK_EQ(ev->top_count, 6);
    CHECK_EQ(strcmp(top(ev, "Path")->v.s, "C:\\a.txt"), 0);
    CHECK_EQ(top(ev, "Size")->v.u, size);
    CHECK_EQ(top(ev, "Mode")->v.u, 1);
    CHECK_EQ(strcmp(top(ev, "Mode")->label, "safe"), 0);
    CHECK_EQ(strcmp(top(ev, "Flags")->label, "read | write"), 0);
    CHECK_EQ(top(ev, "Ok")->kind, PETW_VALUE_BOOL);
    CHECK_EQ(top(ev, "Ok")->v.u, 1);
    CHECK(petw_guid_equal(&top(ev, "Id")->v.guid, &demo));
    CHECK_EQ(top(ev, "Id")->data_offset, plen - 16);
    if (strcmp(ev->message,
               "Copying C:\\a.txt (123456789012 bytes, mode safe):\nread | write 100% done")) {
        fprintf(stderr, "message: '%s'\n", ev->message);
        return 1;
    }

    /* Names are those of the values the record carries, which may differ
     * from the event's definition; values the manifest does not name have
     * none. */
    CHECK_EQ(decode(d, 1, 0, 5, 7, 11, &ev), 0);
    CHECK_EQ(strcmp(ev->level_name, "Verbose"), 0);
    CHECK_EQ(strcmp(ev->task_name, "File copy"), 0);
    CHECK_EQ(strcmp(ev->opcode_name, "Retry"), 0);
    CHECK_EQ(decode(d, 1, 0, 99, 50, 11, &ev), 0);
    CHECK(ev->level_name == NULL);
    CHECK(ev->task_name == NULL);
    CHECK(ev->opcode_name == NULL); /* opcode 11 belongs to task 7 alone */
    CHECK_EQ(strcmp(ev->message, "Copying C:\\a.txt (123456789012 bytes, mode safe):\nread | "
                                 "write 100% done"),
             0);

    /* 2. Version 1 of event 1: no template; its own level and task-scoped
     * opcode. Another version (2) is not in the manifest: raw data. */
    plen = 0;
    CHECK_EQ(decode(d, 1, 1, 16, 7, 11, &ev), 0);
    CHECK(ev->has_schema);
    CHECK_EQ(ev->top_count, 0);
    CHECK_EQ(strcmp(ev->level_name, "Chatty level"), 0);
    CHECK_EQ(strcmp(ev->opcode_name, "Retry"), 0);
    CHECK(ev->message == NULL);
    plen = 3;
    CHECK_EQ(decode(d, 1, 2, 4, 0, 0, &ev), 0);
    CHECK(!ev->has_schema);
    CHECK_EQ(strcmp(ev->fields[0].name, "data"), 0);

    /* Event 3: TraceEvent's name for level 0 and a channel by its chid. */
    plen = 0;
    CHECK_EQ(decode(d, 3, 0, 0, 0, 0, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "Always"), 0);
    CHECK_EQ(strcmp(ev->level_name, "Log Always"), 0);

    /* 3. Event 2: fixed-length string, array counted by a field, binary
     * sized by a field, an array of structs, a hex out-type. */
    plen = 0;
    put("abcd", 4);
    uint16_t n = 3;
    int32_t values[3] = {-1, 0, 70000};
    uint8_t len = 2, blob[2] = {0xAB, 0xCD};
    int16_t points[4] = {1, -2, 3, -4};
    uint32_t err = 0x80070005u;
    put(&n, 2);
    put(values, sizeof(values));
    put(&len, 1);
    put(blob, 2);
    put(points, sizeof(points));
    put(&err, 4);
    CHECK_EQ(decode(d, 2, 0, 2, 0, 0, &ev), 0);
    CHECK_EQ(ev->top_count, 7);
    CHECK_EQ(strcmp(top(ev, "Tag")->v.s, "abcd"), 0);
    const petw_field *arr = top(ev, "Values");
    CHECK_EQ(arr->kind, PETW_VALUE_ARRAY);
    CHECK_EQ(arr->count, 3);
    CHECK_EQ(ev->fields[arr->first + 0].v.i, -1);
    CHECK_EQ(ev->fields[arr->first + 2].v.i, 70000);
    CHECK_EQ(top(ev, "Blob")->kind, PETW_VALUE_BINARY);
    CHECK_EQ(top(ev, "Blob")->v.bin.size, 2);
    CHECK_EQ(top(ev, "Blob")->v.bin.data[1], 0xCD);
    const petw_field *pts = top(ev, "Points");
    CHECK_EQ(pts->kind, PETW_VALUE_ARRAY);
    CHECK_EQ(pts->count, 2);
    const petw_field *p1 = &ev->fields[pts->first + 1];
    CHECK_EQ(p1->kind, PETW_VALUE_STRUCT);
    CHECK_EQ(p1->count, 2);
    CHECK_EQ(strcmp(ev->fields[p1->first].name, "X"), 0);
    CHECK_EQ(ev->fields[p1->first].v.i, 3);
    CHECK_EQ(ev->fields[p1->first + 1].v.i, -4);
    CHECK_EQ(top(ev, "Err")->kind, PETW_VALUE_HEX);
    CHECK_EQ(top(ev, "Err")->v.u, 0x80070005u);

    /* 4. Short payloads: an error for that event; the next one decodes. */
    size_t full = plen;
    for (plen = 0; plen < full; plen++)
        CHECK_EQ(decode(d, 2, 0, 2, 0, 0, &ev), PETW_ECORRUPT);
    plen = full;
    CHECK_EQ(decode(d, 2, 0, 2, 0, 0, &ev), 0);
    /* A count larger than the payload could hold. */
    n = 60000;
    memcpy(payload + 4, &n, 2);
    CHECK_EQ(decode(d, 2, 0, 2, 0, 0, &ev), PETW_ECORRUPT);
    petw_decoder_free(d);

    /* 5. Malformed manifests: refused with the line and the reason. */
    refused("template='Shapes'", "template='Nope'", "unknown template \"Nope\"");
    refused("task='Copy' opcode='win:Start'", "task='Paste' opcode='win:Start'",
            "unknown task \"Paste\"");
    refused("keywords='Io Net'", "keywords='Io Web'", "unknown keyword \"Web\"");
    refused("inType='win:UInt16'", "inType='win:UInt17'", "unknown inType \"win:UInt17\"");
    refused("count='N'", "count='Later'", "neither a number nor an earlier field");
    refused("map='Flags'", "map='Colours'", "unknown map \"Colours\"");
    refused("$(string.CopyTask)", "$(string.Missing)", "no string $(string.Missing)");
    refused("guid='{1b4e3f2a-8c2d-4f0e-9a11-223344556677}'", "guid='{1b4e3f2a}'",
            "bad or missing guid");
    refused("<event value='2'", "<event value='1'", "defined twice");
    refused("<event value='2'", "<event value='70000'", "bad value");
    refused("</templates>", "</templatez>", "XML:");
    refused("level='win:Error'", "level='win:Loud'", "unknown level \"win:Loud\"");
    refused("level='win:Error'", "level='256'", "unknown level \"256\"");

    /* Levels by number, with no definition: EventSource's ManifestBuilder
     * writes those EventLevel does not name as "win:7" (below 16) or "20". */
    {
        static const char es[] =
            "<instrumentationManifest "
            "xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">\r\n"
            " <instrumentation><events>\r\n"
            "<provider name=\"Es\" guid=\"{1b4e3f2a-8c2d-4f0e-9a11-223344556677}\" "
            "symbol=\"Es\">\r\n"
            " <events>\r\n"
            "  <event value=\"1\" version=\"0\" level=\"win:7\" symbol=\"Seven\"/>\r\n"
            "  <event value=\"2\" version=\"0\" level=\"20\" symbol=\"Twenty\"/>\r\n"
            " </events>\r\n"
            "</provider>\r\n"
            "</events></instrumentation></instrumentationManifest>\r\n";
        CHECK_EQ(petw_decoder_new(&d), 0);
        CHECK_EQ(petw_decoder_add_manifest_xml(d, es, strlen(es)), 0);
        plen = 0;
        CHECK_EQ(decode(d, 1, 0, 7, 0, 0, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "Seven"), 0);
        CHECK(ev->level_name == NULL);
        CHECK_EQ(decode(d, 2, 0, 20, 0, 0, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "Twenty"), 0);
        petw_decoder_free(d);
    }
    CHECK_EQ(petw_decoder_new(&d), 0);
    static const char empty[] = "<instrumentationManifest/>";
    CHECK_EQ(petw_decoder_add_manifest_xml(d, empty, strlen(empty)), PETW_ECORRUPT);
    CHECK(strstr(petw_decoder_error(d), "no provider") != NULL);
    /* Entity expansion beyond expat's limits ("billion laughs"). */
    static const char laughs[] =
        "<?xml version='1.0'?><!DOCTYPE m [<!ENTITY a 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'>"
        "<!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;'>"
        "<!ENTITY c '&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;'>"
        "<!ENTITY d '&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;'>"
        "<!ENTITY e '&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;'>"
        "<!ENTITY f '&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;'>]>"
        "<m><provider name='&f;' guid='{1b4e3f2a-8c2d-4f0e-9a11-223344556677}'/></m>";
    CHECK_EQ(petw_decoder_add_manifest_xml(d, laughs, strlen(laughs)), PETW_ECORRUPT);
    CHECK(strstr(petw_decoder_error(d), "XML") != NULL);
    petw_decoder_free(d);

    /* 6. Files and directories: missing paths, non-manifest directories. */
    CHECK_EQ(petw_decoder_new(&d), 0);
    CHECK_EQ(petw_decoder_add_manifest(d, "/nonexistent/x.man"), PETW_ENOTFOUND);
    CHECK(strstr(petw_decoder_error(d), "x.man") != NULL);
    char dir[512], path[600];
    test_path(dir, sizeof(dir), "manifests");
    test_mkdir(dir);
    CHECK_EQ(petw_decoder_add_manifest(d, dir), PETW_ENOTFOUND);
    snprintf(path, sizeof(path), "%s/demo.MAN", dir);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    CHECK_EQ(fwrite(manifest, 1, strlen(manifest), f), strlen(manifest));
    fclose(f);
    CHECK_EQ(petw_decoder_add_manifest(d, dir), 0);
    plen = 0;
    CHECK_EQ(decode(d, 1, 1, 16, 7, 11, &ev), 0);
    CHECK_EQ(strcmp(ev->opcode_name, "Retry"), 0);
    remove(path);
    petw_decoder_free(d);
    printf("manifest: ok\n");
    return 0;
}
