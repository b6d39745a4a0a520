/* SPDX-License-Identifier: MIT */
/* system_config.c - the system provider's SystemConfig events: the CPU,
 * the disks and the volumes, as the NT Kernel Logger writes them when it
 * stops.
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 */
#include <stdio.h>

/* system_state.h first: it includes <uv.h>, which on Windows wants
 * <winsock2.h> before <windows.h>. */
#include "system_state.h"

#include "../../base/format/etl.h"

/* ---- SystemConfig (version 2, 64-bit layouts): written at the end ---- */

/* A fixed-size UTF-16 array of `units` code units, zero-filled after the text. */
static void fixed_utf16(uint8_t *at, const char *text, size_t units)
{
    memset(at, 0, 2 * units);
    (void)petw__utf8_to_utf16le(text, at, units); /* NUL-terminated within `units` */
}

static void on_config_disk(void *ctx, const petw__sys_disk *d)
{
    petw__system *s = ctx;
    uint8_t *p = s->payload;
    memset(p, 0, 568);
    petw__wr32(p, d->number);
    petw__wr32(p + 4, d->sector_size);
    /* The geometry every LBA disk reports (63 sectors, 255 heads), so
     * Cylinders x 255 x 63 x BytesPerSector is the capacity as on Windows. */
    petw__wr32(p + 8, 63);
    petw__wr32(p + 12, 255);
    uint64_t per_cylinder = 63ull * 255 * (d->sector_size ? d->sector_size : 512);
    petw__wr64(p + 16, d->bytes / per_cylinder);
    for (int k = 0; k < 4; k++)
        petw__wr32(p + 24 + 4 * k, d->scsi[k]);
    fixed_utf16(p + 40, d->model, 256);
    petw__wr32(p + 552, d->partitions);
    p[556] = (uint8_t)d->write_cache;
    /* BootDriveLetter, Spare: Linux has no drive letters. */
    petw__system_emit(s, 0, PETW__HDR_SYSTEM64, HOOK_CONFIG(PHYDISK), PETW__VERSION_CONFIG, 0, 0,
                      petw__monotonic_ns(), p, 568);
}

static void on_config_volume(void *ctx, const petw__sys_volume *v)
{
    petw__system *s = ctx;
    uint8_t *p = s->payload;
    memset(p, 0, 112);
    petw__wr64(p, v->start);
    petw__wr64(p + 8, v->size);
    petw__wr32(p + 16, v->disk);
    petw__wr32(p + 24, v->partition ? 1 : 2); /* DriveType: a partition, or a volume */
    /* DriveLetterString: none on Linux. */
    petw__wr32(p + 40, v->partition);
    uint32_t sector = v->sector_size ? v->sector_size : 512;
    petw__wr32(p + 44, v->cluster_size / sector);
    petw__wr32(p + 48, sector);
    petw__wr64(p + 56, v->free_clusters);
    petw__wr64(p + 64, v->total_clusters);
    fixed_utf16(p + 72, v->fs, 16);
    petw__system_emit(s, 0, PETW__HDR_SYSTEM64, HOOK_CONFIG(LOGDISK), PETW__VERSION_CONFIG, 0, 0,
                      petw__monotonic_ns(), p, 112);
}

void petw__system_write_config(petw__system *s)
{
    petw__sys_machine m;
    if (petw__sys_machine_info(&m) == 0) {
        uint8_t *p = s->payload;
        memset(p, 0, 808);
        petw__wr32(p, m.mhz);
        petw__wr32(p + 4, m.cpus);
        petw__wr32(p + 8, m.mem_mb);
        petw__wr32(p + 12, m.page_size);
        petw__wr32(p + 16, m.page_size); /* AllocationGranularity: mmap's is the page */
        fixed_utf16(p + 20, m.host, 256);
        fixed_utf16(p + 532, m.domain, 134);
        petw__wr64(p + 800, m.smt_mask); /* HyperThreadingFlag */
        petw__system_emit(s, 0, PETW__HDR_SYSTEM64, HOOK_CONFIG(CPU), PETW__VERSION_CONFIG, 0, 0,
                          petw__monotonic_ns(), p, 808);
    }
    (void)petw__sys_disks(on_config_disk, on_config_volume, s);
}
