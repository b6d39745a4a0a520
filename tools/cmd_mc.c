/* cmd_mc.c - `petw mc`: the header mc.exe -um writes for a manifest-based
 * provider (EventRegister<Provider>, EventWrite<Event>, EventEnabled<Event>,
 * the McGen* helpers and McTemplate* functions, the EVENT_DESCRIPTORs, the
 * symbols' #defines and the maps' enums), as C and C++ that compile
 * against petw's ETW headers. The manifest is read by libpetw's parser
 * (petw/manifest.h).
 *
 * Text on the wire is what Windows writes: win:UnicodeString fields are
 * UTF-16LE. Where wchar_t is 32-bit the McTemplate functions convert each
 * string into a stack buffer of MCGEN_PETW_MAX_STRING UTF-16 units (2048
 * unless defined before the header): a NUL-terminated string is cut, at a
 * character boundary, to fit with its NUL; a string whose length the
 * manifest gives (length="N" or length="Field") longer than the buffer is
 * refused (ERROR_INVALID_PARAMETER, nothing written), since the length is
 * part of the event. No heap allocation happens on the write path.
 *
 * Structs and arrays of strings take the parameters mc.exe gives them: a
 * struct (or array of structs) is one blob the caller packs, after a
 * ULONG `<name>_Len_` holding one struct's size in bytes; an array of
 * NUL-terminated strings is one blob of the strings packed one after the
 * other, after a ULONG `<name>_Len_` holding its size in characters (the
 * NULs included); an array of strings with a length is count * length
 * characters, with no extra parameter. Where wchar_t is 32-bit such a blob
 * is converted to UTF-16 on the stack as a single string is, and refused
 * (ERROR_INVALID_PARAMETER) when it needs more than MCGEN_PETW_MAX_STRING
 * units: each of its strings is part of the event.
 *
 * What the generator cannot write correctly it refuses, naming the line:
 * the counted string and binary types, arrays of SIDs, binary without a
 * length, and a length or count naming a non-integer or a struct member. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <petw/manifest.h>

#include "tool.h"

#define MC_MAX_FIELDS 128 /* top-level fields of one template (EventWrite's descriptor limit) */
#define MC_MAX_ALL_FIELDS 4096 /* fields of one template, struct members included */

typedef struct mc_gen {
    const petw_manifest *m;
    const char *manifest_name;
    const char *prefix; /* "EventWrite" unless -p */
    FILE *out;
    char error[512];
    /* McTemplate functions already written (their names encode their
     * signature). */
    char **templates;
    size_t template_count, template_cap;
    /* Symbols made here (map entries'), freed with the generator. */
    char **made;
    size_t made_count, made_cap;
} mc_gen;

static int mc_fail(mc_gen *g, uint32_t line, const char *fmt, const char *a, const char *b)
{
    char what[400];
    snprintf(what, sizeof(what), fmt, a ? a : "", b ? b : "");
    snprintf(g->error, sizeof(g->error), "%s:%u: %s", g->manifest_name, line, what);
    return -1;
}

static int is_ident(const char *s)
{
    if (!s || !*s || (*s >= '0' && *s <= '9'))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return 0;
    return 1;
}

/* mc's name for a provider in macro names: its name, every character that
 * cannot be in an identifier replaced by '_'. */
static void var_name(const char *name, char *out, size_t size)
{
    size_t n = 0;
    if (*name >= '0' && *name <= '9' && n + 1 < size)
        out[n++] = '_';
    for (; *name && n + 1 < size; name++) {
        char c = *name;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        out[n++] = ok ? c : '_';
    }
    out[n] = 0;
}

/* ---- the part every generated header shares (guarded, as mc's is) ---- */

static const char common_text[] =
    "#include <wmistr.h>\n"
    "#include <evntrace.h>\n"
    "#include <evntprov.h>\n"
    "#include <string.h>\n"
    "#include <wchar.h>\n"
    "\n"
    "#ifdef __cplusplus\n"
    "extern \"C\" {\n"
    "#endif\n"
    "\n"
    "#ifndef MCGEN_PETW_COMMON_DEF\n"
    "#define MCGEN_PETW_COMMON_DEF\n"
    "/* Objects defined in the header, once per program (weak, as\n"
    " * __declspec(selectany) makes them on Windows); in C++ a const one needs\n"
    " * `extern` to have external linkage, which a variable must not have with\n"
    " * its initializer (the header is inside extern \"C\" already). */\n"
    "#ifdef __cplusplus\n"
    "#define MCGEN_PETW_EXTERN extern \"C\"\n"
    "#else\n"
    "#define MCGEN_PETW_EXTERN\n"
    "#endif\n"
    "/* UTF-16 units a win:UnicodeString field may take (its NUL included)\n"
    " * where wchar_t is 32-bit and text is converted on the stack. */\n"
    "#ifndef MCGEN_PETW_MAX_STRING\n"
    "#define MCGEN_PETW_MAX_STRING 2048\n"
    "#endif\n"
    "#if WCHAR_MAX > 0xFFFF\n"
    "#define MCGEN_PETW_WIDE_CONVERT 1\n"
    "#else\n"
    "#define MCGEN_PETW_WIDE_CONVERT 0\n"
    "#endif\n"
    "#if MCGEN_PETW_WIDE_CONVERT\n"
    "/* One code point as UTF-16 into out[*n], if `cap` units leave room. */\n"
    "static inline int McGenPetwPut16(unsigned long c, unsigned short *out, ULONG *n, ULONG cap)\n"
    "{\n"
    "    if (c > 0x10FFFFul || (c >= 0xD800ul && c <= 0xDFFFul))\n"
    "        c = 0xFFFDul;\n"
    "    if (c >= 0x10000ul) {\n"
    "        if (*n + 2 > cap)\n"
    "            return 0;\n"
    "        c -= 0x10000ul;\n"
    "        out[(*n)++] = (unsigned short)(0xD800ul + (c >> 10));\n"
    "        out[(*n)++] = (unsigned short)(0xDC00ul + (c & 0x3FFul));\n"
    "        return 1;\n"
    "    }\n"
    "    if (*n + 1 > cap)\n"
    "        return 0;\n"
    "    out[(*n)++] = (unsigned short)c;\n"
    "    return 1;\n"
    "}\n"
    "/* NUL-terminated `s` as UTF-16 with its NUL, cut at a character boundary\n"
    " * to fit `cap` units; returns its size in bytes. */\n"
    "static inline ULONG McGenPetwUtf16z(PCWSTR s, unsigned short *out, ULONG cap)\n"
    "{\n"
    "    ULONG n = 0;\n"
    "    for (; *s; s++)\n"
    "        if (!McGenPetwPut16((unsigned long)*s, out, &n, cap - 1))\n"
    "            break;\n"
    "    out[n++] = 0;\n"
    "    return n * 2;\n"
    "}\n"
    "/* `units` wchar_t of `s` as exactly `units` UTF-16 units (a character\n"
    " * that no longer fits, and the rest, become NULs). */\n"
    "static inline void McGenPetwUtf16n(const WCHAR *s, ULONG units, unsigned short *out)\n"
    "{\n"
    "    ULONG n = 0;\n"
    "    for (ULONG i = 0; i < units && n < units; i++)\n"
    "        if (!McGenPetwPut16((unsigned long)s[i], out, &n, units))\n"
    "            break;\n"
    "    while (n < units)\n"
    "        out[n++] = 0;\n"
    "}\n"
    "/* All `units` wchar_t of `s` (packed NUL-terminated strings) as UTF-16;\n"
    " * returns their size in bytes, or 0 when they need more than `cap` units. */\n"
    "static inline ULONG McGenPetwUtf16a(const WCHAR *s, ULONG units, unsigned short *out, ULONG "
    "cap)\n"
    "{\n"
    "    ULONG n = 0;\n"
    "    for (ULONG i = 0; i < units; i++)\n"
    "        if (!McGenPetwPut16((unsigned long)s[i], out, &n, cap))\n"
    "            return 0;\n"
    "    return n * 2;\n"
    "}\n"
    "#endif\n"
    "#endif /* MCGEN_PETW_COMMON_DEF */\n"
    "\n"
    "#ifndef MCGEN_EVENT_ENABLED\n"
    "#define MCGEN_EVENT_ENABLED(EventName) EventEnabled##EventName()\n"
    "#endif\n"
    "#ifndef MCGEN_ENABLE_CHECK\n"
    "#define MCGEN_ENABLE_CHECK(Context, Descriptor)                                         \\\n"
    "    (Context.IsEnabled && McGenEventEnabled(&Context, &Descriptor))\n"
    "#endif\n"
    "\n"
    "#if !defined(MCGEN_TRACE_CONTEXT_DEF)\n"
    "#define MCGEN_TRACE_CONTEXT_DEF\n"
    "typedef struct _MCGEN_TRACE_CONTEXT {\n"
    "    TRACEHANDLE RegistrationHandle;\n"
    "    TRACEHANDLE Logger; /* the provider traits, or 0 */\n"
    "    ULONGLONG MatchAnyKeyword;\n"
    "    ULONGLONG MatchAllKeyword;\n"
    "    ULONG Flags;\n"
    "    ULONG IsEnabled;\n"
    "    UCHAR Level;\n"
    "    UCHAR Reserve;\n"
    "    USHORT EnableBitsCount;\n"
    "    PULONG EnableBitMask;\n"
    "    const ULONGLONG *EnableKeyWords;\n"
    "    const UCHAR *EnableLevel;\n"
    "} MCGEN_TRACE_CONTEXT, *PMCGEN_TRACE_CONTEXT;\n"
    "#endif\n"
    "\n"
    "#if !defined(MCGEN_LEVEL_KEYWORD_ENABLED_DEF)\n"
    "#define MCGEN_LEVEL_KEYWORD_ENABLED_DEF\n"
    "static inline BOOLEAN McGenLevelKeywordEnabled(PMCGEN_TRACE_CONTEXT EnableInfo, UCHAR Level,\n"
    "                                               ULONGLONG Keyword)\n"
    "{\n"
    "    if ((Level <= EnableInfo->Level) || (EnableInfo->Level == 0)) {\n"
    "        if ((Keyword == (ULONGLONG)0) ||\n"
    "            ((Keyword & EnableInfo->MatchAnyKeyword) &&\n"
    "             ((Keyword & EnableInfo->MatchAllKeyword) == EnableInfo->MatchAllKeyword)))\n"
    "            return TRUE;\n"
    "    }\n"
    "    return FALSE;\n"
    "}\n"
    "#endif\n"
    "\n"
    "#if !defined(MCGEN_EVENT_ENABLED_DEF)\n"
    "#define MCGEN_EVENT_ENABLED_DEF\n"
    "static inline BOOLEAN McGenEventEnabled(PMCGEN_TRACE_CONTEXT EnableInfo,\n"
    "                                        PCEVENT_DESCRIPTOR EventDescriptor)\n"
    "{\n"
    "    return McGenLevelKeywordEnabled(EnableInfo, EventDescriptor->Level,\n"
    "                                    EventDescriptor->Keyword);\n"
    "}\n"
    "#endif\n"
    "\n"
    "#if !defined(MCGEN_CONTROL_CALLBACK)\n"
    "#define MCGEN_CONTROL_CALLBACK\n"
    "static inline VOID NTAPI McGenControlCallbackV2(LPCGUID SourceId, ULONG ControlCode, UCHAR "
    "Level,\n"
    "                                               ULONGLONG MatchAnyKeyword,\n"
    "                                               ULONGLONG MatchAllKeyword,\n"
    "                                               PEVENT_FILTER_DESCRIPTOR FilterData,\n"
    "                                               PVOID CallbackContext)\n"
    "{\n"
    "    PMCGEN_TRACE_CONTEXT Ctx = (PMCGEN_TRACE_CONTEXT)CallbackContext;\n"
    "    ULONG Ix;\n"
    "#ifndef MCGEN_PRIVATE_ENABLE_CALLBACK_V2\n"
    "    UNREFERENCED_PARAMETER(SourceId);\n"
    "    UNREFERENCED_PARAMETER(FilterData);\n"
    "#endif\n"
    "    if (Ctx == NULL)\n"
    "        return;\n"
    "    switch (ControlCode) {\n"
    "    case EVENT_CONTROL_CODE_ENABLE_PROVIDER:\n"
    "        Ctx->Level = Level;\n"
    "        Ctx->MatchAnyKeyword = MatchAnyKeyword;\n"
    "        Ctx->MatchAllKeyword = MatchAllKeyword;\n"
    "        Ctx->IsEnabled = EVENT_CONTROL_CODE_ENABLE_PROVIDER;\n"
    "        for (Ix = 0; Ix < Ctx->EnableBitsCount; Ix += 1) {\n"
    "            if (McGenLevelKeywordEnabled(Ctx, Ctx->EnableLevel[Ix], "
    "Ctx->EnableKeyWords[Ix]))\n"
    "                Ctx->EnableBitMask[Ix >> 5] |= (1u << (Ix % 32));\n"
    "            else\n"
    "                Ctx->EnableBitMask[Ix >> 5] &= ~(1u << (Ix % 32));\n"
    "        }\n"
    "        break;\n"
    "    case EVENT_CONTROL_CODE_DISABLE_PROVIDER:\n"
    "        Ctx->IsEnabled = EVENT_CONTROL_CODE_DISABLE_PROVIDER;\n"
    "        Ctx->Level = 0;\n"
    "        Ctx->MatchAnyKeyword = 0;\n"
    "        Ctx->MatchAllKeyword = 0;\n"
    "        if (Ctx->EnableBitsCount > 0)\n"
    "            memset(Ctx->EnableBitMask, 0,\n"
    "                   (((Ctx->EnableBitsCount - 1) / 32) + 1) * sizeof(ULONG));\n"
    "        break;\n"
    "    default:\n"
    "        break;\n"
    "    }\n"
    "#ifdef MCGEN_PRIVATE_ENABLE_CALLBACK_V2\n"
    "    MCGEN_PRIVATE_ENABLE_CALLBACK_V2(SourceId, ControlCode, Level, MatchAnyKeyword,\n"
    "                                     MatchAllKeyword, FilterData, CallbackContext);\n"
    "#endif\n"
    "}\n"
    "#endif\n"
    "\n"
    "#if !defined(McGenEventRegisterUnregister)\n"
    "#define McGenEventRegisterUnregister\n"
    "static inline ULONG McGenEventRegister(LPCGUID ProviderId, PENABLECALLBACK EnableCallback,\n"
    "                                       PVOID CallbackContext, PREGHANDLE RegHandle)\n"
    "{\n"
    "    if (*RegHandle != 0)\n"
    "        return 0; /* registered already */\n"
    "    return EventRegister(ProviderId, EnableCallback, CallbackContext, RegHandle);\n"
    "}\n"
    "static inline ULONG McGenEventUnregister(PREGHANDLE RegHandle)\n"
    "{\n"
    "    ULONG Error = 0;\n"
    "    if (*RegHandle != 0) {\n"
    "        Error = EventUnregister(*RegHandle);\n"
    "        *RegHandle = (REGHANDLE)0;\n"
    "    }\n"
    "    return Error;\n"
    "}\n"
    "#endif\n"
    "\n"
    "#if !defined(McGenEventWrite_def)\n"
    "#define McGenEventWrite_def\n"
    "/* EventData[0] is the provider traits' place (Context->Logger), as mc's;\n"
    " * without traits it is left out. */\n"
    "static inline ULONG McGenEventWrite(PMCGEN_TRACE_CONTEXT Context, PCEVENT_DESCRIPTOR "
    "Descriptor,\n"
    "                                    LPCGUID ActivityId, ULONG EventDataCount,\n"
    "                                    EVENT_DATA_DESCRIPTOR *EventData)\n"
    "{\n"
    "    const USHORT *Traits = (const USHORT *)(ULONG_PTR)Context->Logger;\n"
    "    if (Traits == NULL)\n"
    "        return EventWriteTransfer(Context->RegistrationHandle, Descriptor, ActivityId, NULL,\n"
    "                                  EventDataCount - 1, EventDataCount > 1 ? EventData + 1 : "
    "NULL);\n"
    "    EventData[0].Ptr = (ULONGLONG)(ULONG_PTR)Traits;\n"
    "    EventData[0].Size = *Traits;\n"
    "    EventData[0].Reserved = EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA;\n"
    "    return EventWriteTransfer(Context->RegistrationHandle, Descriptor, ActivityId, NULL,\n"
    "                              EventDataCount, EventData);\n"
    "}\n"
    "#endif\n"
    "\n"
    "#ifndef _mcgen_EVENT_BIT_SET\n"
    "#define _mcgen_EVENT_BIT_SET(EnableBits, BitPosition)                                   \\\n"
    "    ((((EnableBits)[(BitPosition) >> 5]) & (1u << ((BitPosition) & 31))) != 0)\n"
    "#endif\n"
    "\n"
    "#ifndef McTemplateU0_def\n"
    "#define McTemplateU0_def\n"
    "static inline ULONG McTemplateU0(PMCGEN_TRACE_CONTEXT Context, PCEVENT_DESCRIPTOR "
    "Descriptor)\n"
    "{\n"
    "    EVENT_DATA_DESCRIPTOR EventData[1];\n"
    "    return McGenEventWrite(Context, Descriptor, NULL, 1, EventData);\n"
    "}\n"
    "#endif\n";

/* ---- per field: parameter type, code letters and payload ---- */

typedef struct in_info {
    uint8_t in;
    const char *code;   /* McTemplate name letters */
    const char *param;  /* a scalar's parameter type */
    const char *elem;   /* the C type of one element (arrays), or NULL: no arrays */
    const char *by_ptr; /* passed by pointer: the pointee's size, else NULL */
} in_info;

static const in_info in_infos[] = {
    {PETW_IN_INT8, "a", "const signed char", "char", NULL}, /* arrays: const char *, as mc */
    {PETW_IN_UINT8, "c", "const unsigned char", "unsigned char", NULL},
    {PETW_IN_INT16, "k", "const signed short", "signed short", NULL},
    {PETW_IN_UINT16, "h", "const unsigned short", "unsigned short", NULL},
    {PETW_IN_INT32, "d", "const signed int", "signed int", NULL},
    {PETW_IN_UINT32, "q", "const unsigned int", "unsigned int", NULL},
    {PETW_IN_HEXINT32, "q", "const unsigned int", "unsigned int", NULL},
    {PETW_IN_INT64, "i", "const signed long long", "signed long long", NULL},
    {PETW_IN_UINT64, "x", "const unsigned long long", "unsigned long long", NULL},
    {PETW_IN_HEXINT64, "x", "const unsigned long long", "unsigned long long", NULL},
    {PETW_IN_FLOAT, "f", "const float", "float", NULL},
    {PETW_IN_DOUBLE, "g", "const double", "double", NULL},
    {PETW_IN_BOOL32, "t", "const signed int", "signed int", NULL},
    {PETW_IN_POINTER, "p", "const void *", "void *const", NULL},
    {PETW_IN_GUID, "j", "LPCGUID", "GUID", "GUID"},
    {PETW_IN_FILETIME, "m", "const FILETIME *", "FILETIME", "FILETIME"},
    {PETW_IN_SYSTEMTIME, "y", "const SYSTEMTIME *", "SYSTEMTIME", "SYSTEMTIME"},
    {PETW_IN_UNICODESTRING, "z", "PCWSTR", NULL, NULL},
    {PETW_IN_ANSISTRING, "s", "LPCSTR", NULL, NULL},
    {PETW_IN_BINARY, "b", NULL, NULL, NULL},
    {PETW_IN_SID, "r", "const void *", NULL, NULL}, /* a SID (PSID), its size from its bytes */
};

static const in_info *info_of(uint8_t in)
{
    for (size_t i = 0; i < sizeof(in_infos) / sizeof(in_infos[0]); i++)
        if (in_infos[i].in == in)
            return &in_infos[i];
    return NULL;
}

static const char *in_name(uint8_t in)
{
    switch (in) {
    case PETW_IN_NULL:
        return "win:Null";
    case PETW_IN_COUNTEDSTRING:
        return "win:CountedUnicodeString";
    case PETW_IN_COUNTEDANSISTRING:
        return "win:CountedAnsiString";
    case PETW_IN_COUNTEDBINARY:
        return "win:CountedBinary";
    default:
        return "this type";
    }
}

static int is_integer(uint8_t in)
{
    return in == PETW_IN_INT8 || in == PETW_IN_UINT8 || in == PETW_IN_INT16 ||
           in == PETW_IN_UINT16 || in == PETW_IN_INT32 || in == PETW_IN_UINT32 ||
           in == PETW_IN_HEXINT32 || in == PETW_IN_INT64 || in == PETW_IN_UINT64 ||
           in == PETW_IN_HEXINT64;
}

typedef struct tmpl {
    uint32_t n; /* top-level fields */
    petw_manifest_field f[MC_MAX_FIELDS];
    uint32_t arg[MC_MAX_ALL_FIELDS]; /* event field index -> argument index */
    char name[64 + 24 * MC_MAX_FIELDS];
    char args[160 * MC_MAX_FIELDS]; /* the EventWrite macro's parameters */
} tmpl;

static int is_text(uint8_t in)
{
    return in == PETW_IN_UNICODESTRING || in == PETW_IN_ANSISTRING;
}

/* Whether argument `f` comes after a ULONG `_Len_` argument, as mc.exe
 * writes it: a struct (its size), or an array of NUL-terminated strings
 * (the characters of them all). */
static int has_len_arg(const petw_manifest_field *f)
{
    if (f->flags & PETW_MANIFEST_FIELD_STRUCT)
        return 1;
    return is_text(f->in_type) &&
           (f->flags & (PETW_MANIFEST_FIELD_COUNT | PETW_MANIFEST_FIELD_COUNT_REF)) &&
           !(f->flags & (PETW_MANIFEST_FIELD_LENGTH | PETW_MANIFEST_FIELD_LENGTH_REF));
}

/* Checks event `e`'s template and names its McTemplate function. */
static int check_template(mc_gen *g, uint32_t p, uint32_t e, const petw_manifest_event *ev, tmpl *t)
{
    memset(t->arg, 0xff, sizeof(t->arg));
    t->n = 0;
    size_t used = (size_t)snprintf(t->name, sizeof(t->name), "McTemplateU0");
    if (ev->top_count > MC_MAX_FIELDS)
        return mc_fail(g, ev->line, "event \"%s\": more than 128 fields", ev->symbol, NULL);
    if (ev->field_count > MC_MAX_ALL_FIELDS)
        return mc_fail(g, ev->line, "event \"%s\": more than 4096 fields and members", ev->symbol,
                       NULL);
    for (uint32_t k = 0; k < ev->field_count; k++) {
        petw_manifest_field f;
        if (petw_manifest_get_field(g->m, p, e, k, &f) != 0)
            return mc_fail(g, ev->line, "event \"%s\": its template cannot be read", ev->symbol,
                           NULL);
        if (f.parent != UINT32_MAX)
            continue; /* a struct's member: in the blob its caller packs */
        int is_struct = (f.flags & PETW_MANIFEST_FIELD_STRUCT) != 0;
        const in_info *in = is_struct ? NULL : info_of(f.in_type);
        if (!is_struct && !in)
            return mc_fail(g, f.line, "field \"%s\": %s is not supported by petw mc", f.name,
                           in_name(f.in_type));
        int counted = (f.flags & (PETW_MANIFEST_FIELD_COUNT | PETW_MANIFEST_FIELD_COUNT_REF)) != 0;
        int sized = (f.flags & (PETW_MANIFEST_FIELD_LENGTH | PETW_MANIFEST_FIELD_LENGTH_REF)) != 0;
        int text = is_text(f.in_type);
        int blob = text || f.in_type == PETW_IN_BINARY; /* arrays of them: one blob */
        if (!is_struct && counted && !in->elem && !blob)
            return mc_fail(g, f.line, "field \"%s\": arrays of %s are not supported", f.name,
                           "SIDs");
        if (sized && (is_struct || (!text && f.in_type != PETW_IN_BINARY)))
            return mc_fail(g, f.line, "field \"%s\": a length only applies to strings and binary",
                           f.name, NULL);
        if (f.in_type == PETW_IN_BINARY && !sized)
            return mc_fail(g, f.line, "field \"%s\": win:Binary needs a length", f.name, NULL);
        uint32_t refs[2] = {(f.flags & PETW_MANIFEST_FIELD_COUNT_REF) ? f.count : UINT32_MAX,
                            (f.flags & PETW_MANIFEST_FIELD_LENGTH_REF) ? f.length : UINT32_MAX};
        for (int r = 0; r < 2; r++) {
            if (refs[r] == UINT32_MAX)
                continue;
            petw_manifest_field rf;
            if (petw_manifest_get_field(g->m, p, e, refs[r], &rf) != 0 || !is_integer(rf.in_type) ||
                (rf.flags & (PETW_MANIFEST_FIELD_COUNT | PETW_MANIFEST_FIELD_COUNT_REF)) ||
                rf.parent != UINT32_MAX || t->arg[refs[r]] == UINT32_MAX)
                return mc_fail(g, f.line,
                               "field \"%s\": its length or count must name an integer field "
                               "before it, outside structs",
                               f.name, NULL);
        }
        /* The McTemplate name: the type's letters, then its count and
         * length (arrays of structs, strings and binary: N and L parts). */
        char code[48];
        if (is_struct || (counted && blob)) {
            char cnt[20] = "", len[20] = "";
            if (f.flags & PETW_MANIFEST_FIELD_COUNT)
                snprintf(cnt, sizeof(cnt), "N%u", f.count);
            else if (f.flags & PETW_MANIFEST_FIELD_COUNT_REF)
                snprintf(cnt, sizeof(cnt), "NR%u", t->arg[f.count]);
            if (f.flags & PETW_MANIFEST_FIELD_LENGTH)
                snprintf(len, sizeof(len), "L%u", f.length);
            else if (f.flags & PETW_MANIFEST_FIELD_LENGTH_REF)
                snprintf(len, sizeof(len), "LR%u", t->arg[f.length]);
            snprintf(code, sizeof(code), "%s%s%s", is_struct ? "n" : in->code, cnt, len);
        } else if (f.flags & PETW_MANIFEST_FIELD_COUNT)
            snprintf(code, sizeof(code), "%sN%u", in->code, f.count);
        else if (f.flags & PETW_MANIFEST_FIELD_COUNT_REF)
            snprintf(code, sizeof(code), "%sR%u", in->code, t->arg[f.count]);
        else if (f.flags & PETW_MANIFEST_FIELD_LENGTH)
            snprintf(code, sizeof(code), "%sL%u", in->code, f.length);
        else if (f.flags & PETW_MANIFEST_FIELD_LENGTH_REF)
            snprintf(code, sizeof(code), "%sR%u", in->code, t->arg[f.length]);
        else
            snprintf(code, sizeof(code), "%s", in->code);
        used += (size_t)snprintf(t->name + used, sizeof(t->name) - used, "%s", code);
        t->arg[k] = t->n;
        t->f[t->n++] = f;
    }
    return 0;
}

/* The C type of argument `k`. */
static void param_type(const petw_manifest_field *f, char *out, size_t size)
{
    int counted = (f->flags & (PETW_MANIFEST_FIELD_COUNT | PETW_MANIFEST_FIELD_COUNT_REF)) != 0;
    int sized = (f->flags & (PETW_MANIFEST_FIELD_LENGTH | PETW_MANIFEST_FIELD_LENGTH_REF)) != 0;
    if (f->flags & PETW_MANIFEST_FIELD_STRUCT)
        snprintf(out, size, "const void *");
    else if (f->in_type == PETW_IN_BINARY)
        snprintf(out, size, "const BYTE *");
    else if (sized && f->in_type == PETW_IN_UNICODESTRING)
        snprintf(out, size, "const WCHAR *");
    else if (sized && f->in_type == PETW_IN_ANSISTRING)
        snprintf(out, size, "const CHAR *");
    else if (counted && is_text(f->in_type)) /* packed NUL-terminated strings */
        snprintf(out, size, "%s", info_of(f->in_type)->param);
    else if (counted)
        snprintf(out, size, "const %s *", info_of(f->in_type)->elem);
    else
        snprintf(out, size, "%s", info_of(f->in_type)->param);
}

static int template_written(mc_gen *g, const char *name)
{
    for (size_t i = 0; i < g->template_count; i++)
        if (!strcmp(g->templates[i], name))
            return 1;
    char **grown = g->templates;
    if (g->template_count == g->template_cap) {
        size_t cap = g->template_cap ? 2 * g->template_cap : 16;
        grown = realloc(g->templates, cap * sizeof(*grown));
        if (!grown)
            return -1;
        g->templates = grown;
        g->template_cap = cap;
    }
    size_t n = strlen(name) + 1;
    char *copy = malloc(n);
    if (!copy)
        return -1;
    memcpy(copy, name, n);
    g->templates[g->template_count++] = copy;
    return 0;
}

/* A struct, or an array of strings or binary: one descriptor for the blob
 * its caller packed. Returns 0 for any other field. */
static int write_blob(FILE *o, const petw_manifest_field *f, const tmpl *t, uint32_t k)
{
    int counted = (f->flags & (PETW_MANIFEST_FIELD_COUNT | PETW_MANIFEST_FIELD_COUNT_REF)) != 0;
    int is_struct = (f->flags & PETW_MANIFEST_FIELD_STRUCT) != 0;
    if (!is_struct && !(counted && (is_text(f->in_type) || f->in_type == PETW_IN_BINARY)))
        return 0;
    uint32_t d = k + 1;
    char count[48] = "1u", length[48] = "";
    if (f->flags & PETW_MANIFEST_FIELD_COUNT)
        snprintf(count, sizeof(count), "%uu", f->count);
    else if (f->flags & PETW_MANIFEST_FIELD_COUNT_REF)
        snprintf(count, sizeof(count), "(ULONG)_Arg%u", t->arg[f->count]);
    if (f->flags & PETW_MANIFEST_FIELD_LENGTH)
        snprintf(length, sizeof(length), "%uu", f->length);
    else if (f->flags & PETW_MANIFEST_FIELD_LENGTH_REF)
        snprintf(length, sizeof(length), "(ULONG)_Arg%u", t->arg[f->length]);
    if (is_struct) {
        fprintf(o, "    EventDataDescCreate(&EventData[%u], _Arg%u, %s * _Arg%u_Len_);\n", d, k,
                count, k);
    } else if (f->in_type == PETW_IN_BINARY || f->in_type == PETW_IN_ANSISTRING) {
        if (length[0])
            fprintf(o, "    EventDataDescCreate(&EventData[%u], _Arg%u, %s * %s);\n", d, k, count,
                    length);
        else
            fprintf(o, "    EventDataDescCreate(&EventData[%u], _Arg%u, _Arg%u_Len_);\n", d, k, k);
    } else if (length[0]) {
        /* count strings of `length` characters each, converted one by one
         * so that each keeps its length in UTF-16 units. */
        fprintf(
            o,
            "#if MCGEN_PETW_WIDE_CONVERT\n"
            "    unsigned short _Text%u[MCGEN_PETW_MAX_STRING];\n"
            "    if ((ULONGLONG)%s * %s > (ULONGLONG)MCGEN_PETW_MAX_STRING)\n"
            "        return ERROR_INVALID_PARAMETER; /* longer than the buffer */\n"
            "    for (ULONG _I = 0; _I < %s && %s != 0; _I++) /* none: _Arg may be NULL */\n"
            "        McGenPetwUtf16n(_Arg%u + (size_t)_I * %s, %s, _Text%u + (size_t)_I * %s);\n"
            "    EventDataDescCreate(&EventData[%u], _Text%u, %s * %s * 2u);\n"
            "#else\n"
            "    EventDataDescCreate(&EventData[%u], _Arg%u, %s * %s * (ULONG)sizeof(WCHAR));\n"
            "#endif\n",
            k, count, length, count, length, k, length, length, k, length, d, k, count, length, d,
            k, count, length);
    } else {
        fprintf(
            o,
            "#if MCGEN_PETW_WIDE_CONVERT\n"
            "    unsigned short _Text%u[MCGEN_PETW_MAX_STRING];\n"
            "    ULONG _Size%u = McGenPetwUtf16a(_Arg%u, _Arg%u_Len_, _Text%u, "
            "MCGEN_PETW_MAX_STRING);\n"
            "    if (_Size%u == 0 && _Arg%u_Len_ != 0)\n"
            "        return ERROR_INVALID_PARAMETER; /* longer than the buffer */\n"
            "    EventDataDescCreate(&EventData[%u], _Text%u, _Size%u);\n"
            "#else\n"
            "    EventDataDescCreate(&EventData[%u], _Arg%u, _Arg%u_Len_ * (ULONG)sizeof(WCHAR));\n"
            "#endif\n",
            k, k, k, k, k, k, k, d, k, k, d, k, k);
    }
    return 1;
}

static void write_template(mc_gen *g, const tmpl *t)
{
    FILE *o = g->out;
    fprintf(o, "#ifndef %s_def\n#define %s_def\n", t->name, t->name);
    fprintf(o, "static inline ULONG %s(PMCGEN_TRACE_CONTEXT Context, PCEVENT_DESCRIPTOR Descriptor",
            t->name);
    for (uint32_t k = 0; k < t->n; k++) {
        char type[64];
        param_type(&t->f[k], type, sizeof(type));
        if (has_len_arg(&t->f[k]))
            fprintf(o, ",\n    ULONG _Arg%u_Len_", k);
        fprintf(o, ",\n    %s%s_Arg%u", type, type[strlen(type) - 1] == '*' ? "" : " ", k);
    }
    fprintf(o, ")\n{\n    EVENT_DATA_DESCRIPTOR EventData[%u + 1];\n", t->n);
    for (uint32_t k = 0; k < t->n; k++) {
        const petw_manifest_field *f = &t->f[k];
        const in_info *in = info_of(f->in_type);
        uint32_t d = k + 1;
        if (write_blob(o, f, t, k))
            continue;
        /* A count or length: fixed, or the argument holding it. */
        char size[48] = "";
        if (f->flags & PETW_MANIFEST_FIELD_COUNT)
            snprintf(size, sizeof(size), "%uu", f->count);
        else if (f->flags & PETW_MANIFEST_FIELD_LENGTH)
            snprintf(size, sizeof(size), "%uu", f->length);
        else if (f->flags & PETW_MANIFEST_FIELD_COUNT_REF)
            snprintf(size, sizeof(size), "(ULONG)_Arg%u", t->arg[f->count]);
        else if (f->flags & PETW_MANIFEST_FIELD_LENGTH_REF)
            snprintf(size, sizeof(size), "(ULONG)_Arg%u", t->arg[f->length]);
        int counted = (f->flags & (PETW_MANIFEST_FIELD_COUNT | PETW_MANIFEST_FIELD_COUNT_REF)) != 0;
        if (counted) {
            fprintf(o, "    EventDataDescCreate(&EventData[%u], _Arg%u, %s * (ULONG)sizeof(%s));\n",
                    d, k, size, in->elem);
        } else if (f->in_type == PETW_IN_UNICODESTRING && size[0]) {
            fprintf(o,
                    "#if MCGEN_PETW_WIDE_CONVERT\n"
                    "    unsigned short _Text%u[MCGEN_PETW_MAX_STRING];\n"
                    "    if (%s > (ULONG)MCGEN_PETW_MAX_STRING)\n"
                    "        return ERROR_INVALID_PARAMETER; /* longer than the buffer */\n"
                    "    McGenPetwUtf16n(_Arg%u, %s, _Text%u);\n"
                    "    EventDataDescCreate(&EventData[%u], _Text%u, %s * 2u);\n"
                    "#else\n"
                    "    EventDataDescCreate(&EventData[%u], _Arg%u, %s * (ULONG)sizeof(WCHAR));\n"
                    "#endif\n",
                    k, size, k, size, k, d, k, size, d, k, size);
        } else if (f->in_type == PETW_IN_UNICODESTRING) {
            fprintf(
                o,
                "#if MCGEN_PETW_WIDE_CONVERT\n"
                "    unsigned short _Text%u[MCGEN_PETW_MAX_STRING];\n"
                "    EventDataDescCreate(&EventData[%u], _Text%u,\n"
                "                        McGenPetwUtf16z((_Arg%u != NULL) ? _Arg%u : L\"NULL\", "
                "_Text%u, MCGEN_PETW_MAX_STRING));\n"
                "#else\n"
                "    EventDataDescCreate(&EventData[%u], (_Arg%u != NULL) ? _Arg%u : L\"NULL\",\n"
                "                        (_Arg%u != NULL) ? (ULONG)((wcslen(_Arg%u) + 1) * "
                "sizeof(WCHAR)) : (ULONG)sizeof(L\"NULL\"));\n"
                "#endif\n",
                k, d, k, k, k, k, d, k, k, k, k);
        } else if (f->in_type == PETW_IN_ANSISTRING && size[0]) {
            fprintf(o, "    EventDataDescCreate(&EventData[%u], _Arg%u, %s);\n", d, k, size);
        } else if (f->in_type == PETW_IN_ANSISTRING) {
            fprintf(
                o,
                "    EventDataDescCreate(&EventData[%u], (_Arg%u != NULL) ? _Arg%u : \"NULL\",\n"
                "                        (_Arg%u != NULL) ? (ULONG)(strlen(_Arg%u) + 1) : "
                "(ULONG)sizeof(\"NULL\"));\n",
                d, k, k, k, k);
        } else if (f->in_type == PETW_IN_BINARY) {
            fprintf(o, "    EventDataDescCreate(&EventData[%u], _Arg%u, %s);\n", d, k, size);
        } else if (f->in_type == PETW_IN_SID) {
            /* A SID's size: 8 bytes and 4 per sub-authority (GetLengthSid). */
            fprintf(
                o,
                "    EventDataDescCreate(&EventData[%u], _Arg%u,\n"
                "                        8u + 4u * (ULONG)((const unsigned char *)_Arg%u)[1]);\n",
                d, k, k);
        } else if (in->by_ptr) {
            fprintf(o, "    EventDataDescCreate(&EventData[%u], _Arg%u, (ULONG)sizeof(%s));\n", d,
                    k, in->by_ptr);
        } else {
            fprintf(o, "    EventDataDescCreate(&EventData[%u], &_Arg%u, (ULONG)sizeof(_Arg%u));\n",
                    d, k, k);
        }
    }
    fprintf(
        o,
        "    return McGenEventWrite(Context, Descriptor, NULL, %u + 1, EventData);\n}\n#endif\n\n",
        t->n);
}

static const char *kind_name(uint32_t kind)
{
    static const char *const names[] = {"Task", "Opcode", "Level", "Keyword", "Channel"};
    return kind < 5 ? names[kind] : "";
}

/* Every symbol the header defines, checked once: a C identifier, unique. */
/* The C symbols the header defines so far (copies: callers' buffers are
 * reused from provider to provider). */
typedef struct symbols {
    char **s;
    uint32_t *line;
    size_t n, cap;
} symbols;

static int add_symbol(mc_gen *g, symbols *s, const char *sym, uint32_t line)
{
    if (!is_ident(sym))
        return mc_fail(g, line, "symbol \"%s\" is not a C identifier", sym, NULL);
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->s[i], sym))
            return mc_fail(g, line, "symbol \"%s\" is defined twice", sym, NULL);
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        char **ns = realloc(s->s, cap * sizeof(*ns));
        if (!ns)
            return mc_fail(g, line, "out of memory", NULL, NULL);
        s->s = ns;
        s->cap = cap;
    }
    if (!(s->s[s->n] = strdup(sym)))
        return mc_fail(g, line, "out of memory", NULL, NULL);
    s->n++;
    return 0;
}

/* The bitMaps (bitmap 1) or valueMaps with a symbol, as mc writes them: an
 * enum named by the map's symbol, an enumerator per entry with a symbol,
 * named by the map's symbol and the entry's. */
static int write_maps(mc_gen *g, uint32_t p, const petw_manifest_provider *pv, symbols *syms,
                      int bitmap)
{
    FILE *o = g->out;
    for (uint32_t i = 0; i < pv->item_count; i++) {
        petw_manifest_item map;
        petw_manifest_get_item(g->m, p, i, &map);
        if (map.kind != PETW_MANIFEST_MAP || map.value != (uint64_t)bitmap || !map.symbol ||
            i + 1 >= pv->item_count)
            continue;
        petw_manifest_item it;
        petw_manifest_get_item(g->m, p, i + 1, &it);
        if (it.kind != PETW_MANIFEST_MAP_ENTRY)
            continue; /* no entries: no enum, as mc */
        if (add_symbol(g, syms, map.symbol, map.line))
            return -1;
        fprintf(o, "#ifndef _%s_def\n#define _%s_def\ntypedef enum _%s {\n", map.symbol, map.symbol,
                map.symbol);
        for (uint32_t k = i + 1; k < pv->item_count; k++) {
            petw_manifest_get_item(g->m, p, k, &it);
            if (it.kind != PETW_MANIFEST_MAP_ENTRY)
                break;
            if (!it.symbol)
                continue;
            char *name = malloc(strlen(map.symbol) + strlen(it.symbol) + 1);
            char **grown = g->made;
            if (name && g->made_count == g->made_cap) {
                g->made_cap = g->made_cap ? 2 * g->made_cap : 16;
                grown = realloc(g->made, g->made_cap * sizeof(*grown));
            }
            if (!name || !grown) {
                free(name);
                return mc_fail(g, it.line, "out of memory", NULL, NULL);
            }
            g->made = grown;
            g->made[g->made_count++] = name;
            strcpy(name, map.symbol);
            strcat(name, it.symbol);
            if (add_symbol(g, syms, name, it.line))
                return -1;
            fprintf(o, "    %s = %d,\n", name, (int)(uint32_t)it.value);
        }
        fprintf(o, "} %s;\n#endif\n\n", map.symbol);
    }
    return 0;
}

static int generate_provider(mc_gen *g, uint32_t p, symbols *syms, tmpl *t)
{
    FILE *o = g->out;
    petw_manifest_provider pv;
    petw_manifest_get_provider(g->m, p, &pv);
    char var[256], psym[256];
    var_name(pv.name, var, sizeof(var));
    if (pv.symbol)
        snprintf(psym, sizeof(psym), "%s", pv.symbol);
    else
        snprintf(psym, sizeof(psym), "%s_Provider", var); /* mc requires one; a name of ours */
    if (add_symbol(g, syms, psym, pv.line))
        return -1;
    fprintf(o, "/* Provider \"%s\": %u events. */\n", pv.name, pv.event_count);
    const petw_guid *gd = &pv.guid;
    fprintf(o,
            "MCGEN_PETW_EXTERN __declspec(selectany) const GUID %s = {0x%08x, 0x%04x, 0x%04x, "
            "{0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x}};\n",
            psym, gd->data1, gd->data2, gd->data3, gd->data4[0], gd->data4[1], gd->data4[2],
            gd->data4[3], gd->data4[4], gd->data4[5], gd->data4[6], gd->data4[7]);
    fprintf(o, "#ifndef %s_Traits\n#define %s_Traits NULL\n#endif\n\n", psym, psym);
    for (uint32_t kind = 0; kind < 5; kind++) {
        int any = 0;
        for (uint32_t i = 0; i < pv.item_count; i++) {
            petw_manifest_item it;
            petw_manifest_get_item(g->m, p, i, &it);
            if (it.kind != kind || !it.symbol)
                continue;
            if (!it.valid)
                return mc_fail(g, it.line, "%s \"%s\": its value is not a number in range",
                               kind_name(kind), it.name);
            if (add_symbol(g, syms, it.symbol, it.line))
                return -1;
            if (!any)
                fprintf(o, "/* %ss */\n", kind_name(kind));
            any = 1;
            fprintf(o, "#define %s 0x%llx\n", it.symbol, (unsigned long long)it.value);
        }
        if (any)
            fprintf(o, "\n");
    }
    /* One enable bit per distinct level and keywords, as mc numbers them. */
    uint32_t bits = 0;
    uint32_t *bit_of = calloc(pv.event_count ? pv.event_count : 1, sizeof(*bit_of));
    uint8_t *levels = calloc(pv.event_count ? pv.event_count : 1, 1);
    uint64_t *keywords = calloc(pv.event_count ? pv.event_count : 1, sizeof(*keywords));
    char(*esym)[256] = calloc(pv.event_count ? pv.event_count : 1, sizeof(*esym));
    int rc = 0;
    if (!bit_of || !levels || !keywords || !esym) {
        rc = mc_fail(g, pv.line, "out of memory", NULL, NULL);
        goto out;
    }
    fprintf(o, "/* Event descriptors */\n");
    for (uint32_t e = 0; e < pv.event_count; e++) {
        petw_manifest_event ev;
        petw_manifest_get_event(g->m, p, e, &ev);
        if (ev.symbol)
            snprintf(esym[e], sizeof(esym[e]), "%s", ev.symbol);
        else if (ev.version)
            snprintf(esym[e], sizeof(esym[e]), "%s_Event%u_V%u", var, ev.id, ev.version);
        else
            snprintf(esym[e], sizeof(esym[e]), "%s_Event%u", var, ev.id);
        if ((rc = add_symbol(g, syms, esym[e], ev.line)) != 0)
            goto out;
        uint32_t b = 0;
        while (b < bits && !(levels[b] == ev.level && keywords[b] == ev.keywords))
            b++;
        if (b == bits) {
            levels[bits] = ev.level;
            keywords[bits++] = ev.keywords;
        }
        bit_of[e] = b;
        fprintf(o,
                "MCGEN_PETW_EXTERN __declspec(selectany) const EVENT_DESCRIPTOR %s = {0x%x, 0x%x, "
                "0x%x, 0x%x, 0x%x, 0x%x, 0x%llx};\n#define %s_value 0x%x\n",
                esym[e], ev.id, ev.version, ev.channel, ev.level, ev.opcode, ev.task,
                (unsigned long long)ev.keywords, esym[e], ev.id);
    }
    fprintf(o, "\n#ifndef MCGEN_DISABLE_PROVIDER_CODE_GENERATION\n");
    if ((rc = write_maps(g, p, &pv, syms, 1)) != 0 || (rc = write_maps(g, p, &pv, syms, 0)) != 0)
        goto out;
    uint32_t words = bits ? (bits + 31) / 32 : 1;
    fprintf(o, "__declspec(selectany) ULONG %sEnableBits[%u] = {0};\n", var, words);
    fprintf(o, "MCGEN_PETW_EXTERN __declspec(selectany) const ULONGLONG %sKeywords[%u] = {", var,
            bits ? bits : 1);
    for (uint32_t b = 0; b < (bits ? bits : 1); b++)
        fprintf(o, "%s0x%llx", b ? ", " : "", (unsigned long long)(bits ? keywords[b] : 0));
    fprintf(o, "};\nMCGEN_PETW_EXTERN __declspec(selectany) const unsigned char %sLevels[%u] = {",
            var, bits ? bits : 1);
    for (uint32_t b = 0; b < (bits ? bits : 1); b++)
        fprintf(o, "%s%u", b ? ", " : "", bits ? levels[b] : 0);
    fprintf(o,
            "};\n"
            "__declspec(selectany) MCGEN_TRACE_CONTEXT %s_Context = {0, "
            "(ULONG_PTR)%s_Traits, 0, 0, 0, 0, 0, 0, %u, %sEnableBits, %sKeywords, %sLevels};\n\n",
            psym, psym, bits, var, var, var);
    fprintf(o, "#define %sHandle (%s_Context.RegistrationHandle)\n\n", var, psym);
    fprintf(o,
            "#ifndef EventRegister%s\n"
            "#define EventRegister%s()                                                          "
            "\\\n    McGenEventRegister(&%s, McGenControlCallbackV2, &%s_Context, &%sHandle)\n"
            "#endif\n"
            "#ifndef EventRegisterByGuid%s\n"
            "#define EventRegisterByGuid%s(Guid)                                                "
            "\\\n    McGenEventRegister(&(Guid), McGenControlCallbackV2, &%s_Context, &%sHandle)\n"
            "#endif\n"
            "#ifndef EventUnregister%s\n"
            "#define EventUnregister%s() McGenEventUnregister(&%sHandle)\n"
            "#endif\n\n",
            var, var, psym, psym, var, var, var, psym, var, var, var, var);
    for (uint32_t e = 0; e < pv.event_count; e++) {
        petw_manifest_event ev;
        petw_manifest_get_event(g->m, p, e, &ev);
        if ((rc = check_template(g, p, e, &ev, t)) != 0)
            goto out;
        int w = template_written(g, t->name);
        if (w < 0) {
            rc = mc_fail(g, ev.line, "out of memory", NULL, NULL);
            goto out;
        }
        if (w == 0 && t->n)
            write_template(g, t);
        char *args = t->args;
        size_t used = 0;
        args[0] = 0;
        for (uint32_t k = 0; k < t->n; k++) {
            /* Parameter names: the field's name when it is an identifier
             * that names nothing the macro's body uses. */
            const char *nm = t->f[k].name;
            int ok = is_ident(nm) && strlen(nm) < 64 && strcmp(nm, esym[e]) != 0 &&
                     strcmp(nm, psym) != 0 && strcmp(nm, t->name) != 0 &&
                     strcmp(nm, "MCGEN_EVENT_ENABLED") != 0;
            for (uint32_t j = 0; ok && j < k; j++)
                ok = strcmp(t->f[j].name, nm) != 0;
            /* A struct's or string array's size comes first, named as mc.exe
             * names it: the field's name and "_Len_". */
            size_t nl = strlen(nm);
            for (uint32_t j = 0; ok && has_len_arg(&t->f[k]) && j < t->n; j++)
                ok = !(strlen(t->f[j].name) == nl + 5 && !strncmp(t->f[j].name, nm, nl) &&
                       !strcmp(t->f[j].name + nl, "_Len_"));
            size_t room = sizeof(t->args) - used;
            if (ok && has_len_arg(&t->f[k]))
                used += (size_t)snprintf(args + used, room, "%s%s_Len_, %s", k ? ", " : "", nm, nm);
            else if (ok)
                used += (size_t)snprintf(args + used, room, "%s%s", k ? ", " : "", nm);
            else if (has_len_arg(&t->f[k]))
                used +=
                    (size_t)snprintf(args + used, room, "%sArg%u_Len_, Arg%u", k ? ", " : "", k, k);
            else
                used += (size_t)snprintf(args + used, room, "%sArg%u", k ? ", " : "", k);
        }
        const char *s = esym[e];
        fprintf(o, "/* Event %s (id %u, version %u) */\n", s, ev.id, ev.version);
        fprintf(o, "#define EventEnabled%s() _mcgen_EVENT_BIT_SET(%sEnableBits, %u)\n", s, var,
                bit_of[e]);
        fprintf(
            o,
            "#define %s%s(%s) \\\n    (MCGEN_EVENT_ENABLED(%s) ? %s(&%s_Context, &%s%s%s) : 0)\n",
            g->prefix, s, args, s, t->name, psym, s, t->n ? ", " : "", args);
        fprintf(o, "#define %s%s_AssumeEnabled(%s) (%s(&%s_Context, &%s%s%s))\n\n", g->prefix, s,
                args, t->name, psym, s, t->n ? ", " : "", args);
    }
    fprintf(o, "#endif /* MCGEN_DISABLE_PROVIDER_CODE_GENERATION */\n\n");
out:
    free(bit_of);
    free(levels);
    free(keywords);
    free(esym);
    return rc;
}

static int generate(mc_gen *g)
{
    FILE *o = g->out;
    const char *base = strrchr(g->manifest_name, '/');
    base = base ? base + 1 : g->manifest_name;
    fprintf(o,
            "/* Generated by petw mc from %s: the provider code mc.exe -um writes,\n"
            " * for petw's ETW headers. Do not edit: regenerate. */\n"
            "#pragma once\n\n",
            base);
    fputs(common_text, o);
    fputs("\n", o);
    symbols syms;
    memset(&syms, 0, sizeof(syms));
    tmpl *t = malloc(sizeof(*t));
    int rc = t ? 0 : mc_fail(g, 0, "out of memory", NULL, NULL);
    for (uint32_t p = 0; rc == 0 && p < petw_manifest_provider_count(g->m); p++)
        rc = generate_provider(g, p, &syms, t);
    free(t);
    for (size_t i = 0; i < syms.n; i++)
        free(syms.s[i]);
    free(syms.s);
    fputs("#ifdef __cplusplus\n}\n#endif\n", o);
    return rc;
}

static int read_file(const char *path, char **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        if (cap >= (64u << 20)) {
            free(buf);
            buf = NULL;
            break;
        }
        char *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int err = ferror(f);
    fclose(f);
    if (!buf || err) {
        free(buf);
        return -1;
    }
    *data = buf;
    *size = n;
    return 0;
}

static const char mc_usage[] =
    "usage: petw mc [-um] [-h DIR] [-r DIR] [-z BASENAME] [-e EXT] [-p PREFIX] MANIFEST.man\n"
    "Writes BASENAME.h (default: the manifest's name without .man) into the -h\n"
    "directory, and an empty BASENAME.rc into the -r directory (both default\n"
    "to the current one), as mc.exe -um does: the provider code for petw's ETW\n"
    "headers. -km (kernel mode) and -cs/-css (C#) are refused; -b -c -d -n -u\n"
    "-U -v -w -s and -x DIR, -W FILE, -m N are accepted and have no effect.\n";

int cmd_mc(int argc, char **argv)
{
    const char *hdir = ".", *rdir = ".", *base = NULL, *ext = ".h", *manifest = NULL;
    const char *prefix = "EventWrite";
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-?")) {
            fputs(mc_usage, stdout);
            return 0;
        } else if (!strcmp(a, "-km")) {
            fprintf(stderr, "petw mc: -km (kernel-mode code) is not supported: petw providers "
                            "run in user mode (use -um)\n");
            return 2;
        } else if (!strcmp(a, "-cs") || !strcmp(a, "-css")) {
            fprintf(stderr, "petw mc: %s (C# code) is not supported\n", a);
            return 2;
        } else if ((!strcmp(a, "-h") || !strcmp(a, "-r") || !strcmp(a, "-z") || !strcmp(a, "-e") ||
                    !strcmp(a, "-p") || !strcmp(a, "-x") || !strcmp(a, "-W") || !strcmp(a, "-m")) &&
                   has_value) {
            const char *v = argv[++i];
            if (a[1] == 'h')
                hdir = v;
            else if (a[1] == 'r')
                rdir = v;
            else if (a[1] == 'z')
                base = v;
            else if (a[1] == 'e')
                ext = v;
            else if (a[1] == 'p')
                prefix = v;
        } else if (!strcmp(a, "-um") || !strcmp(a, "-b") || !strcmp(a, "-c") || !strcmp(a, "-d") ||
                   !strcmp(a, "-n") || !strcmp(a, "-u") || !strcmp(a, "-U") || !strcmp(a, "-v") ||
                   !strcmp(a, "-w") || !strcmp(a, "-s")) {
            /* no effect here */
        } else if (a[0] == '-') {
            fprintf(stderr, "petw mc: unknown or incomplete option '%s'\n%s", a, mc_usage);
            return 2;
        } else if (manifest) {
            fprintf(stderr, "petw mc: one manifest only ('%s', '%s')\n", manifest, a);
            return 2;
        } else {
            manifest = a;
        }
    }
    if (!manifest) {
        fputs(mc_usage, stderr);
        return 2;
    }
    if (!is_ident(prefix)) {
        fprintf(stderr, "petw mc: -p '%s' is not a C identifier\n", prefix);
        return 2;
    }
    char stem[512];
    if (base) {
        snprintf(stem, sizeof(stem), "%s", base);
    } else {
        const char *b = strrchr(manifest, '/');
        b = b ? b + 1 : manifest;
        snprintf(stem, sizeof(stem), "%s", b);
        char *dot = strrchr(stem, '.');
        if (dot && dot != stem)
            *dot = 0;
    }
    char *xml;
    size_t size;
    if (read_file(manifest, &xml, &size) != 0) {
        fprintf(stderr, "petw mc: cannot read %s: %s\n", manifest, strerror(errno));
        return 1;
    }
    petw_manifest *m = NULL;
    char err[512];
    int rc = petw_manifest_parse(xml, size, &m, err, sizeof(err));
    free(xml);
    if (rc != 0) {
        fprintf(stderr, "petw mc: %s: %s\n", manifest,
                rc == PETW_ECORRUPT ? err : petw_strerror(rc));
        return 1;
    }
    char hpath[1024], rpath[1024], tmp[1100];
    snprintf(hpath, sizeof(hpath), "%s/%s%s", hdir, stem, ext);
    snprintf(rpath, sizeof(rpath), "%s/%s.rc", rdir, stem);
    snprintf(tmp, sizeof(tmp), "%s.tmp", hpath);
    mc_gen g;
    memset(&g, 0, sizeof(g));
    g.m = m;
    g.manifest_name = manifest;
    g.prefix = prefix;
    g.out = fopen(tmp, "w");
    if (!g.out) {
        fprintf(stderr, "petw mc: cannot write %s: %s\n", tmp, strerror(errno));
        petw_manifest_free(m);
        return 1;
    }
    rc = generate(&g);
    for (size_t i = 0; i < g.template_count; i++)
        free(g.templates[i]);
    free(g.templates);
    for (size_t i = 0; i < g.made_count; i++)
        free(g.made[i]);
    free(g.made);
    petw_manifest_free(m);
    if (fclose(g.out) != 0 && rc == 0)
        rc = mc_fail(&g, 0, "cannot write the header", NULL, NULL);
    if (rc != 0) {
        remove(tmp);
        fprintf(stderr, "petw mc: %s\n", g.error);
        return 1;
    }
    if (rename(tmp, hpath) != 0) {
        fprintf(stderr, "petw mc: cannot write %s: %s\n", hpath, strerror(errno));
        remove(tmp);
        return 1;
    }
    FILE *rc_file = fopen(rpath, "w");
    if (!rc_file ||
        fputs("// petw mc: no message resources (the manifest is read as XML)\n", rc_file) < 0) {
        fprintf(stderr, "petw mc: cannot write %s: %s\n", rpath, strerror(errno));
        if (rc_file)
            fclose(rc_file);
        return 1;
    }
    fclose(rc_file);
    return 0;
}
