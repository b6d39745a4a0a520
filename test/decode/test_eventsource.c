/* SPDX-License-Identifier: MIT */
/* .NET EventSource manifests carried in the trace: a manifest-based
 * EventSource writes its manifest as ManifestData events (id 0xFFFE, opcode
 * 0xFE), in chunks after an 8-byte envelope; once the last chunk came, the
 * provider's events decode by name and field. Events before it stay raw;
 * chunks out of sequence or missing, a corrupt envelope, a manifest too
 * large or one that does not parse are each an error for that event, and
 * decoding goes on. */
#include "test_util.h"

static const petw_guid orders = {
    0x7f3a51c2, 0x0d4e, 0x5b61, {0x8c, 0x2a, 0x41, 0x95, 0x06, 0xd3, 0xe7, 0x18}};
static const petw_guid other = {
    0x11112222, 0x3333, 0x4444, {0x55, 0x55, 0x66, 0x66, 0x77, 0x77, 0x88, 0x88}};

/* What EventSource's ManifestBuilder writes for a small EventSource
 * (Contoso-Orders: an enum, a [Flags] enum, a byte[] argument, Start/Stop
 * events of one task, an Admin channel, the reserved Session keywords),
 * element for element and line for line. */
static const char manifest_fmt[] =
    "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">\r\n"
    " <instrumentation xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" "
    "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
    "xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/events\">\r\n"
    "  <events xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">\r\n"
    "<provider name=\"Contoso-Orders\" guid=\"{7f3a51c2-0d4e-5b61-8c2a-419506d3e718}\" "
    "resourceFileName=\"Contoso-Orders\" messageFileName=\"Contoso-Orders\" "
    "symbol=\"ContosoOrders\">\r\n"
    " <channels>\r\n"
    "  <channel chid=\"Admin\" name=\"Contoso-Orders/Admin\" value=\"16\" type=\"Admin\" "
    "enabled=\"true\"/>\r\n"
    " </channels>\r\n"
    " <tasks>\r\n"
    "  <task name=\"Request\" message=\"$(string.task_Request)\" value=\"1\"/>\r\n"
    "  <task name=\"EventSourceMessage\" message=\"$(string.task_EventSourceMessage)\" "
    "value=\"65534\"/>\r\n"
    " </tasks>\r\n"
    " <maps>\r\n"
    "  <valueMap name=\"OrderKind\">\r\n"
    "   <map value=\"0x0\" message=\"$(string.map_OrderKind.Retail)\"/>\r\n"
    "   <map value=\"0x1\" message=\"$(string.map_OrderKind.Wholesale)\"/>\r\n"
    "   <map value=\"0x2\" message=\"$(string.map_OrderKind.Internal)\"/>\r\n"
    "  </valueMap>\r\n"
    "  <bitMap name=\"Shipping\">\r\n"
    "   <map value=\"0x1\" message=\"$(string.map_Shipping.Express)\"/>\r\n"
    "   <map value=\"0x2\" message=\"$(string.map_Shipping.Insured)\"/>\r\n"
    "   <map value=\"0x4\" message=\"$(string.map_Shipping.Gift)\"/>\r\n"
    "  </bitMap>\r\n"
    " </maps>\r\n"
    " <opcodes>\r\n"
    "  <opcode name=\"Retry\" message=\"$(string.opcode_Retry)\" value=\"11\"/>\r\n"
    " </opcodes>\r\n"
    " <keywords>\r\n"
    "  <keyword name=\"Orders\" message=\"$(string.keyword_Orders)\" mask=\"0x1\"/>\r\n"
    "  <keyword name=\"Diagnostics\" message=\"$(string.keyword_Diagnostics)\" mask=\"0x2\"/>\r\n"
    "  <keyword name=\"Session3\" message=\"$(string.keyword_Session3)\" "
    "mask=\"0x100000000000\"/>\r\n"
    "  <keyword name=\"Session2\" message=\"$(string.keyword_Session2)\" "
    "mask=\"0x200000000000\"/>\r\n"
    "  <keyword name=\"Session1\" message=\"$(string.keyword_Session1)\" "
    "mask=\"0x400000000000\"/>\r\n"
    "  <keyword name=\"Session0\" message=\"$(string.keyword_Session0)\" "
    "mask=\"0x800000000000\"/>\r\n"
    " </keywords>\r\n"
    " <events>\r\n"
    "  <event value=\"0\" version=\"0\" level=\"win:LogAlways\" symbol=\"EventSourceMessage\" "
    "task=\"EventSourceMessage\" template=\"EventSourceMessageArgs\"/>\r\n"
    "  <event value=\"1\" version=\"%d\" level=\"win:Informational\" symbol=\"%s\" "
    "message=\"$(string.event_OrderPlaced)\" keywords=\"Orders\" template=\"OrderPlacedArgs\"/>\r\n"
    "  <event value=\"2\" version=\"0\" level=\"win:Verbose\" symbol=\"RequestStart\" "
    "keywords=\"Diagnostics\" opcode=\"win:Start\" task=\"Request\" "
    "template=\"RequestStartArgs\"/>\r\n"
    "  <event value=\"3\" version=\"0\" level=\"win:Verbose\" symbol=\"RequestStop\" "
    "keywords=\"Diagnostics\" opcode=\"win:Stop\" task=\"Request\" "
    "template=\"RequestStopArgs\"/>\r\n"
    "  <event value=\"4\" version=\"0\" level=\"win:Warning\" symbol=\"RequestRetry\" "
    "opcode=\"Retry\" task=\"Request\"/>\r\n"
    "  <event value=\"5\" version=\"0\" level=\"win:Error\" symbol=\"Failure\" "
    "message=\"$(string.event_Failure)\" channel=\"Admin\" template=\"FailureArgs\"/>\r\n"
    /* .NET Framework's EventSource wrote no symbol: such events are named
     * by task and opcode, as TraceEvent names them. */
    "  <event value=\"6\" version=\"0\" level=\"win:Informational\" opcode=\"win:Send\" "
    "task=\"Request\"/>\r\n"
    "  <event value=\"7\" version=\"0\" level=\"win:Informational\" task=\"Request\"/>\r\n"
    " </events>\r\n"
    " <templates>\r\n"
    "  <template tid=\"EventSourceMessageArgs\">\r\n"
    "   <data name=\"message\" inType=\"win:UnicodeString\"/>\r\n"
    "  </template>\r\n"
    "  <template tid=\"OrderPlacedArgs\">\r\n"
    "   <data name=\"orderId\" inType=\"win:Int32\"/>\r\n"
    "   <data name=\"customer\" inType=\"win:UnicodeString\"/>\r\n"
    "   <data name=\"correlation\" inType=\"win:GUID\"/>\r\n"
    "   <data name=\"kind\" inType=\"win:UInt32\" map=\"OrderKind\"/>\r\n"
    "   <data name=\"shipping\" inType=\"win:UInt32\" map=\"Shipping\"/>\r\n"
    "   <data name=\"amount\" inType=\"win:Double\"/>\r\n"
    "   <data name=\"placed\" inType=\"win:FILETIME\"/>\r\n"
    "   <data name=\"rushed\" inType=\"win:Boolean\"/>\r\n"
    "   <data name=\"noteSize\" inType=\"win:UInt32\"/>\r\n"
    "   <data name=\"note\" inType=\"win:Binary\" length=\"noteSize\"/>\r\n"
    "  </template>\r\n"
    "  <template tid=\"RequestStartArgs\">\r\n"
    "   <data name=\"url\" inType=\"win:UnicodeString\"/>\r\n"
    "  </template>\r\n"
    "  <template tid=\"RequestStopArgs\">\r\n"
    "   <data name=\"url\" inType=\"win:UnicodeString\"/>\r\n"
    "   <data name=\"status\" inType=\"win:Int32\"/>\r\n"
    "   <data name=\"elapsed\" inType=\"win:Int64\"/>\r\n"
    "  </template>\r\n"
    "  <template tid=\"FailureArgs\">\r\n"
    "   <data name=\"code\" inType=\"win:Int64\"/>\r\n"
    "   <data name=\"reason\" inType=\"win:UnicodeString\"/>\r\n"
    "   <data name=\"handle\" inType=\"win:Pointer\"/>\r\n"
    "  </template>\r\n"
    " </templates>\r\n"
    "</provider>\r\n"
    "</events>\r\n"
    "</instrumentation>\r\n"
    "<localization>\r\n"
    " <resources culture=\"en-US\">\r\n"
    "  <stringTable>\r\n"
    "   <string id=\"event_Failure\" value=\"Failure %%1: %%2\"/>\r\n"
    "   <string id=\"event_OrderPlaced\" value=\"Order %%1 placed by %%2 (%%4)\"/>\r\n"
    "   <string id=\"keyword_Diagnostics\" value=\"Diagnostics\"/>\r\n"
    "   <string id=\"keyword_Orders\" value=\"Orders\"/>\r\n"
    "   <string id=\"keyword_Session0\" value=\"Session0\"/>\r\n"
    "   <string id=\"keyword_Session1\" value=\"Session1\"/>\r\n"
    "   <string id=\"keyword_Session2\" value=\"Session2\"/>\r\n"
    "   <string id=\"keyword_Session3\" value=\"Session3\"/>\r\n"
    "   <string id=\"map_OrderKind.Internal\" value=\"Internal\"/>\r\n"
    "   <string id=\"map_OrderKind.Retail\" value=\"Retail\"/>\r\n"
    "   <string id=\"map_OrderKind.Wholesale\" value=\"Wholesale\"/>\r\n"
    "   <string id=\"map_Shipping.Express\" value=\"Express\"/>\r\n"
    "   <string id=\"map_Shipping.Gift\" value=\"Gift\"/>\r\n"
    "   <string id=\"map_Shipping.Insured\" value=\"Insured\"/>\r\n"
    "   <string id=\"opcode_Retry\" value=\"Retry\"/>\r\n"
    "   <string id=\"task_EventSourceMessage\" value=\"EventSourceMessage\"/>\r\n"
    "   <string id=\"task_Request\" value=\"Request\"/>\r\n"
    "  </stringTable>\r\n"
    " </resources>\r\n"
    "</localization>\r\n"
    "</instrumentationManifest>\r\n";

static char manifest[8192];
static size_t manifest_len;

/* The manifest, with event 1's version and name as given. */
static void make_manifest(int version, const char *name)
{
    int n = snprintf(manifest, sizeof(manifest), manifest_fmt, version, name);
    CHECK(n > 0 && (size_t)n < sizeof(manifest));
    manifest_len = (size_t)n;
}

static uint8_t payload[65536];
static size_t plen;

static void put(const void *p, size_t n)
{
    memcpy(payload + plen, p, n);
    plen += n;
}

static void put_u16s(const char *ascii)
{
    for (size_t i = 0; i <= strlen(ascii); i++) {
        uint8_t u[2] = {(uint8_t)ascii[i], 0};
        put(u, 2);
    }
}

static int decode_as(petw_decoder *d, const petw_guid *provider, uint32_t tid, uint16_t id,
                     uint8_t version, uint8_t opcode, uint16_t task, const petw_decoded_event **ev)
{
    petw_event_record r;
    memset(&r, 0, sizeof(r));
    r.header.flags = PETW_EVENT_HEADER_FLAG_64_BIT_HEADER;
    r.header.provider_id = *provider;
    r.header.process_id = 4242;
    r.header.thread_id = tid;
    r.header.descriptor.id = id;
    r.header.descriptor.version = version;
    r.header.descriptor.opcode = opcode;
    r.header.descriptor.task = task;
    r.header.descriptor.level = 4; /* Informational */
    r.user_data = payload;
    r.user_data_length = (uint16_t)plen;
    return petw_decode(d, &r, ev);
}

/* One ManifestData event as EventSource writes it (descriptor 0xFFFE,
 * version 1, opcode 0xFE, task 0xFFFE): the envelope, then `n` bytes. */
static int chunk_raw(petw_decoder *d, const petw_guid *provider, uint32_t tid, uint8_t format,
                     uint8_t magic, uint16_t total, uint16_t number, const void *xml, size_t n,
                     const petw_decoded_event **ev)
{
    plen = 0;
    uint8_t env[8] = {format, 1, 0, magic, 0, 0, 0, 0};
    petw__test_wr16(env + 4, total);
    petw__test_wr16(env + 6, number);
    put(env, 8);
    put(xml, n);
    return decode_as(d, provider, tid, 0xFFFE, 1, 0xFE, 0xFFFE, ev);
}

/* Chunk `number` of the manifest cut in `size`-byte chunks (EventSource
 * halves its chunks, down to 256 bytes, when the session's buffers are
 * small). */
static int chunk(petw_decoder *d, const petw_guid *provider, uint32_t tid, size_t size,
                 uint16_t number, const petw_decoded_event **ev)
{
    uint16_t total = (uint16_t)((manifest_len + size - 1) / size);
    size_t at = number * size;
    size_t n = manifest_len - at < size ? manifest_len - at : size;
    return chunk_raw(d, provider, tid, 1, 0x5B, total, number, manifest + at, n, ev);
}

static uint16_t chunks_of(size_t size)
{
    return (uint16_t)((manifest_len + size - 1) / size);
}

/* Sends the whole manifest; returns the last chunk's result. */
static int send_manifest(petw_decoder *d, const petw_guid *provider, size_t size)
{
    const petw_decoded_event *ev;
    int rc = 0;
    for (uint16_t i = 0; i < chunks_of(size); i++) {
        rc = chunk(d, provider, 1, size, i, &ev);
        if (rc)
            return rc;
    }
    return rc;
}

static const petw_field *top(const petw_decoded_event *ev, const char *name)
{
    for (uint32_t i = 0; i < ev->top_count; i++)
        if (!strcmp(ev->fields[i].name, name))
            return &ev->fields[i];
    fprintf(stderr, "no field %s\n", name);
    exit(1);
}

static void says(const petw_decoder *d, const char *what)
{
    if (!strstr(petw_decoder_error(d), what)) {
        fprintf(stderr, "error '%s' does not say '%s'\n", petw_decoder_error(d), what);
        exit(1);
    }
}

/* Event 1 (OrderPlaced) decodes by name; returns its name. */
static const char *order_placed(petw_decoder *d, uint8_t version)
{
    plen = 0;
    int32_t id = 1017;
    put(&id, 4);
    put_u16s("Fabrikam");
    put(&other, 16);
    uint32_t kind = 1, shipping = 5, rushed = 1, note_size = 3;
    double amount = 99.5;
    int64_t placed = 133000000000000000ll;
    put(&kind, 4);
    put(&shipping, 4);
    put(&amount, 8);
    put(&placed, 8);
    put(&rushed, 4);
    put(&note_size, 4);
    put("abc", 3);
    const petw_decoded_event *ev;
    CHECK_EQ(decode_as(d, &orders, 7, 1, version, 0, 0xFFFE - 1, &ev), 0);
    if (!ev->has_schema)
        return NULL;
    CHECK_EQ(ev->top_count, 10);
    CHECK_EQ(top(ev, "orderId")->v.i, 1017);
    CHECK_EQ(strcmp(top(ev, "customer")->v.s, "Fabrikam"), 0);
    CHECK(petw_guid_equal(&top(ev, "correlation")->v.guid, &other));
    CHECK_EQ(strcmp(top(ev, "kind")->label, "Wholesale"), 0);
    CHECK_EQ(strcmp(top(ev, "shipping")->label, "Express | Gift"), 0);
    CHECK(top(ev, "amount")->v.f == 99.5);
    CHECK_EQ(top(ev, "placed")->kind, PETW_VALUE_FILETIME);
    CHECK_EQ(top(ev, "rushed")->kind, PETW_VALUE_BOOL);
    CHECK_EQ(top(ev, "note")->v.bin.size, 3);
    CHECK_EQ(memcmp(top(ev, "note")->v.bin.data, "abc", 3), 0);
    CHECK_EQ(strcmp(ev->message, "Order 1017 placed by Fabrikam (Wholesale)"), 0);
    CHECK_EQ(strcmp(ev->provider_name, "Contoso-Orders"), 0);
    CHECK_EQ(strcmp(ev->level_name, "Information"), 0);
    return ev->event_name;
}

int main(void)
{
    petw_decoder *d;
    const petw_decoded_event *ev;
    CHECK_EQ(petw_decoder_new(&d), 0);
    make_manifest(0, "OrderPlaced");
    const size_t size = 512;
    uint16_t total = chunks_of(size);
    CHECK(total >= 4);

    /* 1. Before the manifest, the provider's events are raw. */
    CHECK(order_placed(d, 0) == NULL);

    /* 2. The chunks, in order: each reads as ManifestData with its
     * envelope; the last one completes the manifest. */
    for (uint16_t i = 0; i < total; i++) {
        CHECK_EQ(chunk(d, &orders, 1, size, i, &ev), 0);
        CHECK(ev->has_schema);
        CHECK_EQ(strcmp(ev->event_name, "ManifestData"), 0);
        CHECK_EQ(ev->top_count, 7);
        CHECK_EQ(top(ev, "Format")->v.u, 1);
        CHECK_EQ(top(ev, "MajorVersion")->v.u, 1);
        CHECK_EQ(top(ev, "MinorVersion")->v.u, 0);
        CHECK_EQ(top(ev, "Magic")->v.u, 0x5B);
        CHECK_EQ(top(ev, "Magic")->kind, PETW_VALUE_HEX);
        CHECK_EQ(top(ev, "TotalChunks")->v.u, total);
        CHECK_EQ(top(ev, "ChunkNumber")->v.u, i);
        CHECK_EQ(top(ev, "ChunkSize")->v.u, plen - 8);
        if (i + 1 < total)
            CHECK(ev->provider_name == NULL);
        else
            CHECK_EQ(strcmp(ev->provider_name, "Contoso-Orders"), 0);
    }

    /* 3. The provider's events now decode by name and field. */
    CHECK_EQ(strcmp(order_placed(d, 0), "OrderPlaced"), 0);
    plen = 0;
    put_u16s("/cart");
    CHECK_EQ(decode_as(d, &orders, 7, 2, 0, 1, 1, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "RequestStart"), 0);
    CHECK_EQ(strcmp(ev->task_name, "Request"), 0);
    CHECK_EQ(strcmp(ev->opcode_name, "Start"), 0);
    CHECK_EQ(strcmp(top(ev, "url")->v.s, "/cart"), 0);
    int32_t status = 404;
    int64_t elapsed = -3;
    put(&status, 4);
    put(&elapsed, 8);
    CHECK_EQ(decode_as(d, &orders, 7, 3, 0, 2, 1, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "RequestStop"), 0);
    CHECK_EQ(strcmp(ev->opcode_name, "Stop"), 0);
    CHECK_EQ(top(ev, "status")->v.i, 404);
    CHECK_EQ(top(ev, "elapsed")->v.i, -3);
    plen = 0;
    CHECK_EQ(decode_as(d, &orders, 7, 4, 0, 11, 1, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "RequestRetry"), 0);
    CHECK_EQ(strcmp(ev->opcode_name, "Retry"), 0);
    CHECK_EQ(ev->top_count, 0);
    plen = 0;
    int64_t code = -2147024891ll;
    uint64_t handle = 0x7ff0;
    put(&code, 8);
    put_u16s("denied");
    put(&handle, 8);
    CHECK_EQ(decode_as(d, &orders, 7, 5, 0, 0, 0, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "Failure"), 0);
    CHECK_EQ(strcmp(ev->message, "Failure -2147024891: denied"), 0);
    CHECK_EQ(top(ev, "handle")->v.u, 0x7ff0);
    plen = 0;
    put_u16s("hello");
    CHECK_EQ(decode_as(d, &orders, 7, 0, 0, 0, 0xFFFE, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "EventSourceMessage"), 0);
    CHECK_EQ(strcmp(top(ev, "message")->v.s, "hello"), 0);

    plen = 0;
    CHECK_EQ(decode_as(d, &orders, 7, 6, 0, 9, 1, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "Request/Send"), 0);
    CHECK_EQ(decode_as(d, &orders, 7, 7, 0, 0, 1, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "Request"), 0);

    /* 4. Sent again (each session that enables the provider gets it):
     * nothing changes. A changed manifest replaces the one kept. */
    CHECK_EQ(send_manifest(d, &orders, size), 0);
    CHECK_EQ(strcmp(order_placed(d, 0), "OrderPlaced"), 0);
    make_manifest(1, "OrderSubmitted");
    CHECK_EQ(send_manifest(d, &orders, 1000), 0);
    CHECK(order_placed(d, 0) == NULL); /* version 0 is gone */
    CHECK_EQ(strcmp(order_placed(d, 1), "OrderSubmitted"), 0);
    make_manifest(0, "OrderPlaced");

    /* 5. Chunks out of sequence: each an error saying so; the stream
     * starts over at the next chunk 0. */
    petw_decoder *d2;
    CHECK_EQ(petw_decoder_new(&d2), 0);
    CHECK_EQ(chunk(d2, &orders, 1, size, 1, &ev), PETW_ECORRUPT);
    says(d2, "chunk 1 of");
    says(d2, "without chunk 0");
    says(d2, "7f3a51c2-0d4e-5b61-8c2a-419506d3e718");
    CHECK_EQ(chunk(d2, &orders, 1, size, 0, &ev), 0);
    CHECK_EQ(chunk(d2, &orders, 1, size, 2, &ev), PETW_ECORRUPT); /* chunk 1 lost */
    says(d2, "where chunk 1 was expected");
    CHECK_EQ(chunk(d2, &orders, 1, size, 1, &ev), PETW_ECORRUPT); /* the stream was dropped */
    CHECK(order_placed(d2, 0) == NULL);
    /* The last chunk lost: nothing to decode with until it is sent again. */
    for (uint16_t i = 0; i + 1 < total; i++)
        CHECK_EQ(chunk(d2, &orders, 1, size, i, &ev), 0);
    CHECK(order_placed(d2, 0) == NULL);
    CHECK_EQ(send_manifest(d2, &orders, size), 0);
    CHECK_EQ(strcmp(order_placed(d2, 0), "OrderPlaced"), 0);
    petw_decoder_free(d2);

    /* 6. Streams of two threads (or providers) interleave. */
    CHECK_EQ(petw_decoder_new(&d2), 0);
    for (uint16_t i = 0; i < total; i++) {
        CHECK_EQ(chunk(d2, &orders, 1, size, i, &ev), 0);
        CHECK_EQ(chunk(d2, &orders, 2, size, i, &ev), 0);
    }
    CHECK_EQ(strcmp(order_placed(d2, 0), "OrderPlaced"), 0);
    /* At most 16 streams at once: the one left longest is dropped. */
    for (uint32_t t = 100; t < 117; t++)
        CHECK_EQ(chunk(d2, &orders, t, size, 0, &ev), 0);
    CHECK_EQ(chunk(d2, &orders, 100, size, 1, &ev), PETW_ECORRUPT);
    says(d2, "without chunk 0");
    CHECK_EQ(chunk(d2, &orders, 116, size, 1, &ev), 0);
    petw_decoder_free(d2);

    /* 7. Corrupt envelopes: each refused with the reason; decoding goes
     * on. */
    CHECK_EQ(petw_decoder_new(&d2), 0);
    CHECK_EQ(chunk_raw(d2, &orders, 1, 1, 0x5C, 1, 0, "<x/>", 4, &ev), PETW_ECORRUPT);
    says(d2, "magic 0x5C");
    CHECK_EQ(chunk_raw(d2, &orders, 1, 2, 0x5B, 1, 0, "<x/>", 4, &ev), PETW_ECORRUPT);
    says(d2, "format 2");
    CHECK_EQ(chunk_raw(d2, &orders, 1, 1, 0x5B, 3, 3, "<x/>", 4, &ev), PETW_ECORRUPT);
    says(d2, "chunk 3 of 3 is out of range");
    CHECK_EQ(chunk_raw(d2, &orders, 1, 1, 0x5B, 0, 0, "<x/>", 4, &ev), PETW_ECORRUPT);
    says(d2, "out of range");
    CHECK_EQ(chunk_raw(d2, &orders, 1, 1, 0x5B, 2, 0, "", 0, &ev), PETW_ECORRUPT);
    says(d2, "holds no XML");
    plen = 5;
    CHECK_EQ(decode_as(d2, &orders, 1, 0xFFFE, 1, 0xFE, 0xFFFE, &ev), PETW_ECORRUPT);
    says(d2, "shorter than its 8-byte envelope");
    /* A later chunk that disagrees with chunk 0. */
    CHECK_EQ(chunk(d2, &orders, 1, size, 0, &ev), 0);
    CHECK_EQ(
        chunk_raw(d2, &orders, 1, 1, 0x5B, (uint16_t)(total + 1), 1, manifest + size, size, &ev),
        PETW_ECORRUPT);
    says(d2, "does not match chunk 0");
    /* A manifest that does not parse, or describes another provider. */
    CHECK_EQ(chunk_raw(d2, &orders, 1, 1, 0x5B, 1, 0, "<instrumentationManifest>", 25, &ev),
             PETW_ECORRUPT);
    says(d2, "the manifest in the trace: line 1: XML");
    CHECK_EQ(chunk_raw(d2, &other, 1, 1, 0x5B, 1, 0, manifest, manifest_len, &ev), PETW_ECORRUPT);
    says(d2, "describes another provider");
    CHECK(order_placed(d2, 0) == NULL);
    CHECK_EQ(send_manifest(d2, &orders, size), 0);
    CHECK_EQ(strcmp(order_placed(d2, 0), "OrderPlaced"), 0);
    petw_decoder_free(d2);

    /* 8. A manifest past the 64 MB limit: refused at the chunk that
     * passes it, the chunks held dropped; decoding goes on. */
    CHECK_EQ(petw_decoder_new(&d2), 0);
    static uint8_t big[0xFF00];
    memset(big, ' ', sizeof(big));
    int rc = 0;
    uint16_t i = 0;
    for (; i < 0xFFFF && rc == 0; i++)
        rc = chunk_raw(d2, &other, 1, 1, 0x5B, 0xFFFF, i, big, sizeof(big), &ev);
    CHECK_EQ(rc, PETW_ELIMIT);
    CHECK_EQ(i, (64u << 20) / sizeof(big) + 1);
    says(d2, "would pass 64 MB");
    CHECK_EQ(chunk_raw(d2, &other, 1, 1, 0x5B, 0xFFFF, i, big, sizeof(big), &ev), PETW_ECORRUPT);
    CHECK_EQ(send_manifest(d2, &orders, 0xFF00), 0);
    CHECK_EQ(strcmp(order_placed(d2, 0), "OrderPlaced"), 0);
    petw_decoder_free(d2);

    /* 9. A manifest the user added wins over the one in the trace. */
    CHECK_EQ(petw_decoder_new(&d2), 0);
    make_manifest(0, "FromFile");
    CHECK_EQ(petw_decoder_add_manifest_xml(d2, manifest, manifest_len), 0);
    make_manifest(0, "OrderPlaced");
    CHECK_EQ(send_manifest(d2, &orders, size), 0);
    CHECK_EQ(strcmp(order_placed(d2, 0), "FromFile"), 0);
    petw_decoder_free(d2);

    petw_decoder_free(d);
    printf("ok\n");
    return 0;
}
