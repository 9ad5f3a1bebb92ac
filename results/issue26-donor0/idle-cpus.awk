# idle-cpus.awk: from a 2-CPU ftrace of sched_switch, sched_wakeup and
# sched_migrate_task (idle-guest.sh), how long a CPU sat idle while a task
# waited to run on the other one. A task waits on CPU c from its wakeup
# there (target_cpu) or from being switched out runnable there (prev_state
# R), until it is switched in; sched_migrate_task moves it. Prints one line:
#   span_s idle0_s idle1_s idle_while_other_waits_s wakeups wakeups_beside_idle
# (wakeups_beside_idle: wakeups onto a busy CPU while the other was idle).
# Usage: awk -f idle-cpus.awk TRACE
function kv(key,    i) {
	for (i = 1; i <= NF; i++)
		if (index($i, key "=") == 1)
			return substr($i, length(key) + 2)
	return ""
}
function advance(now,    c) {
	if (last != "") {
		for (c = 0; c < 2; c++)
			if (idle[c]) {
				idlet[c] += now - last
				if (nwait[1 - c] > 0)
					lost += now - last
			}
	}
	last = now
}
/sched_(switch|wakeup|migrate_task):/ {
	cpu = $0; sub(/^.*\[/, "", cpu); cpu = substr(cpu, 1, 3) + 0
	ts = $0; sub(/: sched_.*/, "", ts); sub(/.* /, "", ts); ts += 0
	if (first == "")
		first = ts
	advance(ts)
}
/sched_switch:/ {
	prev = kv("prev_pid"); next_pid = kv("next_pid"); st = kv("prev_state")
	if (prev != 0 && st ~ /^R/ && !(prev in waiting)) {
		waiting[prev] = cpu; nwait[cpu]++
	}
	if (next_pid in waiting) {
		nwait[waiting[next_pid]]--; delete waiting[next_pid]
	}
	idle[cpu] = next_pid == 0
	next
}
/sched_wakeup:/ {
	p = kv("pid"); tc = kv("target_cpu") + 0
	wakeups++
	if (!idle[tc] && idle[1 - tc])
		beside++
	if (!(p in waiting)) {
		waiting[p] = tc; nwait[tc]++
	}
	next
}
/sched_migrate_task:/ {
	p = kv("pid"); d = kv("dest_cpu") + 0
	if (p in waiting) {
		nwait[waiting[p]]--; waiting[p] = d; nwait[d]++
	}
}
END {
	printf "%.3f %.3f %.3f %.3f %d %d\n", last - first, idlet[0], idlet[1], lost, wakeups, beside
}
