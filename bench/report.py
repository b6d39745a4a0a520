#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turns bench/run.sh's raw JSON lines into medians, ratios against the
targets, gnuplot plots and docs/benchmarks.md.

usage: report.py RAW.jsonl RESULTS.json BENCHMARKS.md PLOT_DIR MACHINE LTTNG NATIVE ROUNDS EVENTS
"""
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict

raw, results_path, md_path, plot_dir, machine, lttng_version, native, rounds, events = sys.argv[1:10]
rows = [json.loads(l) for l in open(raw) if l.strip()]


def med(contender, key, **match):
    vals = [r[key] for r in rows if r.get("contender") == contender and key in r
            and all(r.get(k) == v for k, v in match.items())]
    return statistics.median(vals) if vals else None


def producer_ns(c):
    """A producer's ns per event: the writing threads' CPU time where the
    benchmark measured it (what the loop costs while it runs, without the
    time other processes held its CPU), else the wall clock."""
    cpu = med(c, "cpu_ns_per_event")
    return cpu if cpu is not None else med(c, "ns_per_event")


ns = {c: producer_ns(c) for c in sorted({r["contender"] for r in rows if "ns_per_event" in r})}


def spread(c):
    """The lowest and highest repetition of a contender over every round."""
    cpu = any(r.get("contender") == c and "cpu_min_ns" in r for r in rows)
    k_lo, k_hi = ("cpu_min_ns", "cpu_max_ns") if cpu else ("min_ns", "max_ns")
    lo = [r[k_lo] for r in rows if r.get("contender") == c and k_lo in r]
    hi = [r[k_hi] for r in rows if r.get("contender") == c and k_hi in r]
    return (min(lo), max(hi)) if lo and hi else None
lat = {c: {q: med(c, q) for q in ("p50_ns", "p99_ns", "p999_ns", "mean_ns")}
       for c in sorted({r["contender"] for r in rows if "p50_ns" in r})}
rates = sorted({r["rate"] for r in rows if "loss_pct" in r and "rate" in r})
sustained = {}
for c in sorted({r["contender"] for r in rows if "loss_pct" in r and "rate" in r}):
    sustained[c] = {rate: {k: med(c, k, rate=rate) for k in
                           ("achieved", "loss_pct", "bytes_per_event", "compression")}
                    for rate in rates}


def loss_free(c):
    best = 0
    for rate in rates:
        s = sustained.get(c, {}).get(rate)
        if s and s["loss_pct"] is not None and s["loss_pct"] == 0 and s["achieved"] >= 0.98 * rate:
            best = rate
    return best


consume = med("petw-processtrace", "events_per_s")
dump = med("petw-dump-json", "events_per_s")
dump_man = med("petw-dump-json-manifest", "events_per_s")
big_rss = med("petw-processtrace-plain", "peak_rss_kb")
big_bytes = med("petw-processtrace-plain", "file_bytes")
big_rate = med("petw-processtrace-plain", "events_per_s")
info_rss = med("petw-info-big", "peak_rss_kb")
dump_rss = med("petw-dump-big", "peak_rss_kb")
perfetto_rate = med("petw-convert-perfetto", "events_per_s")
perfetto_rss = med("petw-convert-perfetto", "peak_rss_kb")
perfetto_bytes = med("petw-convert-perfetto", "file_bytes")


def ratio(a, b):
    return a / b if a is not None and b not in (None, 0) else None


def fmt(v, unit="", digits=2):
    return "n/a" if v is None else f"{v:.{digits}f}{unit}"


targets = []

# perf annotate of the write path, taken by hand (`perf record -e cpu-clock`
# of an EventWrite loop into a memory session; these VMs have no hardware counters, so the
# samples are timer ticks and land on the instruction after the one that stalled).
PERF_NOTE = """From `perf annotate` of `petw__event_write`, taken before its common path lost its
calls (the figures below are of that path; cpu-clock samples, 20 M events in bursts of
20,000 into a memory session of 48 x 1 MB buffers, the machine otherwise idle; the share of
its own samples, which were 93% of the process's):

```
 31.98 :  rdtsc ; shl $0x20,%rdx     the timestamp, after the reserve and the payload's
  2.03 :  or %rdx,%rax               copy (the sample lands after rdtsc)
  5.90 :  lock xadd ; mov %rdx,%rax  the commit
  4.82 :  mov 0x68(%rsp),%rax        the header's stores after the clock
  3.70 :  cmpq $0x0,(%rdx)           the sizing walk: a descriptor's pointer
  1.87 :  add %rsi,%rax              the sizing walk: its size (2.16 more on its loop)
  2.33 :  lock cmpxchg ; jne         the reserve
  1.58 :  mov %rax,0x0(%r13)         the copy walk
```

No other instruction holds more than 1.8%. Counting a recycled buffer's records (21% of
the samples at the previous measurement) is gone: the commits count them.

Removing one piece at a time from the path (a harness writing bursts of 20,000 events
into a file session, best of 200 bursts): 25.0 ns in all; without the clock read 20.5;
with CPU 0 instead of reading the CPU number 23.0; without the payload copy 22.6; without
the sizing walk 23.1. rdtsc alone has a throughput of 9.6 ns on these VMs, the baseline's
whole cost. Read after the payload's copy, which the CPU finishes while rdtsc's microcode
runs, it costs 0.6 ns less than right after the reserve. Read before the reserve, where
more work could overlap it, it saved 2 ns, but rdtsc is not ordered by loads: a thread that had just seen another's event
could stamp its own earlier (test_clock_cross_cpu failed 21 runs of 40). After the
reserve's locked instruction it costs no ordering of its own; `lfence; rdtsc` and
`rdtscp`, which order it anywhere, take 18.9 ns here.
"""


def target(name, petw, peer, r, goal, met):
    targets.append({"target": name, "petw": petw, "peer": peer, "ratio": r, "goal": goal,
                    "met": met})


base = ns.get("baseline-tsc")
pf, pm, lt = ns.get("petw-file"), ns.get("petw-memory"), ns.get("lttng")
# Enabled EventWrite into either kind of session, against the baseline and
# against LTTng-UST (the same payload and buffer geometry).
# floor-eventwrite, the least an EventWrite can do for this record, timed by
# bench_eventwrite in the same process, alternated with petw's contenders:
# the ratio is the median of every repetition's paired ratio (spread:
# their lowest and highest over all rounds).
fe_paired = ns.get("floor-eventwrite-paired")


def paired(key):
    vals = [r[key] for r in rows if r.get("contender") == "floor-eventwrite-paired" and key in r]
    lo = [r[key + "_min"] for r in rows if r.get("contender") == "floor-eventwrite-paired"
          and key + "_min" in r]
    hi = [r[key + "_max"] for r in rows if r.get("contender") == "floor-eventwrite-paired"
          and key + "_max" in r]
    if not vals:
        return None, None
    return statistics.median(vals), (min(lo), max(hi)) if lo and hi else None


def with_spread(v, sp):
    return fmt(v, "x") + (f" ({sp[0]:.2f}-{sp[1]:.2f})" if v is not None and sp else "")


for kind, v, key in (("file session", pf, "file_vs_floor"),
                     ("memory (buffering) session", pm, "memory_vs_floor")):
    rb, rl = ratio(v, base), ratio(lt, v)
    rf, sp = paired(key)
    target(f"enabled EventWrite, {kind}, vs floor-eventwrite (same run, paired)", fmt(v, " ns"),
           fmt(fe_paired, " ns (floor-eventwrite)"), with_spread(rf, sp), "<= 1.3x",
           rf is not None and rf <= 1.3)
    target(f"enabled EventWrite, {kind}, 1 thread, vs baseline", fmt(v, " ns"),
           fmt(base, " ns (baseline)"), fmt(rb, "x"), "reported", None)
    target(f"enabled EventWrite, {kind}, vs LTTng-UST", fmt(v, " ns"), fmt(lt, " ns (LTTng)"),
           fmt(rl, "x faster"), ">= 5x faster", rl is not None and rl >= 5)
rbf = ratio(pm, pf)
target("buffering (memory) session vs file session, 1 thread", fmt(pm, " ns"),
       fmt(pf, " ns (file)"), fmt(rbf, "x"), "<= 1.0x (as fast)", rbf is not None and rbf <= 1.0)
# Instructions per event (bench_instr under callgrind): the loop, the call
# and everything it runs, per event; no machine load changes them.
instr = {r["contender"][len("instr-"):]: r["instructions_per_event"] for r in rows
         if str(r.get("contender", "")).startswith("instr-") and "instructions_per_event" in r}
if instr:
    ie, ifl, itl = instr.get("petw-eventwrite"), instr.get("floor-eventwrite"), \
        instr.get("petw-tracelogging")
    target("EventWrite instructions per event vs floor-eventwrite (callgrind, memory session)",
           fmt(ie, "", 0), fmt(ifl, " (floor-eventwrite)", 0), fmt(ratio(ie, ifl), "x"),
           "reported", None)
    target("TraceLoggingWrite instructions per event vs EventWrite (callgrind)", fmt(itl, "", 0),
           fmt(ie, " (EventWrite)", 0), fmt(ratio(itl, ie), "x"), "reported", None)
tl = ns.get("petw-tracelogging")
rtl, sptl = paired("tracelogging_vs_eventwrite")
if rtl is None:
    rtl, sptl = ratio(tl, pm), None
target("TraceLoggingWrite vs EventWrite, same fields, memory session (paired)", fmt(tl, " ns"),
       fmt(pm, " ns (EventWrite)"), with_spread(rtl, sptl), "<= 1.25x",
       rtl is not None and rtl <= 1.25)
# The cross-process file session: bench_eventwrite runs it back to back with
# the in-process one in every round; the ratio is the median of the rounds'
# paired ratios. Losses would flatter it (a dropped event is cheap), so the
# target also needs every event of both in their files and none lost.
ps = ns.get("petw-file-shared")
r_shared = med("petw-file-shared", "ratio_to_inproc")
r_shared_after = med("petw-file-shared", "after_first_burst_ratio")
file_rows = {c: [r for r in rows if r.get("contender") == c and "written" in r]
             for c in ("petw-file", "petw-file-shared")}
lost_file = {c: sum(r["lost"] for r in v) for c, v in file_rows.items()}
unaccounted = {c: sum(r["written"] - r["in_file"] for r in v) for c, v in file_rows.items()}
burst = med("petw-file-shared", "burst")
if ps is not None:
    target("cross-process file session (host process) vs in-process, 1 thread",
           f"{fmt(ps, ' ns')} (lost {lost_file['petw-file-shared']})",
           f"{fmt(pf, ' ns')} (in-process, lost {lost_file['petw-file']})", fmt(r_shared, "x"),
           "<= 1.1x", r_shared is not None and r_shared <= 1.1 and not any(lost_file.values())
           and not any(unaccounted.values()))
d = ns.get("petw-disabled")
target("disabled EventWrite", fmt(d, " ns"), fmt(ns.get("lttng-disabled"), " ns (LTTng)"), "-",
       "<= 1 ns", d is not None and d <= 1.0)
r3, sp3 = paired("two_threads_vs_one")
if r3 is None:
    r3, sp3 = ratio(pm, ns.get("petw-memory-2t")), None
target("two threads vs one (aggregate throughput, each on its own CPU; paired)",
       fmt(ns.get("petw-memory-2t"), " ns agg."),
       fmt(ratio(lt, ns.get("lttng-2t")), "x (LTTng)"), with_spread(r3, sp3), ">= 1.9x",
       r3 is not None and r3 >= 1.9)
b999 = (lat.get("petw-memory-burst20") or {}).get("p999_ns")
target("EventWrite p99.9 in 20-event bursts (memory session)", fmt(b999, " ns", 1),
       fmt((lat.get("lttng") or {}).get("p999_ns"), " ns (LTTng, back to back)", 1), "-",
       "<= 150 ns", b999 is not None and b999 <= 150)
lf_p, lf_l = loss_free("petw-zstd"), loss_free("lttng")
r4 = ratio(lf_p, lf_l) if lf_l else None


def searched(c, pace="spin"):
    """bench/sustained_search.sh's loss-free rates of `c`, its writer pacing
    as `pace` says: {round: rate}."""
    return {r.get("round"): r["loss_free_search"] for r in rows
            if r.get("contender") == c and "loss_free_search" in r
            and r.get("pace", "spin") == pace}


def rate_spread(v):
    return f"{statistics.median(v)/1e6:.1f} M/s ({min(v)/1e6:.1f}-{max(v)/1e6:.1f})"


sp_, sl_ = searched("petw-zstd"), searched("lttng")
loads = [r["load1"] for r in rows if "loss_free_search" in r and "load1" in r
         and r.get("pace", "spin") == "spin"]
if sp_ and sl_:
    # The searched rates: medians and spread over rounds; the ratio is the
    # median of each round's own ratio (both searched in that round).
    per_round = [sp_[k] / sl_[k] for k in sp_ if k in sl_ and sl_[k]]
    r4 = statistics.median(per_round) if per_round else None
    target("loss-free sustained rate to file, zstd on (searched; load average "
           f"{statistics.median(loads):.1f})", rate_spread(list(sp_.values())),
           rate_spread(list(sl_.values())) + " (LTTng)",
           with_spread(r4, (min(per_round), max(per_round)) if per_round else None), ">= 2x",
           r4 is not None and r4 >= 2)
else:
    target("loss-free sustained rate to file, zstd on", f"{lf_p/1e6:.0f} M/s" if lf_p else "none",
           f"{lf_l/1e6:.0f} M/s (LTTng)" if lf_l else "none", fmt(r4, "x"), ">= 2x",
           r4 is not None and r4 >= 2)
# The same search, every writer sleeping between its batches instead of
# spinning (its CPU free while it waits, as an application not 100% busy).
sps, sls = searched("petw-zstd", "sleep"), searched("lttng", "sleep")
if sps and sls:
    pr_s = [sps[k] / sls[k] for k in sps if k in sls and sls[k]]
    r4s = statistics.median(pr_s) if pr_s else None
    loads_s = [r["load1"] for r in rows if "loss_free_search" in r and "load1" in r
               and r.get("pace") == "sleep"]
    target("the same, writers sleeping between batches (searched; load average "
           f"{statistics.median(loads_s):.1f})", rate_spread(list(sps.values())),
           rate_spread(list(sls.values())) + " (LTTng)",
           with_spread(r4s, (min(pr_s), max(pr_s)) if pr_s else None), ">= 2x",
           r4s is not None and r4s >= 2)
# The background's floor (bench_floor_flush): zstd level 1 and write() of the
# same buffers by one thread, as fast as one CPU goes; what petw's flusher
# and workers spend per event beside it, and the rate one CPU keeps up with
# against twice LTTng's searched rate.
floor_bg = [r["ns_per_event"] for r in rows if r.get("contender") == "floor-background"]
bg_all = [r["background_cpu_ns_per_event"] for r in rows
          if r.get("contender") == "petw-zstd" and "background_cpu_ns_per_event" in r]
f_ns = statistics.median(floor_bg) if floor_bg else None
bg_med = statistics.median(bg_all) if bg_all else None
if f_ns:
    target("background CPU per event, zstd level 1: petw's flusher vs the floor (bench_floor_flush)",
           fmt(bg_med, " ns"), fmt(f_ns, " ns (floor)"), fmt(ratio(bg_med, f_ns), "x"), "-", None)
    lt2 = 2 * statistics.median(list(sl_.values())) if sl_ else None
    target("one CPU's compression ceiling (1e9 / floor) vs 2x LTTng's searched loss-free rate",
           f"{1e3 / f_ns:.1f} M/s", f"{lt2 / 1e6:.1f} M/s (2x LTTng)" if lt2 else "n/a",
           fmt(ratio(1e9 / f_ns, lt2), "x"), "-", None)
comp = [sustained["petw-zstd"][r]["compression"] for r in rates
        if "petw-zstd" in sustained and sustained["petw-zstd"][r]["compression"]]
c_med = statistics.median(comp) if comp else None
target("compression of the benchmark's events", fmt(c_med, ":1"), "-", "-", ">= 5:1",
       c_med is not None and c_med >= 5)
bpe_p = [sustained["petw-zstd"][r]["bytes_per_event"] for r in rates if "petw-zstd" in sustained]
bpe_l = [sustained["lttng"][r]["bytes_per_event"] for r in rates if "lttng" in sustained]
bp = statistics.median([v for v in bpe_p if v]) if any(bpe_p) else None
bl = statistics.median([v for v in bpe_l if v]) if any(bpe_l) else None
target("bytes per event on disk", fmt(bp, " B"), fmt(bl, " B (LTTng)"), fmt(ratio(bl, bp), "x fewer"),
       "fewer than LTTng", bp is not None and bl is not None and bp < bl)
target("ProcessTrace on a compressed file", fmt(consume and consume / 1e6, " M ev/s"), "-", "-",
       ">= 20 M ev/s", consume is not None and consume >= 20e6)
target("petw dump --format json", fmt(dump and dump / 1e6, " M ev/s"), "-", "-", ">= 2 M ev/s",
       dump is not None and dump >= 2e6)
target("petw dump --format json, decoded by manifest", fmt(dump_man and dump_man / 1e6, " M ev/s"),
       "-", "-", ">= 2 M ev/s", dump_man is not None and dump_man >= 2e6)

target("reader peak RSS, 2 GB trace (ProcessTrace, info, dump)",
       fmt(max(v for v in (big_rss, info_rss, dump_rss) if v is not None) / 1024, " MB")
       if any(v is not None for v in (big_rss, info_rss, dump_rss)) else "-", "-", "-",
       "<= 100 MB", all(v is not None and v <= 100 * 1024 for v in (big_rss, info_rss, dump_rss)))

target("petw convert --to perfetto, kernel mix (CSwitch, ReadyThread, samples + stacks, "
       "Start/Stop)", fmt(perfetto_rate and perfetto_rate / 1e6, " M ev/s"), "-", "-",
       ">= 1 M ev/s", perfetto_rate is not None and perfetto_rate >= 1e6)
target("petw convert --to perfetto: peak RSS, "
       f"{fmt(perfetto_bytes and perfetto_bytes / 2**30, ' GiB')} trace",
       fmt(perfetto_rss and perfetto_rss / 1024, " MB"), "-", "-", "<= 100 MB",
       perfetto_rss is not None and perfetto_rss <= 100 * 1024)

# The system provider (kernel events): a CPU-bound workload under CPU
# samples at 1 kHz with stacks and every context switch, and context
# switches sustained without loss. No goal was set for them: reported.
k_ratio = med("petw-kernel-overhead", "ratio")
k_lost = med("petw-kernel-overhead", "events_lost")
k_cs = med("petw-kernel-sustained", "cswitch_per_s")
k_cs_lost = med("petw-kernel-sustained", "events_lost")
if k_ratio is not None:
    target("kernel session (profile 1 kHz + stacks + cswitch): CPU-bound workload",
           f"{fmt(med('petw-kernel-overhead', 'traced_ms'), ' ms')} (lost {k_lost})",
           fmt(med("petw-kernel-overhead", "baseline_ms"), " ms (untraced)"), fmt(k_ratio, "x"),
           "reported", None)
if k_cs is not None:
    target("kernel session: context switches sustained", f"{k_cs/1e3:.0f} k CSwitch/s (lost "
           f"{k_cs_lost})", "-", "-", "reported", None)

results = {"machine": machine, "lttng_ust": lttng_version, "rounds": int(rounds),
           "events": int(events), "ns_per_event": ns, "latency": lat,
           "sustained": {c: {str(k): v for k, v in s.items()} for c, s in sustained.items()},
           "loss_free_rate": {c: loss_free(c) for c in sustained},
           "processtrace_events_per_s": consume, "dump_json_events_per_s": dump,
           "dump_json_manifest_events_per_s": dump_man,
           "cross_process_file": {"ns_per_event": ps, "in_process_ns_per_event": pf,
                                  "ratio": r_shared, "after_first_burst_ratio": r_shared_after,
                                  "burst_events": burst, "events_lost": lost_file,
                                  "events_unaccounted": unaccounted},
           "perfetto": {"events_per_s": perfetto_rate, "peak_rss_kb": perfetto_rss,
                        "file_bytes": perfetto_bytes},
           "reader_peak_rss_kb": {"processtrace": big_rss, "info": info_rss, "dump": dump_rss,
                                  "file_bytes": big_bytes},
           "kernel": {"overhead_ratio": k_ratio, "overhead_events_lost": k_lost,
                      "cswitch_per_s": k_cs, "sustained_events_lost": k_cs_lost},
           "native_etw_harness_built": native == "yes", "targets": targets}
json.dump(results, open(results_path, "w"), indent=2)


# ---- plots (gnuplot, PNG) ----
def plot(name, script, data):
    dat = os.path.join(plot_dir, f"bench-{name}.dat")
    open(dat, "w").write(data)
    png = os.path.join(plot_dir, f"bench-{name}.png")
    gp = f'set terminal png size 900,480 font ",10"\nset output "{png}"\n' + script.replace("DATA", dat)
    try:
        subprocess.run(["gnuplot"], input=gp, text=True, check=True)
    finally:
        os.remove(dat)


producers = [c for c in ("baseline-tsc", "baseline-clock", "petw-memory", "petw-file",
                         "petw-file-shared", "lttng",
                         "petw-tracelogging", "petw-disabled", "lttng-disabled", "baseline-tsc-2t",
                         "petw-memory-2t", "lttng-2t") if ns.get(c) is not None]
plot("producers", """set title "ns per event (median; lower is better)"
set style data histograms
set style fill solid 0.8
set boxwidth 0.8
set ylabel "ns/event"
set xtics rotate by -30
set grid ytics
plot "DATA" using 2:xtic(1) notitle lc rgb "#3572b0"
""", "".join(f"{c} {ns[c]:.3f}\n" for c in producers))
if rates:
    data = ""
    cs = [c for c in ("petw-zstd", "petw", "lttng") if c in sustained]
    for rate in rates:
        data += f"{rate/1e6:g} " + " ".join(
            f"{sustained[c][rate]['loss_pct'] if sustained[c][rate]['loss_pct'] is not None else 'NaN'}"
            for c in cs) + "\n"
    plot("sustained", f"""set title "events lost while recording to a file at a paced rate"
set xlabel "offered rate (M events/s)"
set ylabel "events lost (%)"
set key top left
set grid
plot {", ".join(f'"DATA" using 1:{i+2} with linespoints lw 2 title "{c}"' for i, c in enumerate(cs))}
""", data)
    data = "".join(f"{c} {statistics.median([v['bytes_per_event'] for v in sustained[c].values() if v['bytes_per_event']]):.2f}\n"
                   for c in cs if any(v["bytes_per_event"] for v in sustained[c].values()))
    plot("bytes", """set title "bytes per event on disk (median over rates)"
set style data histograms
set style fill solid 0.8
set ylabel "bytes/event"
set grid ytics
set logscale y
plot "DATA" using 2:xtic(1) notitle lc rgb "#2a9d8f"
""", data)
if lat:
    data = "".join(f"{c} {v['p50_ns']} {v['p99_ns']} {v['p999_ns']}\n" for c, v in lat.items())
    plot("latency", """set title "cost of one call (ns; p50, p99, p99.9)"
set style data histograms
set style histogram cluster gap 1
set style fill solid 0.8
set ylabel "ns"
set grid ytics
plot "DATA" using 2:xtic(1) title "p50", "" using 3 title "p99", "" using 4 title "p99.9"
""", data)

# ---- docs/benchmarks.md ----
L = []
w = L.append
w("# petw benchmarks\n")
w("Generated by `bench/run.sh` (do not edit by hand: rerun it). Every figure is the median")
w(f"of {rounds} rounds of one run; within a round the contenders alternate, so a machine's")
w("drift over time hits all of them alike, and each producer (petw, the baseline,")
w("LTTng-UST) is itself the median of several runs in its process (`REPS`, 5 by default),")
w("so no figure is a process's first, cold run. The machines are shared 2-core VMs: read")
w("the ratios, not the absolute times, and read them beside the spread. Noise from outside")
w("the VM does not hit all contenders alike: when the VM's CPU is slowed, petw's write")
w("path, bound by the instructions it runs, slows by up to 1.7x while the baseline, bound")
w("by its TSC read, hardly moves, and every ratio to the baseline rises with it. The")
w("spread's minimum is the figure of a quiet machine. The producers' figures (ns per event,")
w("and the paired ratios) are the writing threads' CPU time (`CLOCK_THREAD_CPUTIME_ID`):")
w("other engineers' builds on the same 2 vCPUs preempt a loop for milliseconds, which the")
w("wall clock counts and CPU time does not; `raw.jsonl` keeps the wall-clock medians too.\n")
w(f"- Machine: {machine}")
if os.environ.get("PETW_BENCH_PARTIAL"):
    w(f"- Partial run: {os.environ['PETW_BENCH_PARTIAL']}.")
w(f"- Peer: LTTng-UST {lttng_version}, one channel of 8 x 1 MB sub-buffers, overwrite")
w("  (flight-recorder) mode for the producers, discard mode sustained,")
w("  `lttng-sessiond --daemonize --no-kernel`.")
w("- Payload everywhere: 4 x u64 + a 32-byte array (64 bytes); petw passes it in 5 data")
w("  descriptors. Baseline: read the TSC and copy the 64 bytes + an 8-byte timestamp into a")
w("  per-thread 1 MB ring.")
w(f"- Native ETW harness (`bench/bench_etw_native.c`, real advapi32 `EventWrite` into a real")
w(f"  `StartTrace` file session): cross-compiled with mingw-w64 here: **{native}**. It cannot")
w("  run on Linux; on Windows, run `bench_etw_native.exe` as administrator next to")
w("  `bench_eventwrite.exe` for petw vs native ETW.\n")
w("Reproduce: `bench/run.sh` (or `ROUNDS=5 bench/run.sh`). The raw data is")
w("`bench/results/raw.jsonl`; the medians are in `bench/results/results.json`.\n")
w("## Targets\n")
w("| target | petw | peer / reference | ratio | goal | met |")
w("|---|---|---|---|---|---|")
for t in targets:
    w(f"| {t['target']} | {t['petw']} | {t['peer']} | {t['ratio']} | {t['goal']} | {'-' if t['met'] is None else 'yes' if t['met'] else '**no**'} |")
w("")
w("## Producers: ns per event\n")
w("![producers](bench-producers.png)\n")
w("| contender | ns/event | vs baseline-tsc | spread (min-max of every repetition) |")
w("|---|---:|---:|---:|")
for c in producers:
    b = ns.get("baseline-tsc-2t") if c.endswith("-2t") else base
    sp = spread(c)
    w(f"| {c} | {ns[c]:.2f} | {fmt(ratio(ns[c], b), 'x')} | "
      + (f"{sp[0]:.2f}-{sp[1]:.2f}" if sp else "-") + " |")
w("\n`-2t`: two threads writing at once, each pinned to its own CPU (the one-thread runs to")
w("CPU 0), aggregate ns per event. `petw-tracelogging`:")
w("`TraceLoggingWrite` of the same 64 bytes (4 x UInt64 and a 32-byte fixed array) into a")
w("memory session; each event also carries its provider traits and event metadata.\n")
# Measured by hand (bench_eventwrite's petw-memory-cputime), kept as written.
w('CPU times in the event header (`petw-memory-cputime`, not in the table above: measured')
w("later, on its own): `petw-memory` with the provider enabled with petw's")
w("`PETW_EVENT_ENABLE_PROPERTY_CPU_TIME`, so that each event carries the writing thread's")
w("`KernelTime` and `UserTime` as Windows' do. That takes a `getrusage(RUSAGE_THREAD)`")
w('system call per event: `bench_eventwrite --events 200000 --reps 11` (debugoptimized build,')
w('2-vCPU virtual machine, noisy) gave 882.6 ns/event (fastest repetition 520.0) against')
w('61.2 (21.3) for `petw-memory` in the same run: +0.82 us at the median, +0.50 us at the')
w('fastest. A standalone loop on the same machine: `getrusage(RUSAGE_THREAD)` 415-654 ns,')
w('`clock_gettime(CLOCK_THREAD_CPUTIME_ID)` 890-1020 ns. No user-space path exists there: a')
w('self-monitoring task-clock perf event opens, but its page has `cap_user_time` 0 (the VM')
w('exports no stable TSC to it), so reading it is a `read()` per event too. Hence opt-in')
w("only; the default path's instructions are unchanged (`petw_event_write_ex` disassembles")
w('the same before and after).\n')
if ps is not None:
    w("`petw-file-shared`: the same EventWrite loop into the same file session, started by")
    w("`StartTrace` as a shared session: a session host process owns it, and the benchmark")
    w("process is only its provider, writing into the shared-memory per-CPU pool the host gives")
    w("it. Each round runs it back to back with the in-process `petw-file` (which goes first")
    w("alternates), timing starts once `EventEnabled` is true (the pool is mapped), and the")
    w("ratio is the median of the rounds' paired ratios. A provider process's pool holds 2")
    w("buffers per CPU + 4 (at most the session's 48) of 1 MB, so both write in bursts of")
    w(f"{fmt(burst, '', 0)} events that fit it, the session flushed between bursts (untimed); a larger")
    w("burst would depend on the host draining the pool meanwhile, and dropped events would")
    w("flatter the shared case.")
    w(f"Events lost (EventsLost at stop): in-process {lost_file['petw-file']}, shared"
      f" {lost_file['petw-file-shared']}; every event written is"
      + (" in its file." if not any(unaccounted.values()) else " **not** in its file."))
    if r_shared_after is not None:
        w(f"After each session's first burst the ratio is {fmt(r_shared_after, 'x')}: the first")
        w("burst also touches the shared pool's pages for the first time in this process, which")
        w("the in-process pool did when its session started.")
    w("")
floor = [c for c in ("floor-copy72", "floor-copy144", "floor-reserve", "floor-commit", "floor-both",
                      "floor-both-narrow", "floor-both-cold", "floor-eventwrite")
         if ns.get(c) is not None]
if floor:
    w("## Where an EventWrite's time goes\n")
    w("`bench_floor` grows the baseline's loop, one step at a time, into the shape of petw's")
    w("fast path, in one process (each the median of its runs, alternated): the TSC read, the")
    w("144-byte record (80-byte EVENT_HEADER + the 64-byte payload), the reserve's CAS on a")
    w("per-CPU word, the commit's atomic add on the buffer's control word, the record stored")
    w("field by field as `write_event` stores it, and a 48 MB ring whose lines all miss the")
    w("cache (a memory session's pool). Its last step, `floor-eventwrite`, is the least an")
    w("EventWrite can do to write that record: a call with a registration handle, an event")
    w("descriptor and the 5 data descriptors; the handle's slot and generation checked, the")
    w("session's level and keywords matched, the descriptors walked to size the record, the")
    w("CPU number read from the rseq area, the header's fields taken from the thread, the")
    w("process and the event, the payload copied through the descriptors. It has one session")
    w("and a ring that never fills (no buffer switch, loss count, padding or second session),")
    w("so it is what petw's EventWrite could cost at best on this machine.\n")
    w("| step | ns/event | vs baseline-tsc |")
    w("|---|---:|---:|")
    for c in floor + [c for c in ("petw-file", "petw-memory") if ns.get(c) is not None]:
        w(f"| {c} | {ns[c]:.2f} | {fmt(ratio(ns[c], base), 'x')} |")
    fb, fc = ns.get("floor-both-narrow"), ns.get("floor-both-cold")
    fe = ns.get("floor-eventwrite")
    w("")
    if fe is not None:
        w(f"`floor-eventwrite` costs {fmt(fe, ' ns')} here: {fmt(ratio(fe, fb), 'x')} the ring floor and "
          f"{fmt(ratio(fe, base), 'x')} the")
        w("baseline. The work any EventWrite does for this record does not fit in the shadow of")
        w("the TSC read that hides the floor's loop, so the targets compare petw's EventWrite with")
        w("`floor-eventwrite` itself, timed in the same process as petw's contenders")
        w("(`floor-eventwrite-paired`, alternated with them, each repetition's ratio paired).\n")
    if instr:
        w("Instructions per event (`bench_instr` under `valgrind --tool=callgrind`, the loop and")
        w("the call included; the same on any machine, at any load):\n")
        w("| contender | instructions per event |")
        w("|---|---:|")
        for c in ("floor-eventwrite", "petw-eventwrite", "petw-tracelogging"):
            if instr.get(c) is not None:
                w(f"| {c} | {instr[c]:.0f} |")
        w("")
        w("EventWrite's path makes no call before its commit when one session without a filter")
        w("enables the provider (the common case, decided at enable time): a call anywhere on it")
        w("had made the compiler keep every live value on the stack across it. Before that")
        w("change it ran 394 instructions per event in this loop, TraceLoggingWrite 555 (see")
        w("docs/design.md, \"The write path\").\n")
    w(PERF_NOTE)
w("## Latency of one call\n")
w("![latency](bench-latency.png)\n")
w("| contender | p50 | p99 | p99.9 | mean |")
w("|---|---:|---:|---:|---:|")
for c, v in lat.items():
    w(f"| {c} | {fmt(v['p50_ns'], ' ns', 1)} | {fmt(v['p99_ns'], ' ns', 1)} | {fmt(v['p999_ns'], ' ns', 1)} | {fmt(v['mean_ns'], ' ns', 1)} |")
w("\nMeasured with the TSC around each call (its own cost, ~10 ns here, is included).")
w("`-burst20`: calls in bursts of 20 with a 2 us pause between bursts, as Quill and NanoLog")
w("report theirs; the others back to back. The mean includes the rare preempted call the")
w("percentiles leave out.\n")
w("## Sustained recording to a file\n")
w("![loss](bench-sustained.png) ![bytes](bench-bytes.png)\n")
w("Each contender writes for one second at the offered rate into a file (petw: 64 KB x 128")
w("buffers, FlushTimer 100 ms; `petw-zstd` adds zstd level 1).\n")
w("| contender | rate (M/s) | achieved (M/s) | lost % | bytes/event | compression |")
w("|---|---:|---:|---:|---:|---:|")
for c in sustained:
    for rate in rates:
        s = sustained[c][rate]
        w(f"| {c} | {rate/1e6:g} | {fmt(s['achieved'] and s['achieved']/1e6)} | {fmt(s['loss_pct'], '', 3)} | {fmt(s['bytes_per_event'])} | {fmt(s['compression'])} |")
w("")
w("Loss-free rate (highest offered rate with no loss, achieved within 2%): " +
  ", ".join(f"{c} {loss_free(c)/1e6:g} M/s" for c in sustained) + ".\n")
if sp_ or sl_:
    w("Searched (bench/sustained_search.sh: a geometric bisection from 1 to 32 M/s, 1-second "
      "runs, each round; median and range over rounds, the load average when each search "
      f"began: {', '.join(f'{x:.1f}' for x in loads)}): " +
      ", ".join(f"{c} {rate_spread(list(v.values()))}" for c, v in
                (("petw-zstd", sp_), ("lttng", sl_)) if v) + ".\n")
bg = [r["background_cpu_ns_per_event"] for r in rows
      if r.get("contender") == "petw-zstd" and "background_cpu_ns_per_event" in r]
if bg:
    w(f"petw-zstd's flusher and compression workers used {statistics.median(bg):.0f} ns of CPU "
      f"per event (median over rates and rounds; {min(bg):.0f}-{max(bg):.0f}).\n")
bursts = sorted({(r["mode"], r["transport"]) for r in rows if r.get("contender") == "petw-burst"})
if bursts:
    w("## Bursts: what each mode keeps, on each transport\n")
    w("One writer writes a burst back to back (100-byte payloads) into a session of")
    w("MaximumBuffers 64 x 64 KB, in this process or through a session host (`bench_burst`).")
    w("`capacity` is the events the 64 buffers hold; sequential and real-time + file keep")
    w("the largest burst given with no loss (found by doubling, then bisection to 1%);")
    w("buffering never loses one and is given 20x its capacity, and the snapshot shows how")
    w("many of the newest it holds.\n")
    w("| mode | transport | capacity (events) | loss-free burst | burst / capacity | snapshot holds |")
    w("|---|---|---:|---:|---:|---:|")
    for mode, transport in bursts:
        m = dict(mode=mode, transport=transport)
        snap = med("petw-burst", "snapshot_events", **m)
        w(f"| {mode} | {transport} | {fmt(med('petw-burst', 'capacity_events', **m), '', 0)} | "
          f"{fmt(med('petw-burst', 'loss_free_burst', **m), '', 0)} | "
          f"{fmt(med('petw-burst', 'ratio', **m))}x | {fmt(snap, '', 0) if snap else '-'} |")
    w("")
w("## Consumers\n")
w(f"- `ProcessTrace` over a zstd-compressed file of 2 M events: {fmt(consume and consume/1e6, ' M events/s')}.")
w(f"- `petw dump --format json` of the same file to /dev/null: {fmt(dump and dump/1e6, ' M events/s')}.")
w(f"- Peak RSS over an uncompressed trace of {fmt(big_bytes and big_bytes / 2**30, ' GiB')}: "
  f"`ProcessTrace` {fmt(big_rss and big_rss / 1024, ' MB', 1)} (the writer's 16 MB pool included; "
  f"{fmt(big_rate and big_rate / 1e6, ' M events/s')}), `petw info` {fmt(info_rss and info_rss / 1024, ' MB', 1)}, "
  f"`petw dump --format json` {fmt(dump_rss and dump_rss / 1024, ' MB', 1)}. Readers stream: a file is "
  "scanned once (32 bytes kept per buffer) and each buffer is read again when the merge reaches it.\n")
tools = sorted({r["contender"] for r in rows if r.get("contender", "").startswith("petw-big-")})
profile_s = med("petw-report-profile", "seconds")
if profile_s is not None or tools:
    w("## Analysis tools\n")
    w("`bench_report.py` (docs/analysis.md, \"Cost\"): the median of each figure over the rounds,")
    w("with the fastest and slowest single run beside it.\n")
if profile_s is not None:
    spread = [r for r in rows if r.get("contender") == "petw-report-profile" and "seconds" in r]
    w(f"- `petw report cpu` with symbols, warm, on a {fmt(med('petw-report-profile', 'trace_seconds'), ' s', 0)} "
      f"recording of 2 threads at 1 kHz with ~30-frame stacks ({fmt(med('petw-report-profile', 'samples'), '', 0)} "
      f"samples, {fmt(med('petw-report-profile', 'file_bytes') / 2**20, ' MB', 1)}): "
      f"{fmt(profile_s, ' s')} ({fmt(min(r['seconds_min'] for r in spread), '')}-"
      f"{fmt(max(r['seconds_max'] for r in spread), ' s')}), peak RSS "
      f"{fmt(med('petw-report-profile', 'peak_rss_kb') / 1024, ' MB', 1)}; target < 2 s.\n")
elif any(r.get("contender") == "petw-report-profile" for r in rows):
    w("- The recorded profile was skipped: perf events are not allowed system-wide here.\n")
if tools:
    size = med(tools[0], "file_bytes")
    w(f"Each view and export over a generated profile of {fmt(size / 2**30, ' GiB')} "
      f"({fmt(med(tools[0], 'events') / 1e6, ' M', 1)} events: 30-frame stacks, 20,000 distinct):\n")
    w("| tool | seconds | M events/s | peak RSS |")
    w("|---|---|---|---|")
    for c in tools:
        rate = med(c, "events_per_s")
        w(f"| `{c[len('petw-big-'):].replace('-', ' ', 1)}` | {fmt(med(c, 'seconds'))} | "
          f"{fmt(rate and rate / 1e6)} | {fmt(med(c, 'peak_rss_kb') / 1024, ' MB', 1)} |")
    w("")
clickhouse = {k: [r for r in rows if r.get("contender") == "clickhouse-" + k]
              for k in ("export", "json", "export-model", "forward")}
if clickhouse["export"] and clickhouse["json"]:
    first = clickhouse["export"][0]
    w("## ClickHouse\n")
    w("`bench_clickhouse.py` (docs/clickhouse.md, \"Cost\"): gen_profile_trace's "
      f"{first['trace_mb']} MB profile ({first['events']:,} events) loaded into a local "
      f"ClickHouse {first['server']} server, {len(clickhouse['export'])} runs of each way "
      "interleaved (the tables dropped before each run): the median, with the fastest and "
      "slowest run beside it. The client's CPU is petw's, or `petw dump` and "
      "`clickhouse-client` together.\n")
    w("| load | wall | events/s | CPU: client | CPU: server |")
    w("|---|---|---|---|---|")
    names = {"export": "`petw export --no-model` (every column, Native blocks)",
             "json": "`petw dump --format json \\| clickhouse-client` (JSONEachRow, top-level "
                     "members only)",
             "export-model": "`petw export` (with the model's tables)"}
    walls = {}
    for k in ("export", "json", "export-model"):
        runs = clickhouse[k]
        if not runs:
            continue
        walls[k] = statistics.median(r["seconds"] for r in runs)
        w(f"| {names[k]} | {fmt(walls[k], ' s')} ({fmt(min(r['seconds'] for r in runs), '')}-"
          f"{fmt(max(r['seconds'] for r in runs), ' s')}) | "
          f"{fmt(runs[0]['events'] / walls[k], '', 0)} | "
          f"{fmt(statistics.median(r['client_cpu_s'] for r in runs), ' s')} | "
          f"{fmt(statistics.median(r['server_cpu_s'] for r in runs), ' s')} |")
    w("")
    w(f"Ratio of the medians, the JSON load's wall time over `petw export`'s: "
      f"**{fmt(walls['json'] / walls['export'], 'x')}** (above 1: petw export is the faster).\n")
for r in clickhouse["forward"]:
    w(f"`petw forward --spool` (a spool of {r.get('spool_gib', 1)} GiB) of a real-time session "
      f"(buffers {r['session_buffers']} of 64 KB) "
      f"that a provider process wrote at {fmt(r['achieved'] / 1e6, ' M events/s')} for "
      f"{fmt(r['seconds_written'], ' s', 0)} ({r['written']:,} events): "
      f"{r['landed']:,} landed ({r['distinct']:,} distinct identities), "
      f"{r['rt_lost_buffers']:,} buffers the session lost for the forwarder, "
      f"{r['spool_dropped']:,} events the spool could not hold; everything delivered "
      f"{fmt(r['seconds'], ' s', 1)} after the writer started "
      f"({fmt(r['events_per_s'] / 1e6, ' M events/s')} end to end; the server's CPU "
      f"{fmt(r['server_cpu_s'], ' s', 1)}).\n")

io = [c for c in ("io-untraced", "io-petw", "io-petw-64k", "io-perf")
      if any(r.get("contender") == c for r in rows)]
if io:
    first = next(r for r in rows if r.get("contender") == io[0])
    w("## Recording file I/O\n")
    w("`bench/bench_io_overhead.py` (run.sh's part `io`, root): `bench/io_workload` makes "
      f"{first['iters']:,} rounds of a 64-byte `pwrite` and `pread` on a file and, every eighth "
      f"round, a 64-byte echo over loopback TCP ({first['calls']:,} system calls), untraced, "
      f"under `petw record --kernel {first['classes']} --kernel-scope process` (1 MB buffers, "
      "16 to 64 of them; and with the default 64 KB ones: `petw-64k`) and under `perf record "
      "-e` of the same calls' syscall tracepoints (enter and exit), alternated, "
      f"{first['runs']} runs each per round. The workload's own loop time: the median over "
      "the rounds' medians, the fastest and slowest run, the slowdown against untraced, and "
      "the events each recorder lost (petw's summary; perf's LOST records), summed.\n")
    w("| recorder | median s | min s | max s | slowdown | calls/s | events lost |")
    w("|---|---:|---:|---:|---:|---:|---:|")
    for c in io:
        got = [r for r in rows if r.get("contender") == c]
        w(f"| {c[3:]} | {fmt(med(c, 'median_s'), '', 3)} | "
          f"{fmt(min(r['min_s'] for r in got), '', 3)} | {fmt(max(r['max_s'] for r in got), '', 3)} | "
          f"{fmt(med(c, 'slowdown'))}x | {fmt(med(c, 'calls_per_s'), '', 0)} | "
          f"{sum(r['lost'] for r in got)} |")
    w("")
w("## What stands in the way of the targets not met\n")
w("From `perf record` and `perf annotate` of `write_event` on this machine (see the notes in")
w("docs/design.md):\n")
w("- **EventWrite vs floor-eventwrite.** What petw's EventWrite does beyond the minimum is")
w("  what the minimum leaves out: the read span's registration check, the choice between the")
w("  common path and the general one, the ring's generation and capacity, the record's")
w("  padding, the write-prefetch, the clock's kind, the buffer's control word; see the")
w("  instruction counts above. The in-process file session varies most from repetition to")
w("  repetition (see its spread): its flusher, a thread of the same process on the other")
w("  CPU, seals and writes the buffer the writer takes next (the free stack is LIFO), so the")
w("  writer's stores can find those lines in the other CPU's cache; the cross-process")
w("  session, whose host does that work, and the memory session vary far less.")
w("- **Memory (buffering) sessions.** A memory session keeps recycling its whole pool")
w("  (48 x 1 MB here), so every record lands in a line untouched for 48 MB of events: the")
w("  stores miss the cache, and the commit's locked add waits for them (three quarters of")
w("  `write_event`'s samples before the write-prefetch 1 KB ahead, which hides part of it).")
w("  A file session reuses the buffer the flusher has just written (the free stack is LIFO),")
w("  which is still in cache. The records of a recycled buffer, which a memory session")
w("  reports as overwritten, are counted by the commits (the buffer's control word), so")
w("  recycling no longer walks the buffer; the two sessions now cost the same.")
w("- **Two threads.** Each thread is pinned to its own CPU and writes its own CPU's buffer;")
w("  the lines written on the hot path (the CPU word, the buffer's control word, the record)")
w("  are each that CPU's, the dispatch list and the ring's fields are only read. What the")
w("  two still share is the machine's memory bandwidth (both stream into a cold pool) and,")
w("  on these VMs, two vCPUs that other work also runs on.")
w("- **TraceLoggingWrite.** Each event carries its provider traits and event metadata (here")
w("  about 60 bytes: the event and field names and types) as Windows' TraceLogging writes")
w("  them. Every ETL reader (TDH, TraceEvent, WPA, tracerpt) decodes a TraceLogging event")
w("  from the metadata in that event, so sending it once per buffer or session would make")
w("  petw's files unreadable to them: the copy stays, and the target measures its cost. Both")
w("  items are built before the event, the schema's by the compiler once per event site (the")
w("  macro's static struct is the whole extended item), the traits' when the dispatch list")
w("  is; the writer copies them as they are. The rest is the macro's inline check and the")
w("  five descriptors it builds per call.")
w("- **EventWrite vs LTTng-UST.** LTTng-UST stamps its events with the kernel's clock")
w("  through the vDSO, which with the `tsc` clocksource costs about what rdtsc does, and")
w("  with `kvm-clock` much more; petw reads the TSC. On this machine even the least an")
fe_l = ratio(lt, fe_paired)
w(f"  EventWrite can do (`floor-eventwrite-paired`, {fmt(fe_paired, ' ns')}) is only {fmt(fe_l, 'x')}")
w("  faster than LTTng's tracepoint, so 5x is below that minimum here, whatever petw does.")
w("- **Loss-free recording with zstd.** Where the background's CPU went (perf, 2 vCPUs, the")
w("  flusher handing every buffer to one worker per CPU, 65-85 ns per event): zstd 71%, the")
w("  kernel 20% (nearly all context switches and wake-ups: about one per 64 KB buffer; the")
w("  write() of ~4.5 bytes per event is 1%), petw's sealing and flusher loop 5%, libc and")
w("  libuv 4%. Setting zstd's level once on a reused context costs what passing it with each")
w("  call does. So the flusher now compresses a buffer itself while it keeps up and wakes the")
w("  workers (one per CPU but one) only when a quarter of the ring waits, and while writers")
w("  keep delivering it polls every millisecond instead of being woken for each buffer.")
if f_ns:
    w(f"  `bench_floor_flush` is the floor: the same buffers filled on one CPU, compressed and")
    w(f"  written by one thread on another, {f_ns:.0f} ns per event, so one CPU keeps up with at most")
    w(f"  {1e3 / f_ns:.1f} M events/s at level 1; petw's background used {fmt(bg_med, ' ns', 0)} per")
    w("  event over the paced runs (a flusher that sleeps between buffers at low rates pays its")
    w("  wake-ups on top).")
w("  The search's writer holds its rate by spinning between batches, so on 2 vCPUs it keeps")
w("  one CPU and the background gets the other, less whatever else the machine runs. LTTng-UST's")
w("  rate is its writer's own limit (its consumer daemon only moves pages, 70 bytes per event")
w("  uncompressed against petw's ~4.5): on a quiet machine 7 to 10 M/s, so 2x is 14 to 20 M/s,")
w("  at or beyond what one CPU compresses" +
  (f" ({1e3 / f_ns:.1f} M/s here; 2x LTTng's searched rate in this run: "
   f"{2 * statistics.median(list(sl_.values())) / 1e6:.1f} M/s)." if f_ns and sl_ else ".") +
  " With writers that sleep")
w("  between batches (`PACE=sleep`, both contenders alike) the writer's CPU is free while it")
w("  waits and the workers can use it. On a loaded machine the")
w("  searches say less: LTTng's consumer daemon is a process of its own, in its own scheduling")
w("  group (Linux's autogroup), with a CPU share of its own, while petw's flusher shares its")
w("  process's share with the writer that spins. There a search can fail even at 1 M/s: the")
w("  scheduler kept the spinning writer off its CPU for up to 188 ms (`perf sched timehist`),")
w("  and the pacing loop then catches up at full speed, ~190,000 events in a burst of 25 M/s,")
w("  more than the 8 MB ring holds, however fast the background is.")
w("  On a quiet machine the writer stays on schedule (`max_behind_us` under 6 ms at 9-12 M/s)")
w("  and petw still loses a few 2 ms episodes a second at 9-10 M/s with its background at 55%")
w("  of the other CPU, on a file or on tmpfs alike, with or without the workers: `perf sched")
w("  timehist` shows that CPU taken for 2.5-4.3 ms at a time by the kernel (its `rcu_preempt`")
w("  thread, the flusher's 1 ms timer firing 3 ms late), every 100-500 ms. 8 MB of petw's")
w("  144-byte records (the ETW header is 80 bytes) hold 5.8 ms at 10 M/s; LTTng's 70-byte")
w("  events, 11.9 ms. So at equal memory a stall petw must ride out is half as long, and its")
w("  loss-free rate is bounded by the ring's length in time, not the background's CPU.")
w("  zstd's fast levels were weighed: `--fast=1` costs 17% less CPU on this benchmark's")
w("  buffers for the same size, but stores a `petw record` trace of a kernel mix 2.8% larger")
w("  and a real Windows trace (powershell.etl) 12.6% larger (64 KB blocks), so level 1 stays.")
w("- **ProcessTrace.** Each zstd buffer states its earliest timestamp in its header, so the")
w("  open-time scan does not decompress it, and one zstd context serves every buffer. The")
w("  FILETIME conversion divides by a multiply and shifts (the 128-bit division was 6%), the")
w("  event record is cleared with moves, and common records are stepped over inline. What")
w("  remains is zstd (about a third) and per-event work. Decompressing ahead on a second")
w("  thread was tried: 27-30 M events/s while both threads shared a cache, but on most runs")
w("  here each unpacked buffer crossed cores and it fell to 8-12 M/s, below one thread, so")
w("  it was not kept. The figure varies from run to run on these shared VMs (15-24 M/s for")
w("  the same file in separate processes).")
open(md_path, "w").write("\n".join(L) + "\n")
# The targets on the terminal too: every figure the goals need, side by side, from this run.
print(f"machine: {machine}")
for t in targets:
    met = "-" if t["met"] is None else "yes" if t["met"] else "NO"
    print(f"{met:>3}  {t['target']}: {t['petw']} vs {t['peer']} = {t['ratio']} (goal {t['goal']})")
