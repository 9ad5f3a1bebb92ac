# wakeup-target.awk: from the same trace as idle-cpus.awk, where the
# wakeups of perf bench's threads went: to the waker's CPU or the other
# one, and whether that was the wakee's previous CPU (the one it last
# ran on); and how many of each went to a busy CPU while the other was
# idle. One line per class, then the totals.
# Usage: awk -f wakeup-target.awk TRACE
function kv(key,    i) {
	for (i = 1; i <= NF; i++)
		if (index($i, key "=") == 1)
			return substr($i, length(key) + 2)
	return ""
}
function cpu_of_line(    c) {
	c = $0; sub(/^.*\[/, "", c)
	return substr(c, 1, 3) + 0
}
/sched_switch:/ {
	c = cpu_of_line()
	last[kv("prev_pid")] = c
	idle[c] = kv("next_pid") == 0
	next
}
/sched_wakeup:/ {
	if (kv("comm") !~ /^(perf|futex)/)
		next
	c = cpu_of_line(); p = kv("pid"); t = kv("target_cpu") + 0
	k = (t == c ? "waker's" : "other") " CPU, " \
	    (!(p in last) ? "never ran" : t == last[p] ? "its previous" : "not its previous")
	all[k]++; total++
	if (!idle[t] && idle[1 - t]) {
		beside[k]++; nbeside++
	}
}
END {
	for (k in all)
		printf "%-40s %6d wakeups, %5d beside an idle CPU\n", k, all[k], beside[k]
	printf "%-40s %6d wakeups, %5d beside an idle CPU\n", "all", total, nbeside
}
