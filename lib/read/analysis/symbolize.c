/* SPDX-License-Identifier: MIT */
/* symbolize.c - code offsets in ELF files to functions, inlined frames and
 * source lines, with elfutils' libdwfl.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 *
 * One Dwfl session per image file (path and build-id), opened on first use
 * and kept: the file's own symbol table, its DWARF or a separate debug file
 * (libdwfl's standard search: build-id under each debug directory,
 * .gnu_debuglink, and debuginfod when DEBUGINFOD_URLS is set). An offset
 * becomes an address through the file's PT_LOAD segments, so PIE
 * executables and shared libraries resolve wherever they were mapped.
 */
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"

/* A function symbol: its address (in the Dwfl's terms) and size. */
typedef struct func_symbol {
    GElf_Addr addr;
    GElf_Xword size;
    const char *name; /* in the ELF's string table: lives with the Dwfl */
    int global;
} func_symbol;

typedef struct image_file {
    char *path;
    func_symbol *syms; /* sorted by address; built on first use */
    size_t sym_count;
    int syms_built;
    int plt_built; /* the PLT's sections, found on first use */
    GElf_Addr plt, plt_end, plt_sec, plt_sec_end, plt_entry, plt_sec_entry;
    Elf_Scn *rela_plt;
    uint8_t build_id[20];
    uint32_t build_id_size;
    Dwfl *dwfl; /* NULL: no usable file (every lookup gives nothing) */
    Dwfl_Module *mod;
    struct image_file *next;
} image_file;

struct petw_symbolizer {
    petw_symbolizer_config c;
    char *debuginfo_path; /* libdwfl's search path: "-.debug:/usr/lib/debug:DIR..." */
    Dwfl_Callbacks callbacks;
    image_file *files[256]; /* hash buckets by path */
    petw__strings strings;  /* interned names and files */
};

void petw_symbolizer_config_init(petw_symbolizer_config *config)
{
    memset(config, 0, sizeof(*config));
}

int petw_analysis_available(void)
{
    return 1;
}

int petw_symbolizer_new(const petw_symbolizer_config *config, petw_symbolizer **out)
{
    PETW__RETURN_IF(!out, PETW_EINVAL);
    *out = NULL;
    petw_symbolizer *s = calloc(1, sizeof(*s));
    PETW__RETURN_IF(!s, PETW_ENOMEM);
    if (config)
        s->c = *config;
    size_t n = sizeof("-.debug:/usr/lib/debug");
    for (uint32_t k = 0; k < s->c.dir_count; k++)
        n += strlen(s->c.dirs[k]) + 1;
    s->debuginfo_path = malloc(n);
    if (!s->debuginfo_path) {
        free(s);
        return PETW_ENOMEM;
    }
    strcpy(s->debuginfo_path, "-.debug:/usr/lib/debug");
    for (uint32_t k = 0; k < s->c.dir_count; k++) {
        strcat(s->debuginfo_path, ":");
        strcat(s->debuginfo_path, s->c.dirs[k]);
    }
    s->callbacks.find_elf = dwfl_build_id_find_elf;
    s->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
    s->callbacks.debuginfo_path = &s->debuginfo_path;
    *out = s;
    return 0;
}

void petw_symbolizer_free(petw_symbolizer *s)
{
    if (!s)
        return;
    for (size_t b = 0; b < sizeof(s->files) / sizeof(s->files[0]); b++) {
        for (image_file *f = s->files[b]; f;) {
            image_file *next = f->next;
            if (f->dwfl)
                dwfl_end(f->dwfl);
            free(f->syms);
            free(f->path);
            free(f);
            f = next;
        }
    }
    petw__strings_free(&s->strings);
    free(s->debuginfo_path);
    free(s);
}

/* Opens `file` as the image when its build-id is the recorded one. */
static int try_file(petw_symbolizer *s, image_file *f, const char *file)
{
    FILE *probe = fopen(file, "rb"); /* most candidates are not there: cheaply */
    if (!probe)
        return 0;
    fclose(probe);
    Dwfl *dwfl = dwfl_begin(&s->callbacks);
    if (!dwfl)
        return 0;
    /* Base 0 with add_p_vaddr: addresses are the file's own vaddrs. */
    Dwfl_Module *mod = dwfl_report_elf(dwfl, f->path, file, -1, 0, true);
    dwfl_report_end(dwfl, NULL, NULL);
    if (mod && f->build_id_size) {
        const unsigned char *bits;
        GElf_Addr vaddr;
        int n = dwfl_module_build_id(mod, &bits, &vaddr);
        if (n != (int)f->build_id_size || memcmp(bits, f->build_id, (size_t)n) != 0)
            mod = NULL; /* another build of the file: its names would be wrong */
    }
    if (!mod) {
        dwfl_end(dwfl);
        return 0;
    }
    f->dwfl = dwfl;
    f->mod = mod;
    return 1;
}

static image_file *open_image(petw_symbolizer *s, const char *path, const uint8_t *build_id,
                              uint32_t build_id_size)
{
    uint32_t h = 2166136261u;
    for (const char *p = path; *p; p++)
        h = (h ^ (uint8_t)*p) * 16777619u;
    size_t b = h % (sizeof(s->files) / sizeof(s->files[0]));
    if (build_id_size > 20)
        build_id_size = 20;
    for (image_file *f = s->files[b]; f; f = f->next)
        if (f->build_id_size == build_id_size && !strcmp(f->path, path) &&
            (build_id_size == 0 || !memcmp(f->build_id, build_id, build_id_size)))
            return f;
    image_file *f = calloc(1, sizeof(*f));
    if (!f)
        return NULL;
    f->path = strdup(path);
    if (!f->path) {
        free(f);
        return NULL;
    }
    if (build_id_size)
        memcpy(f->build_id, build_id, build_id_size);
    f->build_id_size = build_id_size;
    f->next = s->files[b];
    s->files[b] = f;

    /* Candidates, in order: the recorded path, then by build-id under each
     * debug directory (a debug file has the symbols and the segments), then
     * the user's directories by name. */
    if (path[0] == '/' && try_file(s, f, path))
        return f;
    char hex[41] = "";
    for (uint32_t k = 0; k < build_id_size; k++)
        snprintf(hex + 2 * k, 3, "%02x", build_id[k]);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char file[4096];
    for (uint32_t k = 0; k <= s->c.dir_count; k++) {
        const char *dir = k == 0 ? "/usr/lib/debug" : s->c.dirs[k - 1];
        if (build_id_size >= 2) {
            snprintf(file, sizeof(file), "%s/.build-id/%.2s/%s.debug", dir, hex, hex + 2);
            if (try_file(s, f, file))
                return f;
            snprintf(file, sizeof(file), "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
            if (try_file(s, f, file))
                return f;
        }
        if (k > 0) {
            snprintf(file, sizeof(file), "%s/%s", dir, base);
            if (try_file(s, f, file))
                return f;
        }
    }
    return f; /* none: lookups give nothing */
}

static int by_addr(const void *a, const void *b)
{
    const func_symbol *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return y->global - x->global; /* at one address, a global name first */
}

/* The file's function symbols, sorted once: dwfl_module_addrinfo scans the
 * whole symbol table on every call, too slow for thousands of addresses in
 * a large binary (perf keeps its own sorted table for the same reason).
 * libdwfl still reads them: the best table it found (the debug file's
 * .symtab, else .dynsym, and MiniDebugInfo). */
static void build_symbols(image_file *f)
{
    f->syms_built = 1;
    int n = dwfl_module_getsymtab(f->mod);
    if (n <= 0)
        return;
    f->syms = malloc((size_t)n * sizeof(*f->syms));
    if (!f->syms)
        return;
    for (int k = 1; k < n; k++) {
        GElf_Sym sym;
        GElf_Addr addr;
        GElf_Word shndx;
        const char *name = dwfl_module_getsym_info(f->mod, k, &sym, &addr, &shndx, NULL, NULL);
        int type = GELF_ST_TYPE(sym.st_info);
        if (!name || !name[0] || sym.st_shndx == SHN_UNDEF ||
            (type != STT_FUNC && type != STT_GNU_IFUNC))
            continue;
        f->syms[f->sym_count++] =
            (func_symbol){addr, sym.st_size, name, GELF_ST_BIND(sym.st_info) != STB_LOCAL};
    }
    qsort(f->syms, f->sym_count, sizeof(*f->syms), by_addr);
}

/* The function holding addr: the last symbol at or below it, within its
 * size (a symbol without a size reaches the next one). */
static const char *symbol_at(image_file *f, GElf_Addr a)
{
    if (!f->syms_built)
        build_symbols(f);
    size_t lo = 0, hi = f->sym_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->syms[mid].addr <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return NULL;
    size_t k = lo - 1;
    while (k > 0 && f->syms[k - 1].addr == f->syms[k].addr)
        k--; /* the first at that address: the global one */
    const func_symbol *s = &f->syms[k];
    if (s->size ? a < s->addr + s->size : (lo >= f->sym_count || a < f->syms[lo].addr))
        return s->name;
    return NULL;
}

/* PLT stubs have no symbol; perf names them after the function they jump
 * to ("name@plt"), from the .rela.plt entry of the same index. */
static void find_plt(image_file *f)
{
    f->plt_built = 1;
    GElf_Addr bias;
    Elf *elf = dwfl_module_getelf(f->mod, &bias);
    size_t strndx;
    if (!elf || elf_getshdrstrndx(elf, &strndx) != 0)
        return;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, strndx, sh.sh_name)))
            continue;
        GElf_Addr entry = sh.sh_entsize ? sh.sh_entsize : 16;
        if (!strcmp(name, ".plt") && sh.sh_type == SHT_PROGBITS) {
            f->plt = sh.sh_addr + bias;
            f->plt_end = f->plt + sh.sh_size;
            f->plt_entry = entry;
        } else if (!strcmp(name, ".plt.sec") && sh.sh_type == SHT_PROGBITS) {
            f->plt_sec = sh.sh_addr + bias;
            f->plt_sec_end = f->plt_sec + sh.sh_size;
            f->plt_sec_entry = entry;
        } else if (!strcmp(name, ".rela.plt") && sh.sh_type == SHT_RELA) {
            f->rela_plt = scn;
        }
    }
}

static const char *plt_name(petw_symbolizer *s, image_file *f, GElf_Addr a)
{
    if (!f->plt_built)
        find_plt(f);
    size_t index;
    if (a >= f->plt_sec && a < f->plt_sec_end)
        index = (a - f->plt_sec) / f->plt_sec_entry; /* one stub per relocation */
    else if (a >= f->plt + f->plt_entry && a < f->plt_end)
        index = (a - f->plt) / f->plt_entry - 1; /* after PLT0, the resolver's */
    else
        return NULL;
    GElf_Addr bias;
    Elf *elf = dwfl_module_getelf(f->mod, &bias);
    GElf_Shdr rela_sh, sym_sh;
    Elf_Data *rela = f->rela_plt ? elf_getdata(f->rela_plt, NULL) : NULL;
    GElf_Rela r;
    if (!elf || !rela || !gelf_getshdr(f->rela_plt, &rela_sh) ||
        !gelf_getrela(rela, (int)index, &r))
        return NULL;
    Elf_Scn *dynsym = elf_getscn(elf, rela_sh.sh_link);
    Elf_Data *syms = dynsym ? elf_getdata(dynsym, NULL) : NULL;
    GElf_Sym sym;
    if (!syms || !gelf_getshdr(dynsym, &sym_sh) ||
        !gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym))
        return NULL;
    const char *name = elf_strptr(elf, sym_sh.sh_link, sym.st_name);
    if (!name || !name[0])
        return NULL;
    char text[512];
    snprintf(text, sizeof(text), "%s@plt", name);
    return petw__strings_intern(&s->strings, text);
}

/* The address of file offset `offset` through the PT_LOAD that maps it. */
static int offset_to_address(Dwfl_Module *mod, uint64_t offset, Dwarf_Addr *addr)
{
    GElf_Addr bias;
    Elf *elf = dwfl_module_getelf(mod, &bias);
    size_t n;
    if (!elf || elf_getphdrnum(elf, &n) != 0)
        return 0;
    for (size_t k = 0; k < n; k++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)k, &ph) || ph.p_type != PT_LOAD)
            continue;
        /* A mapping starts at the page holding p_offset: offsets between
         * the page start and p_offset belong to this segment too. */
        uint64_t lo = ph.p_offset & ~(uint64_t)0xFFF;
        if (offset >= lo && offset < ph.p_offset + ph.p_filesz) {
            *addr = (Dwarf_Addr)((int64_t)offset - (int64_t)ph.p_offset) + ph.p_vaddr + bias;
            return 1;
        }
    }
    return 0;
}

/* The compilation unit holding addr. libdw finds it through
 * .debug_aranges, which some compilers (clang by default) do not write; then
 * each unit's ranges are asked in turn (once per distinct address). */
static Dwarf_Die *find_cu(Dwfl_Module *mod, Dwarf_Addr addr, Dwarf_Addr *bias)
{
    Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, bias);
    if (cu)
        return cu;
    for (cu = dwfl_module_nextcu(mod, NULL, bias); cu; cu = dwfl_module_nextcu(mod, cu, bias))
        if (dwarf_haspc(cu, addr - *bias) > 0)
            return cu;
    return NULL;
}

static const char *die_name(Dwarf_Die *die)
{
    Dwarf_Attribute a;
    const char *name = NULL;
    if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
        dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
        name = dwarf_formstring(&a);
    if (!name)
        name = dwarf_diename(die);
    if (!name && dwarf_attr_integrate(die, DW_AT_name, &a))
        name = dwarf_formstring(&a);
    return name;
}

static const char *call_file(Dwarf_Die *cu, Dwarf_Die *die, uint32_t *line)
{
    Dwarf_Attribute a;
    Dwarf_Word idx = 0, ln = 0;
    *line = 0;
    if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &a), &ln) == 0)
        *line = (uint32_t)ln;
    Dwarf_Files *files;
    size_t nfiles;
    if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &a), &idx) != 0 ||
        dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || idx >= nfiles)
        return NULL;
    return dwarf_filesrc(files, idx, NULL, NULL);
}

int petw_symbolizer_lookup(petw_symbolizer *s, const char *path, const uint8_t *build_id,
                           uint32_t build_id_size, uint64_t offset, petw_source_line *lines,
                           uint32_t max, uint32_t *count)
{
    PETW__RETURN_IF(!s || !path || !count || (max && !lines), PETW_EINVAL);
    *count = 0;
    if (!max)
        return 0;
    image_file *f = open_image(s, path, build_id, build_id ? build_id_size : 0);
    PETW__RETURN_IF(!f, PETW_ENOMEM);
    Dwarf_Addr addr;
    if (!f->mod || !offset_to_address(f->mod, offset, &addr))
        return 0;
    /* A PLT stub first: it has no symbol of its own, and a symbol without
     * a size before it (_init) would otherwise seem to reach over it. */
    const char *stub = plt_name(s, f, addr);
    if (stub) {
        lines[0] = (petw_source_line){stub, NULL, 0};
        *count = 1;
        return 0;
    }
    const char *symbol = symbol_at(f, addr);
    if (!symbol)
        return 0; /* in the file, but no symbol holds it */
    const char *src = NULL;
    int src_line = 0;
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = find_cu(f->mod, addr, &bias);
    Dwfl_Line *dl = dwfl_module_getsrc(f->mod, addr);
    if (dl) {
        src = dwfl_lineinfo(dl, NULL, &src_line, NULL, NULL, NULL);
    } else if (cu) {
        Dwarf_Line *line = dwarf_getsrc_die(cu, addr - bias);
        if (line) {
            src = dwarf_linesrc(line, NULL, NULL);
            (void)dwarf_lineno(line, &src_line);
        }
    }

    uint32_t n = 0;
    const char *file = src;
    uint32_t line = src_line > 0 ? (uint32_t)src_line : 0;
    if (!s->c.no_inline) {
        /* The inlined subroutines holding addr, innermost first: each is a
         * frame at the current file:line; its call site is the next one's. */
        Dwarf_Die *scopes = NULL;
        int ns = cu ? dwarf_getscopes(cu, addr - bias, &scopes) : 0;
        for (int k = 0; k < ns && n + 1 < max; k++) {
            int tag = dwarf_tag(&scopes[k]);
            if (tag == DW_TAG_subprogram)
                break;
            if (tag != DW_TAG_inlined_subroutine)
                continue;
            const char *name = die_name(&scopes[k]);
            lines[n].function =
                petw__strings_demangle(&s->strings, name ? name : "??", !s->c.no_demangle);
            lines[n].file = file ? petw__strings_intern(&s->strings, file) : NULL;
            lines[n].line = line;
            if (!lines[n].function)
                break;
            n++;
            file = call_file(cu, &scopes[k], &line);
        }
        free(scopes);
    }
    lines[n].function = petw__strings_demangle(&s->strings, symbol, !s->c.no_demangle);
    lines[n].file = file ? petw__strings_intern(&s->strings, file) : NULL;
    lines[n].line = file ? line : 0;
    PETW__RETURN_IF(!lines[n].function, PETW_ENOMEM);
    *count = n + 1;
    return 0;
}
