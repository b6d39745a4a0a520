/* petw - the command-line tool: `petw info` and `petw dump` (the tracerpt of
 * petw). Reads ETL files written by petw or by Windows. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <petw/petw.h>

#if defined(_WIN32)
#include <io.h>
#define petw_isatty(fd) _isatty(fd)
#define petw_fileno(f) _fileno(f)
#define petw_gmtime(t, tm) gmtime_s((tm), (t))
#define petw_timegm _mkgmtime
#else
#include <unistd.h>
#define petw_isatty(fd) isatty(fd)
#define petw_fileno(f) fileno(f)
#define petw_gmtime(t, tm) gmtime_r((t), (tm))
#define petw_timegm timegm
#endif

static const char usage[] =
    "usage: petw info FILE...\n"
    "       petw convert FILE... --to chrome -o OUT.json\n"
    "       petw dump FILE... [--format text|csv|json] [--provider NAME|GUID]...\n"
    "                 [--start TIME] [--end TIME]\n"
    "       petw guid NAME...\n"
    "TIME is ISO-8601 UTC (2024-01-31T12:00:00.5Z) or a FILETIME number.\n"
    "--provider NAME matches the provider name the events carry (TraceLogging)\n"
    "or the GUID derived from NAME (EventSource/TraceLogging), which `petw guid`\n"
    "prints.\n";

enum format { FMT_TEXT, FMT_CSV, FMT_JSON };

typedef struct dump_ctx {
    enum format format;
    petw_decoder *decoder;
    uint64_t undecodable;
    petw_guid providers[32];
    int provider_count;
    const char *names[32]; /* --provider NAME: also matched by decoded name */
    int name_count;
    uint64_t printed;
    FILE *out;
    /* Progress on stderr (a terminal, large input): by event time within
     * the files' span, checked every 64 Ki events. */
    int progress, shown;
    uint64_t seen;
    int64_t span_start, span_end;
} dump_ctx;

static void show_progress(dump_ctx *c, int64_t ts)
{
    int64_t span = c->span_end - c->span_start;
    int pct = span > 0 ? (int)((ts - c->span_start) * 100 / span) : 0;
    pct = pct < 0 ? 0 : pct > 99 ? 99 : pct;
    if (pct != c->shown) {
        fprintf(stderr, "\rpetw: %d%%", pct);
        c->shown = pct;
    }
}

/* {68fdd900-4a3e-11d1-84f4-0000f80464e3} */
static const petw_guid event_trace_guid = {
    0x68fdd900, 0x4a3e, 0x11d1, {0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3}};

/* FILETIME -> "YYYY-MM-DDTHH:MM:SS.fffffffZ". The date part is cached per
 * second: consecutive events share it. */
static void format_time(int64_t ft, char *out, size_t n)
{
    static time_t cached_secs = (time_t)-1;
    static char cached[64];
    int64_t unix100 = ft - 116444736000000000LL;
    time_t secs = (time_t)(unix100 >= 0 ? unix100 / 10000000 : (unix100 - 9999999) / 10000000);
    int64_t frac = unix100 - (int64_t)secs * 10000000;
    if (secs != cached_secs) {
        struct tm tm;
        petw_gmtime(&secs, &tm);
        snprintf(cached, sizeof(cached), "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900,
                 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
        cached_secs = secs;
    }
    if (n < 29)
        return;
    memcpy(out, cached, 19);
    out[19] = '.';
    for (int i = 26; i >= 20; i--) {
        out[i] = (char)('0' + frac % 10);
        frac /= 10;
    }
    out[27] = 'Z';
    out[28] = 0;
}

static int parse_time(const char *s, int64_t *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (*end == 0) {
        *out = v;
        return 0;
    }
    struct tm tm;
    memset(&tm, 0, sizeof(tm));
    double sec = 0;
    if (sscanf(s, "%d-%d-%dT%d:%d:%lf", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
               &tm.tm_min, &sec) != 6)
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    tm.tm_sec = (int)sec;
    time_t t = petw_timegm(&tm);
    *out = ((int64_t)t * 10000000) + 116444736000000000LL +
           (int64_t)((sec - (int)sec) * 10000000.0 + 0.5);
    return 0;
}

/* A line builder for the JSON hot loop: no format-string parsing. */
typedef struct line {
    char buf[1024];
    size_t n;
} line;

static void print_hex(FILE *o, const void *p, size_t n);

static void put_str(line *l, const char *s)
{
    size_t k = strlen(s);
    if (l->n + k < sizeof(l->buf)) {
        memcpy(l->buf + l->n, s, k);
        l->n += k;
    }
}

static void put_u64(line *l, uint64_t v)
{
    char tmp[24];
    int i = 24;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (l->n + (size_t)(24 - i) < sizeof(l->buf)) {
        memcpy(l->buf + l->n, tmp + i, (size_t)(24 - i));
        l->n += (size_t)(24 - i);
    }
}

static const char hexdig[] = "0123456789abcdef";

static void put_hex64(line *l, uint64_t v)
{
    char tmp[16];
    int i = 16;
    do {
        tmp[--i] = hexdig[v & 15];
        v >>= 4;
    } while (v);
    put_str(l, "0x");
    if (l->n + (size_t)(16 - i) < sizeof(l->buf)) {
        memcpy(l->buf + l->n, tmp + i, (size_t)(16 - i));
        l->n += (size_t)(16 - i);
    }
}

static void put_guid(line *l, const petw_guid *g)
{
    uint8_t b[16];
    char *o = l->buf + l->n;
    if (l->n + 36 >= sizeof(l->buf))
        return;
    b[0] = (uint8_t)(g->data1 >> 24), b[1] = (uint8_t)(g->data1 >> 16);
    b[2] = (uint8_t)(g->data1 >> 8), b[3] = (uint8_t)g->data1;
    b[4] = (uint8_t)(g->data2 >> 8), b[5] = (uint8_t)g->data2;
    b[6] = (uint8_t)(g->data3 >> 8), b[7] = (uint8_t)g->data3;
    memcpy(b + 8, g->data4, 8);
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            *o++ = '-';
        *o++ = hexdig[b[i] >> 4];
        *o++ = hexdig[b[i] & 15];
    }
    l->n += 36;
}

static void put_json_string(line *l, const char *s)
{
    put_str(l, "\"");
    for (; *s && l->n + 8 < sizeof(l->buf); s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            l->buf[l->n++] = '\\';
            l->buf[l->n++] = (char)c;
        } else if (c < 0x20) {
            static const char hx[] = "0123456789abcdef";
            memcpy(l->buf + l->n, "\\u00", 4);
            l->buf[l->n + 4] = hx[c >> 4];
            l->buf[l->n + 5] = hx[c & 15];
            l->n += 6;
        } else {
            l->buf[l->n++] = (char)c;
        }
    }
    put_str(l, "\"");
}

static void format_time(int64_t ft, char *out, size_t n);

/* Writes one decoded value (recursing into structs and arrays). Long
 * values flush the line to `o` as they go. */
static void put_value(line *l, FILE *o, const petw_decoded_event *ev, const petw_field *f)
{
    if (l->n > sizeof(l->buf) - 200) {
        fwrite(l->buf, 1, l->n, o);
        l->n = 0;
    }
    char tmp[64];
    switch (f->kind) {
    case PETW_VALUE_NONE:
        put_str(l, "null");
        break;
    case PETW_VALUE_INT:
        if (f->v.i < 0) {
            put_str(l, "-");
            put_u64(l, (uint64_t)0 - (uint64_t)f->v.i);
        } else {
            put_u64(l, (uint64_t)f->v.i);
        }
        break;
    case PETW_VALUE_UINT:
        put_u64(l, f->v.u);
        break;
    case PETW_VALUE_HEX:
        put_str(l, "\"");
        put_hex64(l, f->v.u);
        put_str(l, "\"");
        break;
    case PETW_VALUE_FLOAT:
        if (f->v.f != f->v.f || f->v.f > 1.7e308 || f->v.f < -1.7e308) {
            put_str(l, "null"); /* JSON has no NaN or infinity */
        } else {
            snprintf(tmp, sizeof(tmp), "%.17g", f->v.f);
            put_str(l, tmp);
        }
        break;
    case PETW_VALUE_BOOL:
        put_str(l, f->v.u ? "true" : "false");
        break;
    case PETW_VALUE_STRING:
        fwrite(l->buf, 1, l->n, o);
        l->n = 0;
        put_json_string(l, f->v.s);
        break;
    case PETW_VALUE_GUID:
        put_str(l, "\"");
        put_guid(l, &f->v.guid);
        put_str(l, "\"");
        break;
    case PETW_VALUE_FILETIME:
        format_time(f->v.i, tmp, sizeof(tmp));
        put_str(l, "\"");
        put_str(l, tmp);
        put_str(l, "\"");
        break;
    case PETW_VALUE_SYSTEMTIME:
        snprintf(tmp, sizeof(tmp), "\"%04u-%02u-%02uT%02u:%02u:%02u.%03uZ\"", f->v.st[0],
                 f->v.st[1], f->v.st[3], f->v.st[4], f->v.st[5], f->v.st[6], f->v.st[7]);
        put_str(l, tmp);
        break;
    case PETW_VALUE_BINARY:
        put_str(l, "\"");
        fwrite(l->buf, 1, l->n, o);
        l->n = 0;
        print_hex(o, f->v.bin.data, f->v.bin.size);
        put_str(l, "\"");
        break;
    case PETW_VALUE_STRUCT:
        put_str(l, "{");
        for (uint32_t i = 0; i < f->count; i++) {
            const petw_field *c = &ev->fields[f->first + i];
            if (i)
                put_str(l, ",");
            put_json_string(l, c->name);
            put_str(l, ":");
            put_value(l, o, ev, c);
        }
        put_str(l, "}");
        break;
    case PETW_VALUE_ARRAY:
        put_str(l, "[");
        for (uint32_t i = 0; i < f->count; i++) {
            if (i)
                put_str(l, ",");
            put_value(l, o, ev, &ev->fields[f->first + i]);
        }
        put_str(l, "]");
        break;
    }
}

static const char *provider_name(const petw_guid *g)
{
    return petw_guid_equal(g, &event_trace_guid) ? "EventTrace" : NULL;
}

static void print_hex(FILE *o, const void *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char buf[512];
    const uint8_t *b = p;
    while (n > 0) {
        size_t k = n < sizeof(buf) / 2 ? n : sizeof(buf) / 2;
        for (size_t i = 0; i < k; i++) {
            buf[2 * i] = digits[b[i] >> 4];
            buf[2 * i + 1] = digits[b[i] & 15];
        }
        fwrite(buf, 1, 2 * k, o);
        b += k;
        n -= k;
    }
}

static int ascii_casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = (*a >= 'A' && *a <= 'Z') ? *a + 32 : *a,
            y = (*b >= 'A' && *b <= 'Z') ? *b + 32 : *b;
        if (x != y || !x)
            return x - y;
    }
}

static void on_event(petw_event_record *r, void *context)
{
    dump_ctx *c = context;
    const petw_event_header *h = &r->header;
    if (c->progress && (++c->seen & 0xFFFF) == 0)
        show_progress(c, h->timestamp);
    const petw_decoded_event *ev = NULL;
    int decoded = 0, drc = 0;
    if (c->provider_count) {
        int ok = 0;
        for (int i = 0; i < c->provider_count && !ok; i++)
            ok = petw_guid_equal(&c->providers[i], &h->provider_id);
        if (!ok && c->name_count) {
            decoded = 1;
            drc = petw_decode(c->decoder, r, &ev);
            if (drc == 0 && ev->provider_name)
                for (int i = 0; i < c->name_count && !ok; i++)
                    ok = ascii_casecmp(c->names[i], ev->provider_name) == 0;
        }
        if (!ok)
            return;
    }
    char ts[64], guid[37], act[37], rel[37] = "";
    format_time(h->timestamp, ts, sizeof(ts));
    if (c->format != FMT_JSON) {
        petw_guid_format(&h->provider_id, guid);
        petw_guid_format(&h->activity_id, act);
    }
    for (int i = 0; i < r->extended_data_count; i++)
        if (r->extended_data[i].ext_type == PETW_EXT_TYPE_RELATED_ACTIVITYID &&
            r->extended_data[i].data_size >= 16)
            petw_guid_format((const petw_guid *)(uintptr_t)r->extended_data[i].data_ptr, rel);
    const char *pname = provider_name(&h->provider_id);
    if ((decoded ? drc : petw_decode(c->decoder, r, &ev)) != 0) {
        ev = NULL; /* shown as raw bytes; counted and reported at the end */
        c->undecodable++;
    } else if (!ev->has_schema) {
        ev = NULL;
    }
    unsigned cpu = (h->flags & PETW_EVENT_HEADER_FLAG_PROCESSOR_INDEX)
                       ? r->buffer_context.u.processor_index
                       : r->buffer_context.u.p.processor_number;
    const petw_event_descriptor *d = &h->descriptor;
    FILE *o = c->out;
    if (c->format == FMT_JSON) {
        /* One line, built without format strings (the hot loop of a large
         * dump), written with one call (plus the payload's hex). */
        line l;
        l.n = 0;
        put_str(&l, "{\"timestamp\":\"");
        put_str(&l, ts);
        put_str(&l, "\",\"provider\":");
        if (ev && ev->provider_name)
            put_json_string(&l, ev->provider_name);
        else if (pname)
            put_json_string(&l, pname);
        else {
            put_str(&l, "\"");
            put_guid(&l, &h->provider_id);
            put_str(&l, "\"");
        }
        put_str(&l, ",\"provider_guid\":\"");
        put_guid(&l, &h->provider_id);
        put_str(&l, "\",\"event\":");
        if (ev && ev->event_name)
            put_json_string(&l, ev->event_name);
        else
            put_str(&l, "null");
        put_str(&l, ",\"id\":");
        put_u64(&l, d->id);
        put_str(&l, ",\"version\":");
        put_u64(&l, d->version);
        put_str(&l, ",\"channel\":");
        put_u64(&l, d->channel);
        put_str(&l, ",\"level\":");
        put_u64(&l, d->level);
        put_str(&l, ",\"opcode\":");
        put_u64(&l, d->opcode);
        put_str(&l, ",\"task\":");
        put_u64(&l, d->task);
        put_str(&l, ",\"keyword\":\"");
        put_hex64(&l, d->keyword);
        put_str(&l, "\",\"pid\":");
        put_u64(&l, h->process_id);
        put_str(&l, ",\"tid\":");
        put_u64(&l, h->thread_id);
        put_str(&l, ",\"cpu\":");
        put_u64(&l, cpu);
        put_str(&l, ",\"activity_id\":\"");
        put_guid(&l, &h->activity_id);
        put_str(&l, "\",");
        if (rel[0]) {
            put_str(&l, "\"related_activity_id\":\"");
            put_str(&l, rel);
            put_str(&l, "\",");
        }
        put_str(&l, "\"fields\":{");
        if (ev) {
            for (uint32_t i = 0; i < ev->top_count; i++) {
                if (i)
                    put_str(&l, ",");
                put_json_string(&l, ev->fields[i].name);
                put_str(&l, ":");
                put_value(&l, o, ev, &ev->fields[i]);
            }
        } else {
            put_str(&l, "\"data\":\"");
            fwrite(l.buf, 1, l.n, o);
            l.n = 0;
            print_hex(o, r->user_data, r->user_data_length);
            put_str(&l, "\"");
        }
        put_str(&l, "}}\n");
        fwrite(l.buf, 1, l.n, o);
        c->printed++;
        return;
    }
    switch (c->format) {
    case FMT_TEXT:
        fprintf(o,
                "%s %s id=%u v=%u ch=%u lvl=%u op=%u task=%u kw=0x%" PRIx64 " pid=%u tid=%u cpu=%u",
                ts, pname ? pname : guid, d->id, d->version, d->channel, d->level, d->opcode,
                d->task, d->keyword, h->process_id, h->thread_id, cpu);
        if (act[0] && strcmp(act, "00000000-0000-0000-0000-000000000000"))
            fprintf(o, " activity=%s", act);
        if (rel[0])
            fprintf(o, " related=%s", rel);
        if (ev) {
            line l;
            l.n = 0;
            put_str(&l, " ");
            if (ev->provider_name) {
                put_str(&l, ev->provider_name);
                put_str(&l, "/");
            }
            put_str(&l, ev->event_name ? ev->event_name : "?");
            put_str(&l, " ");
            for (uint32_t i = 0; i < ev->top_count; i++) {
                if (i)
                    put_str(&l, " ");
                put_str(&l, ev->fields[i].name);
                put_str(&l, "=");
                put_value(&l, o, ev, &ev->fields[i]);
            }
            put_str(&l, "\n");
            fwrite(l.buf, 1, l.n, o);
            break;
        }
        fprintf(o, " data[%u]=", r->user_data_length);
        print_hex(o, r->user_data, r->user_data_length);
        fputc('\n', o);
        break;
    case FMT_CSV:
        fprintf(o, "%s,%s,%s,%u,%u,%u,%u,%u,%u,0x%" PRIx64 ",%u,%u,%u,%s,%s,", ts,
                pname ? pname : guid, guid, d->id, d->version, d->channel, d->level, d->opcode,
                d->task, d->keyword, h->process_id, h->thread_id, cpu, act, rel);
        print_hex(o, r->user_data, r->user_data_length);
        fputc('\n', o);
        break;
    case FMT_JSON:
        fprintf(o, "{\"timestamp\":\"%s\",\"provider\":\"%s\",\"provider_guid\":\"%s\",", ts,
                pname ? pname : guid, guid);
        fprintf(o,
                "\"event\":null,\"id\":%u,\"version\":%u,\"channel\":%u,\"level\":%u,"
                "\"opcode\":%u,\"task\":%u,\"keyword\":\"0x%" PRIx64 "\",",
                d->id, d->version, d->channel, d->level, d->opcode, d->task, d->keyword);
        fprintf(o, "\"pid\":%u,\"tid\":%u,\"cpu\":%u,\"activity_id\":\"%s\",", h->process_id,
                h->thread_id, cpu, act);
        if (rel[0])
            fprintf(o, "\"related_activity_id\":\"%s\",", rel);
        fprintf(o, "\"fields\":{\"data\":\"");
        print_hex(o, r->user_data, r->user_data_length);
        fprintf(o, "\"}}\n");
        break;
    }
    c->printed++;
}

typedef struct corrupt_ctx {
    const char *path;
    uint64_t count;
} corrupt_ctx;

static corrupt_ctx *current_corrupt;

static void on_corrupt(petw_trace *t, uint64_t index, uint64_t offset, const char *why, void *ctx)
{
    (void)t;
    (void)ctx;
    current_corrupt->count++;
    fprintf(stderr, "petw: %s: buffer %" PRIu64 " (offset %" PRIu64 ") skipped: %s\n",
            current_corrupt->path, index, offset, why);
}

static int open_all(int n, char **paths, petw_trace **traces, petw_trace_config *cfg,
                    corrupt_ctx *cc)
{
    for (int i = 0; i < n; i++) {
        current_corrupt = &cc[i];
        cc[i].path = paths[i];
        int rc = petw_trace_open(paths[i], cfg, &traces[i]);
        if (rc) {
            fprintf(stderr, "petw: %s: %s\n", paths[i], petw_strerror(rc));
            for (int k = 0; k < i; k++)
                petw_trace_close(traces[k]);
            return 1;
        }
    }
    return 0;
}

typedef struct count_entry {
    petw_guid provider;
    uint16_t id;
    uint64_t count;
    char provider_name[64]; /* from TraceLogging metadata, when present */
    char event_name[64];
} count_entry;

typedef struct info_ctx {
    count_entry entries[4096];
    int n;
    uint64_t total, other; /* `other`: events past the table's 4096 kinds */
    petw_decoder *decoder;
} info_ctx;

/* Counts events by provider, id and event name (TraceLogging events share
 * id 0 and differ by name). */
static void on_count(petw_event_record *r, void *context)
{
    info_ctx *c = context;
    c->total++;
    const petw_decoded_event *ev = NULL;
    if (petw_decode(c->decoder, r, &ev) != 0 || !ev->has_schema)
        ev = NULL;
    const char *ename = ev && ev->event_name ? ev->event_name : "";
    for (int i = 0; i < c->n; i++)
        if (c->entries[i].id == r->header.descriptor.id &&
            petw_guid_equal(&c->entries[i].provider, &r->header.provider_id) &&
            !strncmp(c->entries[i].event_name, ename, sizeof(c->entries[i].event_name) - 1)) {
            c->entries[i].count++;
            return;
        }
    if (c->n == 4096) {
        c->other++;
        return;
    }
    count_entry *e = &c->entries[c->n++];
    e->provider = r->header.provider_id;
    e->id = r->header.descriptor.id;
    e->count = 1;
    snprintf(e->event_name, sizeof(e->event_name), "%s", ename);
    snprintf(e->provider_name, sizeof(e->provider_name), "%s",
             ev && ev->provider_name ? ev->provider_name : "");
}

static const char *clock_name(uint32_t c)
{
    return c == 1 ? "QPC" : c == 2 ? "system time" : c == 3 ? "CPU cycles" : "unknown";
}

static int cmd_info(int argc, char **argv)
{
    int status = 0;
    for (int i = 0; i < argc; i++) {
        info_ctx *ic = calloc(1, sizeof(*ic));
        if (ic && petw_decoder_new(&ic->decoder) != 0) {
            free(ic);
            ic = NULL;
        }
        petw_trace_config cfg;
        petw_trace_config_init(&cfg);
        cfg.on_event = on_count;
        cfg.on_corrupt = on_corrupt;
        cfg.context = ic;
        cfg.flags = 0;
        petw_trace *t;
        corrupt_ctx cc = {0};
        if (!ic || open_all(1, &argv[i], &t, &cfg, &cc)) {
            if (ic)
                petw_decoder_free(ic->decoder);
            free(ic);
            status = 1;
            continue;
        }
        const petw_logfile_info *h = petw_trace_info(t);
        char start[64], end[64];
        format_time(h->start_time, start, sizeof(start));
        format_time(h->end_time, end, sizeof(end));
        petw_trace_process(&t, 1, 0, 0);
        petw_trace_stats st;
        petw_trace_stats_get(t, &st);
        printf("%s\n", argv[i]);
        printf("  logger name      %s\n", h->logger_name);
        printf("  log file name    %s\n", h->log_file_name);
        printf("  log file mode    0x%08x\n", h->log_file_mode);
        printf("  clock            %s (%" PRId64 " Hz)\n", clock_name(h->reserved_flags),
               h->perf_freq);
        printf("  buffer size      %u bytes\n", h->buffer_size);
        printf("  processors       %u\n", h->number_of_processors);
        printf("  pointer size     %u\n", h->pointer_size);
        printf("  start            %s\n", start);
        printf("  end              %s\n", end);
        printf("  buffers          %u written, %" PRIu64 " read, %" PRIu64 " corrupt\n",
               h->buffers_written, st.buffers_read, st.buffers_corrupt);
        printf("  lost             %u events, %u buffers\n", h->events_lost, h->buffers_lost);
        if (st.bytes_truncated)
            printf("  truncated        %" PRIu64 " bytes of an incomplete final buffer\n",
                   st.bytes_truncated);
        if (h->petw_flags)
            printf("  petw extensions %s%s\n", (h->petw_flags & PETW_SESSION_ZSTD) ? " zstd" : "",
                   (h->petw_flags & PETW_SESSION_CHECKSUM) ? " xxh64" : "");
        printf("  events           %" PRIu64 "\n", ic->total);
        for (int k = 0; k < ic->n; k++) {
            char g[37];
            petw_guid_format(&ic->entries[k].provider, g);
            const count_entry *e = &ic->entries[k];
            const char *name = e->provider_name[0] ? e->provider_name : provider_name(&e->provider);
            printf("    %-36s id %-5u %-24s %" PRIu64 "\n", name ? name : g, e->id, e->event_name,
                   e->count);
        }
        if (ic->other)
            printf("    (other kinds)                                     %" PRIu64 "\n",
                   ic->other);
        if (cc.count) {
            fprintf(stderr, "petw: %s: %" PRIu64 " corrupt buffers skipped\n", argv[i], cc.count);
            status = 1;
        }
        petw_trace_close(t);
        petw_decoder_free(ic->decoder);
        free(ic);
    }
    return status;
}

static int cmd_dump(int argc, char **argv)
{
    dump_ctx c;
    memset(&c, 0, sizeof(c));
    c.out = stdout;
    char *files[64];
    int nfiles = 0;
    int64_t start = 0, end = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--format") && i + 1 < argc) {
            const char *f = argv[++i];
            if (!strcmp(f, "text"))
                c.format = FMT_TEXT;
            else if (!strcmp(f, "csv"))
                c.format = FMT_CSV;
            else if (!strcmp(f, "json"))
                c.format = FMT_JSON;
            else {
                fprintf(stderr, "petw: unknown format '%s'\n%s", f, usage);
                return 2;
            }
        } else if (!strcmp(a, "--provider") && i + 1 < argc) {
            if (c.provider_count == 32 ||
                petw_guid_parse(argv[++i], &c.providers[c.provider_count]) != 0) {
                if (!strcmp(argv[i], "EventTrace")) {
                    c.providers[c.provider_count++] = event_trace_guid;
                    continue;
                }
                if (c.provider_count == 32 ||
                    petw_guid_from_name(argv[i], &c.providers[c.provider_count]) != 0) {
                    fprintf(stderr, "petw: too many or empty --provider values: '%s'\n", argv[i]);
                    return 2;
                }
                c.names[c.name_count++] = argv[i];
            }
            c.provider_count++;
        } else if ((!strcmp(a, "--start") || !strcmp(a, "--end")) && i + 1 < argc) {
            int64_t *dst = a[2] == 's' ? &start : &end;
            if (parse_time(argv[++i], dst) != 0) {
                fprintf(stderr, "petw: bad time '%s'\n", argv[i]);
                return 2;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "petw: unknown option '%s'\n%s", a, usage);
            return 2;
        } else if (nfiles < 64) {
            files[nfiles++] = argv[i];
        } else {
            fprintf(stderr, "petw: at most 64 files\n");
            return 2;
        }
    }
    if (nfiles == 0) {
        fputs(usage, stderr);
        return 2;
    }
    if (petw_decoder_new(&c.decoder) != 0)
        return 1;
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.on_event = on_event;
    cfg.on_corrupt = on_corrupt;
    cfg.context = &c;
    petw_trace *traces[64];
    corrupt_ctx cc[64];
    memset(cc, 0, sizeof(cc));
    if (open_all(nfiles, files, traces, &cfg, cc))
        return 1;
    uint64_t bytes = 0;
    c.span_start = INT64_MAX, c.span_end = INT64_MIN;
    for (int i = 0; i < nfiles; i++) {
        const petw_logfile_info *h = petw_trace_info(traces[i]);
        bytes += (uint64_t)h->buffers_written * h->buffer_size;
        c.span_start = h->start_time < c.span_start ? h->start_time : c.span_start;
        c.span_end = h->end_time > c.span_end ? h->end_time : c.span_end;
    }
    c.progress = bytes >= (64u << 20) && petw_isatty(petw_fileno(stderr));
    c.shown = -1;
    if (c.format == FMT_CSV)
        printf("timestamp,provider,provider_guid,id,version,channel,level,opcode,task,keyword,"
               "pid,tid,cpu,activity_id,related_activity_id,data\n");
    int rc = petw_trace_process(traces, (uint32_t)nfiles, start, end);
    if (c.shown >= 0)
        fprintf(stderr, "\rpetw: done\n");
    uint64_t corrupt = 0;
    for (int i = 0; i < nfiles; i++) {
        corrupt += cc[i].count;
        petw_trace_close(traces[i]);
    }
    if (corrupt)
        fprintf(stderr, "petw: %" PRIu64 " corrupt buffers skipped\n", corrupt);
    if (c.undecodable)
        fprintf(stderr, "petw: %" PRIu64 " events with a malformed schema shown as raw bytes\n",
                c.undecodable);
    petw_decoder_free(c.decoder);
    if (rc) {
        fprintf(stderr, "petw: %s\n", petw_strerror(rc));
        return 1;
    }
    return corrupt ? 1 : 0;
}

/* ---- petw convert --to chrome ---- */

typedef struct open_slice {
    uint32_t pid, tid;
    char name[128];
} open_slice;

typedef struct chrome_ctx {
    FILE *out;
    petw_decoder *decoder;
    int64_t origin; /* FILETIME of the first event: ts 0 */
    double last_ts;
    int first;
    uint64_t events;
    open_slice *open; /* B slices per thread still open */
    size_t open_count, open_cap;
    uint32_t pids[4096];
    size_t pid_count;
} chrome_ctx;

static void chrome_name(const petw_event_record *r, const petw_decoded_event *ev, char *out,
                        size_t n)
{
    const petw_event_descriptor *d = &r->header.descriptor;
    if (ev && ev->has_schema && ev->event_name && ev->event_name[0]) {
        snprintf(out, n, "%s", ev->event_name);
    } else {
        char g[37];
        const char *pn = provider_name(&r->header.provider_id);
        if (!pn) {
            petw_guid_format(&r->header.provider_id, g);
            pn = g;
        }
        /* A start/stop pair shares its task, not its event id. */
        if ((d->opcode == 1 || d->opcode == 2) &&
            !(r->header.flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER))
            snprintf(out, n, "%s/task %u", pn, d->task);
        else
            snprintf(out, n, "%s/%u", pn, d->id);
    }
}

static int guid_zero(const petw_guid *g)
{
    static const petw_guid zero;
    return memcmp(g, &zero, sizeof(zero)) == 0;
}

static void chrome_event(petw_event_record *r, void *context)
{
    chrome_ctx *c = context;
    const petw_event_header *h = &r->header;
    const petw_decoded_event *ev = NULL;
    if (petw_decode(c->decoder, r, &ev) != 0)
        ev = NULL;
    if (c->first) {
        c->origin = h->timestamp;
        c->first = 0;
    }
    char name[128], cat[64], g[37];
    chrome_name(r, ev, name, sizeof(name));
    if (ev && ev->provider_name)
        snprintf(cat, sizeof(cat), "%s", ev->provider_name);
    else if (provider_name(&h->provider_id))
        snprintf(cat, sizeof(cat), "%s", provider_name(&h->provider_id));
    else {
        petw_guid_format(&h->provider_id, g);
        snprintf(cat, sizeof(cat), "%s", g);
    }
    /* A process/thread seen for the first time gets a name record. */
    int known = 0;
    for (size_t i = 0; i < c->pid_count && !known; i++)
        known = c->pids[i] == h->process_id;
    if (!known && c->pid_count < sizeof(c->pids) / sizeof(c->pids[0])) {
        c->pids[c->pid_count++] = h->process_id;
        fprintf(c->out,
                "%s{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":0,"
                "\"args\":{\"name\":\"process %u\"}}",
                c->events++ ? ",\n" : "", h->process_id, h->process_id);
    }
    double ts = (double)(h->timestamp - c->origin) / 10.0; /* FILETIME -> us */
    c->last_ts = ts;
    uint8_t op = h->descriptor.opcode;
    int classic = (h->flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER) != 0;
    const char *ph = "i";
    char id[64] = "";
    if (!classic && (op == 1 || op == 2)) {
        if (!guid_zero(&h->activity_id)) {
            /* Start/stop tied by an activity ID: an async slice, which may
             * start and end on different threads. */
            ph = op == 1 ? "b" : "e";
            petw_guid_format(&h->activity_id, g);
            snprintf(id, sizeof(id), ",\"id\":\"%s\"", g);
        } else if (op == 1) {
            ph = "B";
            if (c->open_count == c->open_cap) {
                c->open_cap = c->open_cap ? 2 * c->open_cap : 64;
                c->open = realloc(c->open, c->open_cap * sizeof(*c->open));
            }
            if (c->open) {
                open_slice *o = &c->open[c->open_count++];
                o->pid = h->process_id;
                o->tid = h->thread_id;
                snprintf(o->name, sizeof(o->name), "%s", name);
            }
        } else {
            /* An E closes the innermost open B of its thread; an unmatched
             * stop stays an instant. */
            for (size_t i = c->open_count; i-- > 0;) {
                if (c->open[i].pid == h->process_id && c->open[i].tid == h->thread_id) {
                    ph = "E";
                    snprintf(name, sizeof(name), "%s", c->open[i].name);
                    memmove(&c->open[i], &c->open[i + 1],
                            (c->open_count - i - 1) * sizeof(*c->open));
                    c->open_count--;
                    break;
                }
            }
        }
    }
    line l;
    l.n = 0;
    put_str(&l, c->events++ ? ",\n{\"ph\":\"" : "{\"ph\":\"");
    put_str(&l, ph);
    put_str(&l, "\",\"name\":");
    put_json_string(&l, name);
    put_str(&l, ",\"cat\":");
    put_json_string(&l, cat);
    char num[64];
    snprintf(num, sizeof(num), ",\"ts\":%.1f,\"pid\":%u,\"tid\":%u", ts, h->process_id,
             h->thread_id);
    put_str(&l, num);
    put_str(&l, id);
    if (ph[0] == 'i')
        put_str(&l, ",\"s\":\"t\"");
    put_str(&l, ",\"args\":{");
    if (ev && ev->has_schema) {
        for (uint32_t i = 0; i < ev->top_count; i++) {
            if (i)
                put_str(&l, ",");
            put_json_string(&l, ev->fields[i].name);
            put_str(&l, ":");
            put_value(&l, c->out, ev, &ev->fields[i]);
        }
    } else {
        snprintf(num, sizeof(num), "\"id\":%u,\"opcode\":%u,\"data\":\"", h->descriptor.id, op);
        put_str(&l, num);
        fwrite(l.buf, 1, l.n, c->out);
        l.n = 0;
        print_hex(c->out, r->user_data, r->user_data_length);
        put_str(&l, "\"");
    }
    put_str(&l, "}}");
    fwrite(l.buf, 1, l.n, c->out);
}

static int cmd_convert(int argc, char **argv)
{
    const char *to = NULL, *out_path = NULL;
    char *files[64];
    int nfiles = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--to") && i + 1 < argc)
            to = argv[++i];
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out_path = argv[++i];
        else if (argv[i][0] == '-') {
            fprintf(stderr, "petw: unknown option '%s'\n%s", argv[i], usage);
            return 2;
        } else if (nfiles < 64)
            files[nfiles++] = argv[i];
    }
    if (!to || strcmp(to, "chrome") != 0 || !out_path || nfiles == 0) {
        fprintf(stderr, "petw: convert needs FILE... --to chrome -o OUT.json\n");
        return 2;
    }
    chrome_ctx c;
    memset(&c, 0, sizeof(c));
    c.first = 1;
    c.out = fopen(out_path, "w");
    if (!c.out) {
        fprintf(stderr, "petw: %s: cannot create\n", out_path);
        return 1;
    }
    if (petw_decoder_new(&c.decoder) != 0)
        return 1;
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.on_event = chrome_event;
    cfg.on_corrupt = on_corrupt;
    cfg.context = &c;
    petw_trace *traces[64];
    corrupt_ctx cc[64];
    memset(cc, 0, sizeof(cc));
    if (open_all(nfiles, files, traces, &cfg, cc)) {
        fclose(c.out);
        return 1;
    }
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", c.out);
    int rc = petw_trace_process(traces, (uint32_t)nfiles, 0, 0);
    /* Slices still open at the end of the trace are closed there. */
    for (size_t i = 0; i < c.open_count; i++)
        fprintf(c.out, ",\n{\"ph\":\"E\",\"pid\":%u,\"tid\":%u,\"ts\":%.1f}", c.open[i].pid,
                c.open[i].tid, c.last_ts);
    fputs("\n]}\n", c.out);
    for (int i = 0; i < nfiles; i++)
        petw_trace_close(traces[i]);
    int bad = fclose(c.out) != 0;
    free(c.open);
    petw_decoder_free(c.decoder);
    if (rc || bad) {
        fprintf(stderr, "petw: convert failed: %s\n", rc ? petw_strerror(rc) : "write error");
        return 1;
    }
    fprintf(stderr, "petw: %" PRIu64 " records to %s\n", c.events, out_path);
    return 0;
}

/* petw guid NAME...: the GUID each provider name derives to. */
static int cmd_guid(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        petw_guid g;
        char text[37];
        if (petw_guid_from_name(argv[i], &g) != 0) {
            fprintf(stderr, "petw: not a provider name: '%s'\n", argv[i]);
            return 2;
        }
        petw_guid_format(&g, text);
        printf("%s %s\n", text, argv[i]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    static char outbuf[1 << 20];
    setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
    if (argc < 3) {
        fputs(usage, stderr);
        return 2;
    }
    if (!strcmp(argv[1], "info"))
        return cmd_info(argc - 2, argv + 2);
    if (!strcmp(argv[1], "dump"))
        return cmd_dump(argc - 2, argv + 2);
    if (!strcmp(argv[1], "guid"))
        return cmd_guid(argc - 2, argv + 2);
    if (!strcmp(argv[1], "convert"))
        return cmd_convert(argc - 2, argv + 2);
    fprintf(stderr, "petw: unknown command '%s'\n%s", argv[1], usage);
    return 2;
}
