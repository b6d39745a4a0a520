/* SPDX-License-Identifier: MIT */
/* platform_fileio.bpf.c - file I/O of the processes in scope, from the
 * syscall tracepoints: at a call's entry its arguments (the paths copied
 * from user memory, which the tracepoint does not dereference; the open
 * file and its position read from the task's descriptor table), at its
 * return one record (platform_fileio_bpf.h) into the ring buffer `events`.
 * The processes followed, and the task's descriptor table, are
 * platform_task.bpf.h's. */
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "platform_fileio_bpf.h"

struct file {
    long long f_pos;
    void *f_inode;
} __attribute__((preserve_access_index));
#include "platform_task.bpf.h"

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, __u64);
} counters SEC(".maps");

/* Calls in flight, by thread: the record so far, and the user addresses
 * of its paths, copied at the call's return (the kernel has then read
 * them, so their pages are present: at entry a page a fork left unmapped
 * would fail the copy). */
struct inflight_call {
    petw__file_bpf_record r;
    __u64 path, path2;
};

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 16384);
    __type(key, __u32);
    __type(value, struct inflight_call);
} inflight SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 1 << 23);
} events SEC(".maps");

static __always_inline void describe(petw__file_bpf_record *r, struct file *f)
{
    r->file = (__u64)(unsigned long)f;
    if (f) {
        r->offset = (__u64)BPF_CORE_READ(f, f_pos);
        r->inode = (__u64)(unsigned long)BPF_CORE_READ(f, f_inode);
    }
}

/* A call on descriptor args[fd_i]: `pos_i` >= 0 gives the offset
 * argument (pread), `size_i` >= 0 the size argument. */
static __always_inline int enter_fd(struct sys_enter *ctx, __u32 op, int pos_i, int size_i)
{
    __u64 id = bpf_get_current_pid_tgid();
    if (!in_scope(id >> 32))
        return 0;
    __u32 tid = (__u32)id;
    struct inflight_call c = {};
    c.r.op = op;
    c.r.pid = id >> 32;
    c.r.tid = tid;
    c.r.fd = (__s32)ctx->args[0];
    describe(&c.r, file_of(c.r.fd));
    if (pos_i >= 0)
        c.r.offset = ctx->args[pos_i];
    if (size_i >= 0)
        c.r.size = ctx->args[size_i];
    c.r.start_ns = bpf_ktime_get_ns();
    bpf_map_update_elem(&inflight, &tid, &c, BPF_ANY);
    return 0;
}

/* A call naming paths: args[path_i] (and args[path2_i] if >= 0), the
 * directory descriptor args[dfd_i] (-1: none), flags args[flags_i]. */
static __always_inline int enter_path(struct sys_enter *ctx, __u32 op, int dfd_i, int path_i,
                                      int path2_i, int flags_i, int size_i)
{
    __u64 id = bpf_get_current_pid_tgid();
    if (!in_scope(id >> 32))
        return 0;
    __u32 tid = (__u32)id;
    struct inflight_call c = {};
    c.r.op = op;
    c.r.pid = id >> 32;
    c.r.tid = tid;
    c.r.fd = dfd_i >= 0 ? (__s32)ctx->args[dfd_i] : -100;
    if (flags_i >= 0)
        c.r.flags = (__u32)ctx->args[flags_i];
    if (size_i >= 0)
        c.r.size = ctx->args[size_i];
    c.path = ctx->args[path_i];
    c.path2 = path2_i >= 0 ? ctx->args[path2_i] : 0;
    c.r.start_ns = bpf_ktime_get_ns();
    bpf_map_update_elem(&inflight, &tid, &c, BPF_ANY);
    return 0;
}

static __always_inline void lost(void)
{
    __u32 k = PETW__FILE_BPF_LOST;
    __u64 *n = bpf_map_lookup_elem(&counters, &k);
    if (n) /* orders nothing: a counter, read by user space after detaching */
        __sync_fetch_and_add(n, 1);
}

static __always_inline int leave(struct sys_exit *ctx)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    struct inflight_call *c = bpf_map_lookup_elem(&inflight, &tid);
    if (!c)
        return 0;
    if (!c->path) {
        petw__file_bpf_record *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
        if (r) {
            *r = c->r;
            r->end_ns = bpf_ktime_get_ns();
            r->ret = ctx->ret;
            r->cpu = bpf_get_smp_processor_id();
            bpf_ringbuf_submit(r, 0);
        } else {
            lost();
        }
        bpf_map_delete_elem(&inflight, &tid);
        return 0;
    }
    petw__file_bpf_path_record *p = bpf_ringbuf_reserve(&events, sizeof(*p), 0);
    if (p) {
        p->r = c->r;
        p->r.end_ns = bpf_ktime_get_ns();
        p->r.ret = ctx->ret;
        p->r.cpu = bpf_get_smp_processor_id();
        long n = bpf_probe_read_user_str(p->path, sizeof(p->path), (void *)c->path);
        p->r.path_size = n > 0 ? (__u32)n : 0;
        p->r.path2_size = 0;
        if (c->path2) {
            n = bpf_probe_read_user_str(p->path2, sizeof(p->path2), (void *)c->path2);
            p->r.path2_size = n > 0 ? (__u32)n : 0;
        }
        if (p->r.op == PETW__FILE_BPF_CREATE && ctx->ret >= 0) {
            p->r.offset = 0;
            describe(&p->r, file_of(ctx->ret));
        }
        bpf_ringbuf_submit(p, 0);
    } else {
        lost();
    }
    bpf_map_delete_elem(&inflight, &tid);
    return 0;
}

#define EXIT(name)                                                                                 \
    SEC("tracepoint/syscalls/sys_exit_" #name)                                                     \
    int exit_##name(struct sys_exit *ctx)                                                          \
    {                                                                                              \
        return leave(ctx);                                                                         \
    }
#define ENTER_FD(name, op, pos_i, size_i)                                                          \
    SEC("tracepoint/syscalls/sys_enter_" #name)                                                    \
    int enter_##name(struct sys_enter *ctx)                                                        \
    {                                                                                              \
        return enter_fd(ctx, op, pos_i, size_i);                                                   \
    }                                                                                              \
    EXIT(name)
#define ENTER_PATH(name, op, dfd_i, path_i, path2_i, flags_i, size_i)                              \
    SEC("tracepoint/syscalls/sys_enter_" #name)                                                    \
    int enter_##name(struct sys_enter *ctx)                                                        \
    {                                                                                              \
        return enter_path(ctx, op, dfd_i, path_i, path2_i, flags_i, size_i);                       \
    }                                                                                              \
    EXIT(name)

ENTER_PATH(openat, PETW__FILE_BPF_CREATE, 0, 1, -1, 2, -1)
ENTER_PATH(openat2, PETW__FILE_BPF_CREATE, 0, 1, -1, -1, -1)
ENTER_PATH(open, PETW__FILE_BPF_CREATE, -1, 0, -1, 1, -1)
ENTER_PATH(creat, PETW__FILE_BPF_CREATE, -1, 0, -1, -1, -1)
ENTER_FD(read, PETW__FILE_BPF_READ, -1, 2)
ENTER_FD(pread64, PETW__FILE_BPF_READ, 3, 2)
ENTER_FD(readv, PETW__FILE_BPF_READ, -1, -1)
ENTER_FD(preadv, PETW__FILE_BPF_READ, 3, -1)
ENTER_FD(preadv2, PETW__FILE_BPF_READ, 3, -1)
ENTER_FD(write, PETW__FILE_BPF_WRITE, -1, 2)
ENTER_FD(pwrite64, PETW__FILE_BPF_WRITE, 3, 2)
ENTER_FD(writev, PETW__FILE_BPF_WRITE, -1, -1)
ENTER_FD(pwritev, PETW__FILE_BPF_WRITE, 3, -1)
ENTER_FD(pwritev2, PETW__FILE_BPF_WRITE, 3, -1)
ENTER_FD(close, PETW__FILE_BPF_CLOSE, -1, -1)
ENTER_FD(fsync, PETW__FILE_BPF_FLUSH, -1, -1)
ENTER_FD(fdatasync, PETW__FILE_BPF_FLUSH, -1, -1)
ENTER_FD(ftruncate, PETW__FILE_BPF_TRUNCATE, -1, 1)
ENTER_PATH(truncate, PETW__FILE_BPF_TRUNCATE, -1, 0, -1, -1, 1)
ENTER_PATH(unlink, PETW__FILE_BPF_DELETE, -1, 0, -1, -1, -1)
ENTER_PATH(unlinkat, PETW__FILE_BPF_DELETE, 0, 1, -1, 2, -1)
ENTER_PATH(rmdir, PETW__FILE_BPF_DELETE, -1, 0, -1, -1, -1)
ENTER_PATH(rename, PETW__FILE_BPF_RENAME, -1, 0, 1, -1, -1)
ENTER_PATH(renameat, PETW__FILE_BPF_RENAME, 0, 1, 3, -1, -1)
ENTER_PATH(renameat2, PETW__FILE_BPF_RENAME, 0, 1, 3, 4, -1)
ENTER_PATH(chdir, PETW__FILE_BPF_CHDIR, -1, 0, -1, -1, -1)
ENTER_FD(fchdir, PETW__FILE_BPF_CHDIR, -1, -1)

/* Descendants: a process a followed one forks is followed (threads too:
 * their ids are harmless here), and its fork is a record (its working
 * directory is its parent's); a process's end forgets it. */
SEC("raw_tracepoint/sched_process_fork")
int on_fork(struct bpf_raw_tracepoint_args *ctx)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 parent = id >> 32;
    if (!in_scope(parent))
        return 0;
    struct task_struct *child = (struct task_struct *)ctx->args[1];
    __u32 pid = (__u32)BPF_CORE_READ(child, tgid);
    __u8 one = 1;
    if (bpf_map_lookup_elem(&scope, &parent))
        bpf_map_update_elem(&scope, &pid, &one, BPF_ANY);
    if (pid == parent)
        return 0;
    petw__file_bpf_record *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
    if (!r) {
        lost();
        return 0;
    }
    __builtin_memset(r, 0, sizeof(*r));
    r->op = PETW__FILE_BPF_FORK;
    r->pid = parent;
    r->tid = (__u32)id;
    r->fd = (__s32)pid;
    r->start_ns = r->end_ns = bpf_ktime_get_ns();
    r->cpu = bpf_get_smp_processor_id();
    bpf_ringbuf_submit(r, 0);
    return 0;
}

SEC("raw_tracepoint/sched_process_exit")
int on_exit(struct bpf_raw_tracepoint_args *ctx)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tid = (__u32)id, pid = id >> 32;
    bpf_map_delete_elem(&inflight, &tid);
    if (tid == pid)
        bpf_map_delete_elem(&scope, &pid);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
