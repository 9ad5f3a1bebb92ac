#!/bin/bash
# s7s8-guest.sh TDIR PERF OUT [TEST...]: in the guest. Runs futex_ping's
# TESTs (-r names; all of futex_ping without any), then, with PERF, perf
# bench futex lock -k ping at 8 threads for 5 s with the
# futex:futex_ping_unlock event on, and counts the unlocks by how= and
# word= (patch 23's field).
set -u
tdir=$1 perf=$2 out=$3
shift 3
mkdir -p "$out"
args=()
for t in "$@"; do args+=(-r "$t"); done
cd "$tdir" || exit 2
printf 'kernel: %s, cmdline: %s\n' "$(uname -r)" "$(cat /proc/cmdline)"
./futex_ping "${args[@]}" >"$out/futex_ping.log" 2>&1
echo "futex_ping exit $?"
grep -E '^(ok|not ok|# (PASSED|FAILED|Totals))|# .*(donor|woken|handoff|ESRCH|word|hog|gave up)' "$out/futex_ping.log" | tail -n 40
if [ -x "$perf" ]; then
	t=/sys/kernel/tracing
	[ -d "$t/events" ] || mount -t tracefs nodev "$t"
	echo 0 >"$t/tracing_on"
	echo >"$t/trace"
	echo 8192 >"$t/buffer_size_kb"
	echo 1 >"$t/events/futex/futex_ping_unlock/enable"
	echo 1 >"$t/tracing_on"
	"$perf" bench futex lock -k ping -t 8 -r 5 >"$out/perf.log" 2>&1
	echo 0 >"$t/tracing_on"
	echo 0 >"$t/events/futex/futex_ping_unlock/enable"
	cat "$t/trace" >"$out/trace.txt"
	grep -c . "$out/trace.txt"
	grep -o 'word=0x[0-9a-f]* how=[a-z_]*' "$out/trace.txt" |
		sed -E 's/word=0x80000000 /word=W /; s/word=0x0 /word=0 /; s/word=0x8[0-9a-f]+ /word=TID|W /' |
		sort | uniq -c | sort -rn
	grep -E 'Averaged|ops' "$out/perf.log" | head -n 5
fi
dmesg >"$out/dmesg.txt"
echo done >"$out/done"
