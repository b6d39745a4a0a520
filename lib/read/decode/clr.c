/* SPDX-License-Identifier: MIT */
/* clr.c - the built-in schemas of the .NET runtime's events that name
 * code: method loads with their addresses and names, and module loads,
 * from the runtime provider (Microsoft-Windows-DotNETRuntime) and its
 * rundown provider (Microsoft-Windows-DotNETRuntimeRundown), as Microsoft
 * documents them ("CLR ETW events": method events, loader events). With
 * them, a Windows trace's JIT-compiled code gets its names (the model's
 * JIT symbols) and `petw dump` shows these events by field, without the
 * runtime's manifest. An instrumentation manifest the user adds for these
 * providers is read first.
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 *
 * Versions: 0 is the first layout; 1 adds ClrInstanceID; method events' 2
 * adds ReJITID, module events' 2 the managed and native PDBs' identity.
 */
#include "kernel.h"

#define METHOD_V0                                                                                  \
    "<data name='MethodID' inType='win:UInt64' outType='win:HexInt64'/>"                           \
    "<data name='ModuleID' inType='win:UInt64' outType='win:HexInt64'/>"                           \
    "<data name='MethodStartAddress' inType='win:UInt64' outType='win:HexInt64'/>"                 \
    "<data name='MethodSize' inType='win:UInt32'/>"                                                \
    "<data name='MethodToken' inType='win:UInt32' outType='win:HexInt32'/>"                        \
    "<data name='MethodFlags' inType='win:UInt32' outType='win:HexInt32'/>"                        \
    "<data name='MethodNamespace' inType='win:UnicodeString'/>"                                    \
    "<data name='MethodName' inType='win:UnicodeString'/>"                                         \
    "<data name='MethodSignature' inType='win:UnicodeString'/>"
#define MODULE_V0                                                                                  \
    "<data name='ModuleID' inType='win:UInt64' outType='win:HexInt64'/>"                           \
    "<data name='AssemblyID' inType='win:UInt64' outType='win:HexInt64'/>"                         \
    "<data name='ModuleFlags' inType='win:UInt32' outType='win:HexInt32'/>"                        \
    "<data name='Reserved1' inType='win:UInt32'/>"                                                 \
    "<data name='ModuleILPath' inType='win:UnicodeString'/>"                                       \
    "<data name='ModuleNativePath' inType='win:UnicodeString'/>"
#define CLR_INSTANCE "<data name='ClrInstanceID' inType='win:UInt16'/>"
#define PDBS                                                                                       \
    "<data name='ManagedPdbSignature' inType='win:GUID'/>"                                         \
    "<data name='ManagedPdbAge' inType='win:UInt32'/>"                                             \
    "<data name='ManagedPdbBuildPath' inType='win:UnicodeString'/>"                                \
    "<data name='NativePdbSignature' inType='win:GUID'/>"                                          \
    "<data name='NativePdbAge' inType='win:UInt32'/>"                                              \
    "<data name='NativePdbBuildPath' inType='win:UnicodeString'/>"
#define TEMPLATES                                                                                  \
    "<templates><template tid='Method0'>" METHOD_V0 "</template>"                                  \
    "<template tid='Method1'>" METHOD_V0 CLR_INSTANCE "</template>"                                \
    "<template tid='Method2'>" METHOD_V0 CLR_INSTANCE                                              \
    "<data name='ReJITID' inType='win:UInt64'/></template>"                                        \
    "<template tid='Module0'>" MODULE_V0 "</template>"                                             \
    "<template tid='Module1'>" MODULE_V0 CLR_INSTANCE "</template>"                                \
    "<template tid='Module2'>" MODULE_V0 CLR_INSTANCE PDBS "</template></templates>"
/* One event in its three versions. */
#define EVENT3(id, symbol, kind)                                                                   \
    "<event value='" #id "' version='0' symbol='" symbol "' template='" kind "0'/>"                \
    "<event value='" #id "' version='1' symbol='" symbol "' template='" kind "1'/>"                \
    "<event value='" #id "' version='2' symbol='" symbol "' template='" kind "2'/>"

static const char clr_manifest[] =
    "<instrumentationManifest><instrumentation><events>"
    "<provider name='Microsoft-Windows-DotNETRuntime' "
    "guid='{e13c0d23-ccbc-4e12-931b-d9cc2eee27e4}'><events>" EVENT3(143, "MethodLoadVerbose",
                                                                    "Method")
        EVENT3(144, "MethodUnloadVerbose", "Method") EVENT3(152, "ModuleLoad", "Module")
            EVENT3(153, "ModuleUnload",
                   "Module") "</events>" TEMPLATES "</provider>"
                             "<provider name='Microsoft-Windows-DotNETRuntimeRundown' "
                             "guid='{a669021c-c450-4609-a035-5af59af4df18}'><events>" EVENT3(
                                 143, "MethodDCStartVerbose", "Method")
                                 EVENT3(144, "MethodDCEndVerbose", "Method")
                                     EVENT3(153, "ModuleDCStart", "Module")
                                         EVENT3(154, "ModuleDCEnd",
                                                "Module") "</events>" TEMPLATES
                                                          "</provider></events></instrumentation></"
                                                          "instrumentationManifest>";

int petw__clr_schemas(petw__manifest **out)
{
    char error[200];
    return petw__manifest_parse_builtin(clr_manifest, sizeof(clr_manifest) - 1, out, error,
                                        sizeof(error));
}
