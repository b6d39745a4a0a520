/* SPDX-License-Identifier: MIT */
/* Recording profiles (tools/recording_profile.c), as `petw start --profile`
 * reads them, on profiles written for this test the way real ones are:
 *  - WPR XML: several profiles of one Name, collectors with a Base, system
 *    collectors and providers (their kernel groups: test_profile_system.c),
 *    providers by GUID and by *Name, several
 *    Keyword elements, Level, Stack, an inline provider, Memory profiles
 *    based on File ones, Operation="Add" and the default "Set", a Base
 *    that is not in the file; each profile's providers, buffers, mode and
 *    unsupported lines exactly; choosing by Id, Name.DetailLevel, Name, or
 *    nothing;
 *  - logman provider files: quoted names with spaces, {GUID}, bare GUIDs
 *    and names, hex and decimal keywords and levels, comments, CRLF, keyword
 *    names, a provider named twice;
 *  - bad inputs of both, each refused with its reason (and line);
 *  - recording_profile_load: FILE!PROFILE, the format from the suffix or the content,
 *    a missing file, one over 16 MB.
 * Without expat, WPR XML must be refused with that reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/recording_profile.h"
#include "test_util.h"

static recording_profile prof;

static void parse_ok(const char *text, int wprp, const char *select)
{
    char err[256];
    if (recording_profile_parse(text, strlen(text), wprp, select, &prof, err, sizeof(err)) != 0) {
        fprintf(stderr, "parse (%s) failed: %s\n", select ? select : "no selector", err);
        exit(1);
    }
}

/* Parsing must fail with a reason that contains `want`. */
static void parse_fails(const char *text, size_t size, int wprp, const char *select,
                        const char *want)
{
    char err[256];
    int rc = recording_profile_parse(text, size, wprp, select, &prof, err, sizeof(err));
    if (rc != -1 || !strstr(err, want)) {
        fprintf(stderr, "parse returned %d with '%s', want -1 with '%s'\n", rc, err, want);
        exit(1);
    }
}

static void provider_is(int i, const char *id, uint64_t keywords, int level)
{
    CHECK(i < prof.count);
    const recording_profile_provider *p = &prof.providers[i];
    if (strcmp(p->id, id) || p->keywords != keywords || p->level != level) {
        fprintf(stderr, "provider %d: '%s' 0x%llx level %d, want '%s' 0x%llx level %d\n", i, p->id,
                (unsigned long long)p->keywords, p->level, id, (unsigned long long)keywords, level);
        exit(1);
    }
}

/* The unsupported lines are exactly `lines` (NULL-terminated). */
static void unsupported_are(const char *const *lines)
{
    int n = 0;
    while (lines[n])
        n++;
    for (int i = 0; i < n || i < prof.unsupported_count; i++)
        if (i >= n || i >= prof.unsupported_count || strcmp(prof.unsupported[i], lines[i])) {
            fprintf(stderr, "unsupported line %d: '%s', want '%s' (%d lines, want %d)\n", i,
                    i < prof.unsupported_count ? prof.unsupported[i] : "(none)",
                    i < n ? lines[i] : "(none)", prof.unsupported_count, n);
            exit(1);
        }
}

static const char app_wprp[] =
    "\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<!-- Contoso's recording profiles (written for this test). -->\n"
    "<WindowsPerformanceRecorder Version=\"1.0\" Author=\"petw tests\">\n"
    "  <Profiles>\n"
    "    <SystemCollector Id=\"SC_Kernel\" Name=\"NT Kernel Logger\">\n"
    "      <BufferSize Value=\"1024\"/>\n"
    "      <Buffers Value=\"32\"/>\n"
    "    </SystemCollector>\n"
    "    <EventCollector Id=\"EC_Base\" Name=\"Contoso Collector\">\n"
    "      <BufferSize Value=\"256\"/>\n"
    "      <Buffers Value=\"64\"/>\n"
    "    </EventCollector>\n"
    "    <EventCollector Id=\"EC_Big\" Name=\"Contoso Collector\" Base=\"EC_Base\">\n"
    "      <Buffers Value=\"128\"/>\n"
    "    </EventCollector>\n"
    "    <SystemProvider Id=\"SP_Cpu\">\n"
    "      <Keywords><Keyword Value=\"ProcessThread\"/><Keyword Value=\"CSwitch\"/></Keywords>\n"
    "      <Stacks><Stack Value=\"CSwitch\"/></Stacks>\n"
    "    </SystemProvider>\n"
    "    <EventProvider Id=\"EP_App\" Name=\"3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8\" Level=\"4\">\n"
    "      <Keywords>\n"
    "        <Keyword Value=\"0x10\"/>\n"
    "        <Keyword Value=\"0x4\"/>\n"
    "      </Keywords>\n"
    "    </EventProvider>\n"
    "    <EventProvider Id=\"EP_Lib\" Name=\"*Contoso.Lib.Tracing\" Stack=\"true\"/>\n"
    "    <EventProvider Id=\"EP_App_More\" Base=\"EP_App\">\n"
    "      <Keywords Operation=\"Add\"><Keyword Value=\"0x100\"/></Keywords>\n"
    "    </EventProvider>\n"
    "    <Profile Id=\"MyApp.Verbose.File\" Name=\"MyApp\" Description=\"All of MyApp\"\n"
    "             DetailLevel=\"Verbose\" LoggingMode=\"File\">\n"
    "      <Collectors>\n"
    "        <SystemCollectorId Value=\"SC_Kernel\">\n"
    "          <SystemProviderId Value=\"SP_Cpu\"/>\n"
    "        </SystemCollectorId>\n"
    "        <EventCollectorId Value=\"EC_Big\">\n"
    "          <EventProviders>\n"
    "            <EventProviderId Value=\"EP_App\"/>\n"
    "            <EventProviderId Value=\"EP_Lib\"/>\n"
    "            <EventProvider Id=\"EP_Inline\" Name=\"{12345678-9abc-def0-1234-56789abcdef0}\"\n"
    "                           Level=\"5\" NonPagedMemory=\"true\">\n"
    "              <Keywords><Keyword Value=\"0xFF00000000000000\"/></Keywords>\n"
    "              <CaptureStateOnStart><Keyword Value=\"0x1\"/></CaptureStateOnStart>\n"
    "            </EventProvider>\n"
    "          </EventProviders>\n"
    "        </EventCollectorId>\n"
    "      </Collectors>\n"
    "    </Profile>\n"
    "    <Profile Id=\"MyApp.Verbose.Memory\" Name=\"MyApp\" Description=\"All of MyApp\"\n"
    "             DetailLevel=\"Verbose\" LoggingMode=\"Memory\" Base=\"MyApp.Verbose.File\"/>\n"
    "    <Profile Id=\"MyApp.Light.File\" Name=\"MyApp\" Description=\"MyApp, lightly\"\n"
    "             DetailLevel=\"Light\" LoggingMode=\"File\">\n"
    "      <Collectors>\n"
    "        <EventCollectorId Value=\"EC_Base\">\n"
    "          <EventProviders><EventProviderId Value=\"EP_App\"/></EventProviders>\n"
    "        </EventCollectorId>\n"
    "      </Collectors>\n"
    "    </Profile>\n"
    "    <Profile Id=\"MyApp.Light.Memory\" Base=\"MyApp.Light.File\" Name=\"MyApp\"\n"
    "             DetailLevel=\"Light\" LoggingMode=\"Memory\" Description=\"MyApp, lightly\"/>\n"
    "    <Profile Id=\"MyAppPlus.Verbose.File\" Name=\"MyAppPlus\" Base=\"MyApp.Light.File\"\n"
    "             DetailLevel=\"Verbose\" LoggingMode=\"File\" Description=\"More\">\n"
    "      <Collectors Operation=\"Add\">\n"
    "        <EventCollectorId Value=\"EC_Base\">\n"
    "          <EventProviders Operation=\"Add\">\n"
    "            <EventProviderId Value=\"EP_App_More\"/>\n"
    "          </EventProviders>\n"
    "        </EventCollectorId>\n"
    "      </Collectors>\n"
    "    </Profile>\n"
    "  </Profiles>\n"
    "  <TraceMergeProperties>\n"
    "    <TraceMergeProperty Id=\"TraceMerge_Default\" Name=\"TraceMerge_Default\"/>\n"
    "  </TraceMergeProperties>\n"
    "</WindowsPerformanceRecorder>\n";

/* The default Operation "Set"; Buffers as a percentage; a Base that is
 * not in the file; one Name shared by every profile (no selector needed). */
static const char set_wprp[] =
    "<?xml version='1.0' encoding='utf-8' standalone='yes'?>\r\n"
    "<WindowsPerformanceRecorder Version=\"1\">\r\n"
    " <Profiles>\r\n"
    "  <EventCollector Id=\"EC\" Name=\"c\" Private=\"false\">\r\n"
    "   <BufferSize Value=\"64\"/>\r\n"
    "   <Buffers Value=\"3\" PercentageOfTotalMemory=\"true\"/>\r\n"
    "  </EventCollector>\r\n"
    "  <EventProvider Id=\"A\" Name=\"*Prov.A\" Level=\"0\"/>\r\n"
    "  <EventProvider Id=\"B\" Name=\"*Prov.B\" SID=\"true\">\r\n"
    "   <Keywords><Keyword Value=\"16\"/></Keywords>\r\n"
    "  </EventProvider>\r\n"
    "  <EventProvider Id=\"B2\" Base=\"B\">\r\n"
    "   <Keywords><Keyword Value=\"0x1\"/></Keywords>\r\n"
    "  </EventProvider>\r\n"
    "  <Profile Id=\"P.Verbose.File\" Name=\"P\" DetailLevel=\"Verbose\" LoggingMode=\"File\"\r\n"
    "           Description=\"x\" Base=\"GeneralProfile.Verbose.File\">\r\n"
    "   <Collectors><EventCollectorId Value=\"EC\"><EventProviders>\r\n"
    "    <EventProviderId Value=\"A\"/>\r\n"
    "   </EventProviders></EventCollectorId></Collectors>\r\n"
    "  </Profile>\r\n"
    "  <Profile Id=\"P.Light.File\" Base=\"P.Verbose.File\" Name=\"P\" DetailLevel=\"Light\"\r\n"
    "           LoggingMode=\"File\" Description=\"x\">\r\n"
    "   <Collectors Operation=\"Add\"><EventCollectorId Value=\"EC\"><EventProviders>\r\n"
    "    <EventProviderId Value=\"B2\"/>\r\n"
    "   </EventProviders></EventCollectorId></Collectors>\r\n"
    "  </Profile>\r\n"
    "  <Profile Id=\"P.Light.Memory\" Base=\"P.Verbose.File\" Name=\"P\" DetailLevel=\"Light\"\r\n"
    "           LoggingMode=\"Memory\" Description=\"x\">\r\n"
    "   <Collectors><EventCollectorId Value=\"EC\"><EventProviders>\r\n"
    "    <EventProviderId Value=\"B\"/>\r\n"
    "    <EventProviderId Value=\"A\"/>\r\n"
    "   </EventProviders></EventCollectorId></Collectors>\r\n"
    "  </Profile>\r\n"
    " </Profiles>\r\n"
    "</WindowsPerformanceRecorder>\r\n";

#if defined(PETW_HAVE_EXPAT) /* the WPR tests */
static const char *const app_verbose_unsupported[] = {
    "EventProvider \"EP_Lib\": Stack=\"true\" (stacks are not recorded)",
    "EventProvider \"EP_Inline\": <CaptureStateOnStart>", "<TraceMergeProperties> (not used)",
    NULL};

static void app_verbose_is(const char *id, int memory)
{
    CHECK(!strcmp(prof.name, id));
    CHECK_EQ(prof.memory, memory);
    CHECK_EQ(prof.buffer_size_kb, 256); /* EC_Big's, from its Base */
    CHECK_EQ(prof.buffers, 128);
    CHECK_EQ(prof.count, 3);
    provider_is(0, "3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8", 0x14, 4);
    provider_is(1, "Contoso.Lib.Tracing", 0, 5);
    provider_is(2, "{12345678-9abc-def0-1234-56789abcdef0}", 0xFF00000000000000ull, 5);
    unsupported_are(app_verbose_unsupported);
    /* The kernel collector's SP_Cpu, in --kernel's and --stacks' names. */
    CHECK(!strcmp(prof.kernel, "process,thread,cswitch"));
    CHECK(!strcmp(prof.stacks, "cswitch"));
}

static void test_wprp_profiles(void)
{
    static const char *const none[] = {"<TraceMergeProperties> (not used)", NULL};
    parse_ok(app_wprp, 1, "MyApp.Verbose.File");
    app_verbose_is("MyApp.Verbose.File", 0);
    parse_ok(app_wprp, 1, "myapp.verbose.file"); /* an Id, as wpr compares it */
    app_verbose_is("MyApp.Verbose.File", 0);
    parse_ok(app_wprp, 1, "MyApp"); /* a Name: Verbose and File first */
    app_verbose_is("MyApp.Verbose.File", 0);
    parse_ok(app_wprp, 1, "MyApp.Verbose.Memory"); /* everything from its Base */
    app_verbose_is("MyApp.Verbose.Memory", 1);

    parse_ok(app_wprp, 1, "MyApp.Light"); /* Name.DetailLevel: File first */
    CHECK(!strcmp(prof.name, "MyApp.Light.File"));
    CHECK_EQ(prof.memory, 0);
    CHECK_EQ(prof.buffer_size_kb, 256);
    CHECK_EQ(prof.buffers, 64);
    CHECK_EQ(prof.count, 1);
    provider_is(0, "3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8", 0x14, 4);
    unsupported_are(none);
    parse_ok(app_wprp, 1, "MyApp.Light.Memory");
    CHECK_EQ(prof.memory, 1);
    CHECK_EQ(prof.count, 1);

    /* Collectors Operation="Add" on its Base's: the same provider from the
     * base (0x14) and through EP_App_More (0x14 | 0x100) is one. */
    parse_ok(app_wprp, 1, "MyAppPlus");
    CHECK(!strcmp(prof.name, "MyAppPlus.Verbose.File"));
    CHECK_EQ(prof.count, 1);
    provider_is(0, "3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8", 0x114, 4);
    unsupported_are(none);

    /* No selector and Names that differ: the Ids, listed. */
    parse_fails(app_wprp, strlen(app_wprp), 1, NULL,
                "the file has 5 profiles: choose one of MyApp.Verbose.File, "
                "MyApp.Verbose.Memory, MyApp.Light.File, MyApp.Light.Memory, "
                "MyAppPlus.Verbose.File");
    parse_fails(app_wprp, strlen(app_wprp), 1, "Nope",
                "no profile 'Nope' in the file; it has: MyApp.Verbose.File, "
                "MyApp.Verbose.Memory, MyApp.Light.File");
    printf("wprp: 5 profiles resolved by Id, Name.DetailLevel and Name\n");
}

static void test_wprp_operations(void)
{
    static const char *const verbose[] = {
        "Profile \"P.Verbose.File\": Base \"GeneralProfile.Verbose.File\" is not in the file "
        "(WPR's built-in profiles are not here)",
        "EventCollector \"EC\": <Buffers> as 3% of memory (PercentageOfTotalMemory)", NULL};
    parse_ok(set_wprp, 1, NULL); /* one Name: Verbose, File */
    CHECK(!strcmp(prof.name, "P.Verbose.File"));
    CHECK_EQ(prof.buffer_size_kb, 64);
    CHECK_EQ(prof.buffers, 0); /* a percentage is not a count */
    CHECK_EQ(prof.count, 1);
    provider_is(0, "Prov.A", 0, 255); /* Level 0: every level */
    unsupported_are(verbose);

    /* Operation="Add" on the Collectors, the default "Set" on the
     * EventProviders of the same collector: B2 replaces A. B2's Keywords
     * (Set) replace B's. */
    static const char *const light[] = {
        "Profile \"P.Verbose.File\": Base \"GeneralProfile.Verbose.File\" is not in the file "
        "(WPR's built-in profiles are not here)",
        "EventCollector \"EC\": <Buffers> as 3% of memory (PercentageOfTotalMemory)",
        "EventProvider \"B\": SID=\"true\"", NULL};
    parse_ok(set_wprp, 1, "P.Light.File");
    CHECK_EQ(prof.count, 1);
    provider_is(0, "Prov.B", 0x1, 5);
    unsupported_are(light);

    /* Collectors "Set": the base's are replaced (A comes back, second). */
    parse_ok(set_wprp, 1, "P.Light.Memory");
    CHECK_EQ(prof.memory, 1);
    CHECK_EQ(prof.count, 2);
    provider_is(0, "Prov.B", 16, 5);
    provider_is(1, "Prov.A", 0, 255);
    printf("wprp: Operation Add and Set, Buffers in percent, a Base not in the file\n");
}

/* More unsupported lines than the array holds: the last one counts the rest. */
static void test_wprp_many_unsupported(void)
{
    static char text[8192];
    size_t n = (size_t)snprintf(text, sizeof(text),
                                "<WindowsPerformanceRecorder><Profiles>"
                                "<EventCollector Id=\"EC\"/><EventProvider Id=\"A\" Name=\"a\"");
    for (int i = 0; i < 20; i++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, " Extra%d=\"yes\"", i);
    snprintf(text + n, sizeof(text) - n,
             "/><Profile Id=\"Only\"><Collectors><EventCollectorId Value=\"EC\"><EventProviders>"
             "<EventProviderId Value=\"A\"/></EventProviders></EventCollectorId></Collectors>"
             "</Profile></Profiles></WindowsPerformanceRecorder>");
    parse_ok(text, 1, NULL);
    CHECK_EQ(prof.count, 1);
    CHECK_EQ(prof.unsupported_count, 20);
    CHECK(!strcmp(prof.unsupported[0], "EventProvider \"A\": Extra0=\"yes\""));
    CHECK(!strcmp(prof.unsupported[14], "EventProvider \"A\": Extra14=\"yes\""));
    CHECK(!strcmp(prof.unsupported[15], "... and 5 more"));
}

static void test_wprp_bad(void)
{
    static char text[16384];
    const char *head = "<WindowsPerformanceRecorder><Profiles><EventCollector Id=\"EC\"/>";
    const char *refs = "<Profile Id=\"X\"><Collectors><EventCollectorId Value=\"EC\">"
                       "<EventProviders><EventProviderId Value=\"A\"/></EventProviders>"
                       "</EventCollectorId></Collectors></Profile>";
    const char *tail = "</Profiles></WindowsPerformanceRecorder>";

    parse_fails("<WindowsPerformanceRecorder><Profiles></WindowsPerformanceRecorder>", 68, 1, NULL,
                "line 1: mismatched tag");
    parse_fails(app_wprp, strlen(app_wprp) / 2, 1, "MyApp", "line 40: unclosed token");
    parse_fails("", 0, 1, NULL, "no element found");
    parse_fails("<Profiles/>", 11, 1, NULL, "not a WPR profile: the root element is <Profiles>");
    snprintf(text, sizeof(text),
             "%s<EventProvider Id=\"A\" Name=\"a\">\n<Keywords>\n"
             "<Keyword Value=\"0xZZ\"/></Keywords></EventProvider>%s%s",
             head, refs, tail);
    parse_fails(text, strlen(text), 1, NULL,
                "line 3: Keyword Value '0xZZ' is not a number (0x hex or decimal)");
    snprintf(text, sizeof(text), "%s<EventProvider Id=\"A\" Name=\"a\" Level=\"300\"/>%s%s", head,
             refs, tail);
    parse_fails(text, strlen(text), 1, NULL, "line 1: Level '300' is not 0-255");
    snprintf(text, sizeof(text), "%s<EventProvider Id=\"B\" Name=\"b\"/>\n%s%s", head, refs, tail);
    parse_fails(text, strlen(text), 1, NULL,
                "line 2: profile 'X' enables no event provider petw can record; it asks for: "
                "EventProviderId \"A\": not in the file (WPR's built-in providers are not here)");
    snprintf(text, sizeof(text),
             "%s<EventProvider Id=\"A\" Base=\"B\"/><EventProvider Id=\"B\" Base=\"A\"/>%s%s", head,
             refs, tail);
    parse_fails(text, strlen(text), 1, NULL, "a Base chain longer than 16");
    snprintf(text, sizeof(text), "%s<EventProvider Id=\"A\"/>%s%s", head, refs, tail);
    parse_fails(text, strlen(text), 1, NULL, "EventProvider \"A\" has no Name");
    snprintf(text, sizeof(text),
             "%s<Profile Id=\"K\"><Collectors><SystemCollectorId Value=\"SC\"/></Collectors>"
             "</Profile>%s",
             head, tail);
    parse_fails(text, strlen(text), 1, NULL, "profile 'K' enables no event provider");
    parse_fails("<!DOCTYPE lol [<!ENTITY lol \"lol\">]><WindowsPerformanceRecorder/>", 64, 1, NULL,
                "line 1: a document type declaration (<!DOCTYPE>) has no place");

    /* 33 providers in one profile. */
    size_t n = (size_t)snprintf(text, sizeof(text),
                                "%s<Profile Id=\"Many\"><Collectors>"
                                "<EventCollectorId Value=\"EC\"><EventProviders>",
                                head);
    for (int i = 0; i < 33; i++)
        n += (size_t)snprintf(text + n, sizeof(text) - n,
                              "<EventProvider Id=\"P%d\" Name=\"Provider.%d\"/>\n", i, i);
    snprintf(text + n, sizeof(text) - n,
             "</EventProviders></EventCollectorId></Collectors>"
             "</Profile>%s",
             tail);
    parse_fails(text, strlen(text), 1, NULL,
                "line 33: more than 32 providers (the most petw enables in one session): "
                "'Provider.32'");
    printf("wprp: bad inputs refused with their reasons\n");
}

#endif

static const char provider_file[] =
    "# Contoso's providers (written for this test)\n"
    "; a comment, logman-style\n"
    "\n"
    "\"Contoso Widget Provider\" 0x10 4\r\n"
    "{3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8} 0xffffffffffffffff 0xff\r\n"
    "Microsoft-Windows-PowerShell 0 5\n"
    "   8e598056-8993-11d2-819e-0000f875a5bc\n"
    "\t\"Contoso Widget Provider\"   0x100 # again: one provider, both keywords\n"
    "*Contoso.Named \"(Read, Write)\" 0x3\n"
    "   \n"
    "\"Last Line Without Newline\" 12 0";

static void test_provider_files(void)
{
    static const char *const names[] = {
        "line 9: 'Contoso.Named': keyword names (Read, Write) (every keyword is enabled)", NULL};
    parse_ok(provider_file, 0, NULL);
    CHECK(!strcmp(prof.name, ""));
    CHECK_EQ(prof.buffer_size_kb, 0);
    CHECK_EQ(prof.buffers, 0);
    CHECK_EQ(prof.memory, 0);
    CHECK_EQ(prof.count, 6);
    provider_is(0, "Contoso Widget Provider", 0x110, 5);
    provider_is(1, "{3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8}", 0xffffffffffffffffull, 255);
    provider_is(2, "Microsoft-Windows-PowerShell", 0, 5);
    provider_is(3, "8e598056-8993-11d2-819e-0000f875a5bc", 0, 5);
    provider_is(4, "Contoso.Named", 0, 3);
    provider_is(5, "Last Line Without Newline", 12, 255);
    unsupported_are(names);

    const char *utf8_bom = "\xef\xbb\xbfOne.Provider 0x1 0x4\n";
    parse_ok(utf8_bom, 0, NULL);
    CHECK_EQ(prof.count, 1);
    provider_is(0, "One.Provider", 1, 4);

    parse_fails("\"Unclosed 0x1 5\n", 16, 0, NULL, "line 1: no closing quote");
    parse_fails("A\nB 0xQQ\n", 9, 0, NULL,
                "line 2: keywords '0xQQ' are not a number (0x hex or decimal)");
    parse_fails("A 0x1 256\n", 10, 0, NULL, "line 1: level '256' is not 0-255");
    parse_fails("A 0x1 5 extra\n", 14, 0, NULL,
                "line 1: more than a provider, keywords and a level: 'extra'");
    parse_fails("A 0x1 (x\n", 9, 0, NULL, "line 1: no closing ')'");
    parse_fails("\"\" 0x1\n", 7, 0, NULL, "line 1: a provider must be 1 to 255 characters");
    parse_fails("A\0B\n", 4, 0, NULL, "line 1: a NUL byte");
    parse_fails("\xff\xfe\"\0A\0\"\0", 8, 0, NULL, "UTF-16 text");
    parse_fails("# nothing\n\n", 11, 0, NULL, "no provider in the file");
    parse_fails("A\n", 2, 0, "Profile", "a provider file has no profile 'Profile'");
    static char many[4096];
    size_t n = 0;
    for (int i = 0; i < 33; i++)
        n += (size_t)snprintf(many + n, sizeof(many) - n, "Provider.%d 0x1\n", i);
    parse_fails(many, n, 0, NULL, "line 33: more than 32 providers");
    printf("provider files: 6 providers from 11 lines; bad lines refused\n");
}

static void write_file(const char *path, const char *text, size_t size)
{
    FILE *f = fopen(path, "wb");
    CHECK(f);
    CHECK_EQ(fwrite(text, 1, size, f), size);
    CHECK_EQ(fclose(f), 0);
}

static void test_load(void)
{
    char wprp[512], txt[512], xml[512], spec[600], err[512];
    test_path(wprp, sizeof(wprp), "profile.wprp");
    test_path(txt, sizeof(txt), "providers.txt");
    test_path(xml, sizeof(xml), "profile.xml");
    write_file(wprp, set_wprp, strlen(set_wprp));
    write_file(txt, provider_file, strlen(provider_file));
    write_file(xml, "\n  <WindowsPerformanceRecorder/>", 32); /* XML by its content */

    int expat = recording_profile_parse("<x/>", 4, 1, NULL, &prof, err, sizeof(err)) == 0 ||
                !strstr(err, "without XML support");
    snprintf(spec, sizeof(spec), "%s!P.Light.Memory", wprp);
    if (expat) {
        CHECK_EQ(recording_profile_load(spec, &prof, err, sizeof(err)), 0);
        CHECK(!strcmp(prof.name, "P.Light.Memory"));
        CHECK_EQ(recording_profile_load(wprp, &prof, err, sizeof(err)), 0);
        CHECK(!strcmp(prof.name, "P.Verbose.File"));
        CHECK_EQ(recording_profile_load(xml, &prof, err, sizeof(err)), -1);
        CHECK(strstr(err, "profile.xml: no <Profile> in the file"));
    } else {
        CHECK_EQ(recording_profile_load(spec, &prof, err, sizeof(err)), -1);
        CHECK(strstr(err, "profile.wprp: this petw was built without XML support (expat)"));
    }
    CHECK_EQ(recording_profile_load(txt, &prof, err, sizeof(err)), 0);
    CHECK_EQ(prof.count, 6);
    snprintf(spec, sizeof(spec), "%s!Name", txt);
    CHECK_EQ(recording_profile_load(spec, &prof, err, sizeof(err)), -1);
    CHECK(strstr(err, "providers.txt: a provider file has no profile 'Name'"));
    remove(wprp);
    CHECK_EQ(recording_profile_load(wprp, &prof, err, sizeof(err)), -1);
    CHECK(strstr(err, "profile.wprp: cannot open it"));

    /* One byte over 16 MB. */
    char *big = malloc(RECORDING_PROFILE_MAX_FILE + 1);
    CHECK(big);
    memset(big, '\n', RECORDING_PROFILE_MAX_FILE + 1);
    memcpy(big, "Provider 0x1 5", 14);
    write_file(txt, big, RECORDING_PROFILE_MAX_FILE + 1);
    CHECK_EQ(recording_profile_load(txt, &prof, err, sizeof(err)), -1);
    CHECK(strstr(err, "providers.txt: larger than 16 MB"));
    write_file(txt, big, RECORDING_PROFILE_MAX_FILE); /* exactly 16 MB is read */
    CHECK_EQ(recording_profile_load(txt, &prof, err, sizeof(err)), 0);
    CHECK_EQ(prof.count, 1);
    free(big);
    remove(txt);
    remove(xml);
    printf("load: FILE!PROFILE, the format by suffix and content, size limit\n");
}

int main(void)
{
#if defined(PETW_HAVE_EXPAT)
    test_wprp_profiles();
    test_wprp_operations();
    test_wprp_many_unsupported();
    test_wprp_bad();
#else
    parse_fails(app_wprp, strlen(app_wprp), 1, NULL,
                "this petw was built without XML support (expat)");
    printf("wprp: refused (built without expat)\n");
#endif
    test_provider_files();
    test_load();
    printf("profile: all checks passed\n");
    return 0;
}
