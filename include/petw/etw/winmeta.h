/* SPDX-License-Identifier: MIT */
/* winmeta.h - the standard ETW levels, opcodes, channels and keywords
 * (WINEVENT_*). Part of petw's ETW-compatible surface; with
 * PETW_USE_NATIVE_ETW on Windows it forwards to the system header when the
 * toolchain has one (mingw-w64 does not). */
#ifndef PETW_ETW_WINMETA_H
#define PETW_ETW_WINMETA_H

#if defined(_WIN32) && defined(PETW_USE_NATIVE_ETW) && defined(__has_include_next)
#if __has_include_next(<winmeta.h>)
#include_next <winmeta.h>
#define PETW__NATIVE_WINMETA 1
#endif
#endif
#ifndef PETW__NATIVE_WINMETA

/* Levels: an event is logged when its level <= the session's level. */
#define WINEVENT_LEVEL_LOG_ALWAYS 0x0
#define WINEVENT_LEVEL_CRITICAL 0x1
#define WINEVENT_LEVEL_ERROR 0x2
#define WINEVENT_LEVEL_WARNING 0x3
#define WINEVENT_LEVEL_INFO 0x4
#define WINEVENT_LEVEL_VERBOSE 0x5

/* Opcodes: START/STOP bracket an activity. */
#define WINEVENT_OPCODE_INFO 0x00
#define WINEVENT_OPCODE_START 0x01
#define WINEVENT_OPCODE_STOP 0x02
#define WINEVENT_OPCODE_DC_START 0x03
#define WINEVENT_OPCODE_DC_STOP 0x04
#define WINEVENT_OPCODE_EXTENSION 0x05
#define WINEVENT_OPCODE_REPLY 0x06
#define WINEVENT_OPCODE_RESUME 0x07
#define WINEVENT_OPCODE_SUSPEND 0x08
#define WINEVENT_OPCODE_SEND 0x09
#define WINEVENT_OPCODE_RECEIVE 0xF0

#define WINEVENT_TASK_NONE 0x0

/* Channels: TraceLogging events use channel 11. */
#define WINEVENT_CHANNEL_CLASSIC_TRACE 0x0
#define WINEVENT_CHANNEL_GLOBAL_SYSTEM 0x8
#define WINEVENT_CHANNEL_GLOBAL_APPLICATION 0x9
#define WINEVENT_CHANNEL_GLOBAL_SECURITY 0xA
#define WINEVENT_CHANNEL_TRACELOGGING 0xB
#define WINEVENT_CHANNEL_PROVIDER_METADATA 0xC

/* Reserved keyword bits (the high 16 of the 64). */
#define WINEVT_KEYWORD_ANY 0x0
#define WINEVENT_KEYWORD_RESPONSE_TIME 0x01000000000000ULL
#define WINEVENT_KEYWORD_RESERVED_49 0x02000000000000ULL
#define WINEVENT_KEYWORD_WDI_CONTEXT 0x02000000000000ULL
#define WINEVENT_KEYWORD_WDI_DIAG 0x04000000000000ULL
#define WINEVENT_KEYWORD_SQM 0x08000000000000ULL
#define WINEVENT_KEYWORD_AUDIT_FAILURE 0x10000000000000ULL
#define WINEVENT_KEYWORD_AUDIT_SUCCESS 0x20000000000000ULL
#define WINEVENT_KEYWORD_CORRELATION_HINT 0x40000000000000ULL
#define WINEVENT_KEYWORD_EVENTLOG_CLASSIC 0x80000000000000ULL
#define WINEVENT_KEYWORD_RESERVED_56 0x100000000000000ULL
#define WINEVENT_KEYWORD_RESERVED_57 0x200000000000000ULL
#define WINEVENT_KEYWORD_RESERVED_58 0x400000000000000ULL
#define WINEVENT_KEYWORD_RESERVED_59 0x800000000000000ULL
#define WINEVENT_KEYWORD_RESERVED_60 0x1000000000000000ULL
#define WINEVENT_KEYWORD_RESERVED_61 0x2000000000000000ULL
#define WINEVENT_KEYWORD_RESERVED_62 0x4000000000000000ULL
#define WINEVENT_KEYWORD_RESERVED_63 0x8000000000000000ULL

/* The reserved values, and the message IDs of the names above in the
 * system's message table (a manifest's "$(string.level.Error)" and so on). */
#define WINEVENT_CHANNEL_PROVIDERMETADATA 0xc
#define WINEVENT_LEVEL_RESERVED_6 0x6
#define WINEVENT_LEVEL_RESERVED_7 0x7
#define WINEVENT_LEVEL_RESERVED_8 0x8
#define WINEVENT_LEVEL_RESERVED_9 0x9
#define WINEVENT_LEVEL_RESERVED_10 0xa
#define WINEVENT_LEVEL_RESERVED_11 0xb
#define WINEVENT_LEVEL_RESERVED_12 0xc
#define WINEVENT_LEVEL_RESERVED_13 0xd
#define WINEVENT_LEVEL_RESERVED_14 0xe
#define WINEVENT_LEVEL_RESERVED_15 0xf
#define WINEVENT_OPCODE_RESERVED_241 0xf1
#define WINEVENT_OPCODE_RESERVED_242 0xf2
#define WINEVENT_OPCODE_RESERVED_243 0xf3
#define WINEVENT_OPCODE_RESERVED_244 0xf4
#define WINEVENT_OPCODE_RESERVED_245 0xf5
#define WINEVENT_OPCODE_RESERVED_246 0xf6
#define WINEVENT_OPCODE_RESERVED_247 0xf7
#define WINEVENT_OPCODE_RESERVED_248 0xf8
#define WINEVENT_OPCODE_RESERVED_249 0xf9
#define WINEVENT_OPCODE_RESERVED_250 0xfa
#define WINEVENT_OPCODE_RESERVED_251 0xfb
#define WINEVENT_OPCODE_RESERVED_252 0xfc
#define WINEVENT_OPCODE_RESERVED_253 0xfd
#define WINEVENT_OPCODE_RESERVED_254 0xfe
#define WINEVENT_OPCODE_RESERVED_255 0xff
#define MSG_category_Devices 0x00000001L
#define MSG_category_Disk 0x00000002L
#define MSG_category_Network 0x00000007L
#define MSG_category_Printers 0x00000003L
#define MSG_category_Services 0x00000004L
#define MSG_category_Shell 0x00000005L
#define MSG_category_SystemEvent 0x00000006L
#define MSG_channel_Application 0x00000100L
#define MSG_channel_ProviderMetadata 0x90000003L
#define MSG_channel_Security 0x00000101L
#define MSG_channel_System 0x00000102L
#define MSG_channel_TraceClassic 0x90000001L
#define MSG_channel_TraceLogging 0x90000002L
#define MSG_keyword_AnyKeyword 0x10000000L
#define MSG_keyword_AuditFailure 0x10000035L
#define MSG_keyword_AuditSuccess 0x10000036L
#define MSG_keyword_Classic 0x10000038L
#define MSG_keyword_CorrelationHint 0x10000037L
#define MSG_keyword_ResponseTime 0x10000031L
#define MSG_keyword_SQM 0x10000034L
#define MSG_keyword_WDIDiag 0x10000033L
#define MSG_level_Critical 0x50000001L
#define MSG_level_Error 0x50000002L
#define MSG_level_Informational 0x50000004L
#define MSG_level_LogAlways 0x50000000L
#define MSG_level_Verbose 0x50000005L
#define MSG_level_Warning 0x50000003L
#define MSG_opcode_DCStart 0x30030000L
#define MSG_opcode_DCStop 0x30040000L
#define MSG_opcode_Extension 0x30050000L
#define MSG_opcode_Info 0x30000000L
#define MSG_opcode_Receive 0x30F00000L
#define MSG_opcode_Reply 0x30060000L
#define MSG_opcode_Resume 0x30070000L
#define MSG_opcode_Send 0x30090000L
#define MSG_opcode_Start 0x30010000L
#define MSG_opcode_Stop 0x30020000L
#define MSG_opcode_Suspend 0x30080000L
#define MSG_task_None 0x70000000L

#endif /* !PETW__NATIVE_WINMETA */
#endif /* PETW_ETW_WINMETA_H */
