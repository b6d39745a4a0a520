/* kernel.c - the NT Kernel Logger's classic (MOF) event classes, as an
 * instrumentation manifest the decoder reads with the same parser as any
 * other: one provider per event class (its GUID and MOF name), one event
 * per opcode and version, with the layouts Microsoft documents for each
 * class (docs.microsoft.com, "NT Kernel Logger" event classes). An event's
 * "value" is its opcode: classic records have no event id.
 *
 * Allowed dependencies: common/, platform/, xxHash, expat.
 *
 * Covered: EventTrace (the file's header), Image (load, unload, rundown),
 * Thread (start, end, rundown; CSwitch; ReadyThread), PerfInfo
 * (SampledProfile, SysCallEnter/Exit). Not yet: Process (its UserSID is a
 * TOKEN_USER ahead of the SID), DiskIo, FileIo, TcpIp/UdpIp, Registry,
 * PageFault, SystemConfig, ALPC, StackWalk.
 */
#include "kernel.h"

static const char kernel_manifest[] =
    "<instrumentationManifest><instrumentation><events>"
    /* EventTrace_Header: TRACE_LOGFILE_HEADER and the two names. */
    "<provider name='EventTrace' guid='{68fdd900-4a3e-11d1-84f4-0000f80464e3}'><events>"
    "<event value='0' version='2' symbol='Header' template='Header'/></events><templates>"
    "<template tid='Header'><data name='BufferSize' inType='win:UInt32'/>"
    "<data name='Version' inType='win:HexInt32'/><data name='ProviderVersion' "
    "inType='win:HexInt32'/><data name='NumberOfProcessors' inType='win:UInt32'/>"
    "<data name='EndTime' inType='win:FILETIME'/><data name='TimerResolution' "
    "inType='win:UInt32'/><data name='MaximumFileSize' inType='win:UInt32'/>"
    "<data name='LogFileMode' inType='win:HexInt32'/><data name='BuffersWritten' "
    "inType='win:UInt32'/><data name='StartBuffers' inType='win:UInt32'/>"
    "<data name='PointerSize' inType='win:UInt32'/><data name='EventsLost' "
    "inType='win:UInt32'/><data name='CPUSpeed' inType='win:UInt32'/>"
    "<data name='LoggerName' inType='win:Pointer'/><data name='LogFileName' "
    "inType='win:Pointer'/><data name='TimeZoneInformation' inType='win:Binary' "
    "length='176'/><data name='BootTime' inType='win:FILETIME'/><data name='PerfFreq' "
    "inType='win:UInt64'/><data name='StartTime' inType='win:FILETIME'/>"
    "<data name='ReservedFlags' inType='win:UInt32'/><data name='BuffersLost' "
    "inType='win:UInt32'/><data name='SessionNameString' inType='win:UnicodeString'/>"
    "<data name='LogFileNameString' inType='win:UnicodeString'/></template>"
    "</templates></provider>"
    /* Image_Load: version 2, and 3 (signature level and type). */
    "<provider name='Image' guid='{2cb15d1d-5fc1-11d2-abe1-00a0c911f518}'><events>"
    "<event value='10' version='2' symbol='Load' template='Image2'/>"
    "<event value='2' version='2' symbol='UnLoad' template='Image2'/>"
    "<event value='3' version='2' symbol='DCStart' template='Image2'/>"
    "<event value='4' version='2' symbol='DCEnd' template='Image2'/>"
    "<event value='10' version='3' symbol='Load' template='Image3'/>"
    "<event value='2' version='3' symbol='UnLoad' template='Image3'/>"
    "<event value='3' version='3' symbol='DCStart' template='Image3'/>"
    "<event value='4' version='3' symbol='DCEnd' template='Image3'/></events><templates>"
    "<template tid='Image2'><data name='ImageBase' inType='win:Pointer'/>"
    "<data name='ImageSize' inType='win:Pointer'/><data name='ProcessId' "
    "inType='win:UInt32'/><data name='ImageCheckSum' inType='win:UInt32'/>"
    "<data name='TimeDateStamp' inType='win:UInt32'/><data name='Reserved0' "
    "inType='win:UInt32'/><data name='DefaultBase' inType='win:Pointer'/>"
    "<data name='Reserved1' inType='win:UInt32'/><data name='Reserved2' inType='win:UInt32'/>"
    "<data name='Reserved3' inType='win:UInt32'/><data name='Reserved4' inType='win:UInt32'/>"
    "<data name='FileName' inType='win:UnicodeString'/></template>"
    "<template tid='Image3'><data name='ImageBase' inType='win:Pointer'/>"
    "<data name='ImageSize' inType='win:Pointer'/><data name='ProcessId' "
    "inType='win:UInt32'/><data name='ImageCheckSum' inType='win:UInt32'/>"
    "<data name='TimeDateStamp' inType='win:UInt32'/><data name='SignatureLevel' "
    "inType='win:UInt8'/><data name='SignatureType' inType='win:UInt8'/>"
    "<data name='Reserved0' inType='win:UInt16'/><data name='DefaultBase' "
    "inType='win:Pointer'/><data name='Reserved1' inType='win:UInt32'/>"
    "<data name='Reserved2' inType='win:UInt32'/><data name='Reserved3' inType='win:UInt32'/>"
    "<data name='Reserved4' inType='win:UInt32'/><data name='FileName' "
    "inType='win:UnicodeString'/></template></templates></provider>"
    /* Thread_V2_TypeGroup1, Thread_TypeGroup1 (v3), CSwitch, ReadyThread. */
    "<provider name='Thread' guid='{3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c}'><events>"
    "<event value='1' version='2' symbol='Start' template='Thread2'/>"
    "<event value='2' version='2' symbol='End' template='Thread2'/>"
    "<event value='3' version='2' symbol='DCStart' template='Thread2'/>"
    "<event value='4' version='2' symbol='DCEnd' template='Thread2'/>"
    "<event value='1' version='3' symbol='Start' template='Thread3'/>"
    "<event value='2' version='3' symbol='End' template='Thread3'/>"
    "<event value='3' version='3' symbol='DCStart' template='Thread3'/>"
    "<event value='4' version='3' symbol='DCEnd' template='Thread3'/>"
    "<event value='36' version='2' symbol='CSwitch' template='CSwitch'/>"
    "<event value='36' version='4' symbol='CSwitch' template='CSwitch'/>"
    "<event value='50' version='2' symbol='ReadyThread' template='ReadyThread'/>"
    "</events><templates>"
    "<template tid='Thread2'><data name='ProcessId' inType='win:UInt32'/>"
    "<data name='TThreadId' inType='win:UInt32'/><data name='StackBase' "
    "inType='win:Pointer'/><data name='StackLimit' inType='win:Pointer'/>"
    "<data name='UserStackBase' inType='win:Pointer'/><data name='UserStackLimit' "
    "inType='win:Pointer'/><data name='StartAddr' inType='win:Pointer'/>"
    "<data name='Win32StartAddr' inType='win:Pointer'/><data name='TebBase' "
    "inType='win:Pointer'/><data name='SubProcessTag' inType='win:UInt32'/></template>"
    "<template tid='Thread3'><data name='ProcessId' inType='win:UInt32'/>"
    "<data name='TThreadId' inType='win:UInt32'/><data name='StackBase' "
    "inType='win:Pointer'/><data name='StackLimit' inType='win:Pointer'/>"
    "<data name='UserStackBase' inType='win:Pointer'/><data name='UserStackLimit' "
    "inType='win:Pointer'/><data name='Affinity' inType='win:Pointer'/>"
    "<data name='Win32StartAddr' inType='win:Pointer'/><data name='TebBase' "
    "inType='win:Pointer'/><data name='SubProcessTag' inType='win:UInt32'/>"
    "<data name='BasePriority' inType='win:UInt8'/><data name='PagePriority' "
    "inType='win:UInt8'/><data name='IoPriority' inType='win:UInt8'/>"
    "<data name='ThreadFlags' inType='win:UInt8'/></template>"
    "<template tid='CSwitch'><data name='NewThreadId' inType='win:UInt32'/>"
    "<data name='OldThreadId' inType='win:UInt32'/><data name='NewThreadPriority' "
    "inType='win:Int8'/><data name='OldThreadPriority' inType='win:Int8'/>"
    "<data name='PreviousCState' inType='win:UInt8'/><data name='SpareByte' "
    "inType='win:Int8'/><data name='OldThreadWaitReason' inType='win:Int8'/>"
    "<data name='OldThreadWaitMode' inType='win:Int8'/><data name='OldThreadState' "
    "inType='win:Int8'/><data name='OldThreadWaitIdealProcessor' inType='win:Int8'/>"
    "<data name='NewThreadWaitTime' inType='win:UInt32'/><data name='Reserved' "
    "inType='win:UInt32'/></template>"
    "<template tid='ReadyThread'><data name='TThreadId' inType='win:UInt32'/>"
    "<data name='AdjustReason' inType='win:Int8'/><data name='AdjustIncrement' "
    "inType='win:Int8'/><data name='Flag' inType='win:Int8'/><data name='Reserved' "
    "inType='win:Int8'/></template></templates></provider>"
    /* PerfInfo: SampledProfile, SysCallEnter, SysCallExit. */
    "<provider name='PerfInfo' guid='{ce1dbfb4-137e-4da6-87b0-3f59aa102cbc}'><events>"
    "<event value='46' version='2' symbol='SampleProf' template='SampledProfile'/>"
    "<event value='51' version='2' symbol='SysClEnter' template='SysCallEnter'/>"
    "<event value='52' version='2' symbol='SysClExit' template='SysCallExit'/>"
    "</events><templates>"
    "<template tid='SampledProfile'><data name='InstructionPointer' "
    "inType='win:Pointer'/><data name='ThreadId' inType='win:UInt32'/>"
    "<data name='Count' inType='win:UInt16'/><data name='Reserved' inType='win:UInt16'/>"
    "</template><template tid='SysCallEnter'><data name='SysCallAddress' "
    "inType='win:Pointer'/></template><template tid='SysCallExit'>"
    "<data name='SysCallNtStatus' inType='win:UInt32' outType='win:NTSTATUS'/></template>"
    "</templates></provider>"
    "</events></instrumentation></instrumentationManifest>";

int petw__kernel_schemas(petw__manifest **out)
{
    char error[200];
    return petw__manifest_parse(kernel_manifest, sizeof(kernel_manifest) - 1, out, error,
                                sizeof(error));
}
