#!/bin/bash
# guest-failfutex.sh TEST_DIR OUT_DIR: runs inside the guest. Runs futex
# stress programs (futex selftests that hammer the PI, requeue, robust-list
# and wait paths) with fail_futex injecting faults into the futex code
# (get_futex_key() and the futex word accesses that honour it). The
# programs may see errors and fail; what is judged is the kernel: no
# warning, no leak, no hang. Leaves OUT_DIR/kmemleak.txt (the leak
# report after two scans; empty when clean), OUT_DIR/injected (how many
# faults were injected), each program's output in OUT_DIR/NAME.log, and
# OUT_DIR/done last.
set -u
src=${1:?usage: guest-failfutex.sh TEST_DIR OUT_DIR}
out=${2:?}
# Absolute: the programs run from a copy in /tmp.
case $out in /*) ;; *) out=$PWD/$out ;; esac
limit=${FAILFUTEX_TIMEOUT:-30}
progs=${FAILFUTEX_PROGRAMS:-futex_lock_pi_exiting futex_requeue_pi_signal_restart
	futex_wait_precheck futex_set_wait futex_waitv futex_wait robust_list
	futex_requeue futex_ping}
mkdir -p "$out"
rm -f "$out/done"
dbg=/sys/kernel/debug
mountpoint -q "$dbg" || mount -t debugfs none "$dbg" || exit 2
ff=$dbg/fail_futex
[ -d "$ff" ] || { echo "no $ff: CONFIG_FAIL_FUTEX is off"; exit 2; }
[ -w "$dbg/kmemleak" ] || { echo "no $dbg/kmemleak: CONFIG_DEBUG_KMEMLEAK is off"; exit 2; }

dir=$(mktemp -d /tmp/failfutex.XXXXXX)
cp -a "$src/." "$dir/" || exit 2
cd "$dir" || exit 2

# The scans are ours: an automatic one in the middle of the stress would
# only slow the TCG guest down.
echo scan=off >"$dbg/kmemleak"
# Objects that boot left unreferenced are not this pass's leaks.
echo scan >"$dbg/kmemleak"
echo clear >"$dbg/kmemleak"

# One futex operation in ten fails, for the whole pass, quietly.
echo 10 >"$ff/probability"
echo 1 >"$ff/interval"
# times counts down with every injected fault: the count is the proof
# that faults were injected at all.
budget=1000000
echo $budget >"$ff/times"
echo 0 >"$ff/verbose"
echo 0 >"$ff/space"
echo N >"$ff/ignore-private"

for t in $progs; do
	[ -x "$t" ] || continue
	timeout -k 5 "$limit" "./$t" >"$out/$t.log" 2>&1
	printf 'failfutex %-36s exit %s\n' "$t" "$?"
done
echo 0 >"$ff/probability"
echo $((budget - $(cat "$ff/times"))) >"$out/injected"
printf 'failfutex: %s faults injected\n' "$(cat "$out/injected")"

# Give the programs' exits time to free what they held, then scan twice:
# kmemleak reports an object only once it has stayed unreferenced for a
# full scan after its minimum age (5 s).
sleep 6
echo scan >"$dbg/kmemleak"
sleep 1
echo scan >"$dbg/kmemleak"
cat "$dbg/kmemleak" >"$out/kmemleak.txt"
dmesg >"$out/dmesg.txt" 2>&1
echo ok >"$out/done"
