/* SPDX-License-Identifier: MIT */
/* The NT Kernel Logger with the memory groups, as Microsoft's "Configuring
 * and Starting the NT Kernel Logger Session" sample starts it: StartTrace
 * with EnableFlags EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS,
 * EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS and EVENT_TRACE_FLAG_VIRTUAL_ALLOC
 * starts (no ERROR_NOT_SUPPORTED) and says it records them, and the file
 * it writes holds this process's mmap of 7 pages as a VirtualAlloc of that
 * base and size, its 7 first writes as DemandZeroFaults at those pages,
 * and its munmap as a VirtualFree; and a file of 4 pages it mapped before
 * the session started, dropped from the page cache, read in the session:
 * 4 HardFaults of this thread with each page's ReadOffset and a FileObject
 * that a FileIo Name event names with the file's path (the mapping known
 * from the session's rundown of /proc/PID/maps) (or, on a machine so busy that perf's
 * rings overflowed, the loss counted in EventsLost). TraceSetInformation's
 * group mask takes them too. Skipped (77) where the OS refuses kernel
 * events. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test_util.h"

DEFINE_GUID(FileIoGuid, 0x90cbdc39, 0x4a3e, 0x11d1, 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3);
DEFINE_GUID(PageFaultGuid, 0x3d6fa8d3, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba,
            0x7c);

#define PAGES 7
#define FILE_PAGES 4

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

static uint64_t base, size, file_base, page_size;
static int allocs, frees, faults, hard, offsets_seen;
static uint64_t file_object, named_object;
static char file_path[512];

static void on_event(petw_event_record *r, void *ctx)
{
    (void)ctx;
    const uint8_t *d = r->user_data;
    int op = r->header.descriptor.opcode;
    if (!memcmp(&r->header.provider_id, &FileIoGuid, sizeof(GUID)) && op == 0 &&
        r->user_data_length > 8) {
        /* FileIo Name: FileObject, then the path in UTF-16 (ASCII here). */
        char name[512];
        size_t n = 0;
        for (size_t k = 8; k + 1 < r->user_data_length && n + 1 < sizeof(name) && d[k]; k += 2)
            name[n++] = (char)d[k];
        name[n] = 0;
        if (!strcmp(name, file_path))
            named_object = rd64(d);
        return;
    }
    if (memcmp(&r->header.provider_id, &PageFaultGuid, sizeof(GUID)) != 0)
        return;
    /* HardFault: InitialTime, ReadOffset, VirtualAddress, FileObject,
     * TThreadId, ByteCount. */
    if (op == 32 && r->user_data_length >= 40 && rd32(d + 32) == (uint32_t)getpid() &&
        rd64(d + 16) >= file_base && rd64(d + 16) < file_base + FILE_PAGES * page_size) {
        uint64_t off = rd64(d + 8);
        if (off == (rd64(d + 16) - file_base) / page_size * page_size && off < 64 * page_size)
            offsets_seen |= 1 << (off / page_size);
        file_object = rd64(d + 24);
        hard++;
        return;
    }
    if ((op == 98 || op == 99) && r->user_data_length >= 24 && rd64(d) == base &&
        rd64(d + 8) == size && rd32(d + 16) == (uint32_t)getpid())
        op == 98 ? allocs++ : frees++;
    if (op == 11 && r->user_data_length >= 16 && rd64(d) >= base && rd64(d) < base + size &&
        r->header.process_id == (uint32_t)getpid())
        faults++;
}

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "kernel-memory.etl");
    /* A file mapped before the session, its pages dropped from the cache. */
    page_size = (uint64_t)sysconf(_SC_PAGESIZE);
    test_path(file_path, sizeof(file_path), "kernel-memory.dat");
    int fd = open(file_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0);
    static char block[4 * 65536];
    memset(block, 'm', sizeof(block));
    CHECK(FILE_PAGES * page_size <= sizeof(block));
    CHECK_EQ(write(fd, block, FILE_PAGES * page_size), (long long)(FILE_PAGES * page_size));
    CHECK_EQ(fsync(fd), 0);
    CHECK_EQ(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
    volatile uint8_t *fm = mmap(NULL, FILE_PAGES * page_size, PROT_READ, MAP_SHARED, fd, 0);
    CHECK(fm != MAP_FAILED);
    (void)madvise((void *)fm, FILE_PAGES * page_size, MADV_RANDOM);
    file_base = (uint64_t)(uintptr_t)fm;
    unsigned char resident[FILE_PAGES];
    int cached = 0;
    CHECK_EQ(mincore((void *)fm, FILE_PAGES * page_size, resident), 0);
    for (int k = 0; k < FILE_PAGES; k++)
        cached += resident[k] & 1;
    test_props tp;
    test_props_init(&tp, path);
    const ULONG memory = EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS | EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS |
                         EVENT_TRACE_FLAG_VIRTUAL_ALLOC;
    tp.p.EnableFlags = EVENT_TRACE_FLAG_PROCESS | memory;
    TRACEHANDLE h = 0;
    ULONG st = test_start_trace(&h, KERNEL_LOGGER_NAMEA, &tp.p);
    if (st == ERROR_ACCESS_DENIED) {
        printf("kernel session refused by the OS (no perf events permission): skipped\n");
        return SKIP_TEST;
    }
    CHECK_EQ(st, ERROR_SUCCESS);
    CHECK_EQ(tp.p.EnableFlags, EVENT_TRACE_FLAG_PROCESS | memory);
    ULONG mask[8] = {EVENT_TRACE_FLAG_PROCESS | memory};
    CHECK_EQ(TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, mask, sizeof(mask)),
             ERROR_SUCCESS);
    memset(mask, 0, sizeof(mask));
    CHECK_EQ(TraceQueryInformation(h, TraceSystemTraceEnableFlagsInfo, mask, sizeof(mask), NULL),
             ERROR_SUCCESS);
    CHECK_EQ(mask[0], EVENT_TRACE_FLAG_PROCESS | memory);

    long page = sysconf(_SC_PAGESIZE);
    size = (uint64_t)PAGES * (uint64_t)page;
    uint8_t *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(m != MAP_FAILED);
    (void)madvise(m, size, MADV_NOHUGEPAGE);
    base = (uint64_t)(uintptr_t)m;
    for (uint64_t k = 0; k < size; k += (uint64_t)page)
        m[k] = 1;
    unsigned sum = 0;
    for (uint64_t k = 0; k < FILE_PAGES * page_size; k += page_size)
        sum += fm[k];
    CHECK_EQ(sum, 'm' * FILE_PAGES);
    CHECK_EQ(munmap(m, size), 0);
    usleep(50000); /* the recorder reads every 20 ms */
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);

    petw_trace_config tc;
    petw_trace_config_init(&tc);
    tc.on_event = on_event;
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path, &tc, &t), 0);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_close(t);
    unlink(path);
    munmap((void *)fm, FILE_PAGES * page_size);
    close(fd);
    unlink(file_path);
    /* System-wide, a busy machine's faults can fill perf's rings: what is
     * missing must then be counted as lost, never silently absent. */
    if (tp.p.EventsLost &&
        (allocs != 1 || frees != 1 || faults != PAGES || (!cached && hard != FILE_PAGES))) {
        printf("%lu events lost system-wide (a busy machine): %d VirtualAlloc, %d "
               "DemandZeroFault, %d VirtualFree seen; counts not checked\n",
               (unsigned long)tp.p.EventsLost, allocs, faults, frees);
        return 0;
    }
    CHECK_EQ(allocs, 1);
    CHECK_EQ(frees, 1);
    CHECK_EQ(faults, PAGES);
    if (cached) {
        printf("%d of the file's pages stayed cached: its hard faults not checked\n", cached);
    } else {
        CHECK_EQ(hard, FILE_PAGES);
        CHECK_EQ(offsets_seen, (1 << FILE_PAGES) - 1);
        CHECK(file_object != 0);
        CHECK_EQ(named_object, file_object);
        printf("a file mapped before the session: %d HardFaults, each page's ReadOffset, the "
               "file named\n",
               hard);
    }
    printf("NT Kernel Logger with the memory flags: %d VirtualAlloc, %d DemandZeroFault, %d "
           "VirtualFree of this process's mapping\n",
           allocs, faults, frees);
    return 0;
}
