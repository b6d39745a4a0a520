/* SPDX-License-Identifier: MIT */
/* The symbolizer (petw/analysis.h, elfutils' libdwfl) on this test's own
 * executable, built with -g: a function by its file offset (its mapping's
 * offset, as ImageId records it) has its name, source file and line; an
 * inlined function is a frame of its own above the function that holds it,
 * at its call site's line; a C++ name comes demangled; a PLT stub is named
 * after its target (name@plt, as perf names it); a wrong build-id or
 * a missing file give nothing (never a wrong name); a file found by
 * build-id under a --symbols directory is used when the recorded path is
 * gone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fcntl.h>
#include <gelf.h>
#include <petw/analysis.h>

#include "../../lib/write/system/system_internal.h" /* petw__system_build_id */
#include "test_util.h"

uint64_t sym_alpha(uint64_t x);
uint64_t sym_beta(uint64_t x);
const void *symbolize_target_cpp(void);

#define SYM_ALPHA_LINE 8
#define SYM_BETA_CALL_LINE 26

static char exe[4096];

/* The file offset of `addr` in this executable, from /proc/self/maps. */
static uint64_t file_offset(const void *addr)
{
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f != NULL);
    char line[4096 + 128];
    uint64_t a = (uint64_t)(uintptr_t)addr, off = UINT64_MAX;
    while (fgets(line, sizeof(line), f)) {
        unsigned long long lo, hi, pg;
        char perms[8];
        int at = -1;
        /* The path is the rest of the line: it may hold spaces. */
        if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi, perms, &pg, &at) >= 4 &&
            at > 0 && a >= lo && a < hi) {
            char *path = line + at;
            path[strcspn(path, "\n")] = 0;
            CHECK(strcmp(path, exe) == 0);
            off = a - lo + pg;
        }
    }
    fclose(f);
    CHECK(off != UINT64_MAX);
    return off;
}

/* The file offset of this executable's first PLT stub (.plt.sec's first
 * entry, else .plt's second), read with libelf; 0 when it has no PLT. */
static uint64_t first_plt_stub(void)
{
    elf_version(EV_CURRENT);
    int fd = open(exe, O_RDONLY);
    CHECK(fd >= 0);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    CHECK(elf != NULL);
    size_t strndx;
    CHECK_EQ(elf_getshdrstrndx(elf, &strndx), 0);
    uint64_t plt = 0, plt_sec = 0;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        CHECK(gelf_getshdr(scn, &sh) != NULL);
        const char *name = elf_strptr(elf, strndx, sh.sh_name);
        if (name && !strcmp(name, ".plt") && sh.sh_size > 16)
            plt = sh.sh_offset + 16;
        if (name && !strcmp(name, ".plt.sec") && sh.sh_size)
            plt_sec = sh.sh_offset;
    }
    elf_end(elf);
    close(fd);
    return plt_sec ? plt_sec : plt;
}

static const char *base(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path ? path : "";
}

int main(void)
{
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    CHECK(n > 0);
    exe[n] = 0;
    uint8_t id[PETW__SYS_BUILD_ID_MAX];
    uint32_t id_size = petw__system_build_id(exe, id);
    CHECK(id_size == 20);

    petw_symbolizer *s;
    petw_symbolizer_config c;
    petw_symbolizer_config_init(&c);
    CHECK_EQ(petw_symbolizer_new(&c, &s), 0);
    petw_source_line lines[16];
    uint32_t count;

    /* A plain function: its name, file and line. */
    uint64_t alpha = file_offset((const void *)&sym_alpha);
    CHECK_EQ(petw_symbolizer_lookup(s, exe, id, id_size, alpha, lines, 16, &count), 0);
    CHECK_EQ(count, 1);
    CHECK(strcmp(lines[0].function, "sym_alpha") == 0);
    if (strcmp(base(lines[0].file), "symbolize_target.c") != 0)
        fprintf(stderr, "file %s line %u\n", lines[0].file ? lines[0].file : "(null)",
                lines[0].line);
    CHECK(strcmp(base(lines[0].file), "symbolize_target.c") == 0);
    CHECK(lines[0].line >= SYM_ALPHA_LINE && lines[0].line <= SYM_ALPHA_LINE + 2);

    /* An inlined function: somewhere in sym_beta, sym_inline_helper is a
     * frame above sym_beta, which calls it at SYM_BETA_CALL_LINE. */
    uint64_t beta = file_offset((const void *)&sym_beta);
    int inlined = 0;
    for (uint64_t k = 0; k < 256 && !inlined; k++) {
        CHECK_EQ(petw_symbolizer_lookup(s, exe, id, id_size, beta + k, lines, 16, &count), 0);
        if (count == 0 || strcmp(lines[count - 1].function, "sym_beta") != 0)
            break; /* past the function */
        if (count == 2 && strcmp(lines[0].function, "sym_inline_helper") == 0) {
            CHECK(strcmp(base(lines[1].file), "symbolize_target.c") == 0);
            CHECK_EQ(lines[1].line, SYM_BETA_CALL_LINE);
            inlined = 1;
        }
    }
    CHECK(inlined);

    /* Without inlined frames: the function alone. */
    petw_symbolizer *flat;
    c.no_inline = 1;
    CHECK_EQ(petw_symbolizer_new(&c, &flat), 0);
    for (uint64_t k = 0; k < 64; k++) {
        CHECK_EQ(petw_symbolizer_lookup(flat, exe, id, id_size, beta + k, lines, 16, &count), 0);
        CHECK(count <= 1);
    }
    petw_symbolizer_free(flat);
    c.no_inline = 0;

    /* C++: demangled. */
    uint64_t spin = file_offset(symbolize_target_cpp());
    CHECK_EQ(petw_symbolizer_lookup(s, exe, id, id_size, spin, lines, 16, &count), 0);
    CHECK_EQ(count, 1);
    CHECK(strcmp(lines[0].function, "petw_test::Widget::spin(int)") == 0);

    /* A PLT stub: named after the function it jumps to, as perf does. */
    uint64_t stub = first_plt_stub();
    if (stub) {
        CHECK_EQ(petw_symbolizer_lookup(s, exe, id, id_size, stub, lines, 16, &count), 0);
        CHECK_EQ(count, 1);
        size_t len = strlen(lines[0].function);
        CHECK(len > 4 && strcmp(lines[0].function + len - 4, "@plt") == 0);
    }

    /* Another build at the path, or no file: nothing, never a wrong name. */
    uint8_t other[20];
    memcpy(other, id, 20);
    other[0] ^= 0xFF;
    CHECK_EQ(petw_symbolizer_lookup(s, exe, other, 20, alpha, lines, 16, &count), 0);
    CHECK_EQ(count, 0);
    CHECK_EQ(
        petw_symbolizer_lookup(s, "/nonexistent/libgone.so", id, id_size, alpha, lines, 16, &count),
        0);
    CHECK_EQ(count, 0);
    CHECK_EQ(petw_symbolizer_lookup(s, exe, NULL, 0, UINT64_C(1) << 40, lines, 16, &count), 0);
    CHECK_EQ(count, 0); /* past the file's segments */
    petw_symbolizer_free(s);

    /* The recorded path is gone: found by build-id under a --symbols DIR. */
    char dir[] = "/tmp/petw-symbols-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char hex[41], sub[4200], link[4300];
    for (int k = 0; k < 20; k++)
        snprintf(hex + 2 * k, 3, "%02x", id[k]);
    snprintf(sub, sizeof(sub), "%s/.build-id", dir);
    CHECK_EQ(mkdir(sub, 0700), 0);
    snprintf(sub, sizeof(sub), "%s/.build-id/%.2s", dir, hex);
    CHECK_EQ(mkdir(sub, 0700), 0);
    snprintf(link, sizeof(link), "%s/%s.debug", sub, hex + 2);
    CHECK_EQ(symlink(exe, link), 0);
    const char *dirs[] = {dir};
    c.dirs = dirs;
    c.dir_count = 1;
    CHECK_EQ(petw_symbolizer_new(&c, &s), 0);
    CHECK_EQ(
        petw_symbolizer_lookup(s, "/gone/test_symbolize", id, id_size, alpha, lines, 16, &count),
        0);
    CHECK_EQ(count, 1);
    CHECK(strcmp(lines[0].function, "sym_alpha") == 0);
    petw_symbolizer_free(s);
    unlink(link);
    rmdir(sub);
    snprintf(sub, sizeof(sub), "%s/.build-id", dir);
    rmdir(sub);
    rmdir(dir);
    printf("symbolizer: names, lines, inlined frames, C++ names, build-id checks\n");
    return 0;
}
