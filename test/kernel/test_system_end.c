/* SPDX-License-Identifier: MIT */
/* At a system session's end, the system provider writes what Windows'
 * kernel logger writes when it stops: the DCEnd rundown of what still
 * exists (a process alive at the stop has its Process, Thread and Image
 * DCEnd; one that ended before has none; no DCEnd precedes another event)
 * and the SystemConfig events: CPU (processors, memory, page size, host
 * name), PhyDisk for each disk with hardware behind it, and LogDisk for the
 * volume of "/". Each is checked against what this test asks the OS itself,
 * at Windows' 64-bit offsets, independently of petw's decoder. A restart
 * for new settings (UPDATE) writes neither. Skips (77) where the OS gives
 * no perf events. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "test_kernel_classes.h"

#include <dirent.h>
#include <mntent.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

#include "../../lib/write/session/session_internal.h" /* a restart, as UPDATE makes one */

static const GUID SystemConfigGuid = {
    0x01853a65, 0x418f, 0x4f36, {0xae, 0xfc, 0xdc, 0x0f, 0x1d, 0x2f, 0xd2, 0x35}};

/* A child that waits for a byte on `fd` (or its end), then exits. */
static pid_t park(int *release)
{
    int p[2];
    CHECK_EQ(pipe(p), 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(p[1]);
        char b;
        _exit(read(p[0], &b, 1) >= 0 ? 0 : 1);
    }
    close(p[0]);
    *release = p[1];
    return pid;
}

static void reap(pid_t pid, int release)
{
    CHECK_EQ(write(release, "x", 1), 1);
    close(release);
    int status;
    CHECK_EQ(waitpid(pid, &status, 0), pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* A fixed UTF-16 array of the payload as ASCII (what these tests compare). */
static void ascii_at(const test_event *e, uint32_t off, uint32_t units, char *out, size_t size)
{
    size_t n = 0;
    for (uint32_t k = 0; k < units && off + 2 * k + 1 < e->length && n + 1 < size; k++) {
        uint16_t u = (uint16_t)(e->data[off + 2 * k] | e->data[off + 2 * k + 1] << 8);
        if (!u)
            break;
        out[n++] = u < 128 ? (char)u : '?';
    }
    out[n] = 0;
}

/* Disks with hardware behind them, as /sys lists them. */
static int physical_disks(void)
{
    DIR *d = opendir("/sys/block");
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char path[600];
        struct stat st;
        snprintf(path, sizeof(path), "/sys/block/%s/device", e->d_name);
        n += e->d_name[0] != '.' && stat(path, &st) == 0;
    }
    closedir(d);
    return n;
}

/* The file system type of "/" when it is mounted from a block device. */
static int root_type(char *type, size_t size)
{
    FILE *f = setmntent("/proc/self/mounts", "r");
    if (!f)
        return 0;
    struct mntent *m;
    int found = 0;
    while ((m = getmntent(f)) != NULL)
        if (strcmp(m->mnt_dir, "/") == 0) { /* the last one is what "/" is */
            found = strncmp(m->mnt_fsname, "/dev/", 5) == 0;
            snprintf(type, size, "%s", m->mnt_type);
        }
    endmntent(f);
    return found;
}

int main(void)
{
    /* The children first, while this process has one thread. */
    int release_live, release_gone;
    pid_t live = park(&release_live), gone = park(&release_gone);

    char path[512];
    test_path(path, sizeof(path), "system_end.etl");
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-test-system-end";
    c.file_path = path;
    c.system_flags = PETW_SYSTEM_PROCESS | PETW_SYSTEM_THREAD | PETW_SYSTEM_IMAGE_LOAD;
    c.maximum_buffers = 64;
    petw_session_handle h;
    int rc = petw_session_start(&c, &h);
    if (rc == PETW_EACCES || rc == PETW_ENOTSUP) {
        printf("no perf events here (%s): skipped\n", petw_err_name(rc));
        reap(live, release_live);
        reap(gone, release_gone);
        return SKIP_TEST;
    }
    CHECK_EQ(rc, 0);
    reap(gone, release_gone); /* ends while the session records */
    /* A restart for new settings: its stop is not the session's end. */
    uint32_t more = c.system_flags | PETW_SYSTEM_CSWITCH;
    CHECK_EQ(petw__session_set_system(h, &more, NULL, NULL), 0);
    petw_session_stats st;
    CHECK_EQ(petw_session_stop(h, &st), 0);
    reap(live, release_live); /* alive at the end */

    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    CHECK_EQ(l.corrupt, 0);
    CHECK_EQ(st.events_lost, 0);
    CHECK_EQ(l.count - 1, st.events_written);

    uint32_t me = (uint32_t)getpid();
    int live_end = 0, live_thread_end = 0, live_images = 0, gone_end = 0, my_end = 0;
    int cpu = 0, phydisk = 0, logdisk_root = 0, dcend = 0;
    int64_t last_other = 0, first_dcend = INT64_MAX;
    uint32_t disks[64];
    int ndisks = 0;
    char root_fs[64] = "";
    int have_root = root_type(root_fs, sizeof(root_fs));
    struct statvfs root;
    CHECK_EQ(statvfs("/", &root), 0);
    for (size_t i = 1; i < l.count; i++) {
        const test_event *e = &l.ev[i];
        const uint8_t *p = e->data;
        int64_t ts = e->header.timestamp;
        int end = e->header.descriptor.opcode == 4 &&
                  (test_is_class(e, &ProcessGuid, 4) || test_is_class(e, &ThreadGuid, 4) ||
                   test_is_class(e, &ImageGuid, 4));
        if (end) {
            dcend++;
            if (ts < first_dcend)
                first_dcend = ts;
        } else if (!test_is_class(e, &SystemConfigGuid, -1) &&
                   !test_is_class(e, &PetwSymbolsGuid, -1) && ts > last_other) {
            last_other = ts;
        }
        if (test_is_class(e, &ProcessGuid, 4)) {
            CHECK_EQ(e->header.descriptor.version, 4);
            uint32_t pid = test_rd32(p + 8);
            if (pid == (uint32_t)live) {
                CHECK_EQ(test_rd32(p + 12), me); /* ParentId */
                live_end++;
            }
            gone_end += pid == (uint32_t)gone;
            my_end += pid == me;
        } else if (test_is_class(e, &ThreadGuid, 4)) {
            live_thread_end += test_rd32(p) == (uint32_t)live && test_rd32(p + 4) == (uint32_t)live;
        } else if (test_is_class(e, &ImageGuid, 4)) {
            live_images += test_rd32(p + 16) == (uint32_t)live;
        } else if (test_is_class(e, &SystemConfigGuid, 10)) {
            CHECK_EQ(e->header.descriptor.version, 2);
            CHECK_EQ(e->length, 808);
            CHECK_EQ(test_rd32(p + 4), (uint32_t)sysconf(_SC_NPROCESSORS_CONF));
            uint64_t mem = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
            CHECK_EQ(test_rd32(p + 8), (uint32_t)(mem >> 20)); /* MemSize, MiB */
            CHECK_EQ(test_rd32(p + 12), (uint32_t)sysconf(_SC_PAGESIZE));
            char host[256] = "", name[256];
            CHECK_EQ(gethostname(host, sizeof(host) - 1), 0);
            ascii_at(e, 20, 256, name, sizeof(name)); /* ComputerName */
            CHECK(strcmp(name, host) == 0);
            cpu++;
        } else if (test_is_class(e, &SystemConfigGuid, 11)) {
            CHECK_EQ(e->header.descriptor.version, 2);
            CHECK_EQ(e->length, 568);
            CHECK(test_rd32(p + 4) >= 512); /* BytesPerSector */
            char model[256];
            ascii_at(e, 40, 256, model, sizeof(model)); /* Manufacturer */
            CHECK(model[0] != 0);
            if (ndisks < 64)
                disks[ndisks++] = test_rd32(p);
            phydisk++;
        } else if (test_is_class(e, &SystemConfigGuid, 12)) {
            CHECK_EQ(e->header.descriptor.version, 2);
            CHECK_EQ(e->length, 112);
            char fs[32];
            ascii_at(e, 72, 16, fs, sizeof(fs));
            uint64_t total = test_rd64(p + 64), bytes = test_rd64(p + 8);
            uint32_t cluster = test_rd32(p + 44) * test_rd32(p + 48);
            if (have_root && strcmp(fs, root_fs) == 0 && total == root.f_blocks &&
                cluster == root.f_frsize) {
                CHECK(bytes >= total * cluster); /* the partition holds the file system */
                int on_disk = 0;
                for (int k = 0; k < ndisks; k++)
                    on_disk |= disks[k] == test_rd32(p + 16);
                CHECK(on_disk); /* DiskNumber names a PhyDisk (written before) */
                logdisk_root++;
            }
        }
    }
    printf("%zu events; DCEnd %d (live child: process %d, thread %d, images %d; ended child %d; "
           "this process %d); SystemConfig: CPU %d, PhyDisk %d (/sys: %d), LogDisk of / %d (%s)\n",
           l.count, dcend, live_end, live_thread_end, live_images, gone_end, my_end, cpu, phydisk,
           physical_disks(), logdisk_root, have_root ? root_fs : "not a block device");
    CHECK_EQ(live_end, 1); /* one: the restart wrote none */
    CHECK_EQ(live_thread_end, 1);
    CHECK(live_images >= 1);
    CHECK_EQ(gone_end, 0);
    CHECK_EQ(my_end, 1);
    CHECK(first_dcend >= last_other);
    CHECK_EQ(cpu, 1);
    CHECK_EQ(phydisk, physical_disks());
    if (have_root && phydisk > 0)
        CHECK_EQ(logdisk_root, 1);
    test_events_free(&l);
    remove(path);
    return 0;
}
