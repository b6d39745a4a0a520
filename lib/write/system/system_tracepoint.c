/* SPDX-License-Identifier: MIT */
/* system_tracepoint.c - the tracepoints the system provider records:
 * which ones each class needs, their format files read into layouts, and
 * their raw records read at those offsets. platform/ opens them by id and
 * hands their samples over raw (petw__sys_record TRACEPOINT).
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 */
#include "system_tracepoint.h"

#include <stdlib.h>
#include <string.h>

static const char *const names[PETW__TP_COUNT] = {
    "sched/sched_waking",        "block/block_rq_issue",      "block/block_rq_complete",
    "sched/sched_switch",        "syscalls/sys_enter_mmap",   "syscalls/sys_exit_mmap",
    "syscalls/sys_enter_munmap", "syscalls/sys_exit_munmap",  "syscalls/sys_enter_brk",
    "syscalls/sys_exit_brk",     "syscalls/sys_enter_mremap", "syscalls/sys_exit_mremap",
    "sock/inet_sock_set_state",  "sock/sock_send_length",     "sock/sock_recv_length",
    "tcp/tcp_retransmit_skb"};

/* Tracepoints that are recorded all or none: a request's issue without its
 * completion, or a memory call's entry without its exit, says nothing. */
enum { GROUP_NONE, GROUP_DISK, GROUP_VM };

/* Notes field `word` of a format file at offset `at`, if it is one read;
 * `after_nr`: the field follows __syscall_nr (a syscall's argument). */
static void note_field(petw__system_tracepoint_layout *l, const char *word, int32_t at,
                       int after_nr)
{
    if (!strcmp(word, "pid"))
        l->pid = at;
    else if (!strcmp(word, "dev"))
        l->dev = at;
    else if (!strcmp(word, "sector"))
        l->sector = at;
    else if (!strcmp(word, "nr_sector"))
        l->nr_sector = at;
    else if (!strcmp(word, "rwbs"))
        l->rwbs = at;
    else if (after_nr && l->args < PETW__TP_VM_ARGS)
        l->arg[l->args++] = at;
    else if (!strcmp(word, "skaddr") || !strcmp(word, "sk"))
        l->sk = at;
    else if (!strcmp(word, "oldstate"))
        l->oldstate = at;
    else if (!strcmp(word, "newstate"))
        l->newstate = at;
    else if (!strcmp(word, "sport"))
        l->sport = at;
    else if (!strcmp(word, "dport"))
        l->dport = at;
    else if (!strcmp(word, "family"))
        l->family = at;
    else if (!strcmp(word, "protocol"))
        l->protocol = at;
    else if (!strcmp(word, "saddr"))
        l->saddr = at;
    else if (!strcmp(word, "daddr"))
        l->daddr = at;
    else if (!strcmp(word, "saddr_v6"))
        l->saddr_v6 = at;
    else if (!strcmp(word, "daddr_v6"))
        l->daddr_v6 = at;
    else if (!strcmp(word, "ret"))
        l->ret = at;
    else if (!strcmp(word, "flags"))
        l->flags = at;
}

void petw__system_tracepoint_parse(const char *format, petw__system_tracepoint_layout *l)
{
    *l = (petw__system_tracepoint_layout){.pid = -1,
                                          .dev = -1,
                                          .sector = -1,
                                          .nr_sector = -1,
                                          .rwbs = -1,
                                          .arg = {-1, -1, -1, -1, -1, -1},
                                          .args = 0,
                                          .sk = -1,
                                          .oldstate = -1,
                                          .newstate = -1,
                                          .sport = -1,
                                          .dport = -1,
                                          .family = -1,
                                          .protocol = -1,
                                          .saddr = -1,
                                          .daddr = -1,
                                          .saddr_v6 = -1,
                                          .daddr_v6 = -1,
                                          .ret = -1,
                                          .flags = -1};
    int after_nr = 0;
    char line[512];
    /* One line at a time: "\tfield:TYPE NAME[N];\toffset:O;\tsize:S;..." */
    for (const char *at = format; at && *at;) {
        size_t len = strcspn(at, "\n");
        size_t n = len < sizeof(line) - 1 ? len : sizeof(line) - 1;
        memcpy(line, at, n);
        line[n] = 0;
        at += len + (at[len] == '\n');
        char *field = strstr(line, "field:"), *semi = field ? strchr(field, ';') : NULL;
        char *off = strstr(line, "offset:");
        if (!field || !semi || !off)
            continue;
        *semi = 0;
        char *word = strrchr(field, ' ');
        word = word ? word + 1 : field + 6;
        word[strcspn(word, "[")] = 0;
        note_field(l, word, (int32_t)atoi(off + 7), after_nr);
        if (!strcmp(word, "__syscall_nr"))
            after_nr = 1;
    }
}

/* Asks tracepoints first..last when the kernel has every one of them,
 * their layouts read. */
static void ask(petw__system_tracepoints *t, int first, int last, int stacks, uint32_t group)
{
    char format[8192];
    uint64_t id[PETW__TP_COUNT];
    for (int k = first; k <= last; k++)
        if (petw__tracepoint_id(names[k], &id[k]) != 0 ||
            !petw__tracepoint_format(names[k], format, sizeof(format)))
            return;
    for (int k = first; k <= last; k++) {
        petw__tracepoint_format(names[k], format, sizeof(format));
        petw__system_tracepoint_parse(format, &t->layout[k]);
        t->which[t->asked_count] = k;
        t->asked[t->asked_count++] =
            (petw__sys_tracepoint){.id = id[k], .stacks = stacks, .group = group};
    }
}

void petw__system_tracepoints_ask(petw__system_tracepoints *t,
                                  const petw__system_tracepoint_want *want, petw__sys_config *sc)
{
    memset(t, 0, sizeof(*t));
    if (want->wakeups)
        ask(t, PETW__TP_WAKING, PETW__TP_WAKING, want->wakeup_stacks, GROUP_NONE);
    if (want->disk)
        ask(t, PETW__TP_ISSUE, PETW__TP_COMPLETE, 0, GROUP_DISK);
    if (want->switch_stacks)
        ask(t, PETW__TP_SWITCH, PETW__TP_SWITCH, 1, GROUP_NONE);
    if (want->vm)
        ask(t, PETW__TP_VM_FIRST, PETW__TP_VM_LAST, 0, GROUP_VM);
    for (int k = PETW__TP_SOCK_STATE; want->net && k <= PETW__TP_TCP_RETRANSMIT; k++)
        ask(t, k, k, 0, GROUP_NONE);
    sc->tracepoints = t->asked;
    sc->tracepoint_count = t->asked_count;
}

void petw__system_tracepoints_granted(petw__system_tracepoints *t, const petw__sys_info *info)
{
    int on[PETW__TP_COUNT] = {0};
    int vm_all = 1;
    for (uint32_t j = 0; j < t->asked_count; j++)
        on[t->which[j]] = (info->tracepoints_on >> j) & 1;
    for (int k = PETW__TP_VM_FIRST; k <= PETW__TP_VM_LAST; k++)
        vm_all &= on[k];
    t->wakeups = on[PETW__TP_WAKING];
    t->disk = on[PETW__TP_ISSUE] && on[PETW__TP_COMPLETE];
    t->switch_stacks = on[PETW__TP_SWITCH];
    t->vm = vm_all;
    t->net_states = on[PETW__TP_SOCK_STATE];
    t->net_bytes = on[PETW__TP_SOCK_SEND] && on[PETW__TP_SOCK_RECV];
    t->net_retransmits = on[PETW__TP_TCP_RETRANSMIT];
    t->net_bpf = info->net_bpf;
}

/* A sock or tcp tracepoint's raw record as a NET record (0: not one: a
 * field missing or out of bounds, another family or protocol, a failed
 * call, a peek). */
static int sock_record(petw__system_tracepoints *t, int k, const uint8_t *raw, uint32_t raw_size,
                       petw__sys_record *r)
{
    const petw__system_tracepoint_layout *l = &t->layout[k];
    petw__sys_net *n = &t->net;
    memset(n, 0, sizeof(*n));
#define OK(off, size) ((off) >= 0 && (uint32_t)(off) + (size) <= raw_size)
    if (!OK(l->sk, 8) || !OK(l->family, 2))
        return 0;
    n->sk = petw__ld64(raw + l->sk);
    n->family = petw__ld16(raw + l->family);
    n->protocol = OK(l->protocol, 2) ? petw__ld16(raw + l->protocol) : 6 /* tcp/: TCP's */;
    if ((n->family != 2 && n->family != 10) || (n->protocol != 6 && n->protocol != 17))
        return 0;
    if (k == PETW__TP_SOCK_SEND || k == PETW__TP_SOCK_RECV) {
        if (!OK(l->ret, 4))
            return 0;
        int32_t ret = (int32_t)petw__ld32(raw + l->ret);
        int32_t flags = OK(l->flags, 4) ? (int32_t)petw__ld32(raw + l->flags) : 0;
        if (ret <= 0 || (k == PETW__TP_SOCK_RECV && (flags & 2 /* MSG_PEEK */)))
            return 0; /* an error, nothing moved, or a look that leaves the bytes queued */
        if (n->protocol == 17 && t->net_bpf)
            return 0; /* the BPF program's (sendto, recvfrom, sendmsg, recvmsg), with endpoints */
        n->op = k == PETW__TP_SOCK_SEND ? PETW__SYS_NET_SEND : PETW__SYS_NET_RECV;
        n->bytes = (uint64_t)ret;
    } else {
        int v6 = n->family == 10;
        int32_t sa = v6 ? l->saddr_v6 : l->saddr, da = v6 ? l->daddr_v6 : l->daddr;
        uint32_t as = v6 ? 16 : 4;
        if (!OK(l->sport, 2) || !OK(l->dport, 2) || !OK(sa, as) || !OK(da, as))
            return 0;
        n->tuple = 1;
        n->sport = petw__ld16(raw + l->sport);
        n->dport = petw__ld16(raw + l->dport);
        memcpy(n->saddr, raw + sa, as);
        memcpy(n->daddr, raw + da, as);
        if (k == PETW__TP_SOCK_STATE) {
            if (!OK(l->oldstate, 4) || !OK(l->newstate, 4))
                return 0;
            n->op = PETW__SYS_NET_STATE;
            n->old_state = (int32_t)petw__ld32(raw + l->oldstate);
            n->new_state = (int32_t)petw__ld32(raw + l->newstate);
        } else {
            n->op = PETW__SYS_NET_RETRANSMIT;
        }
    }
#undef OK
    r->kind = PETW__SYSREC_NET;
    r->net = n;
    return 1;
}

int petw__system_tracepoints_decode(petw__system_tracepoints *t, const petw__sys_record *in,
                                    petw__sys_record *r)
{
    if (in->tracepoint >= t->asked_count)
        return 0;
    int k = t->which[in->tracepoint];
    const petw__system_tracepoint_layout *l = &t->layout[k];
    const uint8_t *raw = in->raw;
    uint32_t raw_size = in->raw_size;
    *r = *in;
    r->raw = NULL;
    r->raw_size = 0;
#define FIELD_OK(off, n) ((off) >= 0 && (uint32_t)(off) + (n) <= raw_size)
    if (k >= PETW__TP_VM_FIRST && k <= PETW__TP_VM_LAST) {
        int exit = (k - PETW__TP_VM_FIRST) & 1;
        r->kind = exit ? PETW__SYSREC_VM_EXIT : PETW__SYSREC_VM_ENTER;
        r->count = (uint64_t)(k - PETW__TP_VM_FIRST) / 2;
        for (uint32_t j = 0; j < l->args; j++)
            if (!FIELD_OK(l->arg[j], 8))
                return 0;
        if (exit) {
            if (!l->args)
                return 0;
            r->addr = petw__ld64(raw + l->arg[0]);
        }
        for (uint32_t j = 0; !exit && j < l->args; j++)
            r->args[j] = petw__ld64(raw + l->arg[j]);
    } else if (k >= PETW__TP_SOCK_STATE) {
        if (!sock_record(t, k, raw, raw_size, r))
            return 0;
    } else if (k == PETW__TP_SWITCH) {
        r->kind = PETW__SYSREC_SWITCH_STACK; /* the thread it fired in leaves the CPU */
    } else if (k == PETW__TP_WAKING) {
        if (!FIELD_OK(l->pid, 4))
            return 0;
        r->kind = PETW__SYSREC_WAKEUP;
        r->other_tid = petw__ld32(raw + l->pid);
    } else {
        if (!FIELD_OK(l->dev, 4) || !FIELD_OK(l->sector, 8) || !FIELD_OK(l->nr_sector, 4) ||
            !FIELD_OK(l->rwbs, 8))
            return 0;
        r->kind = k == PETW__TP_ISSUE ? PETW__SYSREC_DISK_ISSUE : PETW__SYSREC_DISK;
        r->pgoff = petw__ld32(raw + l->dev);
        r->addr = petw__ld64(raw + l->sector) * 512;
        r->len = (uint64_t)petw__ld32(raw + l->nr_sector) * 512;
        /* rwbs: R read, W write, F flush, D discard (then sync, meta...);
         * a request that moves no data (a flush before a write) is no read
         * or write. */
        const char *rwbs = (const char *)raw + l->rwbs;
        r->count = r->len == 0 || memchr(rwbs, 'D', 8) ? PETW__SYS_DISK_OTHER
                   : memchr(rwbs, 'R', 8)              ? PETW__SYS_DISK_READ
                   : memchr(rwbs, 'W', 8)              ? PETW__SYS_DISK_WRITE
                                                       : PETW__SYS_DISK_OTHER;
    }
#undef FIELD_OK
    return 1;
}
