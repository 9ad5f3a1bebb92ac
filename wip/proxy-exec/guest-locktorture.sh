#!/bin/bash
# guest-locktorture.sh SECONDS OUT_DIR: runs inside a guest booted with a
# kernel that has CONFIG_LOCK_TORTURE_TEST=y and locktorture.* on its
# command line (torture_type=mutex_lock or ww_mutex_lock, stat_interval).
# Lets the built-in torture run SECONDS, then keeps the kernel log in
# OUT_DIR/dmesg.txt and judges the statistics: at least two lines, every
# one with "Fail: 0", and a growing write total. The host judges the
# kernel log itself (scripts/verdict.sh splat_scan). Prints PASS or FAIL
# lines; exit status 1 on any FAIL.
set -u
secs=${1:?usage: guest-locktorture.sh SECONDS OUT_DIR}
out=${2:?}
mkdir -p "$out"
sleep "$secs"
dmesg >"$out/dmesg.txt" 2>&1
rc=0
verdict() { # verdict PASS|FAIL WHAT
	printf '%s locktorture: %s\n' "$1" "$2"
	[ "$1" = PASS ] || rc=1
}
type=$(grep -o -m 1 'torture_type=[a-z_]*' /proc/cmdline | cut -d= -f2)
stats=$(grep -E 'Writes: +Total: ' "$out/dmesg.txt")
n=$(printf '%s\n' "$stats" | grep -c 'Total: ')
if [ "$n" -lt 2 ]; then
	verdict FAIL "$type: $n statistics lines in ${secs}s"
else
	verdict PASS "$type: $n statistics lines"
fi
if printf '%s\n' "$stats" | grep -v -E 'Fail: 0( |$)' | grep -q .; then
	verdict FAIL "$type: mutual exclusion broken: $(printf '%s\n' "$stats" | grep -v -E 'Fail: 0( |$)' | head -n 1)"
else
	verdict PASS "$type: no mutual exclusion failure"
fi
first=$(printf '%s\n' "$stats" | head -n 1 | sed -E 's/.*Total: +([0-9]+).*/\1/')
last=$(printf '%s\n' "$stats" | tail -n 1 | sed -E 's/.*Total: +([0-9]+).*/\1/')
if [ "${last:-0}" -gt "${first:-0}" ]; then
	verdict PASS "$type: writes went on ($first -> $last)"
else
	verdict FAIL "$type: writes stopped at ${last:-none}"
fi
exit "$rc"
