/* SPDX-License-Identifier: MIT */
/* kernel_class.c - the NT Kernel Logger's classic (MOF) event classes in
 * one table: each class's MOF name, hook group and GUID, and its schema,
 * the instrumentation manifest fragment (events by opcode and version,
 * templates with the layouts Microsoft documents for each class,
 * docs.microsoft.com, "NT Kernel Logger" event classes) that decode/'s
 * kernel.c reads with the same parser as any other manifest. An event's
 * "value" is its opcode: classic records have no event id. The largest
 * schemas live beside the table: the SystemConfig classes' in
 * kernel_class_config.c, the I/O classes' (DiskIo, FileIo, TcpIp, UdpIp,
 * Registry) in kernel_class_io.c.
 *
 * Allowed dependencies: common/.
 *
 * Covered: KernelTraceControl's image identity events (what xperf and WPR
 * add beside Image events: ImageID, None, DbgID_NB10, DbgID_RSDS,
 * DbgID_ILRSDS, DbgPPDB, DbgEmbeddedPPDB, DbgDeterm, ImageIDError,
 * FileVersion), EventTrace (the file's header, the header extension,
 * rundown complete, opcode 80's partition information: the field layout of
 * Windows' _ETW_PARTITION_INFO_EXTENSION, with the MOF class's name;
 * LastDroppedTimes), SystemConfigEx and WinSat (what merged and relogged
 * files add: build, paths, volume names, network interfaces, device family;
 * WinSAT's compressed XML), Image (load, unload, rundown, KernelBase,
 * HypercallPage), Thread (start, end, rundown; CSwitch; ReadyThread;
 * SetName), PerfInfo (SampledProfile, SysCallEnter/Exit, ISR and MSI ISR,
 * DPC, threaded and timer DPC, Mark, the sampling interval's
 * CollectionStart/End), Process (v0 to v5; Defunct; Terminate; PerfCtr),
 * StackWalk (stacks, stack keys), DiskIo (v2, v3), FileIo (v2, v3), TcpIp
 * and UdpIp (v2, IPv4 and IPv6), Registry (v2), PageFault (v2: faults,
 * HardFault, VirtualAlloc, ImageLoadBacked), ALPC, SystemConfig (v2: CPU,
 * PhyDisk, LogDisk, NIC, Video, Services, Power, Network, OpticalDisk, IRQ,
 * PnP, IDEChannel, NumaNode, Platform, ProcessorGroup, ProcessorNumber,
 * DPI, CodeIntegrity, TelemetryConfiguration, Defragmentation,
 * MobilePlatform, DeviceFamily, FlightIds, Processors,
 * VirtualizationConfigInfo, BootConfigInfo; v3 CPU, Services, IRQ, PnP,
 * MobilePlatform; v4 and v5 PnP). Layouts from Microsoft's class pages
 * and the kernel's own MOF classes (the opcodes and versions past the
 * class pages), checked against TraceEvent's KernelTraceEventParser (its
 * offsets by version and pointer size) and against payloads Windows wrote.
 *
 * Two petw: extensions (manifest.h), which only this table may name:
 * petw:KernelSid, the TOKEN_USER-prefixed SID of Process events, and
 * count='petw:rest', an array to the payload's end (StackWalk's frames).
 *
 * Not yet: SystemConfig opcode 19 (PhysicalDiskEx: no public layout),
 * the thread name Windows 11 appends to Thread v3 events (decoded without
 * it), LZNT1 (WinSat's XML stays compressed), FileIo MapFile and v4,
 * Registry v0/v1, DiskIo driver events, PageFault's memory-info events.
 */
#include <string.h>

#include "kernel_class.h"

const petw__kernel_class petw__kernel_classes[PETW__KC_COUNT] = {
    /* EventTrace_Header: TRACE_LOGFILE_HEADER and the two names. */
    [PETW__KC_EVENT_TRACE] =
        {"EventTrace",
         PETW__GROUP_EVENT_TRACE,
         {0x68fdd900, 0x4a3e, 0x11d1, {0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3}},
         "<events>"
         "<event value='0' version='2' symbol='Header' template='Header'/>"
         "<event value='5' version='1' symbol='Extension' template='Extension1'/>"
         "<event value='5' version='2' symbol='Extension' template='Extension2'/>"
         "<event value='32' version='1' symbol='EndExtension' template='Extension1'/>"
         "<event value='32' version='2' symbol='EndExtension' template='Extension2'/>"
         "<event value='8' version='1' symbol='RundownComplete'/>"
         "<event value='8' version='2' symbol='RundownComplete'/>"
         "<event value='80' version='2' symbol='PartitionInfoExtensionV2' "
         "template='PartitionInfo2'/>"
         "<event value='82' version='2' symbol='LastDroppedTimes' template='LastDroppedTimes'/>"
         "</events><templates>"
         /* EventTrace_LastDroppedTimes: when the session last dropped events. */
         "<template tid='LastDroppedTimes'><data name='TimeStampCount' inType='win:UInt32'/>"
         "<data name='Padding' inType='win:UInt32'/><data name='TimeStamp' inType='win:UInt64' "
         "count='TimeStampCount'/></template>"
         /* EventTrace_PartitionInfoExtensionV2: the container partition a
          * Windows 10 2004+ session ran in (48 bytes, zeros on a host). */
         "<template tid='PartitionInfo2'><data name='EventVersion' inType='win:UInt16'/>"
         "<data name='Reserved' inType='win:UInt16'/><data name='PartitionType' "
         "inType='win:UInt32'/><data name='QpcOffsetFromRoot' inType='win:Int64'/>"
         "<data name='PartitionId' inType='win:GUID'/><data name='ParentId' inType='win:GUID'/>"
         "</template>"
         /* EventTrace_HeaderExtension (the enabled group masks). */
         "<template tid='Extension1'><data name='GroupMask1' inType='win:HexInt32'/>"
         "<data name='GroupMask2' inType='win:HexInt32'/><data name='GroupMask3' "
         "inType='win:HexInt32'/><data name='GroupMask4' inType='win:HexInt32'/>"
         "<data name='GroupMask5' inType='win:HexInt32'/><data name='GroupMask6' "
         "inType='win:HexInt32'/><data name='GroupMask7' inType='win:HexInt32'/>"
         "<data name='GroupMask8' inType='win:HexInt32'/></template>"
         "<template tid='Extension2'><data name='GroupMask1' inType='win:HexInt32'/>"
         "<data name='GroupMask2' inType='win:HexInt32'/><data name='GroupMask3' "
         "inType='win:HexInt32'/><data name='GroupMask4' inType='win:HexInt32'/>"
         "<data name='GroupMask5' inType='win:HexInt32'/><data name='GroupMask6' "
         "inType='win:HexInt32'/><data name='GroupMask7' inType='win:HexInt32'/>"
         "<data name='GroupMask8' inType='win:HexInt32'/><data name='KernelEventVersion' "
         "inType='win:UInt32'/></template>"
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
         "</templates>"},
    /* KernelTraceControl's ImageID events (xperf and WPR add them beside
     * Image events when they merge a trace, so symbols can be found off the
     * recording machine), one per debug directory entry of an image: the
     * opcode says which. Layouts as TraceEvent's KernelTraceControl parser
     * reads them (pointer-sized fields by the event's pointer size), which
     * reads every version alike: Windows writes versions 0 to 2 (FileVersion
     * as 0 and 2, DbgDeterm as 1), so each opcode takes those three.
     * Opcodes 34, 39 and 41 are in no public parser; petw names them, with
     * layouts read off real payloads: 34 (DbgID_NB10, an image whose
     * symbols are a .dbg file) has the checksum, timestamp and size the
     * image's Image event has; 39 has the version pair 0x0100/0x0100 the PE
     * format gives an embedded portable PDB's entry, then a GUID and an age;
     * 41 is the text of a failure to open the image. */
    [PETW__KC_KERNEL_TRACE_CONTROL] =
        {"KernelTraceControl",
         PETW__GROUP_NONE,
         {0xb3e675d7, 0x2554, 0x4f18, {0x83, 0x0b, 0x27, 0x62, 0x73, 0x25, 0x60, 0xde}},
         "<events>"
         "<event value='0' version='0' symbol='ImageID' template='ImageID'/>"
         "<event value='0' version='1' symbol='ImageID' template='ImageID'/>"
         "<event value='0' version='2' symbol='ImageID' template='ImageID'/>"
         "<event value='32' version='0' symbol='None' template='DbgIDNone'/>"
         "<event value='32' version='1' symbol='None' template='DbgIDNone'/>"
         "<event value='32' version='2' symbol='None' template='DbgIDNone'/>"
         "<event value='34' version='0' symbol='DbgID_NB10' template='DbgID_NB10'/>"
         "<event value='34' version='1' symbol='DbgID_NB10' template='DbgID_NB10'/>"
         "<event value='34' version='2' symbol='DbgID_NB10' template='DbgID_NB10'/>"
         "<event value='36' version='0' symbol='DbgID_RSDS' template='DbgID_RSDS'/>"
         "<event value='36' version='1' symbol='DbgID_RSDS' template='DbgID_RSDS'/>"
         "<event value='36' version='2' symbol='DbgID_RSDS' template='DbgID_RSDS'/>"
         "<event value='37' version='0' symbol='DbgID_ILRSDS' template='DbgID_RSDS'/>"
         "<event value='37' version='1' symbol='DbgID_ILRSDS' template='DbgID_RSDS'/>"
         "<event value='37' version='2' symbol='DbgID_ILRSDS' template='DbgID_RSDS'/>"
         "<event value='38' version='0' symbol='DbgPPDB' template='DbgPPDB'/>"
         "<event value='38' version='1' symbol='DbgPPDB' template='DbgPPDB'/>"
         "<event value='38' version='2' symbol='DbgPPDB' template='DbgPPDB'/>"
         "<event value='39' version='0' symbol='DbgEmbeddedPPDB' template='DbgEmbeddedPPDB'/>"
         "<event value='39' version='1' symbol='DbgEmbeddedPPDB' template='DbgEmbeddedPPDB'/>"
         "<event value='39' version='2' symbol='DbgEmbeddedPPDB' template='DbgEmbeddedPPDB'/>"
         "<event value='40' version='0' symbol='DbgDeterm' template='DbgIDNone'/>"
         "<event value='40' version='1' symbol='DbgDeterm' template='DbgIDNone'/>"
         "<event value='40' version='2' symbol='DbgDeterm' template='DbgIDNone'/>"
         "<event value='41' version='0' symbol='ImageIDError' template='ImageIDError'/>"
         "<event value='41' version='1' symbol='ImageIDError' template='ImageIDError'/>"
         "<event value='41' version='2' symbol='ImageIDError' template='ImageIDError'/>"
         "<event value='64' version='0' symbol='FileVersion' template='FileVersion'/>"
         "<event value='64' version='1' symbol='FileVersion' template='FileVersion'/>"
         "<event value='64' version='2' symbol='FileVersion' template='FileVersion'/>"
         "</events><templates>"
         "<template tid='DbgIDNone'><data name='ImageBase' inType='win:Pointer'/>"
         "<data name='ProcessId' inType='win:UInt32'/></template>"
         "<template tid='DbgID_NB10'><data name='ImageBase' inType='win:Pointer'/>"
         "<data name='ProcessId' inType='win:UInt32'/><data name='ImageCheckSum' "
         "inType='win:UInt32'/><data name='TimeDateStamp' inType='win:UInt32'/>"
         "<data name='ImageSize' inType='win:UInt32'/><data name='DbgFileName' "
         "inType='win:UnicodeString'/></template>"
         "<template tid='DbgPPDB'><data name='ImageBase' inType='win:Pointer'/>"
         "<data name='ProcessId' inType='win:UInt32'/><data name='TimeDateStamp' "
         "inType='win:UInt32'/><data name='MajorVersion' inType='win:UInt16' "
         "outType='win:HexInt16'/>"
         "<data name='MinorVersion' inType='win:UInt16' outType='win:HexInt16'/></template>"
         "<template tid='DbgEmbeddedPPDB'><data name='ImageBase' inType='win:Pointer'/>"
         "<data name='ProcessId' inType='win:UInt32'/><data name='MajorVersion' "
         "inType='win:UInt16' outType='win:HexInt16'/><data name='MinorVersion' "
         "inType='win:UInt16' "
         "outType='win:HexInt16'/>"
         "<data name='GuidSig' inType='win:GUID'/><data name='Age' inType='win:UInt32'/>"
         "</template>"
         "<template tid='ImageIDError'><data name='Message' inType='win:UnicodeString'/>"
         "</template>"
         "<template tid='ImageID'><data name='ImageBase' inType='win:Pointer'/>"
         "<data name='ImageSize' inType='win:Pointer'/><data name='ProcessId' "
         "inType='win:UInt32'/><data name='TimeDateStamp' inType='win:UInt32'/>"
         "<data name='OriginalFileName' inType='win:UnicodeString'/></template>"
         "<template tid='DbgID_RSDS'><data name='ImageBase' inType='win:Pointer'/>"
         "<data name='ProcessId' inType='win:UInt32'/><data name='GuidSig' inType='win:GUID'/>"
         "<data name='Age' inType='win:UInt32'/><data name='PdbFileName' "
         "inType='win:AnsiString'/></template>"
         "<template tid='FileVersion'><data name='ImageSize' inType='win:UInt32'/>"
         "<data name='TimeDateStamp' inType='win:UInt32'/><data name='OrigFileName' "
         "inType='win:UnicodeString'/><data name='FileDescription' inType='win:UnicodeString'/>"
         "<data name='FileVersion' inType='win:UnicodeString'/><data name='BinFileVersion' "
         "inType='win:UnicodeString'/><data name='VerLanguage' inType='win:UnicodeString'/>"
         "<data name='ProductName' inType='win:UnicodeString'/><data name='CompanyName' "
         "inType='win:UnicodeString'/><data name='ProductVersion' inType='win:UnicodeString'/>"
         "<data name='FileId' inType='win:UnicodeString'/><data name='ProgramId' "
         "inType='win:UnicodeString'/></template></templates>"},
    /* Image_Load: version 2, and 3 (signature level and type). */
    [PETW__KC_IMAGE] =
        {"Image",
         PETW__GROUP_IMAGE,
         {0x2cb15d1d, 0x5fc1, 0x11d2, {0xab, 0xe1, 0x00, 0xa0, 0xc9, 0x11, 0xf5, 0x18}},
         "<events>"
         "<event value='10' version='2' symbol='Load' template='Image2'/>"
         "<event value='2' version='2' symbol='UnLoad' template='Image2'/>"
         "<event value='3' version='2' symbol='DCStart' template='Image2'/>"
         "<event value='4' version='2' symbol='DCEnd' template='Image2'/>"
         "<event value='10' version='3' symbol='Load' template='Image3'/>"
         "<event value='2' version='3' symbol='UnLoad' template='Image3'/>"
         "<event value='3' version='3' symbol='DCStart' template='Image3'/>"
         "<event value='4' version='3' symbol='DCEnd' template='Image3'/>"
         "<event value='33' version='2' symbol='KernelBase' template='KernelBase'/>"
         "<event value='34' version='2' symbol='HypercallPage' template='HypercallPage'/>"
         "</events><templates>"
         "<template tid='KernelBase'><data name='ImageBase' inType='win:Pointer'/></template>"
         "<template tid='HypercallPage'><data name='HypercallPageVa' inType='win:Pointer'/>"
         "</template>"
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
         "inType='win:UnicodeString'/></template></templates>"},
    /* Thread_V2_TypeGroup1, Thread_TypeGroup1 (v3), CSwitch, ReadyThread. */
    [PETW__KC_THREAD] =
        {"Thread",
         PETW__GROUP_THREAD,
         {0x3d6fa8d1, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}},
         "<events>"
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
         "<event value='72' version='2' symbol='SetName' template='SetName'/>"
         "</events><templates>"
         "<template tid='SetName'><data name='ProcessId' inType='win:UInt32'/>"
         "<data name='ThreadId' inType='win:UInt32'/><data name='ThreadName' "
         "inType='win:UnicodeString'/></template>"
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
         "inType='win:Int8'/></template></templates>"},
    /* PerfInfo: SampledProfile, SysCallEnter, SysCallExit, ISR (and MSI ISR), DPC
     * (threaded, timer). */
    [PETW__KC_PERFINFO] =
        {"PerfInfo",
         PETW__GROUP_PERFINFO,
         {0xce1dbfb4, 0x137e, 0x4da6, {0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc}},
         "<events>"
         "<event value='46' version='2' symbol='SampleProf' template='SampledProfile'/>"
         "<event value='51' version='2' symbol='SysClEnter' template='SysCallEnter'/>"
         "<event value='52' version='2' symbol='SysClExit' template='SysCallExit'/>"
         "<event value='67' version='2' symbol='ISR' template='ISR'/>"
         "<event value='50' version='2' symbol='ISR-MSI' template='ISR-MSI'/>"
         "<event value='66' version='2' symbol='ThreadedDPC' template='DPC'/>"
         "<event value='68' version='2' symbol='DPC' template='DPC'/>"
         "<event value='69' version='2' symbol='TimerDPC' template='DPC'/>"
         "<event value='34' version='0' symbol='Mark' template='Mark'/>"
         "<event value='73' version='2' symbol='CollectionStart' template='Interval2'/>"
         "<event value='74' version='2' symbol='CollectionEnd' template='Interval2'/>"
         "<event value='73' version='3' symbol='CollectionStart' template='Interval3'/>"
         "<event value='74' version='3' symbol='CollectionEnd' template='Interval3'/>"
         "</events><templates>"
         "<template tid='Mark'><data name='Message' inType='win:AnsiString'/></template>"
         "<template tid='Interval2'><data name='Source' inType='win:UInt32'/>"
         "<data name='NewInterval' inType='win:UInt32'/><data name='OldInterval' "
         "inType='win:UInt32'/></template>"
         "<template tid='Interval3'><data name='Source' inType='win:UInt32'/>"
         "<data name='NewInterval' inType='win:UInt32'/><data name='OldInterval' "
         "inType='win:UInt32'/><data name='SourceName' inType='win:UnicodeString'/></template>"
         "<template tid='SampledProfile'><data name='InstructionPointer' "
         "inType='win:Pointer'/><data name='ThreadId' inType='win:UInt32'/>"
         "<data name='Count' inType='win:UInt16'/><data name='Reserved' inType='win:UInt16'/>"
         "</template><template tid='SysCallEnter'><data name='SysCallAddress' "
         "inType='win:Pointer'/></template><template tid='SysCallExit'>"
         "<data name='SysCallNtStatus' inType='win:UInt32' outType='win:NTSTATUS'/></template>"
         "<template tid='ISR'><data name='InitialTime' inType='win:UInt64'/><data name='Routine' "
         "inType='win:Pointer'/><data name='ReturnValue' inType='win:UInt8'/><data name='Vector' "
         "inType='win:UInt16'/><data name='Reserved' inType='win:UInt8'/></template>"
         "<template tid='ISR-MSI'><data name='InitialTime' inType='win:UInt64'/><data "
         "name='Routine' "
         "inType='win:Pointer'/><data name='ReturnValue' inType='win:UInt8'/><data name='Vector' "
         "inType='win:UInt16'/><data name='Reserved' inType='win:UInt8'/><data "
         "name='MessageNumber' "
         "inType='win:UInt32'/></template>"
         "<template tid='DPC'><data name='InitialTime' inType='win:UInt64'/><data name='Routine' "
         "inType='win:Pointer'/></template>"
         "</templates>"},
    /* Process_V0/V1/V2_TypeGroup1, Process_TypeGroup1 (v3, v4): the user SID (petw:KernelSid)
       is the TOKEN_USER the kernel logs ahead of the SID. Process_Terminate, and
       Process_V2_TypeGroup2 (PerfCtr). */
    [PETW__KC_PROCESS] =
        {"Process",
         PETW__GROUP_PROCESS,
         {0x3d6fa8d0, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}},
         "<events>"
         "<event value='1' version='0' symbol='Start' template='Process0'/>"
         "<event value='2' version='0' symbol='End' template='Process0'/>"
         "<event value='3' version='0' symbol='DCStart' template='Process0'/>"
         "<event value='4' version='0' symbol='DCEnd' template='Process0'/>"
         "<event value='1' version='1' symbol='Start' template='Process1'/>"
         "<event value='2' version='1' symbol='End' template='Process1'/>"
         "<event value='3' version='1' symbol='DCStart' template='Process1'/>"
         "<event value='4' version='1' symbol='DCEnd' template='Process1'/>"
         "<event value='1' version='2' symbol='Start' template='Process2'/>"
         "<event value='2' version='2' symbol='End' template='Process2'/>"
         "<event value='3' version='2' symbol='DCStart' template='Process2'/>"
         "<event value='4' version='2' symbol='DCEnd' template='Process2'/>"
         "<event value='39' version='2' symbol='Defunct' template='Process2'/>"
         "<event value='1' version='3' symbol='Start' template='Process3'/>"
         "<event value='2' version='3' symbol='End' template='Process3'/>"
         "<event value='3' version='3' symbol='DCStart' template='Process3'/>"
         "<event value='4' version='3' symbol='DCEnd' template='Process3'/>"
         "<event value='39' version='3' symbol='Defunct' template='Process3'/>"
         "<event value='1' version='4' symbol='Start' template='Process4'/>"
         "<event value='2' version='4' symbol='End' template='Process4'/>"
         "<event value='3' version='4' symbol='DCStart' template='Process4'/>"
         "<event value='4' version='4' symbol='DCEnd' template='Process4'/>"
         "<event value='39' version='4' symbol='Defunct' template='Process4'/>"
         "<event value='1' version='5' symbol='Start' template='Process5'/>"
         "<event value='2' version='5' symbol='End' template='Process5'/>"
         "<event value='3' version='5' symbol='DCStart' template='Process5'/>"
         "<event value='4' version='5' symbol='DCEnd' template='Process5'/>"
         "<event value='39' version='5' symbol='Defunct' template='Process5'/>"
         "<event value='11' version='2' symbol='Terminate' template='Terminate'/>"
         "<event value='32' version='2' symbol='PerfCtr' template='PerfCtr'/>"
         "<event value='33' version='2' symbol='PerfCtrRundown' template='PerfCtr'/></events>"
         "<templates><template tid='Process0'><data name='ProcessId' inType='win:Pointer'/>"
         "<data name='ParentId' inType='win:Pointer'/>"
         "<data name='UserSID' inType='petw:KernelSid'/>"
         "<data name='ImageFileName' inType='win:AnsiString'/></template><template tid='Process1'>"
         "<data name='PageDirectoryBase' inType='win:Pointer'/>"
         "<data name='ProcessId' inType='win:UInt32'/><data name='ParentId' inType='win:UInt32'/>"
         "<data name='SessionId' inType='win:UInt32'/><data name='ExitStatus' inType='win:Int32'/>"
         "<data name='UserSID' inType='petw:KernelSid'/>"
         "<data name='ImageFileName' inType='win:AnsiString'/></template><template tid='Process2'>"
         "<data name='UniqueProcessKey' inType='win:Pointer'/>"
         "<data name='ProcessId' inType='win:UInt32'/><data name='ParentId' inType='win:UInt32'/>"
         "<data name='SessionId' inType='win:UInt32'/><data name='ExitStatus' inType='win:Int32'/>"
         "<data name='UserSID' inType='petw:KernelSid'/>"
         "<data name='ImageFileName' inType='win:AnsiString'/>"
         "<data name='CommandLine' inType='win:UnicodeString'/></template>"
         "<template tid='Process3'><data name='UniqueProcessKey' inType='win:Pointer'/>"
         "<data name='ProcessId' inType='win:UInt32'/><data name='ParentId' inType='win:UInt32'/>"
         "<data name='SessionId' inType='win:UInt32'/><data name='ExitStatus' inType='win:Int32'/>"
         "<data name='DirectoryTableBase' inType='win:Pointer'/>"
         "<data name='UserSID' inType='petw:KernelSid'/>"
         "<data name='ImageFileName' inType='win:AnsiString'/>"
         "<data name='CommandLine' inType='win:UnicodeString'/></template>"
         "<template tid='Process4'><data name='UniqueProcessKey' inType='win:Pointer'/>"
         "<data name='ProcessId' inType='win:UInt32'/><data name='ParentId' inType='win:UInt32'/>"
         "<data name='SessionId' inType='win:UInt32'/><data name='ExitStatus' inType='win:Int32'/>"
         "<data name='DirectoryTableBase' inType='win:Pointer'/>"
         "<data name='Flags' inType='win:HexInt32'/><data name='UserSID' inType='petw:KernelSid'/>"
         "<data name='ImageFileName' inType='win:AnsiString'/>"
         "<data name='CommandLine' inType='win:UnicodeString'/>"
         "<data name='PackageFullName' inType='win:UnicodeString'/>"
         "<data name='ApplicationId' inType='win:UnicodeString'/></template>"
         "<template tid='Process5'><data name='UniqueProcessKey' inType='win:Pointer'/>"
         "<data name='ProcessId' inType='win:UInt32'/><data name='ParentId' inType='win:UInt32'/>"
         "<data name='SessionId' inType='win:UInt32'/><data name='ExitStatus' inType='win:Int32'/>"
         "<data name='DirectoryTableBase' inType='win:Pointer'/>"
         "<data name='Flags' inType='win:HexInt32'/><data name='UserSID' inType='petw:KernelSid'/>"
         "<data name='ImageFileName' inType='win:AnsiString'/>"
         "<data name='CommandLine' inType='win:UnicodeString'/>"
         "<data name='PackageFullName' inType='win:UnicodeString'/>"
         "<data name='ApplicationId' inType='win:UnicodeString'/>"
         "<data name='CreateTime' inType='win:FILETIME'/></template>"
         "<template tid='Terminate'><data name='ProcessId' inType='win:UInt32'/></template>"
         "<template tid='PerfCtr'><data name='ProcessId' inType='win:UInt32'/>"
         "<data name='PageFaultCount' inType='win:UInt32'/>"
         "<data name='HandleCount' inType='win:UInt32'/>"
         "<data name='Reserved' inType='win:UInt32'/>"
         "<data name='PeakVirtualSize' inType='win:Pointer'/>"
         "<data name='PeakWorkingSetSize' inType='win:Pointer'/>"
         "<data name='PeakPagefileUsage' inType='win:Pointer'/>"
         "<data name='QuotaPeakPagedPoolUsage' inType='win:Pointer'/>"
         "<data name='QuotaPeakNonPagedPoolUsage' inType='win:Pointer'/>"
         "<data name='VirtualSize' inType='win:Pointer'/>"
         "<data name='WorkingSetSize' inType='win:Pointer'/>"
         "<data name='PagefileUsage' inType='win:Pointer'/>"
         "<data name='QuotaPagedPoolUsage' inType='win:Pointer'/>"
         "<data name='QuotaNonPagedPoolUsage' inType='win:Pointer'/>"
         "<data name='PrivatePageCount' inType='win:Pointer'/></template></templates>"},
    /* StackWalk_Event: the frames fill the rest of the record (petw:rest); the stack key
       events (Windows 8 and later) name a stack logged once. */
    [PETW__KC_STACKWALK] =
        {"StackWalk",
         PETW__GROUP_STACKWALK,
         {0xdef2fe46, 0x7bd6, 0x4b80, {0xbd, 0x94, 0xf5, 0x7f, 0xe2, 0x0d, 0x0c, 0xe3}},
         "<events>"
         "<event value='32' version='2' symbol='Stack' template='Stack'/>"
         "<event value='37' version='2' symbol='StackKeyKernel' template='StackKey'/>"
         "<event value='38' version='2' symbol='StackKeyUser' template='StackKey'/>"
         "<event value='35' version='2' symbol='KeyDelete' template='StackKeyDef'/>"
         "<event value='36' version='2' symbol='KeyRundown' template='StackKeyDef'/></events>"
         "<templates><template tid='Stack'><data name='EventTimeStamp' inType='win:UInt64'/>"
         "<data name='StackProcess' inType='win:UInt32'/>"
         "<data name='StackThread' inType='win:UInt32'/>"
         "<data name='Stack' inType='win:Pointer' count='petw:rest'/></template>"
         "<template tid='StackKey'><data name='EventTimeStamp' inType='win:UInt64'/>"
         "<data name='StackProcess' inType='win:UInt32'/>"
         "<data name='StackThread' inType='win:UInt32'/>"
         "<data name='StackKey' inType='win:Pointer'/></template><template tid='StackKeyDef'>"
         "<data name='StackKey' inType='win:Pointer'/>"
         "<data name='Stack' inType='win:Pointer' count='petw:rest'/></template></templates>"},
    [PETW__KC_DISK_IO] =
        {"DiskIo",
         PETW__GROUP_DISK_IO,
         {0x3d6fa8d4, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}},
         petw__kc_schema_disk_io},
    [PETW__KC_FILE_IO] =
        {"FileIo",
         PETW__GROUP_FILE_IO,
         {0x90cbdc39, 0x4a3e, 0x11d1, {0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3}},
         petw__kc_schema_file_io},
    [PETW__KC_TCPIP] =
        {"TcpIp",
         PETW__GROUP_TCPIP,
         {0x9a280ac0, 0xc8e0, 0x11d1, {0x84, 0xe2, 0x00, 0xc0, 0x4f, 0xb9, 0x98, 0xa2}},
         petw__kc_schema_tcpip},
    [PETW__KC_UDPIP] =
        {"UdpIp",
         PETW__GROUP_UDPIP,
         {0xbf3a50c5, 0xa9c9, 0x4988, {0xa0, 0x05, 0x2d, 0xf0, 0xb7, 0xc8, 0x0f, 0x80}},
         petw__kc_schema_udpip},
    [PETW__KC_REGISTRY] =
        {"Registry",
         PETW__GROUP_REGISTRY,
         {0xae53722e, 0xc863, 0x11d2, {0x86, 0x59, 0x00, 0xc0, 0x4f, 0xa3, 0x21, 0xa1}},
         petw__kc_schema_registry},
    /* PageFault_TypeGroup1, PageFault_HardFault, PageFault_VirtualAlloc,
       PageFault_ImageLoadBacked (version 2). */
    [PETW__KC_PAGE_FAULT] =
        {"PageFault",
         PETW__GROUP_PAGE_FAULT,
         {0x3d6fa8d3, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}},
         "<events>"
         "<event value='10' version='2' symbol='TransitionFault' template='Fault'/>"
         "<event value='11' version='2' symbol='DemandZeroFault' template='Fault'/>"
         "<event value='12' version='2' symbol='CopyOnWrite' template='Fault'/>"
         "<event value='13' version='2' symbol='GuardPageFault' template='Fault'/>"
         "<event value='14' version='2' symbol='HardPageFault' template='Fault'/>"
         "<event value='15' version='2' symbol='AccessViolation' template='Fault'/>"
         "<event value='32' version='2' symbol='HardFault' template='HardFault'/>"
         "<event value='98' version='2' symbol='VirtualAlloc' template='VirtualAlloc'/>"
         "<event value='99' version='2' symbol='VirtualFree' template='VirtualAlloc'/>"
         "<event value='105' version='2' symbol='ImageLoadBacked' template='ImageLoadBacked'/>"
         "</events><templates><template tid='Fault'>"
         "<data name='VirtualAddress' inType='win:Pointer'/>"
         "<data name='ProgramCounter' inType='win:Pointer'/></template><template tid='HardFault'>"
         "<data name='InitialTime' inType='win:Int64'/>"
         "<data name='ReadOffset' inType='win:UInt64'/>"
         "<data name='VirtualAddress' inType='win:Pointer'/>"
         "<data name='FileObject' inType='win:Pointer'/>"
         "<data name='TThreadId' inType='win:UInt32'/><data name='ByteCount' inType='win:UInt32'/>"
         "</template><template tid='VirtualAlloc'><data name='BaseAddress' inType='win:Pointer'/>"
         "<data name='RegionSize' inType='win:Pointer'/>"
         "<data name='ProcessId' inType='win:UInt32'/><data name='Flags' inType='win:HexInt32'/>"
         "</template><template tid='ImageLoadBacked'>"
         "<data name='FileObject' inType='win:Pointer'/>"
         "<data name='DeviceChar' inType='win:UInt32'/><data name='FileChar' inType='win:UInt16'/>"
         "<data name='LoadFlags' inType='win:UInt16'/></template></templates>"},
    /* ALPC (version 2): send, receive, wait for reply or for a new message, unwait. */
    [PETW__KC_ALPC] =
        {"ALPC",
         PETW__GROUP_ALPC,
         {0x45d8cccd, 0x539f, 0x4b72, {0xa8, 0xb7, 0x5c, 0x68, 0x31, 0x42, 0x60, 0x9a}},
         "<events>"
         "<event value='33' version='2' symbol='ALPC-Send-Message' template='Msg'/>"
         "<event value='34' version='2' symbol='ALPC-Receive-Message' template='Msg'/>"
         "<event value='35' version='2' symbol='ALPC-Wait-For-Reply' template='Msg'/>"
         "<event value='36' version='2' symbol='ALPC-Wait-For-New-Message' template='WaitNew'/>"
         "<event value='37' version='2' symbol='ALPC-Unwait' template='Unwait'/></events>"
         "<templates><template tid='Msg'><data name='MessageID' inType='win:UInt32'/></template>"
         "<template tid='WaitNew'><data name='IsServerPort' inType='win:UInt32'/>"
         "<data name='PortName' inType='win:AnsiString'/></template><template tid='Unwait'>"
         "<data name='Status' inType='win:UInt32' outType='win:NTSTATUS'/></template></templates>"},
    [PETW__KC_SYSTEM_CONFIG] =
        {"SystemConfig",
         PETW__GROUP_CONFIG,
         {0x01853a65, 0x418f, 0x4f36, {0xae, 0xfc, 0xdc, 0x0f, 0x1d, 0x2f, 0xd2, 0x35}},
         petw__kc_schema_system_config},
    [PETW__KC_SYSTEM_CONFIG_EX] =
        {"SystemConfigEx",
         PETW__GROUP_NONE,
         {0x9b79ee91, 0xb5fd, 0x41c0, {0xa2, 0x43, 0x42, 0x48, 0xe2, 0x66, 0xe9, 0xd0}},
         petw__kc_schema_system_config_ex},
    /* WinSAT's assessment XML that merging adds: a state, the XML's size,
     * then the XML compressed with LZNT1 (kept as bytes: petw does not
     * decompress LZNT1). */
    [PETW__KC_WINSAT] =
        {"WinSat",
         PETW__GROUP_NONE,
         {0xed54dff8, 0xc409, 0x4cf6, {0xbf, 0x83, 0x05, 0xe1, 0xe6, 0x1a, 0x09, 0xc4}},
         "<events>"
         "<event value='33' version='0' symbol='WinSPR' template='WinSatXml'/>"
         "<event value='35' version='0' symbol='Metrics' template='WinSatXml'/>"
         "<event value='37' version='0' symbol='SystemConfig' template='WinSatXml'/>"
         "</events><templates><template tid='WinSatXml'><data name='State' inType='win:UInt32'/>"
         "<data name='UncompressedLength' inType='win:UInt32'/>"
         "<data name='CompressedXml' inType='win:Binary'/></template></templates>"},
};

const petw__kernel_class *petw__kernel_class_by_guid(const petw_guid *guid)
{
    for (size_t k = 0; k < PETW__KC_COUNT; k++)
        if (petw__kernel_classes[k].group != PETW__GROUP_NONE &&
            petw_guid_equal(&petw__kernel_classes[k].guid, guid))
            return &petw__kernel_classes[k];
    return NULL;
}

const petw__kernel_class *petw__kernel_class_by_name(const char *name)
{
    for (size_t k = 0; k < PETW__KC_COUNT; k++)
        if (petw__kernel_classes[k].group != PETW__GROUP_NONE &&
            !strcmp(petw__kernel_classes[k].name, name))
            return &petw__kernel_classes[k];
    return NULL;
}

const petw__kernel_class *petw__kernel_class_by_hook(uint16_t hook)
{
    uint16_t group = (uint8_t)(hook >> 8);
    if (hook == PETW__HOOK_IMAGE_LOAD)
        group = PETW__GROUP_IMAGE;
    for (size_t k = 0; k < PETW__KC_COUNT; k++)
        if (petw__kernel_classes[k].group == group)
            return &petw__kernel_classes[k];
    return NULL;
}
