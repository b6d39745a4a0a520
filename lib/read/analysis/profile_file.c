/* SPDX-License-Identifier: MIT */
/* profile_file.c - file I/O by file and process (the FileIo class: each
 * operation to its OperationEnd by IrpPtr; names by FileKey from the
 * FileName events, else by FileObject from Create's OpenPath), and DiskIo
 * by the file its FileObject (a FileKey) names, as WPA's "Disk Usage by
 * file" table attributes it.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 *
 * Memory grows with files, processes and operations in flight, never
 * with the operations counted: a row per (file, name then, process), the
 * names resolved at the end for operations that came before their file's
 * name (Windows logs FileRundown at the session's end).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/classes/kernel_class.h"
#include "analysis_internal.h"
#include "petw/consume.h"

#define PENDING_SLOTS 65536u /* operations in flight (a table of fixed size) */
#define PENDING_PROBES 64u   /* a full run: its first holder is counted unended */

typedef struct file_key {
    uint64_t key;     /* FileKey, or FileObject for names from Create */
    const char *name; /* latest name (interned), or NULL */
} file_key;

typedef struct file_row {
    uint32_t key;     /* index into keys, PETW__MAP_NONE: no file */
    const char *name; /* the name when counted; NULL: the key's at the end */
    uint32_t pid;
    uint64_t ops[PETW_FILE_OP_KINDS];
    uint64_t read_bytes, write_bytes, time_total, time_max;
    uint64_t disk_reads, disk_writes, disk_read_bytes, disk_write_bytes;
} file_row;

typedef struct pending_op {
    uint64_t irp; /* 0: free */
    uint64_t key; /* its file's key id (0: none) */
    int64_t start;
    uint32_t row, tid, pid;
    int kind;
    uint64_t asked, offset;
    const char *name;
} pending_op;

struct petw__profile_files {
    file_key *keys;
    uint32_t key_count, key_cap;
    petw__map key_by_id;
    petw__map object_key; /* FileObject -> key index (Create's OpenPath) */
    file_row *rows;
    uint32_t row_count, row_cap;
    petw__map row_by_hash;
    pending_op *pending; /* PENDING_SLOTS, by IrpPtr's hash */
    petw_profile_file *out;
    uint32_t out_count;
    uint64_t skipped, unended;
};

static petw__profile_files *files_of(petw_profile *p)
{
    if (!p->fileio && !(p->fileio = calloc(1, sizeof(*p->fileio))))
        p->error = PETW_ENOMEM;
    return p->fileio;
}

static uint32_t file_key_at(petw_profile *p, petw__profile_files *f, uint64_t id, int create)
{
    if (!id)
        return PETW__MAP_NONE;
    uint32_t k = petw__map_get(&f->key_by_id, id);
    if (k != PETW__MAP_NONE || !create)
        return k;
    if (petw__grow((void **)&f->keys, &f->key_cap, f->key_count + 1, sizeof(*f->keys)) ||
        petw__map_put(&f->key_by_id, id, f->key_count)) {
        p->error = PETW_ENOMEM;
        return PETW__MAP_NONE;
    }
    f->keys[f->key_count] = (file_key){id, NULL};
    return f->key_count++;
}

/* The row of (key, its name now, pid). */
static uint32_t row_index(petw_profile *p, petw__profile_files *f, uint32_t key, const char *name,
                          uint32_t pid)
{
    uint64_t h = petw__profile_hash_bytes(0xcbf29ce484222325ull, &key, 4);
    h = petw__profile_hash_bytes(h, &name, sizeof(name));
    h = petw__profile_hash_bytes(h, &pid, 4);
    for (;; h++) { /* collisions: the next hash, until the row matches */
        uint32_t r = petw__map_get(&f->row_by_hash, h);
        if (r == PETW__MAP_NONE)
            break;
        if (f->rows[r].key == key && f->rows[r].name == name && f->rows[r].pid == pid)
            return r;
    }
    if (petw__grow((void **)&f->rows, &f->row_cap, f->row_count + 1, sizeof(*f->rows)) ||
        petw__map_put(&f->row_by_hash, h, f->row_count)) {
        p->error = PETW_ENOMEM;
        return PETW__MAP_NONE;
    }
    memset(&f->rows[f->row_count], 0, sizeof(*f->rows));
    f->rows[f->row_count].key = key;
    f->rows[f->row_count].name = name;
    f->rows[f->row_count].pid = pid;
    return f->row_count++;
}

/* A UTF-16 name at `d + at` to the record's end (NUL-terminated, even
 * length): interned UTF-8, or NULL when malformed. */
static const char *name_at(petw_profile *p, const petw_event_record *r, uint32_t at)
{
    const uint8_t *d = r->user_data;
    uint32_t n = r->user_data_length;
    if (at > n)
        return NULL;
    uint32_t units = 0;
    while (at + 2 * units + 1 < n && (d[at + 2 * units] || d[at + 2 * units + 1]))
        units++;
    char text[4096];
    if (units >= 2048)
        units = 2047; /* longer names are cut */
    size_t len = petw__utf16le_to_utf8(d + at, units, text, sizeof(text));
    if (len >= sizeof(text))
        len = sizeof(text) - 1;
    text[len] = 0;
    return petw__profile_intern(p, text);
}

static uint32_t pid_of(petw_profile *p, uint32_t tid, uint32_t header_pid)
{
    uint32_t t = petw__map_get(&p->thread_by_tid, tid);
    if (t != PETW__MAP_NONE && p->threads[t].pid)
        return p->threads[t].pid;
    return header_pid;
}

static void count_op(petw_profile *p, petw__profile_files *f, const pending_op *op, int64_t end,
                     uint64_t moved, uint32_t status, int ended)
{
    if (op->row == PETW__MAP_NONE)
        return;
    file_row *row = &f->rows[op->row];
    row->ops[op->kind]++;
    /* Without its end, the size asked (WPA's IoSize), unless absurd. */
    uint64_t bytes = ended ? moved : op->asked < 0x80000000u ? op->asked : 0;
    if (!ended && op->asked >= 0x80000000u)
        f->skipped++;
    if (op->kind == PETW_FILE_OP_READ)
        row->read_bytes += bytes;
    else if (op->kind == PETW_FILE_OP_WRITE)
        row->write_bytes += bytes;
    if (ended && end >= op->start) {
        uint64_t d = (uint64_t)(end - op->start);
        row->time_total += d;
        if (d > row->time_max)
            row->time_max = d;
    }
    if (p->hooks->file_io) {
        petw_profile_file_io e;
        memset(&e, 0, sizeof(e));
        e.start = op->start;
        e.end = ended && end >= op->start ? end : op->start;
        e.pid = op->pid;
        e.tid = op->tid;
        e.kind = op->kind;
        e.name = op->name ? op->name : "";
        e.key = op->key;
        e.offset = op->offset;
        e.bytes = bytes;
        e.status = status;
        p->hooks->file_io(p->c.hooks_context, &e);
    }
}

/* An operation begins: kept until its OperationEnd. */
static void begin(petw_profile *p, petw__profile_files *f, const petw_event_record *r, uint64_t irp,
                  uint64_t key_id, uint64_t object, const char *hint, uint32_t tid, int kind,
                  uint64_t asked, uint64_t offset)
{
    int64_t t = r->header.timestamp;
    uint32_t pid = pid_of(p, tid, r->header.process_id);
    if (!petw__profile_pid_wanted(p, pid) || !petw__profile_in_time(p, t))
        return;
    uint32_t k = file_key_at(p, f, key_id, 1);
    if (k != PETW__MAP_NONE && !f->keys[k].name && object) {
        uint32_t o = petw__map_get(&f->object_key, object); /* Create's OpenPath */
        if (o != PETW__MAP_NONE && f->keys[o].name)
            f->keys[k].name = f->keys[o].name;
    }
    if (k == PETW__MAP_NONE && object)
        k = petw__map_get(&f->object_key, object);
    const char *name = k != PETW__MAP_NONE ? f->keys[k].name : hint;
    pending_op op = {irp,    k != PETW__MAP_NONE ? f->keys[k].key : 0,
                     t,      row_index(p, f, k, name, pid),
                     tid,    pid,
                     kind,   asked,
                     offset, name};
    if (p->error)
        return;
    if (!irp) {
        count_op(p, f, &op, t, asked, 0, 0);
        return;
    }
    if (!f->pending && !(f->pending = calloc(PENDING_SLOTS, sizeof(*f->pending)))) {
        p->error = PETW_ENOMEM;
        return;
    }
    uint64_t h = petw__mix(irp);
    pending_op *slot = NULL;
    for (uint32_t j = 0; j < PENDING_PROBES; j++) {
        pending_op *e = &f->pending[(h + j) & (PENDING_SLOTS - 1)];
        if (e->irp == irp) { /* an IrpPtr reused before its end */
            slot = e;
            break;
        }
        if (!e->irp && !slot)
            slot = e;
    }
    if (!slot)
        slot = &f->pending[h & (PENDING_SLOTS - 1)];
    if (slot->irp) { /* never ended, or too many in flight */
        count_op(p, f, slot, t, 0, 0, 0);
        f->unended++;
    }
    *slot = op;
}

static void end_op(petw_profile *p, petw__profile_files *f, const petw_event_record *r, int ptr4)
{
    uint32_t ps = ptr4 ? 4 : 8;
    const uint8_t *d = r->user_data;
    if (r->user_data_length < 2 * ps + 4) {
        f->skipped++;
        return;
    }
    uint64_t irp = ptr4 ? petw__rd32(d) : petw__rd64(d);
    uint64_t extra = ptr4 ? petw__rd32(d + ps) : petw__rd64(d + ps);
    uint32_t status = petw__rd32(d + 2 * ps);
    uint64_t h = petw__mix(irp);
    for (uint32_t k = 0; irp && f->pending && k < PENDING_PROBES; k++) {
        pending_op *op = &f->pending[(h + k) & (PENDING_SLOTS - 1)];
        if (op->irp == irp) {
            count_op(p, f, op, r->header.timestamp, status & 0x80000000u ? 0 : extra, status, 1);
            op->irp = 0;
            return;
        }
    }
    /* Not found: it began before the trace, or outside the filters. */
}

/* A record's pointer-sized field at offset AT (d and ptr4 in scope). */
#define PTR(at) (ptr4 ? (uint64_t)petw__rd32(d + (at)) : petw__rd64(d + (at)))

/* FileIo Name, FileCreate, FileDelete and FileRundown: a key's name. */
static void on_name(petw_profile *p, petw__profile_files *f, const petw_event_record *r, int opcode,
                    int ptr4)
{
    uint32_t ps = ptr4 ? 4 : 8, n = r->user_data_length;
    const uint8_t *d = r->user_data;
    if (n < ps + 2) {
        f->skipped++;
        return;
    }
    uint32_t k = file_key_at(p, f, PTR(PETW__FILE_NAME_KEY), 1);
    const char *name = name_at(p, r, PETW__FILE_NAME_TEXT(ps));
    if (k != PETW__MAP_NONE && name && (opcode != PETW__OP_FILE_FILE_DELETE || !f->keys[k].name))
        f->keys[k].name = name;
}

/* FileIo Create: the file object's name, and an open that begins. */
static void on_create(petw_profile *p, petw__profile_files *f, const petw_event_record *r, int ptr4)
{
    uint32_t ps = ptr4 ? 4 : 8, n = r->user_data_length;
    int v2 = r->header.descriptor.version < 3;
    const uint8_t *d = r->user_data;
    /* v2: IrpPtr, TTID (pointer), FileObject; v3: IrpPtr, FileObject, TTID (u32). */
    uint32_t path_at = v2 ? 3 * ps + 12 : PETW__FILE_CREATE_PATH(ps);
    if (n < path_at + 2) {
        f->skipped++;
        return;
    }
    uint64_t irp = PTR(PETW__FILE_CREATE_IRP);
    uint64_t object = v2 ? PTR(2 * ps) : PTR(PETW__FILE_CREATE_OBJECT(ps));
    uint32_t tid = v2 ? (uint32_t)PTR(ps) : petw__rd32(d + PETW__FILE_CREATE_TTID(ps));
    const char *name = name_at(p, r, path_at);
    if (object && name) {
        uint32_t k = file_key_at(p, f, object ^ 0x8000000000000000ull, 1);
        if (k != PETW__MAP_NONE) {
            f->keys[k].name = name;
            if (petw__map_put(&f->object_key, object, k))
                p->error = PETW_ENOMEM;
        }
    }
    /* A failed open has no file object: its row is its path's. */
    begin(p, f, r, irp, object && name ? object ^ 0x8000000000000000ull : 0, 0, name, tid,
          PETW_FILE_OP_CREATE, 0, 0);
}

/* FileIo Read and Write: an operation with its size and offset begins. */
static void on_read_write(petw_profile *p, petw__profile_files *f, const petw_event_record *r,
                          int opcode, int ptr4)
{
    uint32_t ps = ptr4 ? 4 : 8, n = r->user_data_length;
    int v2 = r->header.descriptor.version < 3;
    const uint8_t *d = r->user_data;
    /* v2: Offset, IrpPtr, TTID (pointer), FileObject, FileKey, IoSize, IoFlags. */
    uint32_t size_at = v2 ? 8 + 4 * ps : PETW__FILE_RW_SIZE(ps);
    if (n < size_at + 4) {
        f->skipped++;
        return;
    }
    uint64_t irp = PTR(PETW__FILE_RW_IRP);
    uint64_t object = v2 ? PTR(8 + 2 * ps) : PTR(PETW__FILE_RW_OBJECT(ps));
    uint64_t key = v2 ? PTR(8 + 3 * ps) : PTR(PETW__FILE_RW_KEY(ps));
    uint32_t tid = v2 ? (uint32_t)PTR(8 + ps) : petw__rd32(d + PETW__FILE_RW_TTID(ps));
    begin(p, f, r, irp, key, object, NULL, tid,
          opcode == PETW__OP_FILE_READ ? PETW_FILE_OP_READ : PETW_FILE_OP_WRITE,
          petw__rd32(d + size_at), petw__rd64(d + PETW__FILE_RW_OFFSET));
}

/* FileIo Cleanup, Close, Flush, the info operations and the directory
 * ones: an operation without bytes begins. */
static void on_op(petw_profile *p, petw__profile_files *f, const petw_event_record *r, int opcode,
                  int ptr4)
{
    uint32_t ps = ptr4 ? 4 : 8, n = r->user_data_length;
    int v2 = r->header.descriptor.version < 3;
    const uint8_t *d = r->user_data;
    /* v3: IrpPtr, FileObject, FileKey, [ExtraInfo,] TTID; v2: IrpPtr,
     * TTID (pointer), FileObject, FileKey. */
    int info = opcode == PETW__OP_FILE_SET_INFO || opcode == PETW__OP_FILE_DELETE ||
               opcode == PETW__OP_FILE_RENAME || opcode == PETW__OP_FILE_QUERY_INFO ||
               opcode == PETW__OP_FILE_FS_CONTROL;
    uint32_t need =
        v2 ? 4 * ps : (info ? PETW__FILE_INFO_TTID(ps) : PETW__FILE_SIMPLE_TTID(ps)) + 4;
    if (n < need) {
        f->skipped++;
        return;
    }
    uint64_t irp = PTR(PETW__FILE_OP_IRP);
    uint64_t object = v2 ? PTR(2 * ps) : PTR(PETW__FILE_OP_OBJECT(ps));
    uint64_t key = v2 ? PTR(3 * ps) : PTR(PETW__FILE_OP_KEY(ps));
    uint32_t tid =
        v2 ? (uint32_t)PTR(ps)
           : petw__rd32(d + (info ? PETW__FILE_INFO_TTID(ps) : PETW__FILE_SIMPLE_TTID(ps)));
    int kind = opcode == PETW__OP_FILE_CLEANUP  ? PETW_FILE_OP_CLEANUP
               : opcode == PETW__OP_FILE_CLOSE  ? PETW_FILE_OP_CLOSE
               : opcode == PETW__OP_FILE_FLUSH  ? PETW_FILE_OP_FLUSH
               : opcode == PETW__OP_FILE_DELETE ? PETW_FILE_OP_DELETE
               : opcode == PETW__OP_FILE_RENAME ? PETW_FILE_OP_RENAME
               : info                           ? PETW_FILE_OP_SETINFO
                                                : PETW_FILE_OP_OTHER;
    begin(p, f, r, irp, key, object, NULL, tid, kind, 0, 0);
}
#undef PTR

void petw__profile_on_file(petw_profile *p, const petw_event_record *r, int opcode, int ptr4)
{
    petw__profile_files *f = files_of(p);
    if (!f)
        return;
    switch (opcode) {
    case PETW__OP_FILE_NAME:
    case PETW__OP_FILE_FILE_CREATE:
    case PETW__OP_FILE_FILE_DELETE:
    case PETW__OP_FILE_RUNDOWN:
        on_name(p, f, r, opcode, ptr4);
        return;
    case PETW__OP_FILE_CREATE:
        on_create(p, f, r, ptr4);
        return;
    case PETW__OP_FILE_READ:
    case PETW__OP_FILE_WRITE:
        on_read_write(p, f, r, opcode, ptr4);
        return;
    case PETW__OP_FILE_CLEANUP:
    case PETW__OP_FILE_CLOSE:
    case PETW__OP_FILE_FLUSH:
    case PETW__OP_FILE_SET_INFO:
    case PETW__OP_FILE_DELETE:
    case PETW__OP_FILE_RENAME:
    case PETW__OP_FILE_QUERY_INFO:
    case PETW__OP_FILE_FS_CONTROL:
    case PETW__OP_FILE_DIR_ENUM:
    case PETW__OP_FILE_DIR_NOTIFY:
        on_op(p, f, r, opcode, ptr4);
        return;
    case PETW__OP_FILE_OP_END:
        end_op(p, f, r, ptr4);
        return;
    default:
        return;
    }
}

void petw__profile_on_disk_file(petw_profile *p, uint64_t key, uint32_t pid, int write,
                                uint64_t bytes)
{
    petw__profile_files *f = files_of(p);
    if (!f)
        return;
    uint32_t k = file_key_at(p, f, key, 1);
    uint32_t row = row_index(p, f, k, NULL, pid);
    if (row == PETW__MAP_NONE)
        return;
    file_row *e = &f->rows[row];
    if (write) {
        e->disk_writes++;
        e->disk_write_bytes += bytes;
    } else {
        e->disk_reads++;
        e->disk_read_bytes += bytes;
    }
}

void petw__profile_files_finish(petw_profile *p)
{
    petw__profile_files *f = p->fileio;
    if (!f)
        return;
    for (uint32_t k = 0; f->pending && k < PENDING_SLOTS; k++)
        if (f->pending[k].irp) {
            count_op(p, f, &f->pending[k], f->pending[k].start, 0, 0, 0);
            f->unended++;
            f->pending[k].irp = 0;
        }
    /* Rows by (name, pid): a name known only later (or a row without a
     * name) takes its key's last one. */
    petw__map by_name = {0};
    f->out = calloc(f->row_count ? f->row_count : 1, sizeof(*f->out));
    if (!f->out) {
        p->error = PETW_ENOMEM;
        return;
    }
    for (uint32_t k = 0; k < f->row_count; k++) {
        file_row *row = &f->rows[k];
        const char *name = row->name;
        if (!name && row->key != PETW__MAP_NONE)
            name = f->keys[row->key].name;
        if (!name)
            name = petw__profile_intern(p, "");
        uint64_t h = petw__profile_hash_bytes(0x84222325ull, &name, sizeof(name));
        h = petw__profile_hash_bytes(h, &row->pid, 4);
        uint32_t at;
        for (;; h++) {
            at = petw__map_get(&by_name, h);
            if (at == PETW__MAP_NONE || (f->out[at].name == name && f->out[at].pid == row->pid))
                break;
        }
        if (at == PETW__MAP_NONE) {
            at = f->out_count++;
            f->out[at].name = name;
            f->out[at].pid = row->pid;
            if (petw__map_put(&by_name, h, at)) {
                p->error = PETW_ENOMEM;
                break;
            }
        }
        petw_profile_file *o = &f->out[at];
        for (int j = 0; j < PETW_FILE_OP_KINDS; j++)
            o->ops[j] += row->ops[j];
        o->read_bytes += row->read_bytes;
        o->write_bytes += row->write_bytes;
        o->time_total += row->time_total;
        if (row->time_max > o->time_max)
            o->time_max = row->time_max;
        o->disk_reads += row->disk_reads;
        o->disk_writes += row->disk_writes;
        o->disk_read_bytes += row->disk_read_bytes;
        o->disk_write_bytes += row->disk_write_bytes;
    }
    petw__map_free(&by_name);
    free(f->pending);
    f->pending = NULL;
}

void petw__profile_files_free(petw_profile *p)
{
    petw__profile_files *f = p->fileio;
    if (!f)
        return;
    free(f->keys);
    free(f->rows);
    free(f->pending);
    free(f->out);
    petw__map_free(&f->key_by_id);
    petw__map_free(&f->object_key);
    petw__map_free(&f->row_by_hash);
    free(f);
    p->fileio = NULL;
}

uint32_t petw_profile_file_count(const petw_profile *p)
{
    return p && p->fileio ? p->fileio->out_count : 0;
}

const petw_profile_file *petw_profile_file_at(const petw_profile *p, uint32_t index)
{
    return p && p->fileio && index < p->fileio->out_count ? &p->fileio->out[index] : NULL;
}

const char *petw_profile_file_name(const petw_profile *p, uint64_t key)
{
    if (!p || !p->fileio || !key)
        return NULL;
    uint32_t k = petw__map_get(&p->fileio->key_by_id, key);
    return k == PETW__MAP_NONE ? NULL : p->fileio->keys[k].name;
}

uint64_t petw_profile_file_skipped(const petw_profile *p)
{
    return p && p->fileio ? p->fileio->skipped : 0;
}

uint64_t petw_profile_file_unended(const petw_profile *p)
{
    return p && p->fileio ? p->fileio->unended : 0;
}
