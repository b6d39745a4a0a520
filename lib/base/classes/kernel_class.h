/* SPDX-License-Identifier: MIT */
/* kernel_class.h - the NT Kernel Logger's event classes, written once: each
 * class's MOF name, GUID and hook group (the table, kernel_class.c, with
 * each class's schema: its events by opcode and version and their
 * layouts, as a manifest fragment), and here the opcodes, versions and
 * fixed payload offsets that the recorder writes and the model reads at
 * fixed offsets. The recorder (system/), the record decoder (format/),
 * the field decoder (decode/), the model (analysis/), the ETW surface and,
 * through consume's petw_kernel_class_name/_guid, the tools read them
 * here: adding a class is a row of the table, its source and its view.
 *
 * Allowed dependencies: common/.
 */
#ifndef PETW_KERNEL_CLASS_H
#define PETW_KERNEL_CLASS_H

#include "petw/types.h"

/* The classes: indexes of petw__kernel_classes. */
typedef enum petw__kernel_class_id {
    PETW__KC_EVENT_TRACE,
    PETW__KC_KERNEL_TRACE_CONTROL, /* xperf's and WPR's image identity (no hook group) */
    PETW__KC_IMAGE,
    PETW__KC_THREAD,
    PETW__KC_PERFINFO,
    PETW__KC_PROCESS,
    PETW__KC_STACKWALK,
    PETW__KC_DISK_IO,
    PETW__KC_FILE_IO,
    PETW__KC_TCPIP,
    PETW__KC_UDPIP,
    PETW__KC_REGISTRY,
    PETW__KC_PAGE_FAULT,
    PETW__KC_ALPC,
    PETW__KC_SYSTEM_CONFIG,
    PETW__KC_SYSTEM_CONFIG_EX, /* what merged files add (no hook group) */
    PETW__KC_WINSAT,           /* WinSAT's XML merged files add (no hook group) */
    PETW__KC_COUNT
} petw__kernel_class_id;

/* Hook groups: a classic record's HookId is group << 8 | opcode (ntwmi.h's
 * EVENT_TRACE_GROUP_*). PETW__GROUP_NONE: a class logged with its GUID. */
#define PETW__GROUP_EVENT_TRACE 0x00
#define PETW__GROUP_DISK_IO 0x01
#define PETW__GROUP_PAGE_FAULT 0x02
#define PETW__GROUP_PROCESS 0x03
#define PETW__GROUP_FILE_IO 0x04
#define PETW__GROUP_THREAD 0x05
#define PETW__GROUP_TCPIP 0x06
#define PETW__GROUP_UDPIP 0x08
#define PETW__GROUP_REGISTRY 0x09
#define PETW__GROUP_CONFIG 0x0B
#define PETW__GROUP_PERFINFO 0x0F
#define PETW__GROUP_IMAGE 0x14
#define PETW__GROUP_STACKWALK 0x18
#define PETW__GROUP_ALPC 0x1A
#define PETW__GROUP_NONE 0xFFFF

typedef struct petw__kernel_class {
    const char *name; /* the MOF class's name: "Thread", "PerfInfo", ... */
    uint16_t group;   /* PETW__GROUP_* */
    petw_guid guid;
    const char *schema; /* "<events>...</events><templates>...</templates>" */
} petw__kernel_class;

extern const petw__kernel_class petw__kernel_classes[PETW__KC_COUNT];

#define PETW__KC_GUID(id) (&petw__kernel_classes[id].guid)

/* The SystemConfig and SystemConfigEx classes' schemas (kernel_class_config.c),
 * which the table points to. */
extern const char petw__kc_schema_system_config[];
extern const char petw__kc_schema_system_config_ex[];
/* The I/O classes' schemas (kernel_class_io.c), which the table points to. */
extern const char petw__kc_schema_disk_io[];
extern const char petw__kc_schema_file_io[];
extern const char petw__kc_schema_tcpip[];
extern const char petw__kc_schema_udpip[];
extern const char petw__kc_schema_registry[];

/* The class whose GUID is `guid` (hook-group classes only), or NULL. */
const petw__kernel_class *petw__kernel_class_by_guid(const petw_guid *guid);
/* The class named `name` (hook-group classes only), or NULL. */
const petw__kernel_class *petw__kernel_class_by_name(const char *name);
/* The class of a classic record's HookId, or NULL (image loads, logged in
 * the process group as Windows logs them, are the Image class's). */
const petw__kernel_class *petw__kernel_class_by_hook(uint16_t hook);

/* ---- Opcodes (the event's "value" in its schema) ---- */

#define PETW__OP_START 1 /* Process, Thread: Start, End, DCStart (rundown), DCEnd */
#define PETW__OP_END 2
#define PETW__OP_DCSTART 3
#define PETW__OP_DCEND 4
#define PETW__OP_PROCESS_DEFUNCT 39
#define PETW__OP_THREAD_CSWITCH 36
#define PETW__OP_THREAD_READY 50
#define PETW__OP_THREAD_SET_NAME 72
#define PETW__OP_IMAGE_LOAD 10 /* Image: UnLoad, DCStart, DCEnd are 2, 3, 4 */
#define PETW__OP_IMAGE_UNLOAD 2
#define PETW__OP_PERFINFO_SAMPLED_PROFILE 46
#define PETW__OP_PERFINFO_SET_INTERVAL 72
#define PETW__OP_PERFINFO_COLLECTION_START 73
#define PETW__OP_STACKWALK_STACK 32
#define PETW__OP_STACKWALK_KEY_DELETE 35
#define PETW__OP_STACKWALK_KEY_RUNDOWN 36
#define PETW__OP_STACKWALK_KEY_KERNEL 37
#define PETW__OP_STACKWALK_KEY_USER 38
#define PETW__OP_DISK_READ 10
#define PETW__OP_DISK_WRITE 11
#define PETW__OP_FILE_NAME 0 /* FileIo: the name events, keyed by FileKey */
#define PETW__OP_FILE_FILE_CREATE 32
#define PETW__OP_FILE_FILE_DELETE 35
#define PETW__OP_FILE_RUNDOWN 36
#define PETW__OP_FILE_CREATE 64 /* FileIo: the operations, then their OperationEnd */
#define PETW__OP_FILE_CLEANUP 65
#define PETW__OP_FILE_CLOSE 66
#define PETW__OP_FILE_READ 67
#define PETW__OP_FILE_WRITE 68
#define PETW__OP_FILE_SET_INFO 69
#define PETW__OP_FILE_DELETE 70
#define PETW__OP_FILE_RENAME 71
#define PETW__OP_FILE_DIR_ENUM 72
#define PETW__OP_FILE_FLUSH 73
#define PETW__OP_FILE_QUERY_INFO 74
#define PETW__OP_FILE_FS_CONTROL 75
#define PETW__OP_FILE_OP_END 76
#define PETW__OP_FILE_DIR_NOTIFY 77
#define PETW__OP_KTC_IMAGE_ID 0 /* KernelTraceControl: ImageID, then DbgID_* beside it */
#define PETW__OP_KTC_DBGID_RSDS 36
#define PETW__OP_CONFIG_CPU 10
#define PETW__OP_CONFIG_PHYDISK 11
#define PETW__OP_CONFIG_LOGDISK 12
/* PageFault: soft faults (transition, demand zero, copy on write, guard
 * page), a hard fault's fault and its HardFault (the read, at its end),
 * VirtualAlloc and VirtualFree. */
#define PETW__OP_PF_TRANSITION 10
#define PETW__OP_PF_DEMAND_ZERO 11
#define PETW__OP_PF_COPY_ON_WRITE 12
#define PETW__OP_PF_GUARD_PAGE 13
#define PETW__OP_PF_HARD_PAGE_FAULT 14
#define PETW__OP_PF_ACCESS_VIOLATION 15
#define PETW__OP_PF_HARD_FAULT 32
#define PETW__OP_PF_VIRTUAL_ALLOC 98
#define PETW__OP_PF_VIRTUAL_FREE 99
/* TcpIp and UdpIp: the IPv6 event of each is its IPv4 opcode + 16. */
#define PETW__OP_NET_SEND 10
#define PETW__OP_NET_RECV 11
#define PETW__OP_TCP_CONNECT 12
#define PETW__OP_TCP_DISCONNECT 13
#define PETW__OP_TCP_RETRANSMIT 14
#define PETW__OP_TCP_ACCEPT 15
#define PETW__OP_TCP_RECONNECT 16
#define PETW__OP_NET_FAIL 17
#define PETW__OP_TCP_COPY 18
#define PETW__OP_NET_IPV6 16 /* added to an IPv4 opcode (Send 10: SendIPV6 26) */

#define PETW__HOOK(group, opcode) ((uint16_t)((group) << 8 | (opcode)))
/* WMI_LOG_TYPE_PROCESS_LOAD_IMAGE: image loads in the process group. */
#define PETW__HOOK_IMAGE_LOAD PETW__HOOK(PETW__GROUP_PROCESS, PETW__OP_IMAGE_LOAD)

/* ---- Versions petw writes ---- */

#define PETW__VERSION_PROCESS 4 /* Process_TypeGroup1 v4 */
#define PETW__VERSION_THREAD 3  /* Thread_TypeGroup1 v3 */
#define PETW__VERSION_IMAGE 3   /* Image_Load v3 */
#define PETW__VERSION_CSWITCH 2
#define PETW__VERSION_READY_THREAD 2
#define PETW__VERSION_DISK 3 /* DiskIo_TypeGroup1 v3 */
#define PETW__VERSION_PERFINFO 2
#define PETW__VERSION_COLLECTION 3 /* PerfInfo CollectionStart v3 */
#define PETW__VERSION_STACKWALK 2
#define PETW__VERSION_CONFIG 2     /* SystemConfig_V2_* */
#define PETW__VERSION_PAGE_FAULT 2 /* PageFault_TypeGroup1, _HardFault, _VirtualAlloc */
#define PETW__VERSION_FILE_NAME 2  /* FileIo_Name */
#define PETW__VERSION_FILE_IO 3    /* FileIo_* v3 */
#define PETW__VERSION_NET 2        /* TcpIp_*, UdpIp_* v2 */

/* ---- Fixed layouts (byte offsets; PS: the pointer size, 4 or 8) ---- */

/* CSwitch v2+ (24 bytes). */
#define PETW__CSWITCH_NEW_TID 0
#define PETW__CSWITCH_OLD_TID 4
#define PETW__CSWITCH_NEW_PRIORITY 8
#define PETW__CSWITCH_OLD_PRIORITY 9
#define PETW__CSWITCH_OLD_WAIT_REASON 12
#define PETW__CSWITCH_OLD_STATE 14
#define PETW__CSWITCH_SIZE 24
/* KTHREAD_STATE values of OldThreadState; KWAIT_REASON values. */
#define PETW__THREAD_STATE_READY 1
#define PETW__THREAD_STATE_WAITING 5
#define PETW__THREAD_STATE_DEFERRED_READY 7
#define PETW__WAIT_EXECUTIVE 0
#define PETW__WAIT_PREEMPTED 32

/* ReadyThread v2 (8 bytes): the thread made ready; the record's thread is its waker. */
#define PETW__READY_TID 0
#define PETW__READY_SIZE 8

/* SampledProfile v2: InstructionPointer (PS), ThreadId, Count (u16), Reserved. */
#define PETW__SAMPLE_IP 0
#define PETW__SAMPLE_TID(ps) (ps)

/* StackWalk Stack v2: EventTimeStamp (u64), StackProcess, StackThread, frames (PS each). */
#define PETW__STACK_TIME 0
#define PETW__STACK_PID 8
#define PETW__STACK_TID 12
#define PETW__STACK_FRAMES 16

/* DiskIo Read/Write v2+: DiskNumber, IrpFlags, TransferSize, Reserved,
 * ByteOffset (u64), FileObject, Irp (PS), HighResResponseTime (u64),
 * IssuingThreadId (v3). */
#define PETW__DISK_NUMBER 0
#define PETW__DISK_TRANSFER_SIZE 8
#define PETW__DISK_BYTE_OFFSET 16
#define PETW__DISK_FILE_OBJECT 24
#define PETW__DISK_IRP(ps) (24 + (ps))
#define PETW__DISK_RESPONSE_TIME(ps) (24 + 2 * (ps))
#define PETW__DISK_ISSUING_TID(ps) (32 + 2 * (ps))
#define PETW__DISK_SIZE(ps) (36 + 2 * (ps))

/* PageFault_TypeGroup1 v2 (faults): VirtualAddress, ProgramCounter (PS each). */
#define PETW__PF_VA 0
#define PETW__PF_PC(ps) (ps)
#define PETW__PF_SIZE(ps) (2 * (ps))

/* PageFault_HardFault v2: InitialTime (i64, the fault's start in clock
 * ticks), ReadOffset (u64), VirtualAddress, FileObject (PS each),
 * TThreadId, ByteCount. The record's own time is the read's end. */
#define PETW__HF_INITIAL_TIME 0
#define PETW__HF_READ_OFFSET 8
#define PETW__HF_VA 16
#define PETW__HF_FILE_OBJECT(ps) (16 + (ps))
#define PETW__HF_TID(ps) (16 + 2 * (ps))
#define PETW__HF_BYTE_COUNT(ps) (20 + 2 * (ps))
#define PETW__HF_SIZE(ps) (24 + 2 * (ps))

/* PageFault_VirtualAlloc v2 (VirtualAlloc, VirtualFree): BaseAddress,
 * RegionSize (PS each), ProcessId, Flags (MEM_* of VirtualAllocEx and
 * VirtualFreeEx). */
#define PETW__VA_BASE 0
#define PETW__VA_SIZE_AT(ps) (ps)
#define PETW__VA_PID(ps) (2 * (ps))
#define PETW__VA_FLAGS(ps) (4 + 2 * (ps))
#define PETW__VA_SIZE(ps) (8 + 2 * (ps))
#define PETW__MEM_COMMIT 0x1000u
#define PETW__MEM_RESERVE 0x2000u
#define PETW__MEM_DECOMMIT 0x4000u
#define PETW__MEM_RELEASE 0x8000u

/* FileIo v3 (v2 logs TTID as a pointer after IrpPtr: the model reads v3
 * and v2 by these with `v2` 1, the thread then at PETW__FILE_V2_TTID).
 * Name, FileCreate, FileDelete, FileRundown: FileObject (the FileKey, as
 * Windows logs it), FileName (UTF-16). */
#define PETW__FILE_NAME_KEY 0
#define PETW__FILE_NAME_TEXT(ps) (ps)
/* Create: IrpPtr, FileObject, TTID, CreateOptions, FileAttributes, ShareAccess, OpenPath. */
#define PETW__FILE_CREATE_IRP 0
#define PETW__FILE_CREATE_OBJECT(ps) (ps)
#define PETW__FILE_CREATE_TTID(ps) (2 * (ps))
#define PETW__FILE_CREATE_PATH(ps) (2 * (ps) + 16)
/* Cleanup, Close, Flush: IrpPtr, FileObject, FileKey, TTID. SetInfo,
 * Delete, Rename, QueryInfo, FSControl: then ExtraInfo before TTID, and
 * InfoClass. DirEnum, DirNotify: IrpPtr, FileObject, FileKey, TTID, ... */
#define PETW__FILE_OP_IRP 0
#define PETW__FILE_OP_OBJECT(ps) (ps)
#define PETW__FILE_OP_KEY(ps) (2 * (ps))
#define PETW__FILE_SIMPLE_TTID(ps) (3 * (ps))
#define PETW__FILE_INFO_TTID(ps) (4 * (ps))
/* Read, Write: Offset (u64), IrpPtr, FileObject, FileKey, TTID, IoSize, IoFlags. */
#define PETW__FILE_RW_OFFSET 0
#define PETW__FILE_RW_IRP 8
#define PETW__FILE_RW_OBJECT(ps) (8 + (ps))
#define PETW__FILE_RW_KEY(ps) (8 + 2 * (ps))
#define PETW__FILE_RW_TTID(ps) (8 + 3 * (ps))
#define PETW__FILE_RW_SIZE(ps) (12 + 3 * (ps))
/* OperationEnd: IrpPtr, ExtraInfo (the bytes moved, for a read or write), NtStatus. */
#define PETW__FILE_END_IRP 0
#define PETW__FILE_END_EXTRA 8
#define PETW__FILE_END_STATUS 16
#define PETW__FILE_END_SIZE 20
/* TcpIp and UdpIp v2 (TcpIp_TypeGroup1..4, TcpIp_SendIPV4/6,
 * UdpIp_TypeGroup1/2): PID and size (bytes), then the remote (daddr) and
 * local (saddr) addresses (4 bytes, or 16 for IPv6) and ports, network
 * byte order; after the ports what each event adds: Send and Retransmit
 * the start and end time (u32), then seqnum and connid; Recv, Disconnect,
 * Reconnect, TCPCopy connid then seqnum; Connect and Accept the options
 * (mss, sackopt, tsopt, wsopt u16; rcvwin u32; rcvwinscale, sndwinscale
 * i16), seqnum, connid; UdpIp seqnum then connid. connid is PS wide.
 * PETW__NET_A: the address size (4 or 16). */
#define PETW__NET_PID 0
#define PETW__NET_SIZE 4
#define PETW__NET_DADDR 8
#define PETW__NET_SADDR(a) (8 + (a))
#define PETW__NET_DPORT(a) (8 + 2 * (a))
#define PETW__NET_SPORT(a) (10 + 2 * (a))
#define PETW__NET_TAIL(a) (12 + 2 * (a)) /* where each event's own fields start */
/* Send (TcpIp_SendIPV4/6): startime, endtime, seqnum, connid. */
#define PETW__NET_SEND_CONNID(a) (PETW__NET_TAIL(a) + 12)
#define PETW__NET_SEND_SIZE(a, ps) (PETW__NET_TAIL(a) + 12 + (ps))
/* Recv, Disconnect, Retransmit (TcpIp_TypeGroup1/3): connid, seqnum. */
#define PETW__NET_G1_CONNID(a) PETW__NET_TAIL(a)
#define PETW__NET_G1_SIZE(a, ps) (PETW__NET_TAIL(a) + (ps) + 4)
/* Connect, Accept (TcpIp_TypeGroup2/4): mss ... seqnum, then connid. */
#define PETW__NET_G2_MSS(a) PETW__NET_TAIL(a)
#define PETW__NET_G2_CONNID(a) (PETW__NET_TAIL(a) + 20)
#define PETW__NET_G2_SIZE(a, ps) (PETW__NET_TAIL(a) + 20 + (ps))
/* UdpIp (UdpIp_TypeGroup1/2): seqnum, connid. */
#define PETW__NET_UDP_CONNID(a) (PETW__NET_TAIL(a) + 4)
#define PETW__NET_UDP_SIZE(a, ps) (PETW__NET_TAIL(a) + 4 + (ps))

#endif /* PETW_KERNEL_CLASS_H */
