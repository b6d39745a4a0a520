/* SPDX-License-Identifier: MIT */
/* A recording profile's kernel events (tools/recording_profile.c), as `petw
 * record --profile` and `petw start --profile` read them:
 *  - a WPR profile's <SystemCollectorId> with its SystemProviders, by
 *    reference and inline, through Base chains with Keywords and Stacks
 *    Operation="Add" and the default "Set": WPR's system keyword and stack
 *    names become the kernel groups --kernel and --stacks take; a keyword
 *    petw has no source for, a name WPR does not have, a stack petw does not
 *    record and a SystemProviderId that is not in the file are each an
 *    unsupported line; a profile of kernel events alone is a profile;
 *  - WPR's built-in profiles by name (GeneralProfile, CPU, DiskIO, FileIO,
 *    Network, VirtualAllocation; Name.Light; any case), each with its
 *    groups, and a name that is neither a file nor a built-in refused with
 *    the list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tools/recording_profile.h"
#include "test_util.h"

static recording_profile prof;

#if defined(PETW_HAVE_EXPAT)
static const char kernel_wprp[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<WindowsPerformanceRecorder Version=\"1.0\">\n"
    " <Profiles>\n"
    "  <SystemCollector Id=\"SC\" Name=\"NT Kernel Logger\"><BufferSize Value=\"1024\"/>"
    "</SystemCollector>\n"
    "  <SystemProvider Id=\"SP_Base\">\n"
    "   <Keywords><Keyword Value=\"ProcessThread\"/><Keyword Value=\"Loader\"/>"
    "<Keyword Value=\"CpuConfig\"/></Keywords>\n"
    "  </SystemProvider>\n"
    "  <SystemProvider Id=\"SP_Cpu\" Base=\"SP_Base\">\n"
    "   <Keywords Operation=\"Add\"><Keyword Value=\"SampledProfile\"/>"
    "<Keyword Value=\"cswitch\"/><Keyword Value=\"Registry\"/>"
    "<Keyword Value=\"NoSuchKeyword\"/></Keywords>\n"
    "   <Stacks><Stack Value=\"SampledProfile\"/><Stack Value=\"RegistryOpenKey\"/></Stacks>\n"
    "  </SystemProvider>\n"
    "  <SystemProvider Id=\"SP_Switches\" Base=\"SP_Cpu\">\n"
    "   <Keywords><Keyword Value=\"CSwitch\"/><Keyword Value=\"ReadyThread\"/></Keywords>\n"
    "   <Stacks Operation=\"Add\"><Stack Value=\"ReadyThread\"/></Stacks>\n"
    "  </SystemProvider>\n"
    "  <Profile Id=\"Cpu.Verbose.File\" Name=\"Cpu\" DetailLevel=\"Verbose\" "
    "LoggingMode=\"File\" Description=\"x\">\n"
    "   <Collectors><SystemCollectorId Value=\"SC\"><SystemProviderId Value=\"SP_Cpu\"/>"
    "</SystemCollectorId></Collectors>\n"
    "  </Profile>\n"
    "  <Profile Id=\"Switches.Verbose.File\" Name=\"Switches\" DetailLevel=\"Verbose\" "
    "LoggingMode=\"File\" Description=\"x\">\n"
    "   <Collectors><SystemCollectorId Value=\"SC\"><SystemProviderId Value=\"SP_Switches\"/>"
    "</SystemCollectorId>\n"
    "    <EventCollectorId Value=\"EC\"><EventProviders><EventProvider Id=\"E\" "
    "Name=\"*Contoso.App\"/></EventProviders></EventCollectorId></Collectors>\n"
    "  </Profile>\n"
    "  <EventCollector Id=\"EC\" Name=\"c\"/>\n"
    "  <Profile Id=\"Inline.Verbose.File\" Name=\"Inline\" DetailLevel=\"Verbose\" "
    "LoggingMode=\"File\" Description=\"x\">\n"
    "   <Collectors><SystemCollectorId Value=\"SC\">\n"
    "    <SystemProvider Id=\"SP_Inline\"><Keywords><Keyword Value=\"DiskIO\"/>"
    "<Keyword Value=\"DiskIOInit\"/></Keywords></SystemProvider>\n"
    "    <SystemProviderId Value=\"SP_Elsewhere\"/>\n"
    "   </SystemCollectorId>\n"
    "   <HeapEventCollectorId Value=\"HC\"/></Collectors>\n"
    "  </Profile>\n"
    "  <Profile Id=\"Nothing.Verbose.File\" Name=\"Nothing\" DetailLevel=\"Verbose\" "
    "LoggingMode=\"File\" Description=\"x\">\n"
    "   <Collectors><SystemCollectorId Value=\"SC\"><SystemProvider Id=\"SP_Reg\">"
    "<Keywords><Keyword Value=\"Registry\"/></Keywords></SystemProvider>"
    "</SystemCollectorId></Collectors>\n"
    "  </Profile>\n"
    " </Profiles>\n"
    "</WindowsPerformanceRecorder>\n";

static void unsupported_are(const char *const *lines)
{
    int n = 0;
    while (lines[n])
        n++;
    for (int i = 0; i < n || i < prof.unsupported_count; i++)
        if (i >= n || i >= prof.unsupported_count || strcmp(prof.unsupported[i], lines[i])) {
            fprintf(stderr, "unsupported line %d: '%s', want '%s'\n", i,
                    i < prof.unsupported_count ? prof.unsupported[i] : "(none)",
                    i < n ? lines[i] : "(none)");
            exit(1);
        }
}

static void groups_are(const char *kernel, const char *stacks)
{
    if (strcmp(prof.kernel, kernel) || strcmp(prof.stacks, stacks)) {
        fprintf(stderr, "kernel '%s' stacks '%s', want '%s' and '%s'\n", prof.kernel, prof.stacks,
                kernel, stacks);
        exit(1);
    }
}

static void parse_ok(const char *select)
{
    char err[256];
    if (recording_profile_parse(kernel_wprp, strlen(kernel_wprp), 1, select, &prof, err,
                                sizeof(err))) {
        fprintf(stderr, "%s: %s\n", select, err);
        exit(1);
    }
}

static void test_system_providers(void)
{
    /* Add on the base's keywords; Set (the default) stacks. */
    static const char *const cpu[] = {
        "SystemProvider \"SP_Cpu\": Keyword \"NoSuchKeyword\" (not a system keyword petw knows)",
        "SystemProvider \"SP_Cpu\": Stack \"RegistryOpenKey\" (its stacks are not recorded)",
        "SystemProvider \"SP_Cpu\": Keyword \"Registry\" (petw has no source for it)", NULL};
    parse_ok("Cpu");
    CHECK_EQ(prof.count, 0); /* kernel events alone make a profile */
    groups_are("process,thread,image,cswitch,profile", "profile");
    unsupported_are(cpu);

    /* Set keywords replace the base's; Add stacks add to them. */
    static const char *const switches[] = {
        "SystemProvider \"SP_Cpu\": Keyword \"NoSuchKeyword\" (not a system keyword petw knows)",
        "SystemProvider \"SP_Cpu\": Stack \"RegistryOpenKey\" (its stacks are not recorded)", NULL};
    parse_ok("Switches");
    CHECK_EQ(prof.count, 1);
    CHECK(!strcmp(prof.providers[0].id, "Contoso.App"));
    groups_are("cswitch,dispatcher", "profile,readythread");
    unsupported_are(switches);

    /* Inline, a reference to nothing, a heap collector. */
    static const char *const inl[] = {
        "SystemProviderId \"SP_Elsewhere\": not in the file (WPR's built-in providers are not "
        "here)",
        "HeapEventCollectorId \"HC\": heap events (a heap session)", NULL};
    parse_ok("Inline");
    groups_are("disk", "");
    unsupported_are(inl);

    /* Kernel events petw has no source for, alone: refused, saying which. */
    char err[256];
    CHECK_EQ(recording_profile_parse(kernel_wprp, strlen(kernel_wprp), 1, "Nothing", &prof, err,
                                     sizeof(err)),
             -1);
    CHECK(strstr(err, "profile 'Nothing.Verbose.File' enables no event provider petw can record; "
                      "it asks for: SystemProvider \"SP_Reg\": Keyword \"Registry\""));
    printf("system providers: keywords and stacks through Base chains, Add and Set\n");
}

static void builtin_is(const char *spec, const char *name, const char *kernel, const char *stacks)
{
    char err[256];
    if (recording_profile_load(spec, &prof, err, sizeof(err)) != 0) {
        fprintf(stderr, "%s: %s\n", spec, err);
        exit(1);
    }
    CHECK(prof.builtin);
    CHECK(!strcmp(prof.name, name));
    CHECK_EQ(prof.count, 0);
    groups_are(kernel, stacks);
}

static void test_builtin(void)
{
    builtin_is("CPU", "CPU.Verbose.File", "process,thread,image,cswitch,dispatcher,profile",
               "profile,cswitch,readythread");
    CHECK_EQ(prof.unsupported_count, 0);
    builtin_is("cpu.light", "CPU.Light.File", "process,thread,image,cswitch,dispatcher,profile",
               "");
    builtin_is("GeneralProfile", "GeneralProfile.Verbose.File",
               "process,thread,image,cswitch,dispatcher,profile,disk,file_io,hard_faults",
               "profile,cswitch,readythread");
    static const char *const general[] = {
        "SystemProvider \"SP_General\": Keyword \"MemoryInfo\" (petw has no source for it)",
        "SystemProvider \"SP_General\": Keyword \"MemoryInfoWS\" (petw has no source for "
        "it)",
        NULL};
    unsupported_are(general);
    builtin_is("DiskIO", "DiskIO.Verbose.File", "process,thread,image,disk,file_io,hard_faults",
               "");
    builtin_is("FileIO", "FileIO.Verbose.File", "process,thread,image,disk,file_io,file_io_init",
               "");
    builtin_is("network", "Network.Verbose.File", "process,thread,image,networktrace", "");
    builtin_is("VirtualAllocation", "VirtualAllocation.Verbose.File",
               "process,thread,image,virt_alloc", "");

    char err[256];
    CHECK_EQ(recording_profile_load("Heap", &prof, err, sizeof(err)), -1);
    CHECK(strstr(err, "Heap: no such file, nor one of the built-in profiles (GeneralProfile, CPU, "
                      "DiskIO, FileIO, Network, VirtualAllocation)"));
    printf("built-in profiles: six by name, Light, any case; others refused\n");
}
#endif

int main(void)
{
#if defined(PETW_HAVE_EXPAT)
    test_system_providers();
    test_builtin();
    printf("profile_system: all checks passed\n");
    return 0;
#else
    printf("profile_system: built without expat (WPR profiles are refused)\n");
    return 77;
#endif
}
