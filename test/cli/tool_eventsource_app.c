/* SPDX-License-Identifier: MIT */
/* tool_eventsource_app PATH: records what a manifest-based .NET
 * EventSource writes into PATH: an event before its manifest, the manifest
 * as ManifestData events (id 0xFFFE, opcode 0xFE, task 0xFFFE, in 300-byte
 * chunks after the 8-byte envelope, as SendManifest cuts it when buffers
 * are small), then its events; tool_eventsource.sh dumps it. */
#include <stdio.h>
#include <string.h>

#include <petw/petw.h>

static const petw_guid provider = {
    0x3c9e7a10, 0x55b1, 0x5d2e, {0xa4, 0x07, 0x19, 0x6b, 0x2f, 0x80, 0xc3, 0x5d}};

static const char manifest[] =
    "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">\r\n"
    " <instrumentation xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" "
    "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
    "xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/events\">\r\n"
    "  <events xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">\r\n"
    "<provider name=\"Petw-Demo-Cache\" guid=\"{3c9e7a10-55b1-5d2e-a407-196b2f80c35d}\" "
    "symbol=\"PetwDemoCache\">\r\n"
    " <maps>\r\n"
    "  <valueMap name=\"Tier\">\r\n"
    "   <map value=\"0x0\" message=\"$(string.map_Tier.Memory)\"/>\r\n"
    "   <map value=\"0x1\" message=\"$(string.map_Tier.Disk)\"/>\r\n"
    "  </valueMap>\r\n"
    " </maps>\r\n"
    " <opcodes>\r\n"
    " </opcodes>\r\n"
    " <keywords>\r\n"
    "  <keyword name=\"Session3\" message=\"$(string.keyword_Session3)\" "
    "mask=\"0x100000000000\"/>\r\n"
    " </keywords>\r\n"
    " <events>\r\n"
    "  <event value=\"1\" version=\"0\" level=\"win:Informational\" symbol=\"Hit\" "
    "message=\"$(string.event_Hit)\" template=\"HitArgs\"/>\r\n"
    " </events>\r\n"
    " <templates>\r\n"
    "  <template tid=\"HitArgs\">\r\n"
    "   <data name=\"key\" inType=\"win:UnicodeString\"/>\r\n"
    "   <data name=\"size\" inType=\"win:Int32\"/>\r\n"
    "   <data name=\"tier\" inType=\"win:UInt32\" map=\"Tier\"/>\r\n"
    "  </template>\r\n"
    " </templates>\r\n"
    "</provider>\r\n"
    "</events>\r\n"
    "</instrumentation>\r\n"
    "<localization>\r\n"
    " <resources culture=\"en-US\">\r\n"
    "  <stringTable>\r\n"
    "   <string id=\"event_Hit\" value=\"Hit %1 (%2 bytes, %3)\"/>\r\n"
    "   <string id=\"keyword_Session3\" value=\"Session3\"/>\r\n"
    "   <string id=\"map_Tier.Disk\" value=\"Disk\"/>\r\n"
    "   <string id=\"map_Tier.Memory\" value=\"Memory\"/>\r\n"
    "  </stringTable>\r\n"
    " </resources>\r\n"
    "</localization>\r\n"
    "</instrumentationManifest>\r\n";

static int hit(petw_provider_handle p, const char *key, int32_t size, uint32_t tier)
{
    uint16_t k[32];
    size_t n = strlen(key);
    for (size_t i = 0; i <= n; i++)
        k[i] = (uint16_t)(unsigned char)key[i];
    petw_data_descriptor d[3] = {{(uint64_t)(uintptr_t)k, (uint32_t)(2 * (n + 1)), 0, 0, 0},
                                 {(uint64_t)(uintptr_t)&size, 4, 0, 0, 0},
                                 {(uint64_t)(uintptr_t)&tier, 4, 0, 0, 0}};
    petw_event_descriptor desc = {1, 0, 0, 4, 0, 0, 0};
    return petw_event_write(p, &desc, NULL, NULL, 3, d);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-eventsource-app";
    c.file_path = argv[1];
    petw_session_handle s;
    petw_provider_handle p;
    if (petw_session_start(&c, &s) != 0 || petw_provider_register(&provider, NULL, NULL, &p) != 0 ||
        petw_session_enable_provider(s, &provider, 0, 0, 0) != 0)
        return 1;
    int rc = hit(p, "early", 1, 0); /* before the manifest: raw */
    /* SendManifest: descriptor (0xFFFE, version 1, opcode 0xFE, task
     * 0xFFFE, every keyword), envelope then chunk. */
    petw_event_descriptor md = {0xFFFE, 1, 0, 0, 0xFE, 0xFFFE, ~0ull};
    const size_t chunk = 300, len = sizeof(manifest) - 1;
    uint8_t env[8] = {1, 1, 0, 0x5B, 0, 0, 0, 0};
    uint16_t total = (uint16_t)((len + chunk - 1) / chunk);
    env[4] = (uint8_t)total;
    env[5] = (uint8_t)(total >> 8);
    for (uint16_t i = 0; i < total; i++) {
        env[6] = (uint8_t)i;
        env[7] = (uint8_t)(i >> 8);
        size_t at = i * chunk, n = len - at < chunk ? len - at : chunk;
        petw_data_descriptor d[2] = {{(uint64_t)(uintptr_t)env, 8, 0, 0, 0},
                                     {(uint64_t)(uintptr_t)(manifest + at), (uint32_t)n, 0, 0, 0}};
        rc |= petw_event_write(p, &md, NULL, NULL, 2, d);
    }
    rc |= hit(p, "alpha", 512, 0);
    rc |= hit(p, "beta", 4096, 1);
    petw_session_stats st;
    rc |= petw_session_stop(s, &st);
    rc |= petw_provider_unregister(p);
    printf("%u manifest chunks\n", total);
    return rc ? 1 : 0;
}
