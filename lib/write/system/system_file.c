/* SPDX-License-Identifier: MIT */
/* system_file.c - file I/O (platform's petw__sys_files: a BPF program on
 * the file system calls) as the FileIo class, in Windows' version 3
 * layouts: each call an operation event at its start (Create, Read, Write,
 * Cleanup and Close, Flush, SetInfo, Delete, Rename) and an OperationEnd
 * at its return, matched by IrpPtr, with NtStatus and ExtraInfo (bytes
 * moved); the files named by FileName events keyed as Windows keys them,
 * by FileKey: FileCreate or Name when a call names a file, FileRundown
 * before the first operation on a file opened before the trace (its name
 * from /proc at the start, or from /proc when first seen in a process
 * that inherited it), FileDelete when it is deleted.
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 *
 * Identities: FileObject is the kernel's open file (struct file), FileKey
 * its inode (the file, across opens, as Windows' stream control block);
 * a call naming only a path (unlink, rename, truncate) uses the key last
 * named so, else a key made from the path (odd, so never a kernel address).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/classes/kernel_class.h"
#include "../../base/format/etl.h"
#include "../../base/platform/platform.h"
#include "system_internal.h"

#define KEY_SLOTS 65536u    /* files named: beyond, more FileRundown events */
#define FD_SLOTS 4096u      /* descriptors open at the start */
#define CWD_SLOTS 4096u     /* processes' working directories */
#define OBJECT_SLOTS 65536u /* open files seen: their inode when last seen */
#define PROBES 32u

typedef struct key_name {
    uint64_t key; /* 0: empty */
    uint64_t hash;
    char *name;
} key_name;

typedef struct fd_name {
    uint32_t pid; /* 0: empty */
    int32_t fd;
    char *name;
} fd_name;

typedef struct object_key {
    uint64_t file, inode; /* file 0: empty */
} object_key;

typedef struct pid_cwd {
    uint32_t pid; /* 0: empty */
    char *dir;
} pid_cwd;

struct petw__system_file {
    petw__system_emit_fn emit; /* the system provider's, with ctx */
    petw__system_lost_fn lost;
    void *ctx;
    uint32_t target_pid;
    pid_cwd *cwds;
    object_key *objects;
    petw__sys_files *src;
    uint64_t irp;
    key_name *keys;
    fd_name *fds;
    uint8_t payload[2 * 4096 + 256];
    char path[4096 + 1024];
};

static uint64_t hash_text(const char *t)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *t; t++)
        h = (h ^ (uint8_t)*t) * 0x100000001b3ull;
    return h;
}

static key_name *key_slot(petw__system_file *f, uint64_t key, int insert)
{
    uint64_t h = (key * 0x9E3779B97F4A7C15ull) >> 40;
    for (uint32_t k = 0; k < PROBES; k++) {
        key_name *e = &f->keys[(h + k) & (KEY_SLOTS - 1)];
        if (e->key == key)
            return e;
        if (!e->key)
            return insert ? e : NULL;
    }
    return NULL;
}

/* The key last named `name`, or 0. */
static uint64_t key_of_name(petw__system_file *f, const char *name)
{
    uint64_t h = hash_text(name);
    for (uint32_t k = 0; k < KEY_SLOTS; k++) /* rare: unlink, rename, truncate by path */
        if (f->keys[k].key && f->keys[k].hash == h && !strcmp(f->keys[k].name, name))
            return f->keys[k].key;
    return 0;
}

static fd_name *fd_slot(petw__system_file *f, uint32_t pid, int32_t fd, int insert)
{
    uint32_t h = (pid * 2654435761u) ^ ((uint32_t)fd * 40503u);
    for (uint32_t k = 0; k < PROBES; k++) {
        fd_name *e = &f->fds[(h + k) & (FD_SLOTS - 1)];
        if (e->pid == pid && e->fd == fd)
            return e;
        if (!e->pid)
            return insert ? e : NULL;
    }
    return NULL;
}

static void on_rundown_fd(void *ctx, uint32_t pid, int32_t fd, const char *path)
{
    petw__system_file *f = ctx;
    fd_name *e = fd_slot(f, pid, fd, 1);
    if (!e || e->pid)
        return;
    char *copy = strdup(path);
    if (!copy)
        return;
    *e = (fd_name){pid, fd, copy};
}

/* FileIo_Name (Name, FileCreate, FileDelete, FileRundown): FileObject (the
 * key, as Windows logs it), FileName. */
static void emit_name(petw__system_file *f, uint8_t opcode, uint32_t cpu, int64_t ns, uint64_t key,
                      const char *name)
{
    uint8_t *p = f->payload;
    petw__wr64(p, key);
    size_t units = petw__utf8_to_utf16le(name, p + 8, 4096);
    f->emit(f->ctx, cpu, PETW__HDR_PERFINFO64, PETW__HOOK(PETW__GROUP_FILE_IO, opcode),
            PETW__VERSION_FILE_IO, 0, 0, ns, p, 8 + 2 * ((uint32_t)units + 1));
}

/* Remembers `key`'s name; a new or changed one is told with `opcode`. */
static void name_key(petw__system_file *f, uint8_t opcode, uint32_t cpu, int64_t ns, uint64_t key,
                     const char *name)
{
    key_name *e = key_slot(f, key, 1);
    if (e && e->key && !strcmp(e->name, name))
        return;
    emit_name(f, opcode, cpu, ns, key, name);
    if (!e)
        return; /* full: named again at its next operation */
    char *copy = strdup(name);
    if (!copy)
        return;
    free(e->name);
    *e = (key_name){key, hash_text(name), copy};
}

/* `path` with its "." and ".." parts and doubled slashes resolved. */
static void normalize(char *path)
{
    char *out = path, *in = path;
    while (*in) {
        if (in[0] == '/' && (in[1] == '/' || (!in[1] && out > path))) {
            in++;
            continue;
        }
        if (in[0] == '/' && in[1] == '.' && (in[2] == '/' || !in[2])) {
            in += 2;
            continue;
        }
        if (in[0] == '/' && in[1] == '.' && in[2] == '.' && (in[3] == '/' || !in[3])) {
            while (out > path && *--out != '/')
                ;
            in += 3;
            continue;
        }
        *out++ = *in++;
    }
    if (out == path)
        *out++ = '/';
    *out = 0;
}

static pid_cwd *cwd_slot(petw__system_file *f, uint32_t pid, int insert)
{
    uint32_t h = pid * 2654435761u;
    for (uint32_t k = 0; k < PROBES; k++) {
        pid_cwd *e = &f->cwds[(h + k) & (CWD_SLOTS - 1)];
        if (e->pid == pid)
            return e;
        if (!e->pid)
            return insert ? e : NULL;
    }
    return insert ? &f->cwds[h & (CWD_SLOTS - 1)] : NULL; /* full: one forgotten */
}

static void cwd_set(petw__system_file *f, uint32_t pid, const char *dir)
{
    pid_cwd *e = cwd_slot(f, pid, 1);
    char *copy = strdup(dir);
    if (!copy)
        return;
    if (e->pid != pid)
        e->pid = pid;
    free(e->dir);
    e->dir = copy;
}

/* Process `pid`'s working directory: followed through its forks and
 * chdir calls, else read from /proc (NULL when it is gone). */
static const char *cwd_of(petw__system_file *f, uint32_t pid)
{
    pid_cwd *e = cwd_slot(f, pid, 0);
    if (e && e->dir)
        return e->dir;
    char dir[4096];
    if (petw__sys_fd_path(pid, PETW__SYSFILE_AT_CWD, dir, sizeof(dir)) != 0)
        return NULL;
    cwd_set(f, pid, dir);
    e = cwd_slot(f, pid, 0);
    return e ? e->dir : NULL;
}

/* `path` made absolute: relative to the directory descriptor `fd` of `pid`
 * (or its working directory). */
static const char *absolute(petw__system_file *f, uint32_t pid, int32_t fd, const char *path)
{
    if (!path)
        return "";
    char dir[4096];
    const char *base = NULL;
    if (path[0] != '/') {
        if (fd == PETW__SYSFILE_AT_CWD)
            base = cwd_of(f, pid);
        else if (petw__sys_fd_path(pid, fd, dir, sizeof(dir)) == 0)
            base = dir;
        if (!base)
            return path;
    }
    if (base)
        snprintf(f->path, sizeof(f->path), "%s/%s", base, path);
    else
        snprintf(f->path, sizeof(f->path), "%s", path);
    normalize(f->path);
    return f->path;
}

static object_key *object_slot(petw__system_file *f, uint64_t file)
{
    return &f->objects[((file * 0x9E3779B97F4A7C15ull) >> 40) & (OBJECT_SLOTS - 1)];
}

/* The key of descriptor `fd`'s file, named (FileRundown) when this open
 * file was not seen with it before: the kernel reuses the addresses of
 * freed inodes and files, so a key's name holds for the files it was seen
 * with (at their open, or here). */
static uint64_t key_for_fd(petw__system_file *f, const petw__sys_file_op *op)
{
    uint64_t key = op->inode;
    if (!key)
        return key;
    object_key *o = op->file ? object_slot(f, op->file) : NULL;
    if (o && o->file == op->file && o->inode == key && key_slot(f, key, 0))
        return key;
    if (o)
        *o = (object_key){op->file, key};
    fd_name *e = fd_slot(f, op->pid, op->fd, 0);
    if (!e) /* a descendant's, inherited from the command */
        e = fd_slot(f, f->target_pid, op->fd, 0);
    char now[4096];
    const char *name = e ? e->name : NULL;
    if (!name && petw__sys_fd_path(op->pid, op->fd, now, sizeof(now)) == 0)
        name = now;
    /* Not known (the process is gone): an empty name, rather than the one a
     * file that had this inode's address before was given. */
    name_key(f, PETW__OP_FILE_RUNDOWN, op->cpu, op->start_ns, key, name ? name : "");
    return key;
}

/* NTSTATUS for a call's -errno. */
static uint32_t ntstatus(int64_t result, uint32_t op)
{
    if (result >= 0)
        return op == PETW__SYSFILE_READ && result == 0 ? 0xC0000011u /* END_OF_FILE */ : 0;
    switch (-result) {
    case 2:                 /* ENOENT */
        return 0xC0000034u; /* OBJECT_NAME_NOT_FOUND */
    case 1:                 /* EPERM */
    case 13:                /* EACCES */
        return 0xC0000022u; /* ACCESS_DENIED */
    case 17:                /* EEXIST */
        return 0xC0000035u; /* OBJECT_NAME_COLLISION */
    case 9:                 /* EBADF */
        return 0xC0000008u; /* INVALID_HANDLE */
    case 28:                /* ENOSPC */
        return 0xC000007Fu; /* DISK_FULL */
    case 4:                 /* EINTR */
        return 0xC0000120u; /* CANCELLED */
    default:
        return 0xC0000001u; /* UNSUCCESSFUL */
    }
}

static void emit_end(petw__system_file *f, const petw__sys_file_op *op, uint64_t irp,
                     uint64_t extra)
{
    uint8_t *p = f->payload;
    petw__wr64(p + PETW__FILE_END_IRP, irp);
    petw__wr64(p + PETW__FILE_END_EXTRA, extra);
    petw__wr32(p + PETW__FILE_END_STATUS, ntstatus(op->result, op->op));
    f->emit(f->ctx, op->cpu, PETW__HDR_PERFINFO64,
            PETW__HOOK(PETW__GROUP_FILE_IO, PETW__OP_FILE_OP_END), PETW__VERSION_FILE_IO, op->pid,
            op->tid, op->end_ns, p, PETW__FILE_END_SIZE);
}

/* FileIo_SimpleOp v3 (Cleanup, Close, Flush): IrpPtr, FileObject, FileKey, TTID. */
static void emit_simple(petw__system_file *f, const petw__sys_file_op *op, uint8_t opcode,
                        uint64_t key, int64_t ns)
{
    uint8_t *p = f->payload;
    uint64_t irp = ++f->irp;
    petw__wr64(p, irp);
    petw__wr64(p + 8, op->file);
    petw__wr64(p + 16, key);
    petw__wr32(p + 24, op->tid);
    f->emit(f->ctx, op->cpu, PETW__HDR_PERFINFO64, PETW__HOOK(PETW__GROUP_FILE_IO, opcode),
            PETW__VERSION_FILE_IO, op->pid, op->tid, ns, p, 28);
    emit_end(f, op, irp, 0);
}

/* FileIo_Info v3 (SetInfo, Delete, Rename): IrpPtr, FileObject, FileKey,
 * ExtraInfo, TTID, InfoClass. */
static void emit_info(petw__system_file *f, const petw__sys_file_op *op, uint8_t opcode,
                      uint64_t object, uint64_t key, uint64_t extra, uint32_t info_class)
{
    uint8_t *p = f->payload;
    uint64_t irp = ++f->irp;
    petw__wr64(p, irp);
    petw__wr64(p + 8, object);
    petw__wr64(p + 16, key);
    petw__wr64(p + 24, extra);
    petw__wr32(p + 32, op->tid);
    petw__wr32(p + 36, info_class);
    f->emit(f->ctx, op->cpu, PETW__HDR_PERFINFO64, PETW__HOOK(PETW__GROUP_FILE_IO, opcode),
            PETW__VERSION_FILE_IO, op->pid, op->tid, op->start_ns, p, 40);
    emit_end(f, op, irp, 0);
}

/* The key a path call acts on: the one last named so, else one of its own
 * (named first). */
static uint64_t key_for_path(petw__system_file *f, const petw__sys_file_op *op, const char *name)
{
    uint64_t key = key_of_name(f, name);
    if (!key) {
        key = hash_text(name) | 1;
        name_key(f, PETW__OP_FILE_NAME, op->cpu, op->start_ns, key, name);
    }
    return key;
}

static void on_create(petw__system_file *f, const petw__sys_file_op *op)
{
    char name[4096];
    snprintf(name, sizeof(name), "%s", absolute(f, op->pid, op->fd, op->path));
    uint8_t *p = f->payload;
    uint64_t irp = ++f->irp;
    /* FileIo_Create v3: IrpPtr, FileObject, TTID, CreateOptions (the
     * disposition in the top byte), FileAttributes, ShareAccess, OpenPath. */
    uint32_t o = op->flags, disposition = 1; /* FILE_OPEN */
    if ((o & 0100) && (o & 0200))            /* O_CREAT | O_EXCL */
        disposition = 2;                     /* FILE_CREATE */
    else if ((o & 0100) && (o & 01000))      /* O_CREAT | O_TRUNC */
        disposition = 5;                     /* FILE_OVERWRITE_IF */
    else if (o & 0100)
        disposition = 3; /* FILE_OPEN_IF */
    else if (o & 01000)
        disposition = 4; /* FILE_OVERWRITE */
    petw__wr64(p, irp);
    petw__wr64(p + 8, op->result >= 0 ? op->file : 0);
    petw__wr32(p + 16, op->tid);
    petw__wr32(p + 20, disposition << 24 | ((o & 0200000) ? 1u : 0u)); /* FILE_DIRECTORY_FILE */
    petw__wr32(p + 24, 0x80);                                          /* NORMAL */
    petw__wr32(p + 28, 7); /* ShareAccess: read, write, delete (Linux locks nothing) */
    size_t units = petw__utf8_to_utf16le(name, p + 32, 4096);
    f->emit(f->ctx, op->cpu, PETW__HDR_PERFINFO64,
            PETW__HOOK(PETW__GROUP_FILE_IO, PETW__OP_FILE_CREATE), PETW__VERSION_FILE_IO, op->pid,
            op->tid, op->start_ns, p, 32 + 2 * ((uint32_t)units + 1));
    if (op->result >= 0 && op->file && op->inode)
        *object_slot(f, op->file) = (object_key){op->file, op->inode};
    if (op->result >= 0 && op->inode)
        name_key(f, (o & 0100) ? PETW__OP_FILE_FILE_CREATE : PETW__OP_FILE_NAME, op->cpu,
                 op->start_ns, op->inode, name);
    emit_end(f, op, irp, op->result >= 0 ? 1 : 0); /* FILE_OPENED */
}

/* FileIo_ReadWrite v3: Offset, IrpPtr, FileObject, FileKey, TTID, IoSize
 * (asked; the bytes moved are OperationEnd's ExtraInfo), IoFlags. */
static void on_read_write(petw__system_file *f, const petw__sys_file_op *op)
{
    uint64_t key = key_for_fd(f, op);
    uint8_t *p = f->payload;
    uint64_t irp = ++f->irp;
    uint64_t asked = op->size ? op->size : (op->result > 0 ? (uint64_t)op->result : 0);
    petw__wr64(p, op->offset);
    petw__wr64(p + 8, irp);
    petw__wr64(p + 16, op->file);
    petw__wr64(p + 24, key);
    petw__wr32(p + 32, op->tid);
    petw__wr32(p + 36, asked > UINT32_MAX ? UINT32_MAX : (uint32_t)asked);
    petw__wr32(p + 40, 0);
    uint8_t opcode = op->op == PETW__SYSFILE_READ ? PETW__OP_FILE_READ : PETW__OP_FILE_WRITE;
    f->emit(f->ctx, op->cpu, PETW__HDR_PERFINFO64, PETW__HOOK(PETW__GROUP_FILE_IO, opcode),
            PETW__VERSION_FILE_IO, op->pid, op->tid, op->start_ns, p, 44);
    emit_end(f, op, irp, op->result > 0 ? (uint64_t)op->result : 0);
}

/* truncate, ftruncate: SetInfo of the end of file. */
static void on_truncate(petw__system_file *f, const petw__sys_file_op *op)
{
    uint64_t key, object = op->file;
    if (op->path) {
        char name[4096];
        snprintf(name, sizeof(name), "%s", absolute(f, op->pid, op->fd, op->path));
        key = key_for_path(f, op, name);
        object = key;
    } else {
        key = key_for_fd(f, op);
    }
    emit_info(f, op, PETW__OP_FILE_SET_INFO, object, key, op->size,
              20); /* FileEndOfFileInformation */
}

/* unlink: Delete, and FileDelete when the name went. */
static void on_delete(petw__system_file *f, const petw__sys_file_op *op)
{
    char name[4096];
    snprintf(name, sizeof(name), "%s", absolute(f, op->pid, op->fd, op->path));
    uint64_t key = key_for_path(f, op, name);
    emit_info(f, op, PETW__OP_FILE_DELETE, key, key, 0, 13); /* FileDispositionInformation */
    if (op->result == 0) {
        emit_name(f, PETW__OP_FILE_FILE_DELETE, op->cpu, op->end_ns, key, name);
        key_name *e = key_slot(f, key, 0);
        if (e)
            e->hash = 0; /* the name no longer leads to it */
    }
}

/* rename: Rename, and the key's new name when it was renamed. */
static void on_rename(petw__system_file *f, const petw__sys_file_op *op)
{
    char name[4096];
    snprintf(name, sizeof(name), "%s", absolute(f, op->pid, op->fd, op->path));
    uint64_t key = key_for_path(f, op, name);
    emit_info(f, op, PETW__OP_FILE_RENAME, key, key, 0, 10); /* FileRenameInformation */
    if (op->result == 0 && op->path2) {
        /* renameat's second directory is not recorded: the first's stands in. */
        snprintf(name, sizeof(name), "%s", absolute(f, op->pid, op->fd, op->path2));
        name_key(f, PETW__OP_FILE_NAME, op->cpu, op->end_ns, key, name);
    }
}

/* chdir, fchdir: the process's directory, for the relative paths after. */
static void on_chdir(petw__system_file *f, const petw__sys_file_op *op)
{
    if (op->result == 0 && op->path) {
        cwd_set(f, op->pid, absolute(f, op->pid, PETW__SYSFILE_AT_CWD, op->path));
    } else if (op->result == 0) {
        key_name *e = op->inode ? key_slot(f, op->inode, 0) : NULL;
        char dir[4096];
        if (e && e->key)
            cwd_set(f, op->pid, e->name);
        else if (petw__sys_fd_path(op->pid, op->fd, dir, sizeof(dir)) == 0)
            cwd_set(f, op->pid, dir);
    }
}

/* A new process (its id in `fd`) starts in its parent's directory. */
static void on_fork(petw__system_file *f, const petw__sys_file_op *op)
{
    const char *dir = cwd_of(f, op->pid);
    if (dir) {
        char copy[4096];
        snprintf(copy, sizeof(copy), "%s", dir);
        cwd_set(f, (uint32_t)op->fd, copy);
    }
}

static void on_op(void *ctx, const petw__sys_file_op *op)
{
    petw__system_file *f = ctx;
    switch (op->op) {
    case PETW__SYSFILE_CREATE:
        on_create(f, op);
        break;
    case PETW__SYSFILE_READ:
    case PETW__SYSFILE_WRITE:
        on_read_write(f, op);
        break;
    case PETW__SYSFILE_CLOSE: {
        /* Windows: Cleanup when the handle closes, Close when the file
         * object goes; close() is both here. */
        uint64_t key = key_for_fd(f, op);
        emit_simple(f, op, PETW__OP_FILE_CLEANUP, key, op->start_ns);
        emit_simple(f, op, PETW__OP_FILE_CLOSE, key, op->end_ns);
        break;
    }
    case PETW__SYSFILE_FLUSH:
        emit_simple(f, op, PETW__OP_FILE_FLUSH, key_for_fd(f, op), op->start_ns);
        break;
    case PETW__SYSFILE_TRUNCATE:
        on_truncate(f, op);
        break;
    case PETW__SYSFILE_DELETE:
        on_delete(f, op);
        break;
    case PETW__SYSFILE_RENAME:
        on_rename(f, op);
        break;
    case PETW__SYSFILE_CHDIR:
        on_chdir(f, op);
        break;
    case PETW__SYSFILE_FORK:
        on_fork(f, op);
        break;
    default:
        break;
    }
}

int petw__system_file_start(petw__system_emit_fn emit, petw__system_lost_fn lost, void *ctx,
                            uint32_t target_pid, petw__system_file **out, char *why,
                            size_t why_size)
{
    *out = NULL;
    petw__system_file *f = calloc(1, sizeof(*f));
    if (!f)
        return PETW_ENOMEM;
    f->emit = emit;
    f->lost = lost;
    f->ctx = ctx;
    f->target_pid = target_pid;
    f->keys = calloc(KEY_SLOTS, sizeof(*f->keys));
    f->fds = calloc(FD_SLOTS, sizeof(*f->fds));
    f->cwds = calloc(CWD_SLOTS, sizeof(*f->cwds));
    f->objects = calloc(OBJECT_SLOTS, sizeof(*f->objects));
    int rc = f->keys && f->fds && f->cwds && f->objects ? 0 : PETW_ENOMEM;
    if (rc == 0)
        rc = petw__sys_files_open(target_pid, &f->src, why, why_size);
    if (rc != 0) {
        free(f->keys);
        free(f->fds);
        free(f->cwds);
        free(f->objects);
        free(f);
        return rc;
    }
    /* The files open now, by descriptor (named when first used), and the
     * command's working directory. */
    if (target_pid) {
        petw__sys_open_files(target_pid, on_rundown_fd, f);
        (void)cwd_of(f, target_pid);
    }
    *out = f;
    return 0;
}

void petw__system_file_read(petw__system_file *f)
{
    if (f)
        (void)petw__sys_files_read(f->src, on_op, f);
}

void petw__system_file_stop(petw__system_file *f)
{
    if (!f)
        return;
    uint64_t lost = petw__sys_files_drain(f->src, on_op, f);
    if (lost)
        f->lost(f->ctx, lost);
    petw__sys_files_close(f->src);
    for (uint32_t k = 0; k < KEY_SLOTS; k++)
        free(f->keys[k].name);
    for (uint32_t k = 0; k < FD_SLOTS; k++)
        free(f->fds[k].name);
    for (uint32_t k = 0; k < CWD_SLOTS; k++)
        free(f->cwds[k].dir);
    free(f->keys);
    free(f->fds);
    free(f->cwds);
    free(f->objects);
    free(f);
}
