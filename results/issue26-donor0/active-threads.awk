# active-threads.awk: from the same trace as idle-cpus.awk, the share of its span with
# fewer than two perf bench threads running or runnable (0 or 1). Usage: awk -f active-threads.awk TRACE
function kv(key,    i) { for (i = 1; i <= NF; i++) if (index($i, key "=") == 1) return substr($i, length(key) + 2); return "" }
function adv(now) { if (last != "" && seen) { tl[(nact > 2 ? 2 : nact)] += now - last } last = now }
/sched_(switch|wakeup):/ { ts = $0; sub(/: sched_.*/, "", ts); sub(/.* /, "", ts); ts += 0; adv(ts) }
/sched_switch:/ {
	pc = kv("prev_comm"); pp = kv("prev_pid"); st = kv("prev_state"); np = kv("next_pid"); nc = kv("next_comm")
	if (pc ~ /^(perf|futex)/ && pp != mainpid) { if (st !~ /^R/ && act[pp]) { act[pp] = 0; nact-- } }
	if (nc ~ /^(perf|futex)/) { if (!(np in act)) { act[np] = 1; nact++; seen = 1 } else if (!act[np]) { act[np] = 1; nact++ } }
	next
}
/sched_wakeup:/ { p = kv("pid"); if (kv("comm") ~ /^(perf|futex)/ && (p in act) && !act[p]) { act[p] = 1; nact++ } }
END { tot = tl[0] + tl[1] + tl[2]; printf "span %.3f s: <2 active %.1f%% (0: %.1f%%, 1: %.1f%%)\n", tot, 100*(tl[0]+tl[1])/tot, 100*tl[0]/tot, 100*tl[1]/tot }
