/* SPDX-License-Identifier: MIT */
/* test_sid.c - SIDs as ETW programs build and print them: the well-known
 * SIDs match the strings Windows documents, text and binary round-trip,
 * and the failures set Windows' errors. */
#include <windows.h>
#include <sddl.h>

#include "test_util.h"

/* CreateWellKnownSid's SID, as ConvertSidToStringSidA prints it. */
static void check_well_known(WELL_KNOWN_SID_TYPE type, const char *expect)
{
    BYTE buf[SECURITY_MAX_SID_SIZE];
    DWORD size = sizeof(buf);
    LPSTR text = NULL;
    CHECK(CreateWellKnownSid(type, NULL, buf, &size));
    CHECK_EQ(size, GetLengthSid(buf));
    CHECK(IsValidSid(buf));
    CHECK(ConvertSidToStringSidA(buf, &text));
    if (strcmp(text, expect) != 0) {
        fprintf(stderr, "well-known SID %d: %s, expected %s\n", (int)type, text, expect);
        exit(1);
    }
    LocalFree(text);
}

static void test_well_known(void)
{
    check_well_known(WinNullSid, "S-1-0-0");
    check_well_known(WinWorldSid, "S-1-1-0");
    check_well_known(WinLocalSid, "S-1-2-0");
    check_well_known(WinCreatorOwnerSid, "S-1-3-0");
    check_well_known(WinNtAuthoritySid, "S-1-5");
    check_well_known(WinInteractiveSid, "S-1-5-4");
    check_well_known(WinAuthenticatedUserSid, "S-1-5-11");
    check_well_known(WinLocalSystemSid, "S-1-5-18");
    check_well_known(WinLocalServiceSid, "S-1-5-19");
    check_well_known(WinNetworkServiceSid, "S-1-5-20");
    check_well_known(WinBuiltinDomainSid, "S-1-5-32");
    check_well_known(WinBuiltinAdministratorsSid, "S-1-5-32-544");
    check_well_known(WinBuiltinUsersSid, "S-1-5-32-545");
    check_well_known(WinBuiltinPerfLoggingUsersSid, "S-1-5-32-559");
    check_well_known(WinBuiltinEventLogReadersGroup, "S-1-5-32-573");
    check_well_known(WinNTLMAuthenticationSid, "S-1-5-64-10");
    check_well_known(WinMediumLabelSid, "S-1-16-8192");
    check_well_known(WinHighLabelSid, "S-1-16-12288");
    check_well_known(WinBuiltinAnyPackageSid, "S-1-15-2-1");

    /* The size query: FALSE, ERROR_INSUFFICIENT_BUFFER, the size needed. */
    DWORD size = 0;
    SetLastError(0);
    CHECK(!CreateWellKnownSid(WinBuiltinAdministratorsSid, NULL, NULL, &size));
    CHECK_EQ(GetLastError(), ERROR_INSUFFICIENT_BUFFER);
    CHECK_EQ(size, 16);
    CHECK_EQ(SECURITY_MAX_SID_SIZE, 68);
    /* A SID that needs a domain: not supported here. */
    BYTE buf[SECURITY_MAX_SID_SIZE];
    size = sizeof(buf);
    CHECK(!CreateWellKnownSid(WinAccountAdministratorSid, NULL, buf, &size));
    CHECK_EQ(GetLastError(), ERROR_NOT_SUPPORTED);
    CHECK(!CreateWellKnownSid((WELL_KNOWN_SID_TYPE)1000, NULL, buf, &size));
    CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
    CHECK(!CreateWellKnownSid(WinWorldSid, NULL, buf, NULL));
    CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
}

/* Text -> SID -> text, in both character widths; the SID's bytes. */
static void test_round_trip(void)
{
    static const char *const texts[] = {
        "S-1-5-18",
        "S-1-5-21-3623811015-3361044348-30300820-1013",
        "S-1-0x123456789ABC-7",
        "S-1-4294967295-4294967295",
        "S-1-5-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15",
    };
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        PSID sid = NULL;
        LPSTR back = NULL;
        CHECK(ConvertStringSidToSidA(texts[i], &sid));
        CHECK(IsValidSid(sid));
        CHECK(ConvertSidToStringSidA(sid, &back));
        if (strcmp(back, texts[i]) != 0) {
            fprintf(stderr, "round trip: %s gave %s\n", texts[i], back);
            exit(1);
        }
        LocalFree(back);
        LocalFree(sid);
    }
    PSID sid = NULL;
    LPWSTR wide = NULL;
    CHECK(ConvertStringSidToSidW(L"S-1-5-21-1-2-3-500", &sid));
    const SID *s = (const SID *)sid;
    CHECK_EQ(s->Revision, 1);
    CHECK_EQ(s->SubAuthorityCount, 5);
    CHECK_EQ(s->IdentifierAuthority.Value[5], 5);
    CHECK_EQ(s->SubAuthority[0], 21);
    CHECK_EQ(s->SubAuthority[4], 500);
    CHECK_EQ(*GetSidSubAuthorityCount(sid), 5);
    CHECK_EQ(*GetSidSubAuthority(sid, 4), 500);
    CHECK_EQ(GetLengthSid(sid), 28);
    CHECK(ConvertSidToStringSidW(sid, &wide));
    CHECK(wcscmp(wide, L"S-1-5-21-1-2-3-500") == 0);
    LocalFree(wide);

    /* Copies compare equal; a different SID does not. */
    BYTE copy[SECURITY_MAX_SID_SIZE];
    CHECK(!CopySid(GetLengthSid(sid) - 1, copy, sid));
    CHECK_EQ(GetLastError(), ERROR_INSUFFICIENT_BUFFER);
    CHECK(CopySid(sizeof(copy), copy, sid));
    CHECK(EqualSid(copy, sid));
    ((SID *)copy)->SubAuthority[4] = 501;
    CHECK(!EqualSid(copy, sid));
    LocalFree(sid);

    /* An SDDL alias: the well-known SID. */
    BYTE system[SECURITY_MAX_SID_SIZE];
    DWORD size = sizeof(system);
    CHECK(CreateWellKnownSid(WinLocalSystemSid, NULL, system, &size));
    CHECK(ConvertStringSidToSid(SDDL_LOCAL_SYSTEM, &sid)); /* TCHAR: the A form here */
    CHECK(EqualSid(sid, system));
    LocalFree(sid);
    CHECK(ConvertStringSidToSidA("BA", &sid));
    LPSTR text = NULL;
    CHECK(ConvertSidToStringSidA(sid, &text));
    CHECK(strcmp(text, "S-1-5-32-544") == 0);
    LocalFree(text);
    LocalFree(sid);

    /* AllocateAndInitializeSid builds the same bytes. */
    SID_IDENTIFIER_AUTHORITY nt = SECURITY_NT_AUTHORITY;
    PSID admins = NULL;
    BYTE expect[SECURITY_MAX_SID_SIZE];
    size = sizeof(expect);
    CHECK(AllocateAndInitializeSid(&nt, 2, SECURITY_BUILTIN_DOMAIN_RID, DOMAIN_ALIAS_RID_ADMINS, 0,
                                   0, 0, 0, 0, 0, &admins));
    CHECK(CreateWellKnownSid(WinBuiltinAdministratorsSid, NULL, expect, &size));
    CHECK(EqualSid(admins, expect));
    CHECK(FreeSid(admins) == NULL);
}

/* Text that is not a SID: ERROR_INVALID_SID. */
static void test_invalid(void)
{
    static const char *const bad[] = {
        "",
        "S",
        "S-",
        "S-1",
        "S-1-",
        "S-1-5-",
        "S-1-5--1",
        "X-1-5-18",
        "S-1-5-18x",
        "S-1-5-4294967296",
        "S-1-0x1000000000000-1",
        "S-1-5-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-16",
        "ZZ",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        PSID sid = (PSID)1;
        SetLastError(0);
        if (ConvertStringSidToSidA(bad[i], &sid)) {
            fprintf(stderr, "\"%s\" was read as a SID\n", bad[i]);
            exit(1);
        }
        CHECK_EQ(GetLastError(), ERROR_INVALID_SID);
        CHECK(sid == (PSID)1);
    }
    BYTE not_sid[8] = {2, 0, 0, 0, 0, 0, 0, 5}; /* revision 2 */
    LPSTR text = NULL;
    CHECK(!IsValidSid(not_sid));
    CHECK(!ConvertSidToStringSidA(not_sid, &text));
    CHECK_EQ(GetLastError(), ERROR_INVALID_SID);
    CHECK(!ConvertSidToStringSidA(NULL, &text));
    CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
    CHECK(!IsValidSid(NULL));
}

int main(void)
{
    test_well_known();
    test_round_trip();
    test_invalid();
    printf("sid: ok\n");
    return 0;
}
