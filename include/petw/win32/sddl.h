/* SPDX-License-Identifier: MIT */
/* sddl.h - a SID as text and back, for non-Windows hosts. Part of petw's
 * ETW-compatible surface; on Windows this is the system's.
 *
 * ConvertSidToStringSid writes S-R-I-S-S... (the authority in decimal
 * below 2^32, else 0x and 12 hex digits) into a string it allocates with
 * LocalAlloc, freed with LocalFree: TRUE, or FALSE with ERROR_INVALID_SID
 * (not a valid SID), ERROR_INVALID_PARAMETER (a NULL pointer) or
 * ERROR_NOT_ENOUGH_MEMORY. ConvertStringSidToSid reads that form (the
 * authority also in hex after 0x) or a two-letter SDDL alias of a SID
 * CreateWellKnownSid builds ("SY", "BA", "WD", ...) into a SID it
 * allocates with LocalAlloc: FALSE with ERROR_INVALID_SID when the text is
 * neither. The A forms take and give UTF-8 (the ANSI code page on Linux).
 * Security descriptors in SDDL are not converted. */
#if defined(_WIN32)
#include <windows.h> /* first: Windows' sddl.h does not stand alone */
#include_next <sddl.h>
#else
#ifndef PETW_ETW_SDDL_H
#define PETW_ETW_SDDL_H

#include <windows.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SDDL_REVISION_1 1
#define SDDL_REVISION SDDL_REVISION_1
#define SDDL_EVERYONE TEXT("WD")
#define SDDL_CREATOR_OWNER TEXT("CO")
#define SDDL_CREATOR_GROUP TEXT("CG")
#define SDDL_NETWORK TEXT("NU")
#define SDDL_INTERACTIVE TEXT("IU")
#define SDDL_SERVICE TEXT("SU")
#define SDDL_ANONYMOUS TEXT("AN")
#define SDDL_ENTERPRISE_DOMAIN_CONTROLLERS TEXT("ED")
#define SDDL_PERSONAL_SELF TEXT("PS")
#define SDDL_AUTHENTICATED_USERS TEXT("AU")
#define SDDL_RESTRICTED_CODE TEXT("RC")
#define SDDL_LOCAL_SYSTEM TEXT("SY")
#define SDDL_LOCAL_SERVICE TEXT("LS")
#define SDDL_NETWORK_SERVICE TEXT("NS")
#define SDDL_BUILTIN_ADMINISTRATORS TEXT("BA")
#define SDDL_BUILTIN_USERS TEXT("BU")
#define SDDL_BUILTIN_GUESTS TEXT("BG")
#define SDDL_POWER_USERS TEXT("PU")
#define SDDL_ACCOUNT_OPERATORS TEXT("AO")
#define SDDL_SERVER_OPERATORS TEXT("SO")
#define SDDL_PRINTER_OPERATORS TEXT("PO")
#define SDDL_BACKUP_OPERATORS TEXT("BO")
#define SDDL_REPLICATOR TEXT("RE")
#define SDDL_ALIAS_PREW2KCOMPACC TEXT("RU")
#define SDDL_REMOTE_DESKTOP TEXT("RD")
#define SDDL_NETWORK_CONFIGURATION_OPS TEXT("NO")
#define SDDL_PERFMON_USERS TEXT("MU")
#define SDDL_PERFLOG_USERS TEXT("LU")
#define SDDL_IIS_USERS TEXT("IS")
#define SDDL_CRYPTO_OPERATORS TEXT("CY")
#define SDDL_ML_LOW TEXT("LW")
#define SDDL_ML_MEDIUM TEXT("ME")
#define SDDL_ML_MEDIUM_PLUS TEXT("MP")
#define SDDL_ML_HIGH TEXT("HI")
#define SDDL_ML_SYSTEM TEXT("SI")
#define SDDL_WRITE_RESTRICTED_CODE TEXT("WR")
#define SDDL_OWNER_RIGHTS TEXT("OW")
#define SDDL_EVENT_LOG_READERS TEXT("ER")
#define SDDL_CERTSVC_DCOM_ACCESS TEXT("CD")
#define SDDL_ALL_APP_PACKAGES TEXT("AC")

BOOL ConvertSidToStringSidA(PSID Sid, LPSTR *StringSid);
BOOL ConvertSidToStringSidW(PSID Sid, LPWSTR *StringSid);
BOOL ConvertStringSidToSidA(LPCSTR StringSid, PSID *Sid);
BOOL ConvertStringSidToSidW(LPCWSTR StringSid, PSID *Sid);
#ifdef UNICODE
#define ConvertSidToStringSid ConvertSidToStringSidW
#define ConvertStringSidToSid ConvertStringSidToSidW
#else
#define ConvertSidToStringSid ConvertSidToStringSidA
#define ConvertStringSidToSid ConvertStringSidToSidA
#endif

#ifdef __cplusplus
}
#endif
#endif /* PETW_ETW_SDDL_H */
#endif
