# lock-row.awk: the row line of one "perf bench futex lock -s" run, for
# bench-lock-table.sh, run in the guest by bench/02-futex-set-wait.sh and
# bench/06-futex-ping-spin.sh:
#   row KIND THREADS OPS/S STDDEV% WAITS EAGAIN WAKES WOKE-NOBODY CPUS [CS MIGR WAKEUPS]
# (futex calls per operation; "-" where the kind does not count them).
# With -v stat=FILE, the "perf stat -x," output of that run, the row ends
# with its context switches, migrations and wakeups (the events in that
# order) per lock/unlock operation of all threads together.
# Usage: awk -v k=KIND -v t=THREADS [-v stat=FILE] -f lock-row.awk PERF-OUTPUT
/^Averaged/ { ops = $2; sd = $5; gsub(/[^0-9.]/, "", sd); secs = $NF }
/^Futex calls per operation: not counted/ { w = e = wk = n = "-"; next }
/^Futex calls per operation:/ {
	w = $5; e = $7; sub(/^\(/, "", e); wk = $10; n = "-"
	if (match($0, /\(([0-9.]+) woke nobody\)/)) {
		n = substr($0, RSTART + 1); sub(/ .*/, "", n)
	}
}
/^CPU time:/ { c = $7; sub(/^\(/, "", c) }
END {
	if (ops == "") { print "no Averaged line from perf bench futex lock" > "/dev/stderr"; exit 1 }
	extra = ""
	if (stat != "") {
		total = ops * t * secs
		if (total <= 0) { print "no operations to divide perf stat's counts by" > "/dev/stderr"; exit 1 }
		m = 0
		while ((getline line < stat) > 0) {
			if (line ~ /^#/ || line !~ /,/) continue
			split(line, f, ",")
			if (f[1] !~ /^[0-9]+$/) {
				print "perf stat did not count " f[3] ": " line > "/dev/stderr"; exit 1
			}
			extra = extra sprintf(" %.4f", f[1] / total)
			m++
		}
		if (m != 3) { print "perf stat: " m " counts in " stat ", not 3" > "/dev/stderr"; exit 1 }
	}
	print "row", k, t, ops, sd, w, e, wk, n, c extra
}
