/* SPDX-License-Identifier: MIT */
/* platform_task.bpf.h - what the BPF programs that follow processes share
 * (platform_fileio.bpf.c, platform_net.bpf.c): the task's descriptor table
 * as CO-RE declares it (preserve_access_index: libbpf relocates the
 * offsets to the running kernel's, from its BTF), the syscall tracepoints'
 * records, the processes followed and the open file behind a descriptor.
 * A program declares its own `struct file`, with the fields it reads,
 * before it includes this.
 *
 * The scope: `scope` holds the process ids followed (the recorded command,
 * then every process one of them forks), or config[PETW__BPF_ALL] every
 * process but petw's own (config[PETW__BPF_SELF]); the loaders write them
 * (their PETW__FILE_BPF_ALL, PETW__NET_BPF_ALL are these indexes).
 * config[PETW__BPF_STOPPED], set when the session stops, puts every
 * process out of scope: detaching the programs can take seconds on a busy
 * machine, and what they would record meanwhile, after the session's end,
 * would only fill the ring and be counted as lost. Calls begun before it
 * still write their record at their return. */
#ifndef PETW_PLATFORM_TASK_BPF_H
#define PETW_PLATFORM_TASK_BPF_H

#define PETW__BPF_ALL 0
#define PETW__BPF_SELF 1
#define PETW__BPF_STOPPED 2

struct fdtable {
    unsigned int max_fds;
    struct file **fd;
} __attribute__((preserve_access_index));
struct files_struct {
    struct fdtable *fdt;
} __attribute__((preserve_access_index));
struct task_struct {
    int pid, tgid;
    struct files_struct *files;
} __attribute__((preserve_access_index));

/* The syscall tracepoints' records (the same everywhere: the common
 * fields, the syscall's number, then its arguments or its result). */
struct sys_enter {
    __u64 common;
    long nr;
    unsigned long args[6];
};
struct sys_exit {
    __u64 common;
    long nr;
    long ret;
};

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 65536);
    __type(key, __u32);
    __type(value, __u8);
} scope SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 3);
    __type(key, __u32);
    __type(value, __u32);
} config SEC(".maps");

static __always_inline __u32 config_of(__u32 k)
{
    __u32 *v = bpf_map_lookup_elem(&config, &k);
    return v ? *v : 0;
}

static __always_inline int in_scope(__u32 tgid)
{
    if (config_of(PETW__BPF_STOPPED))
        return 0;
    if (config_of(PETW__BPF_ALL))
        return config_of(PETW__BPF_SELF) != tgid;
    return bpf_map_lookup_elem(&scope, &tgid) != 0;
}

/* The open file behind descriptor `fd` of the current task, or 0. */
static __always_inline struct file *file_of(long fd)
{
    if (fd < 0)
        return 0;
    struct task_struct *t = (struct task_struct *)bpf_get_current_task();
    struct fdtable *fdt = BPF_CORE_READ(t, files, fdt);
    if (!fdt)
        return 0;
    unsigned int max = BPF_CORE_READ(fdt, max_fds);
    if ((unsigned long)fd >= max)
        return 0;
    struct file **fds = BPF_CORE_READ(fdt, fd);
    struct file *f = 0;
    bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
    return f;
}

#endif
