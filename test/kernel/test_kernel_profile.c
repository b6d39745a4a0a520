/* SPDX-License-Identifier: MIT */
/* A CPU profile from the NT Kernel Logger, through the ETW API, points at
 * the function that burnt the CPU: this program starts itself again as a
 * child that spins in spin_here() for 300 ms of CPU time, while a session
 * started with StartTrace(KERNEL_LOGGER_NAME) records PerfInfo
 * SampledProfile, Image Load and Process events to a file, sampling every
 * 1 ms (TraceSetInformation(TraceSampledProfileIntervalInfo)). Read back
 * with OpenTrace/ProcessTrace, the child's samples (SampledProfile's
 * ThreadId is the child's one thread), taken relative to the ImageBase of
 * the child's executable from its Image Load event and looked up in the
 * executable's ELF symbol table, fall into spin_here at least 70% of the
 * time. IP - ImageBase is a file offset (the ImageBase of an ELF image is
 * where its file would start in memory: its executable mapping's start
 * minus that mapping's file offset), turned into the symbols' addresses
 * through the program headers. Skips (77) where the system refuses kernel
 * events (ERROR_NOT_SUPPORTED, or ERROR_ACCESS_DENIED without the
 * permission). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "test_util.h"

/* The classic kernel event classes (their MOF class GUIDs). */
static const GUID PerfInfoClass = {
    0xce1dbfb4, 0x137e, 0x4da6, {0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc}};
static const GUID ImageClass = {
    0x2cb15d1d, 0x5fc1, 0x11d2, {0xab, 0xe1, 0x00, 0xa0, 0xc9, 0x11, 0xf5, 0x18}};

#define OPCODE_SAMPLED_PROFILE 46
#define OPCODE_IMAGE_LOAD 10
#define OPCODE_IMAGE_DCSTART 3
/* Image_Load (v2 and v3) with 64-bit pointers: FileName's offset. */
#define IMAGE_LOAD_FILENAME_OFFSET 56

#define SPIN_NS 300000000LL

volatile unsigned long long spin_sink;
void spin_here(void);

/* The known busy function: spins for SPIN_NS of this thread's CPU time. */
__attribute__((noinline)) void spin_here(void)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    long long ns;
    do {
        for (unsigned i = 0; i < 200000; i++)
            spin_sink += i;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        ns = (t.tv_sec - t0.tv_sec) * 1000000000LL + (t.tv_nsec - t0.tv_nsec);
    } while (ns < SPIN_NS);
}

static struct {
    pid_t child;
    const char *exe_name; /* the executable's base name */
    uint64_t image_base, image_size;
    int images;
    uint64_t *ips;
    size_t samples, cap;
    uint64_t all_samples;
} seen;

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Whether the UTF-16LE path at `p` (`n` bytes, up to its NUL) names a file
 * called `name` (the part after its last '/' or '\'). */
static int file_name_is(const uint8_t *p, size_t n, const char *name)
{
    char path[1024];
    size_t len = 0;
    for (size_t i = 0; i + 1 < n && len + 1 < sizeof(path); i += 2) {
        unsigned c = p[i] | p[i + 1] << 8;
        if (!c)
            break;
        path[len++] = c < 0x80 ? (char)c : '?';
    }
    path[len] = 0;
    const char *base = path;
    for (const char *s = path; *s; s++)
        if (*s == '/' || *s == '\\')
            base = s + 1;
    return strcmp(base, name) == 0;
}

static VOID WINAPI on_event(PEVENT_RECORD r)
{
    const uint8_t *d = r->UserData;
    UCHAR opcode = r->EventHeader.EventDescriptor.Opcode;
    if (!(r->EventHeader.Flags & EVENT_HEADER_FLAG_64_BIT_HEADER))
        return;
    if (IsEqualGUID(&r->EventHeader.ProviderId, &PerfInfoClass) &&
        opcode == OPCODE_SAMPLED_PROFILE && r->UserDataLength >= 16) {
        seen.all_samples++;
        if (rd32(d + 8) != (uint32_t)seen.child)
            return;
        if (seen.samples == seen.cap) {
            seen.cap = seen.cap ? 2 * seen.cap : 1024;
            seen.ips = realloc(seen.ips, seen.cap * sizeof(*seen.ips));
            CHECK(seen.ips);
        }
        seen.ips[seen.samples++] = rd64(d);
    } else if (IsEqualGUID(&r->EventHeader.ProviderId, &ImageClass) &&
               (opcode == OPCODE_IMAGE_LOAD || opcode == OPCODE_IMAGE_DCSTART) &&
               r->EventHeader.EventDescriptor.Version >= 2 &&
               r->UserDataLength > IMAGE_LOAD_FILENAME_OFFSET &&
               rd32(d + 16) == (uint32_t)seen.child &&
               file_name_is(d + IMAGE_LOAD_FILENAME_OFFSET,
                            r->UserDataLength - IMAGE_LOAD_FILENAME_OFFSET, seen.exe_name)) {
        seen.image_base = rd64(d);
        seen.image_size = rd64(d + 8);
        seen.images++;
    }
}

/* spin_here's addresses in the executable `exe` (its .symtab; a clone the
 * compiler made, spin_here.<suffix>, counts too), and the file-offset to
 * address map of its PT_LOAD segments. */
typedef struct elf_view {
    uint64_t lo[8], hi[8];
    int ranges;
    Elf64_Phdr load[16];
    int loads;
} elf_view;

static void read_elf(const char *exe, elf_view *v)
{
    memset(v, 0, sizeof(*v));
    int fd = open(exe, O_RDONLY);
    CHECK(fd >= 0);
    struct stat st;
    CHECK(fstat(fd, &st) == 0);
    const uint8_t *f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    CHECK(f != MAP_FAILED);
    close(fd);
    const Elf64_Ehdr *eh = (const void *)f;
    CHECK(memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64);
    const Elf64_Phdr *ph = (const void *)(f + eh->e_phoff);
    for (int i = 0; i < eh->e_phnum && v->loads < 16; i++)
        if (ph[i].p_type == PT_LOAD)
            v->load[v->loads++] = ph[i];
    const Elf64_Shdr *sh = (const void *)(f + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB)
            continue;
        const Elf64_Sym *sym = (const void *)(f + sh[i].sh_offset);
        const char *names = (const char *)(f + sh[sh[i].sh_link].sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sizeof(*sym); k++) {
            const char *n = names + sym[k].st_name;
            if (ELF64_ST_TYPE(sym[k].st_info) == STT_FUNC && sym[k].st_size &&
                strncmp(n, "spin_here", 9) == 0 && (n[9] == 0 || n[9] == '.') && v->ranges < 8) {
                v->lo[v->ranges] = sym[k].st_value;
                v->hi[v->ranges++] = sym[k].st_value + sym[k].st_size;
            }
        }
    }
    munmap((void *)f, (size_t)st.st_size);
    CHECK(v->loads > 0);
    if (!v->ranges) {
        fprintf(stderr, "no spin_here in %s's symbol table\n", exe);
        exit(1);
    }
}

/* Whether file offset `off` of the executable is in spin_here. */
static int in_spin_here(const elf_view *v, uint64_t off)
{
    for (int i = 0; i < v->loads; i++) {
        const Elf64_Phdr *p = &v->load[i];
        if (off < p->p_offset || off >= p->p_offset + p->p_filesz)
            continue;
        uint64_t addr = off - p->p_offset + p->p_vaddr;
        for (int k = 0; k < v->ranges; k++)
            if (addr >= v->lo[k] && addr < v->hi[k])
                return 1;
    }
    return 0;
}

#if defined(__SANITIZE_THREAD__)
#define PROFILE_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PROFILE_UNDER_TSAN 1
#endif
#endif

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--spin") == 0) {
        spin_here();
        return 0;
    }
#ifdef PROFILE_UNDER_TSAN
    /* TSan instruments every access of the loop: the samples land in its
     * runtime, not in spin_here, so the attribution is not this build's
     * to check (the plain and ASan builds do). */
    printf("kernel_profile: under ThreadSanitizer, skipped\n");
    return SKIP_TEST;
#endif
    static char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    CHECK(n > 0);
    exe[n] = 0;
    seen.exe_name = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
    elf_view elf;
    read_elf(exe, &elf);

    char path[512];
    test_path(path, sizeof(path), "kernel-profile.etl");
    test_props_w tp;
    test_props_w_init(&tp, path);
    tp.p.Wnode.Guid = SystemTraceControlGuid;
    tp.p.EnableFlags =
        EVENT_TRACE_FLAG_PROFILE | EVENT_TRACE_FLAG_IMAGE_LOAD | EVENT_TRACE_FLAG_PROCESS;
    TRACEHANDLE h = 0;
    ULONG rc = StartTraceW(&h, KERNEL_LOGGER_NAMEW, &tp.p);
    if (rc == ERROR_NOT_SUPPORTED || rc == ERROR_ACCESS_DENIED) {
        printf("kernel_profile: skipped, the NT Kernel Logger is %s here\n",
               rc == ERROR_NOT_SUPPORTED ? "not supported" : "not permitted");
        return SKIP_TEST;
    }
    CHECK_EQ(rc, ERROR_SUCCESS);
    TRACE_PROFILE_INTERVAL interval;
    memset(&interval, 0, sizeof(interval));
    interval.Source = 0;       /* ProfileTime */
    interval.Interval = 10000; /* 1 ms in 100 ns units */
    CHECK_EQ(TraceSetInformation(h, TraceSampledProfileIntervalInfo, &interval, sizeof(interval)),
             ERROR_SUCCESS);

    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        char *args[] = {exe, "--spin", NULL};
        execv(exe, args);
        _exit(127);
    }
    int status = 0;
    CHECK_EQ(waitpid(child, &status, 0), child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK_EQ(ControlTraceW(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);

    seen.child = child;
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = on_event;
    TRACEHANDLE c = OpenTraceA(&lf);
    CHECK(c != INVALID_PROCESSTRACE_HANDLE);
    CHECK_EQ(ProcessTrace(&c, 1, NULL, NULL), ERROR_SUCCESS);
    CloseTrace(c);

    if (!seen.images) {
        fprintf(stderr, "no Image Load event for %s in process %d\n", seen.exe_name, (int)child);
        exit(1);
    }
    size_t hits = 0, outside = 0;
    for (size_t i = 0; i < seen.samples; i++) {
        uint64_t off = seen.ips[i] - seen.image_base;
        if (seen.ips[i] >= seen.image_base && in_spin_here(&elf, off)) {
            hits++;
            outside += off >= seen.image_size; /* spin_here is in the image */
        }
    }
    printf("kernel_profile: %zu of the child's %zu samples (of %llu) in spin_here; image base "
           "0x%llx, %d load event(s)\n",
           hits, seen.samples, (unsigned long long)seen.all_samples,
           (unsigned long long)seen.image_base, seen.images);
    /* 300 ms at 1 ms: some 300 samples; fewer than 100 is not a profile. */
    CHECK(seen.samples >= 100);
    CHECK(hits * 10 >= seen.samples * 7);
    CHECK_EQ(outside, 0);
    free(seen.ips);
    unlink(path);
    return 0;
}
