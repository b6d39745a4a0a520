/* SPDX-License-Identifier: MIT */
/* recording_profile_builtin.c - petw's own definitions of WPR's built-in
 * recording profiles (`wpr -start GeneralProfile`, `petw record --profile
 * CPU`), written as a WPR profile file and read by the same reader as any
 * .wprp (recording_profile_wprp.c).
 *
 * WPR keeps its built-in profiles inside wpr.exe; what each records is
 * described by `wpr -profiles` and the WPR documentation ("First level
 * triage", "CPU usage", "Disk I/O activity", ...). These are petw's reading
 * of those descriptions in WPR's own system keywords and stacks, so that
 * the mapping to what petw records (recording_profile_wprp.c's recording_profile__wpr_sys_keywords)
 * and what it leaves out (reported, one line each) is the same as for a profile a user wrote.
 * Windows' event providers that those profiles add (the kernel's own manifest providers) have no
 * source off Windows and are not listed. */
#include "recording_profile.h"
#include "recording_profile_internal.h"

const char recording_profile_builtin_names[] = "GeneralProfile, CPU, DiskIO, FileIO, Network, "
                                               "VirtualAllocation";

#define SP(id, base, keywords, stacks)                                                             \
    "<SystemProvider Id=\"" id "\"" base "><Keywords Operation=\"Add\">" keywords                  \
    "</Keywords><Stacks Operation=\"Add\">" stacks "</Stacks></SystemProvider>\n"
#define K(name) "<Keyword Value=\"" name "\"/>"
#define S(name) "<Stack Value=\"" name "\"/>"
#define PROFILE(name, detail, provider, description)                                               \
    "<Profile Id=\"" name "." detail ".File\" Name=\"" name "\" DetailLevel=\"" detail             \
    "\" LoggingMode=\"File\" Description=\"" description "\"><Collectors>"                         \
    "<SystemCollectorId Value=\"SystemCollector\"><SystemProviderId Value=\"" provider "\"/>"      \
    "</SystemCollectorId></Collectors></Profile>\n"

const char recording_profile__builtin_wprp[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<WindowsPerformanceRecorder Version=\"1.0\"><Profiles>\n"
    /* Every profile: processes, threads and images, so that stacks and
     * times have names. */
    SP("SP_Base", "", K("ProcessThread") K("Loader") K("CpuConfig"), "")
    /* Light: timing; Verbose: analysis, with the stacks WPA's CPU Usage
     * (Sampled) and (Precise) tables show. */
    SP("SP_CPU_Light", " Base=\"SP_Base\"", K("CSwitch") K("ReadyThread") K("SampledProfile"), "")
        SP("SP_CPU", " Base=\"SP_CPU_Light\"", "",
           S("SampledProfile") S("CSwitch") S("ReadyThread"))
            SP("SP_DiskIO", " Base=\"SP_Base\"",
               K("DiskIO") K("DiskIOInit") K("HardFaults") K("Filename"), "")
                SP("SP_FileIO", " Base=\"SP_Base\"",
                   K("FileIO") K("FileIOInit") K("Filename") K("DiskIO"), "")
                    SP("SP_Network", " Base=\"SP_Base\"", K("NetworkTrace"), "")
                        SP("SP_VirtualAllocation", " Base=\"SP_Base\"", K("VirtualAllocation"), "")
    /* First level triage: CPU with its stacks, disk and file I/O, hard
     * faults and memory. */
    SP("SP_General_Light", " Base=\"SP_CPU_Light\"",
       K("DiskIO") K("DiskIOInit") K("FileIO") K("Filename") K("HardFaults") K("MemoryInfo")
           K("MemoryInfoWS"),
       "") SP("SP_General", " Base=\"SP_General_Light\"", "",
              S("SampledProfile") S("CSwitch") S("ReadyThread")) PROFILE("GeneralProfile",
                                                                         "Verbose", "SP_General",
                                                                         "First level triage")
        PROFILE("GeneralProfile", "Light", "SP_General_Light", "First level triage") PROFILE(
            "CPU", "Verbose", "SP_CPU",
            "CPU usage") PROFILE("CPU", "Light", "SP_CPU_Light", "CPU usage")
            PROFILE("DiskIO", "Verbose", "SP_DiskIO", "Disk I/O activity") PROFILE(
                "DiskIO", "Light", "SP_DiskIO",
                "Disk I/O activity") PROFILE("FileIO", "Verbose", "SP_FileIO", "File I/O activity")
                PROFILE("FileIO", "Light", "SP_FileIO", "File I/O activity") PROFILE(
                    "Network", "Verbose", "SP_Network", "Networking I/O activity")
                    PROFILE("Network", "Light", "SP_Network", "Networking I/O activity") PROFILE(
                        "VirtualAllocation",
                        "Verbose", "SP_VirtualAllocation", "VirtualAlloc usage")
                        PROFILE("VirtualAllocation", "Light", "SP_VirtualAllocation",
                                "VirtualAlloc usage") "</Profiles></WindowsPerformanceRecorder>\n";
