#!/usr/bin/env python3
"""x35 tables: lock sweep per (kernel, row, threads): median ops/s per thread
over boots, every boot's value, the median of per-boot ratios to wait, and
the median run's calls/op, CPUs, cs/op, wakeups/op."""
import glob, os, re, statistics, sys, collections
d = sys.argv[1] if len(sys.argv) > 1 else '/work/main/work/guest/x35'
rows = collections.defaultdict(list)   # (k, row, t) -> [(r, ops, fields)]
wait = {}
for f in sorted(glob.glob(d + '/lock.[AC].*.txt')):
    k, r = re.match(r'.*/lock\.([AC])\.(\d+)\.txt', f).groups()
    for line in open(f):
        w = line.split()
        if len(w) < 2 or w[1] != 'row':
            continue
        p = w[0][2:]
        kind, t, ops = w[2], int(w[3]), float(w[4])
        name = kind if kind == 'wait' else f'{kind}@{p}'
        # row KIND THREADS OPS SD WAITS EAGAIN WAKES WOKENOBODY CPUS CS MIGR WAKEUPS
        calls = w[6:10]; cpus = w[10]; cs = w[11] if len(w) > 11 else '-'; wk = w[13] if len(w) > 13 else '-'
        rows[(k, name, t)].append((int(r), ops, (calls, cpus, cs, wk)))
        if kind == 'wait':
            wait[(k, int(r), t)] = ops
print(f"{'k':1} {'row':14} {'thr':>3} | {'median':>8} | {'ratio':>6} | per boot Kops/s | waits eagain wakes nobody | cpus | cs/op wakeups/op")
for key in sorted(rows, key=lambda x: (x[2], x[0], x[1])):
    k, name, t = key
    v = rows[key]
    ops = [o for _, o, _ in v]
    m = statistics.median_low(ops)
    ratios = [o / wait[(k, r, t)] for r, o, _ in v if (k, r, t) in wait]
    mr = statistics.median(ratios) if ratios else float('nan')
    calls, cpus, cs, wk = next(x for _, o, x in v if o == m)
    print(f"{k:1} {name:14} {t:3d} | {m/1000:8.1f} | {mr:6.3f} | {' '.join(str(int(o/1000)) for o in ops):18} | {' '.join(calls):24} | {cpus:4} | {cs} {wk}")
# ministat input files: ping rows per threads
os.makedirs(d + '/ms', exist_ok=True)
for key, v in rows.items():
    k, name, t = key
    with open(f"{d}/ms/{k}.{name}.{t}", 'w') as fh:
        for _, o, _ in v:
            fh.write(f"{o}\n")

# ping_bench: per (kernel, workload, kind@policy): median over boots of
# median, mean, p99, max (us), from the samples.
def q(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]
pb = collections.defaultdict(list)
for f in sorted(glob.glob(d + '/pb.[AC].*.*.*.*.txt')):
    m = re.match(r'.*/pb\.([AC])\.(\d+)\.(fair|rt)\.(\w)\.(.+)\.txt', f)
    if not m:
        continue
    k, r, wl, kind, p = m.groups()
    xs = []
    for line in open(f):
        try:
            xs.append(int(line.split()[-1]))
        except (ValueError, IndexError):
            pass
    if not xs:
        continue
    name = kind if p == '-' else f'{kind}@{p}'
    pb[(wl, k, name)].append((q(xs, .5), sum(xs) / len(xs), q(xs, .99), max(xs)))
print()
print("ping_bench (us): median over boots of each boot's median, mean, p99, max")
for key in sorted(pb):
    wl, k, name = key
    v = pb[key]
    cols = [statistics.median_low([x[i] for x in v]) / 1000 for i in range(4)]
    print(f"{wl:4} {k} {name:12} | med {cols[0]:9.1f} mean {cols[1]:9.1f} p99 {cols[2]:9.1f} max {cols[3]:9.1f} | runs {len(v)}")
