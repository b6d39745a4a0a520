/* SPDX-License-Identifier: MIT */
/* tool_session_kernel.c - the kernel event groups of the session commands
 * (tool_session.h): the names --kernel and --stacks take (petw's, and
 * xperf's flags and groups), a profile's groups, their text, why a session
 * with kernel groups may be refused, and the "Kernel:" line with what the
 * system provider could not record. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tool.h"
#include "tool_session.h"

/* ---- kernel event groups ---- */

/* The names --kernel and --stacks take: petw's, then xperf's kernel flags
 * (PROC_THREAD, LOADER, DISK_IO...) and groups (SysProf, Latency) for what
 * they cover; a group that holds flags petw has no source for says so. */
static const struct {
    const char *name;
    uint32_t flags;
    const char *note; /* what of xperf's group is not recorded, or NULL */
} system_names[] = {
    {"process", PETW_SYSTEM_PROCESS, NULL},
    {"thread", PETW_SYSTEM_THREAD, NULL},
    {"image", PETW_SYSTEM_IMAGE_LOAD, NULL},
    {"cswitch", PETW_SYSTEM_CSWITCH, NULL},
    {"profile", PETW_SYSTEM_PROFILE, NULL},
    {"disk", PETW_SYSTEM_DISK_IO, NULL},
    {"dispatcher", PETW_SYSTEM_DISPATCHER, NULL},
    {"page_faults", PETW_SYSTEM_PAGE_FAULTS, NULL},
    {"hard_faults", PETW_SYSTEM_HARD_FAULTS, NULL},
    {"virt_alloc", PETW_SYSTEM_VIRTUAL_ALLOC, NULL},
    {"file", PETW_SYSTEM_FILE_IO, NULL},
    {"net", PETW_SYSTEM_NETWORK_TCPIP, NULL},
    {"all", PETW_SYSTEM_SUPPORTED & ~(PETW_SYSTEM_FILE_IO_INIT | PETW_SYSTEM_DISK_FILE_IO), NULL},
    {"proc_thread", PETW_SYSTEM_PROCESS | PETW_SYSTEM_THREAD, NULL},
    {"loader", PETW_SYSTEM_IMAGE_LOAD, NULL},
    {"disk_io", PETW_SYSTEM_DISK_IO, NULL},
    {"readythread", PETW_SYSTEM_DISPATCHER, NULL}, /* xperf's -stackwalk ReadyThread */
    {"all_faults", PETW_SYSTEM_PAGE_FAULTS, NULL}, /* xperf's name for every fault */
    /* petw's memory: the PageFault class whole (xperf's MEMORY, "memory
     * tracing", is another group: working sets, not these) */
    {"memory", PETW_SYSTEM_PAGE_FAULTS | PETW_SYSTEM_HARD_FAULTS | PETW_SYSTEM_VIRTUAL_ALLOC, NULL},
    {"file_io", PETW_SYSTEM_FILE_IO, NULL},
    {"file_io_init", PETW_SYSTEM_FILE_IO, NULL}, /* petw logs each operation at its start */
    {"disk_file_io", PETW_SYSTEM_DISK_IO | PETW_SYSTEM_FILE_IO, NULL},
    {"filename", PETW_SYSTEM_FILE_IO, NULL},
    {"networktrace", PETW_SYSTEM_NETWORK_TCPIP, NULL},
    {"sysprof",
     PETW_SYSTEM_PROCESS | PETW_SYSTEM_THREAD | PETW_SYSTEM_IMAGE_LOAD | PETW_SYSTEM_PROFILE,
     NULL}, /* PROC_THREAD+LOADER+PROFILE */
    {"latency",
     PETW_SYSTEM_PROCESS | PETW_SYSTEM_THREAD | PETW_SYSTEM_IMAGE_LOAD | PETW_SYSTEM_DISK_IO |
         PETW_SYSTEM_HARD_FAULTS | PETW_SYSTEM_CSWITCH | PETW_SYSTEM_PROFILE,
     "xperf's Latency group: PROC_THREAD, LOADER, DISK_IO, HARD_FAULTS, CSWITCH and PROFILE; "
     "its DPC and INTERRUPT are not recorded (no source yet)"},
};

/* xperf's kernel flags for classes petw does not record yet. */
static const char *const system_names_missing[] = {"registry", "dpc",   "interrupt", "syscall",
                                                   "alpc",     "power", "meminfo"};
#define SYSTEM_NAMES_OWN 12 /* the first 12 name one group each, in flag order for the text */

const char *system_flag_name(int i)
{
    return i >= 0 && i <= SYSTEM_NAMES_OWN ? system_names[i].name : NULL; /* and "all" */
}

#define SYSTEM_NAMES_COUNT (sizeof(system_names) / sizeof(system_names[0]))

/* The index in system_names of p[0, n), or -1 for a name petw does not
 * know, -2 for one of a class it does not record yet. */
static int system_name_find(const char *p, size_t n)
{
    char name[16];
    if (n >= sizeof(name))
        return -1;
    memcpy(name, p, n);
    name[n] = 0;
    for (size_t k = 0; k < SYSTEM_NAMES_COUNT; k++)
        if (!ascii_casecmp(name, system_names[k].name))
            return (int)k;
    for (size_t j = 0; j < sizeof(system_names_missing) / sizeof(system_names_missing[0]); j++)
        if (!ascii_casecmp(name, system_names_missing[j]))
            return -2;
    return -1;
}

int system_flags_parse(const char *option, const char *list, uint32_t *out)
{
    uint32_t flags = 0;
    const char *p = list;
    for (;;) {
        size_t n = strcspn(p, ",");
        int k = system_name_find(p, n);
        if (k == -2) {
            fprintf(stderr, "petw: %s: '%.*s': petw does not record that kernel class yet\n",
                    option, (int)n, p);
            return -1;
        }
        if (k < 0) {
            fprintf(stderr,
                    "petw: %s: unknown kernel event group '%.*s' in '%s' (process, thread, image, "
                    "cswitch, profile, disk, dispatcher, memory, file, net or all, separated by "
                    "commas)\n",
                    option, (int)n, p, list);
            return -1;
        }
        flags |= system_names[k].flags;
        if (system_names[k].note)
            fprintf(stderr, "petw: %s %s: %s\n", option, system_names[k].name,
                    system_names[k].note);
        if (!p[n])
            break;
        p += n + 1;
    }
    *out = flags;
    return 0;
}

/* The groups of a profile's `list` (names of system_names) petw records;
 * each it does not is a line on stderr. */
uint32_t profile_system_flags(const char *profile_name, const char *what, const char *list)
{
    uint32_t flags = 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        int k = system_name_find(p, n);
        if (k >= 0)
            flags |= system_names[k].flags;
        else
            fprintf(stderr, "petw: profile '%s': not supported yet, left out: %s %.*s\n",
                    profile_name, what, (int)n, p);
        p += n + (p[n] == ',');
    }
    return flags;
}

void system_flags_text(uint32_t flags, char *out, size_t size)
{
    size_t len = 0;
    out[0] = 0;
    for (int i = 0; i < SYSTEM_NAMES_OWN; i++)
        if (flags & system_names[i].flags) {
            int n = snprintf(out + len, size - len, "%s%s", len ? "," : "", system_names[i].name);
            if (n < 0 || (size_t)n >= size - len)
                return;
            len += (size_t)n;
        }
}

const char *kernel_refusal(int rc, uint32_t system_flags)
{
    if (!system_flags)
        return "";
    if (rc == PETW_ENOTSUP)
        return " (this system gives no kernel events: try without --kernel)";
    if (rc == PETW_EACCES)
        return " (kernel events of every process need root or CAP_PERFMON, or a lower "
               "kernel.perf_event_paranoid; `petw record --kernel-scope process` records "
               "only the command's)";
    return "";
}

/* Why the OS gave none of a tracepoint group: " (the OS gives no
 * <what>[: this user may not read tracefs])". */
static void print_no_tracepoints(const char *what, uint32_t limits)
{
    printf(" (the OS gives no %s%s)\n", what,
           limits & PETW_SYSTEM_LIMIT_TRACEPOINTS_DENIED
               ? ": this user may not read tracefs, tracepoints need root"
               : "");
}

void print_kernel_line(const petw_session_config *cfg, const petw_session_stats *st)
{
    char groups[128], stacks[128];
    if (!cfg->system_flags)
        return;
    /* What the session records (the OS may give less than was asked), and
     * the stacks of those groups only. */
    uint32_t recorded = st && st->enable_flags ? st->enable_flags : cfg->system_flags;
    uint32_t lim = st ? st->system_limits : 0;
    system_flags_text(recorded, groups, sizeof(groups));
    uint32_t stacked = cfg->system_stack_flags & recorded;
    if (lim & PETW_SYSTEM_LIMIT_NO_SWITCH_STACKS)
        stacked &= ~PETW_SYSTEM_CSWITCH; /* said below */
    system_flags_text(stacked, stacks, sizeof(stacks));
    printf("Kernel:            %s", groups);
    if (stacked)
        printf(" (stacks: %s)", stacks);
    if (cfg->system_target_pid)
        printf(" of process %" PRIu32 " and its descendants", cfg->system_target_pid);
    if (lim & PETW_SYSTEM_LIMIT_USER_ONLY)
        printf(" (user code only: the OS keeps kernel code from this user)");
    if (lim & PETW_SYSTEM_LIMIT_NO_SWITCH_STACKS)
        printf(" (no cswitch stacks: the OS gives no sched_switch tracepoint)");
    printf("\n");
    /* What of the groups asked the OS did not give: one line each. */
    if (lim & PETW_SYSTEM_LIMIT_NO_FAULTS)
        printf("Not recorded:      page_faults, hard_faults (the OS gives no page-fault "
               "events: perf's software events refused)\n");
    if (lim & PETW_SYSTEM_LIMIT_NO_VIRTUAL_ALLOC) {
        printf("Not recorded:      virt_alloc");
        print_no_tracepoints("syscalls:sys_enter/exit_mmap, munmap, brk, mremap tracepoints", lim);
    }
    if (lim & PETW_SYSTEM_LIMIT_NO_FAULT_TIMES)
        printf("Not recorded:      hard faults' durations (no page-fault start events)\n");
    if (lim & PETW_SYSTEM_LIMIT_NO_DISPATCHER) {
        printf("Not recorded:      dispatcher");
        print_no_tracepoints("sched:sched_waking tracepoint", lim);
    }
    if (lim & PETW_SYSTEM_LIMIT_NO_DISK_IO) {
        printf("Not recorded:      disk");
        print_no_tracepoints("block:block_rq_issue/complete tracepoints", lim);
    }
    if (lim & PETW_SYSTEM_LIMIT_NO_NETWORK) {
        printf("Not recorded:      net");
        print_no_tracepoints("sock:inet_sock_set_state, sock_send_length, sock_recv_length or "
                             "tcp:tcp_retransmit_skb tracepoint",
                             lim);
    }
    /* Any other group asked and not recorded, named all the same. */
    const uint32_t said =
        (lim & PETW_SYSTEM_LIMIT_NO_FAULTS ? PETW_SYSTEM_PAGE_FAULTS | PETW_SYSTEM_HARD_FAULTS
                                           : 0) |
        (lim & PETW_SYSTEM_LIMIT_NO_VIRTUAL_ALLOC ? PETW_SYSTEM_VIRTUAL_ALLOC : 0) |
        (lim & PETW_SYSTEM_LIMIT_NO_DISPATCHER ? PETW_SYSTEM_DISPATCHER : 0) |
        (lim & PETW_SYSTEM_LIMIT_NO_DISK_IO ? PETW_SYSTEM_DISK_IO : 0) |
        (lim & PETW_SYSTEM_LIMIT_NO_NETWORK ? PETW_SYSTEM_NETWORK_TCPIP : 0) |
        (lim & PETW_SYSTEM_LIMIT_NO_FILE_IO ? PETW_SYSTEM_FILE_IO : 0); /* on stderr below */
    uint32_t other = st && st->enable_flags ? cfg->system_flags & ~recorded & ~said : 0;
    system_flags_text(other, groups, sizeof(groups));
    if (groups[0])
        printf("Not recorded:      %s (not given by the OS to this session)\n", groups);
    if (lim & PETW_SYSTEM_LIMIT_NO_FILE_IO)
        fprintf(stderr, "petw: file I/O not recorded: it needs BPF (a build with libbpf, a kernel "
                        "with BPF ring buffers and BTF, root or CAP_BPF with CAP_PERFMON); the "
                        "rest is recorded\n");
    /* Network recorded in part: one line each for what is missing. */
    if (lim & PETW_SYSTEM_LIMIT_NET_NO_BYTES)
        fprintf(stderr,
                "petw: net: %sbytes sent and received not recorded (no "
                "sock_send_length/sock_recv_length tracepoints: Linux 6.3+%s)\n",
                lim & PETW_SYSTEM_LIMIT_NET_NO_UDP_ADDRESSES ? "" : "TCP ",
                lim & PETW_SYSTEM_LIMIT_NET_NO_UDP_ADDRESSES ? "; UDP's need BPF" : "");
    if (lim & PETW_SYSTEM_LIMIT_NET_NO_CONNECTIONS)
        fprintf(stderr, "petw: net: TCP connects, accepts, disconnects and addresses not "
                        "recorded (no inet_sock_set_state tracepoint)\n");
    if (lim & PETW_SYSTEM_LIMIT_NET_NO_RETRANSMITS)
        fprintf(stderr, "petw: net: TCP retransmits not recorded (no tcp_retransmit_skb "
                        "tracepoint)\n");
    if ((lim & PETW_SYSTEM_LIMIT_NET_NO_UDP_ADDRESSES) && !(lim & PETW_SYSTEM_LIMIT_NET_NO_BYTES))
        fprintf(stderr, "petw: net: UDP datagrams recorded without addresses and ports (no "
                        "tracepoint carries them; BPF needs root or CAP_BPF and CAP_PERFMON, "
                        "and a kernel with BTF)\n");
}
