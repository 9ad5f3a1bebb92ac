#!/bin/bash
# guest-fuzz.sh FUZZ OUT_DIR SECONDS [ARG...]: runs inside the guest. Runs
# tools/testing/futex/ping_fuzz (FUZZ) for SECONDS, with its ARGs (-s SEED
# to replay a seed's decisions, -x MASK to leave parts out); it prints
# the seed it used.
# Same contract as guest-selftests.sh, for the host's selftest_verdict
# ("ping_fuzz -": judged by its exit status): its output in
# OUT_DIR/ping_fuzz.log, "ping_fuzz STATUS SECONDS" in OUT_DIR/status.tsv,
# the kernel log in OUT_DIR/dmesg.txt, OUT_DIR/done last.
set -u
fuzz=${1:?usage: guest-fuzz.sh FUZZ OUT_DIR SECONDS [ARG...]}
out=${2:?}
secs=${3:?}
shift 3
mkdir -p "$out" || exit 2
rm -f "$out/done" "$out/status.tsv"
cd /tmp || exit 2
printf 'kernel: %s, cmdline: %s\n' "$(uname -r)" "$(cat /proc/cmdline)"
t0=$(date +%s)
if [ ! -x "$fuzz" ]; then
	printf 'ping_fuzz missing 0\n' >>"$out/status.tsv"
else
	# Its own bounds: a minute for the workers to come to rest, 90 s
	# per process after the stop; the timeout only catches a process
	# that hangs beyond them.
	timeout -k 5 $((secs + 480)) "$fuzz" -d "$secs" "$@" >"$out/ping_fuzz.log" 2>&1
	rc=$?
	# ping_fuzz hung past its own bounds, so it could not say why:
	# what its tasks do now (those SIGKILL did not end).
	if [ "$rc" -ge 124 ]; then
		for t in /proc/[0-9]*/task/[0-9]*; do
			[ "$(cat "$t/comm" 2>/dev/null)" = "${fuzz##*/}" ] || continue
			printf 'left after the timeout: %s\n' "$(cat "$t/stat")"
			sed 's/^/  stack /' "$t/stack"
			grep -E '^(policy|prio|dl\.|se\.sum_exec_runtime|nr_switches)' "$t/sched" | sed 's/^/  sched /'
		done >>"$out/ping_fuzz.log" 2>&1
	fi
	printf 'ping_fuzz %s %s\n' "$rc" "$(($(date +%s) - t0))" >>"$out/status.tsv"
	printf 'fuzz ping_fuzz exit %3s %4ss: %s\n' "$rc" "$(($(date +%s) - t0))" "$(tail -n 1 "$out/ping_fuzz.log")"
fi
dmesg >"$out/dmesg.txt" 2>&1
echo ok >"$out/done"
