/* SPDX-License-Identifier: MIT */
/* advapi32.c - the SID functions of Windows' security API
 * (<windows.h>: GetLengthSid, CreateWellKnownSid, ...; <sddl.h>: SIDs as
 * text), for POSIX hosts: the OS has them on Windows, where platform_win.c
 * calls them too. The binary and text forms are platform_sid.c's. */
#include <stdlib.h>

#include "win32_internal.h"

#include <sddl.h> /* after <windows.h>, as Windows' own requires */

#if !defined(_WIN32)

/* The SIDs CreateWellKnownSid builds: those that need no machine or
 * domain (Windows' values, winnt.h; the aliases are sddl.h's). */
static const struct well_known {
    WELL_KNOWN_SID_TYPE type;
    char alias[3]; /* SDDL's two letters, or "" */
    BYTE authority;
    BYTE count;
    DWORD rid[2];
} well_known[] = {
    {WinNullSid, "", 0, 1, {0}},
    {WinWorldSid, "WD", 1, 1, {0}},
    {WinLocalSid, "", 2, 1, {0}},
    {WinCreatorOwnerSid, "CO", 3, 1, {0}},
    {WinCreatorGroupSid, "CG", 3, 1, {1}},
    {WinCreatorOwnerServerSid, "", 3, 1, {2}},
    {WinCreatorGroupServerSid, "", 3, 1, {3}},
    {WinCreatorOwnerRightsSid, "OW", 3, 1, {4}},
    {WinConsoleLogonSid, "", 2, 1, {1}},
    {WinNtAuthoritySid, "", 5, 0, {0}},
    {WinDialupSid, "", 5, 1, {1}},
    {WinNetworkSid, "NU", 5, 1, {2}},
    {WinBatchSid, "", 5, 1, {3}},
    {WinInteractiveSid, "IU", 5, 1, {4}},
    {WinServiceSid, "SU", 5, 1, {6}},
    {WinAnonymousSid, "AN", 5, 1, {7}},
    {WinProxySid, "", 5, 1, {8}},
    {WinEnterpriseControllersSid, "ED", 5, 1, {9}},
    {WinSelfSid, "PS", 5, 1, {10}},
    {WinAuthenticatedUserSid, "AU", 5, 1, {11}},
    {WinRestrictedCodeSid, "RC", 5, 1, {12}},
    {WinTerminalServerSid, "", 5, 1, {13}},
    {WinRemoteLogonIdSid, "", 5, 1, {14}},
    {WinThisOrganizationSid, "", 5, 1, {15}},
    {WinIUserSid, "", 5, 1, {17}},
    {WinLocalSystemSid, "SY", 5, 1, {18}},
    {WinLocalServiceSid, "LS", 5, 1, {19}},
    {WinNetworkServiceSid, "NS", 5, 1, {20}},
    {WinWriteRestrictedCodeSid, "WR", 5, 1, {33}},
    {WinOtherOrganizationSid, "", 5, 1, {1000}},
    {WinNTLMAuthenticationSid, "", 5, 2, {64, 10}},
    {WinSChannelAuthenticationSid, "", 5, 2, {64, 14}},
    {WinDigestAuthenticationSid, "", 5, 2, {64, 21}},
    {WinBuiltinDomainSid, "", 5, 1, {32}},
    {WinBuiltinAdministratorsSid, "BA", 5, 2, {32, 544}},
    {WinBuiltinUsersSid, "BU", 5, 2, {32, 545}},
    {WinBuiltinGuestsSid, "BG", 5, 2, {32, 546}},
    {WinBuiltinPowerUsersSid, "PU", 5, 2, {32, 547}},
    {WinBuiltinAccountOperatorsSid, "AO", 5, 2, {32, 548}},
    {WinBuiltinSystemOperatorsSid, "SO", 5, 2, {32, 549}},
    {WinBuiltinPrintOperatorsSid, "PO", 5, 2, {32, 550}},
    {WinBuiltinBackupOperatorsSid, "BO", 5, 2, {32, 551}},
    {WinBuiltinReplicatorSid, "RE", 5, 2, {32, 552}},
    {WinBuiltinPreWindows2000CompatibleAccessSid, "RU", 5, 2, {32, 554}},
    {WinBuiltinRemoteDesktopUsersSid, "RD", 5, 2, {32, 555}},
    {WinBuiltinNetworkConfigurationOperatorsSid, "NO", 5, 2, {32, 556}},
    {WinBuiltinIncomingForestTrustBuildersSid, "", 5, 2, {32, 557}},
    {WinBuiltinPerfMonitoringUsersSid, "MU", 5, 2, {32, 558}},
    {WinBuiltinPerfLoggingUsersSid, "LU", 5, 2, {32, 559}},
    {WinBuiltinAuthorizationAccessSid, "", 5, 2, {32, 560}},
    {WinBuiltinTerminalServerLicenseServersSid, "", 5, 2, {32, 561}},
    {WinBuiltinDCOMUsersSid, "", 5, 2, {32, 562}},
    {WinBuiltinIUsersSid, "IS", 5, 2, {32, 568}},
    {WinBuiltinCryptoOperatorsSid, "CY", 5, 2, {32, 569}},
    {WinBuiltinEventLogReadersGroup, "ER", 5, 2, {32, 573}},
    {WinBuiltinCertSvcDComAccessGroup, "CD", 5, 2, {32, 574}},
    {WinUntrustedLabelSid, "", 16, 1, {0}},
    {WinLowLabelSid, "LW", 16, 1, {0x1000}},
    {WinMediumLabelSid, "ME", 16, 1, {0x2000}},
    {WinMediumPlusLabelSid, "MP", 16, 1, {0x2100}},
    {WinHighLabelSid, "HI", 16, 1, {0x3000}},
    {WinSystemLabelSid, "SI", 16, 1, {0x4000}},
    {WinApplicationPackageAuthoritySid, "", 15, 1, {2}},
    {WinBuiltinAnyPackageSid, "AC", 15, 2, {2, 1}},
};

static const struct well_known *well_known_of(WELL_KNOWN_SID_TYPE type)
{
    for (size_t i = 0; i < sizeof(well_known) / sizeof(well_known[0]); i++)
        if (well_known[i].type == type)
            return &well_known[i];
    return NULL;
}

static void build(const struct well_known *w, PSID out)
{
    SID *sid = (SID *)out;
    sid->Revision = SID_REVISION;
    sid->SubAuthorityCount = w->count;
    memset(sid->IdentifierAuthority.Value, 0, 6);
    sid->IdentifierAuthority.Value[5] = w->authority;
    for (BYTE i = 0; i < w->count; i++)
        sid->SubAuthority[i] = w->rid[i];
}

DWORD GetLengthSid(PSID pSid)
{
    return GetSidLengthRequired(((const SID *)pSid)->SubAuthorityCount);
}

BOOL IsValidSid(PSID pSid)
{
    const SID *sid = (const SID *)pSid;
    return sid && sid->Revision == SID_REVISION &&
           sid->SubAuthorityCount <= SID_MAX_SUB_AUTHORITIES;
}

BOOL EqualSid(PSID pSid1, PSID pSid2)
{
    if (!IsValidSid(pSid1) || !IsValidSid(pSid2)) {
        SetLastError(ERROR_INVALID_SID);
        return FALSE;
    }
    SetLastError(ERROR_SUCCESS);
    return GetLengthSid(pSid1) == GetLengthSid(pSid2) &&
           memcmp(pSid1, pSid2, GetLengthSid(pSid1)) == 0;
}

BOOL CopySid(DWORD nDestinationSidLength, PSID pDestinationSid, PSID pSourceSid)
{
    if (!IsValidSid(pSourceSid)) {
        SetLastError(ERROR_INVALID_SID);
        return FALSE;
    }
    if (nDestinationSidLength < GetLengthSid(pSourceSid) || !pDestinationSid) {
        SetLastError(ERROR_INSUFFICIENT_BUFFER);
        return FALSE;
    }
    memmove(pDestinationSid, pSourceSid, GetLengthSid(pSourceSid));
    return TRUE;
}

BOOL CreateWellKnownSid(WELL_KNOWN_SID_TYPE WellKnownSidType, PSID DomainSid, PSID pSid,
                        DWORD *cbSid)
{
    (void)DomainSid;
    const struct well_known *w = well_known_of(WellKnownSidType);
    if (!cbSid || (int)WellKnownSidType < 0 ||
        WellKnownSidType > WinAuthenticationKeyPropertyAttestationSid) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return FALSE;
    }
    if (!w) {
        SetLastError(ERROR_NOT_SUPPORTED);
        return FALSE;
    }
    DWORD need = GetSidLengthRequired(w->count);
    if (*cbSid < need) {
        *cbSid = need;
        SetLastError(ERROR_INSUFFICIENT_BUFFER);
        return FALSE;
    }
    if (!pSid) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return FALSE;
    }
    build(w, pSid);
    *cbSid = need;
    return TRUE;
}

BOOL AllocateAndInitializeSid(PSID_IDENTIFIER_AUTHORITY pIdentifierAuthority,
                              BYTE nSubAuthorityCount, DWORD nSubAuthority0, DWORD nSubAuthority1,
                              DWORD nSubAuthority2, DWORD nSubAuthority3, DWORD nSubAuthority4,
                              DWORD nSubAuthority5, DWORD nSubAuthority6, DWORD nSubAuthority7,
                              PSID *pSid)
{
    const DWORD rid[8] = {nSubAuthority0, nSubAuthority1, nSubAuthority2, nSubAuthority3,
                          nSubAuthority4, nSubAuthority5, nSubAuthority6, nSubAuthority7};
    if (!pIdentifierAuthority || !pSid || nSubAuthorityCount == 0 || nSubAuthorityCount > 8) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return FALSE;
    }
    SID *sid = (SID *)LocalAlloc(LMEM_FIXED, GetSidLengthRequired(nSubAuthorityCount));
    if (!sid)
        return FALSE;
    sid->Revision = SID_REVISION;
    sid->SubAuthorityCount = nSubAuthorityCount;
    sid->IdentifierAuthority = *pIdentifierAuthority;
    memcpy(sid->SubAuthority, rid, nSubAuthorityCount * sizeof(DWORD));
    *pSid = sid;
    return TRUE;
}

PVOID FreeSid(PSID pSid)
{
    LocalFree(pSid);
    return NULL;
}

DWORD GetSidLengthRequired(UCHAR nSubAuthorityCount)
{
    return (DWORD)(8 + 4 * (DWORD)nSubAuthorityCount);
}

PDWORD GetSidSubAuthority(PSID pSid, DWORD nSubAuthority)
{
    return &((SID *)pSid)->SubAuthority[nSubAuthority];
}

PUCHAR GetSidSubAuthorityCount(PSID pSid)
{
    return &((SID *)pSid)->SubAuthorityCount;
}

PSID_IDENTIFIER_AUTHORITY GetSidIdentifierAuthority(PSID pSid)
{
    return &((SID *)pSid)->IdentifierAuthority;
}

/* ---- <sddl.h> ---- */

/* The SID's text in a LocalAlloc'ed string (UTF-8), or NULL with the
 * last error set. */
static char *sid_string(PSID Sid, void *StringSid)
{
    char text[PETW__SID_TEXT_MAX];
    if (!Sid || !StringSid) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return NULL;
    }
    if (!IsValidSid(Sid)) {
        SetLastError(ERROR_INVALID_SID);
        return NULL;
    }
    petw__sid_text((const uint8_t *)Sid, GetLengthSid(Sid), text, sizeof(text));
    char *s = (char *)LocalAlloc(LMEM_FIXED, strlen(text) + 1);
    if (s)
        memcpy(s, text, strlen(text) + 1);
    return s;
}

BOOL ConvertSidToStringSidA(PSID Sid, LPSTR *StringSid)
{
    char *s = sid_string(Sid, StringSid);
    if (!s)
        return FALSE;
    *StringSid = s;
    return TRUE;
}

BOOL ConvertSidToStringSidW(PSID Sid, LPWSTR *StringSid)
{
    char *s = sid_string(Sid, StringSid);
    if (!s)
        return FALSE;
    size_t n = strlen(s) + 1; /* ASCII: one character a byte */
    LPWSTR w = (LPWSTR)LocalAlloc(LMEM_FIXED, n * sizeof(WCHAR));
    if (w)
        petw__utf8_to_wcs(s, w, n);
    LocalFree(s);
    if (!w)
        return FALSE;
    *StringSid = w;
    return TRUE;
}

BOOL ConvertStringSidToSidA(LPCSTR StringSid, PSID *Sid)
{
    uint8_t bin[PETW__SID_MAX_SIZE];
    int n = -1;
    if (!StringSid || !Sid) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return FALSE;
    }
    for (size_t i = 0; i < sizeof(well_known) / sizeof(well_known[0]); i++) {
        if (well_known[i].alias[0] && strcmp(StringSid, well_known[i].alias) == 0) {
            build(&well_known[i], bin);
            n = (int)GetSidLengthRequired(well_known[i].count);
        }
    }
    if (n < 0)
        n = petw__sid_parse(StringSid, bin, sizeof(bin));
    if (n < 0) {
        SetLastError(ERROR_INVALID_SID);
        return FALSE;
    }
    PSID out = LocalAlloc(LMEM_FIXED, (SIZE_T)n);
    if (!out)
        return FALSE;
    memcpy(out, bin, (size_t)n);
    *Sid = out;
    return TRUE;
}

BOOL ConvertStringSidToSidW(LPCWSTR StringSid, PSID *Sid)
{
    char text[PETW__SID_TEXT_MAX];
    if (!StringSid) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return FALSE;
    }
    if (petw__wcs_to_utf8_fit(StringSid, text, sizeof(text)) != 0) {
        SetLastError(ERROR_INVALID_SID);
        return FALSE;
    }
    return ConvertStringSidToSidA(text, Sid);
}

#else
typedef int petw__no_security_shims; /* Windows: the system's */
#endif
