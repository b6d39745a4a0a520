/* SPDX-License-Identifier: MIT */
/* mc_template.c - `petw mc`: each event template's McTemplate function (the
 * parameter types and code letters of its fields, the checks of what the
 * generator can write, the payload descriptors). */
#include <stdlib.h>
#include <string.h>

#include "mc.h"

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

static int is_text(uint8_t in)
{
    return in == PETW_IN_UNICODESTRING || in == PETW_IN_ANSISTRING;
}

/* Whether argument `f` comes after a ULONG `_Len_` argument, as mc.exe
 * writes it: a struct (its size), or an array of NUL-terminated strings
 * (the characters of them all). */
int mc_has_len_arg(const petw_manifest_field *f)
{
    if (f->flags & PETW_MANIFEST_FIELD_STRUCT)
        return 1;
    return is_text(f->in_type) &&
           (f->flags & (PETW_MANIFEST_FIELD_COUNT | PETW_MANIFEST_FIELD_COUNT_REF)) &&
           !(f->flags & (PETW_MANIFEST_FIELD_LENGTH | PETW_MANIFEST_FIELD_LENGTH_REF));
}

/* Checks event `e`'s template and names its McTemplate function. */
int mc_check_template(mc_gen *g, uint32_t p, uint32_t e, const petw_manifest_event *ev, tmpl *t)
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

int mc_template_written(mc_gen *g, const char *name)
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

/* The event data descriptor of the template's field k: a blob, a counted
 * array, a string (converted to UTF-16 where WCHAR is not), a SID, or a
 * value by its size. */
static void write_field(FILE *o, const tmpl *t, uint32_t k)
{
    const petw_manifest_field *f = &t->f[k];
    const in_info *in = info_of(f->in_type);
    uint32_t d = k + 1;
    if (write_blob(o, f, t, k))
        return;
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
        fprintf(o, "    EventDataDescCreate(&EventData[%u], _Arg%u, %s * (ULONG)sizeof(%s));\n", d,
                k, size, in->elem);
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
        fprintf(o,
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
        fprintf(o,
                "    EventDataDescCreate(&EventData[%u], (_Arg%u != NULL) ? _Arg%u : \"NULL\",\n"
                "                        (_Arg%u != NULL) ? (ULONG)(strlen(_Arg%u) + 1) : "
                "(ULONG)sizeof(\"NULL\"));\n",
                d, k, k, k, k);
    } else if (f->in_type == PETW_IN_BINARY) {
        fprintf(o, "    EventDataDescCreate(&EventData[%u], _Arg%u, %s);\n", d, k, size);
    } else if (f->in_type == PETW_IN_SID) {
        /* A SID's size: 8 bytes and 4 per sub-authority (GetLengthSid). */
        fprintf(o,
                "    EventDataDescCreate(&EventData[%u], _Arg%u,\n"
                "                        8u + 4u * (ULONG)((const unsigned char *)_Arg%u)[1]);\n",
                d, k, k);
    } else if (in->by_ptr) {
        fprintf(o, "    EventDataDescCreate(&EventData[%u], _Arg%u, (ULONG)sizeof(%s));\n", d, k,
                in->by_ptr);
    } else {
        fprintf(o, "    EventDataDescCreate(&EventData[%u], &_Arg%u, (ULONG)sizeof(_Arg%u));\n", d,
                k, k);
    }
}

void mc_write_template(mc_gen *g, const tmpl *t)
{
    FILE *o = g->out;
    fprintf(o, "#ifndef %s_def\n#define %s_def\n", t->name, t->name);
    fprintf(o, "static inline ULONG %s(PMCGEN_TRACE_CONTEXT Context, PCEVENT_DESCRIPTOR Descriptor",
            t->name);
    for (uint32_t k = 0; k < t->n; k++) {
        char type[64];
        param_type(&t->f[k], type, sizeof(type));
        if (mc_has_len_arg(&t->f[k]))
            fprintf(o, ",\n    ULONG _Arg%u_Len_", k);
        fprintf(o, ",\n    %s%s_Arg%u", type, type[strlen(type) - 1] == '*' ? "" : " ", k);
    }
    fprintf(o, ")\n{\n    EVENT_DATA_DESCRIPTOR EventData[%u + 1];\n", t->n);
    for (uint32_t k = 0; k < t->n; k++)
        write_field(o, t, k);
    fprintf(
        o,
        "    return McGenEventWrite(Context, Descriptor, NULL, %u + 1, EventData);\n}\n#endif\n\n",
        t->n);
}
