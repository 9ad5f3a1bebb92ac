# lock-row.awk: the row line of one "perf bench futex lock -s" run, for
# bench-lock-table.sh, run in the guest by bench/02-futex-set-wait.sh and
# bench/06-futex-ping-spin.sh:
#   row KIND THREADS OPS/S STDDEV% WAITS EAGAIN WAKES WOKE-NOBODY CPUS
# (futex calls per operation; "-" where the kind does not count them).
# Usage: awk -v k=KIND -v t=THREADS -f lock-row.awk PERF-OUTPUT
/^Averaged/ { ops = $2; sd = $5; gsub(/[^0-9.]/, "", sd) }
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
	print "row", k, t, ops, sd, w, e, wk, n, c
}
