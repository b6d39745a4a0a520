/* SPDX-License-Identifier: MIT */
/* A directory of manifests with bad files among good ones: every good
 * manifest loads, the one with a slip (an event naming a task the manifest
 * does not declare) loads without that name, and the one cut short and the
 * one that is not XML are passed over; each bad file gives one warning
 * (file, line, what). The slipped manifest named alone fails with the same
 * message. TDH's manifest search (PETW_MANIFEST_PATH) finds the same. The
 * directory holds PowerShell's manifest (test/data) and the three bad
 * files, named so that they are read first. */
#include <tdh.h>
#include <wchar.h>

#include "test_util.h"

#if defined(_WIN32)
#define setenv(name, value, overwrite) _putenv_s((name), (value))
#endif

static const GUID powershell = {
    0xa0c1853b, 0x5c40, 0x4b15, {0x87, 0x66, 0x3c, 0xf1, 0xc5, 0x8f, 0x98, 0x5a}};
static const GUID slipped = {
    0x4d1e7a20, 0x11b2, 0x4c3d, {0x9e, 0x0f, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76}};

static const char slip_manifest[] =
    "<instrumentationManifest xmlns='http://schemas.microsoft.com/win/2004/08/events'\n"
    "    xmlns:win='http://manifests.microsoft.com/win/2004/08/windows/events'>\n"
    "<instrumentation><events>\n"
    "<provider name='Contoso-Slipped' guid='{4d1e7a20-11b2-4c3d-9e0f-213243546576}'>\n"
    "<events>\n"
    "<event value='1' symbol='Named' task='Known' level='win:Informational'/>\n"
    "<event value='2' symbol='Slipped' task='task_0' level='win:Informational'\n"
    "    template='T'/>\n"
    "</events>\n"
    "<tasks><task name='Known' value='5'/></tasks>\n"
    "<templates><template tid='T'><data name='N' inType='win:UInt32'/></template></templates>\n"
    "</provider>\n"
    "</events></instrumentation></instrumentationManifest>\n";

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f);
    CHECK_EQ(fwrite(data, 1, n, f), n);
    fclose(f);
}

static char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    CHECK(f);
    char *buf = malloc(1 << 20);
    CHECK(buf);
    *n = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* The task name TDH gives event `id` of `g` without a record ("" none). */
static void task_name(const GUID *g, USHORT id, char *out, size_t size)
{
    EVENT_DESCRIPTOR d = {0};
    d.Id = id;
    ULONG n = 0;
    GUID guid = *g;
    CHECK_EQ(TdhGetManifestEventInformation(&guid, &d, NULL, &n), ERROR_INSUFFICIENT_BUFFER);
    PTRACE_EVENT_INFO info = malloc(n);
    CHECK(info);
    CHECK_EQ(TdhGetManifestEventInformation(&guid, &d, info, &n), ERROR_SUCCESS);
    out[0] = 0;
    if (info->TaskNameOffset)
        snprintf(out, size, "%ls", (const wchar_t *)((const char *)info + info->TaskNameOffset));
    free(info);
}

int main(void)
{
    const char *data = getenv("PETW_TEST_DATA");
    if (!data)
        return 77;
    char dir[512], path[1024], file[1024];
    test_path(dir, sizeof(dir), "manifests");
    test_mkdir(dir);
    snprintf(path, sizeof(path), "%s/powershell.man", data);
    size_t n;
    char *ps = read_all(path, &n);
    snprintf(file, sizeof(file), "%s/zz-powershell.man", dir);
    write_file(file, ps, n);
    snprintf(file, sizeof(file), "%s/b-cut.man", dir); /* cut in the middle of its events */
    write_file(file, ps, n / 2);
    snprintf(file, sizeof(file), "%s/c-notes.xml", dir);
    write_file(file, "exported 2024-03-01\n", 20);
    snprintf(file, sizeof(file), "%s/a-slip.man", dir);
    write_file(file, slip_manifest, sizeof(slip_manifest) - 1);

    petw_decoder *d;
    CHECK_EQ(petw_decoder_new(&d), 0);
    CHECK_EQ(petw_decoder_add_manifest(d, dir), 0);
    const char *w = petw_decoder_warnings(d);
    printf("%s", w);
    CHECK_EQ(count_lines(w), 3);
    char want[1200];
    snprintf(want, sizeof(want),
             "%s: line 7: unknown task \"task_0\" (read without what it names)\n", file);
    CHECK(strstr(w, want) != NULL);
    CHECK(strstr(w, "b-cut.man: line ") && strstr(w, "c-notes.xml: line 1: XML: "));
    CHECK(strstr(w, "(not read)\n"));
    /* Named alone, the slipped file fails, saying the same. */
    petw_decoder *one;
    CHECK_EQ(petw_decoder_new(&one), 0);
    CHECK_EQ(petw_decoder_add_manifest(one, file), PETW_ECORRUPT);
    snprintf(want, sizeof(want), "%s: line 7: unknown task \"task_0\"", file);
    CHECK_EQ(strcmp(petw_decoder_error(one), want), 0);
    CHECK_EQ(strcmp(petw_decoder_warnings(one), ""), 0);
    petw_decoder_free(one);
    petw_decoder_free(d);

    /* TDH's search of PETW_MANIFEST_PATH: both providers, the slipped
     * event without a task name. */
    setenv("PETW_MANIFEST_PATH", dir, 1);
    ULONG size = 0;
    CHECK_EQ(TdhEnumerateProviders(NULL, &size), ERROR_INSUFFICIENT_BUFFER);
    PPROVIDER_ENUMERATION_INFO pe = malloc(size);
    CHECK(pe);
    CHECK_EQ(TdhEnumerateProviders(pe, &size), ERROR_SUCCESS);
    int found = 0;
    for (ULONG i = 0; i < pe->NumberOfProviders; i++) {
        const GUID *g = &pe->TraceProviderInfoArray[i].ProviderGuid;
        found += !memcmp(g, &powershell, sizeof(GUID)) || !memcmp(g, &slipped, sizeof(GUID));
    }
    CHECK_EQ(found, 2);
    free(pe);
    char name[64];
    task_name(&slipped, 1, name, sizeof(name));
    CHECK_EQ(strcmp(name, "Known"), 0);
    task_name(&slipped, 2, name, sizeof(name));
    CHECK_EQ(strcmp(name, ""), 0);

    const char *names[] = {"a-slip.man", "b-cut.man", "c-notes.xml", "zz-powershell.man"};
    for (size_t i = 0; i < 4; i++) {
        snprintf(file, sizeof(file), "%s/%s", dir, names[i]);
        remove(file);
    }
    rmdir(dir);
    free(ps);
    printf("manifest_dir: ok\n");
    return 0;
}
