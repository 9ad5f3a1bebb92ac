#!/bin/bash
# guest-ping-bucket.sh PROG OUT TAG: runs inside the guest of a lock
# statistics kernel (configs/lockstat.config). Runs PROG (bench/ping-bucket.c)
# in both modes with 0, 1000, 2000 and 4000 FUTEX_WAIT sleepers, each with
# /proc/lock_stat cleared before; OUT/TAG.MODE.N.txt gets PROG's output and
# the /proc/lock_stat line of the PING wait lock's class,
# &ps->pi_mutex.wait_lock. ROUNDS (default 100) rounds per run. Then PROG
# -m states with 0, 500, 1000 and 2000 PING and as many PI states held by
# a task that exits (3 rounds each), into OUT/TAG.states.S.txt with the
# line of the tasks' pi_futex_lock class.
set -u
prog=${1:?} out=${2:?} tag=${3:?}
[ -w /proc/lock_stat ] || { echo "guest-ping-bucket: no /proc/lock_stat (CONFIG_LOCK_STAT)" >&2; exit 2; }
mkdir -p "$out"
rc=0
for mode in unlock exit; do
	for n in 0 1000 2000 4000; do
		f=$out/$tag.$mode.$n.txt
		echo 0 >/proc/lock_stat
		if ! "$prog" -n "$n" -r "${ROUNDS:-100}" -m "$mode" >"$f" 2>&1; then
			printf 'ping-bucket -n %s -m %s failed:\n' "$n" "$mode"
			tail -n 3 "$f"
			rc=1
		fi
		if ! grep -E '^ *&ps->pi_mutex\.wait_lock: ' /proc/lock_stat >>"$f"; then
			echo "guest-ping-bucket: no &ps->pi_mutex.wait_lock line in /proc/lock_stat ($mode, $n)"
			rc=1
		fi
	done
done
for n in 0 500 1000 2000; do
	f=$out/$tag.states.$n.txt
	echo 0 >/proc/lock_stat
	if ! "$prog" -s "$n" -r 3 -m states >"$f" 2>&1; then
		printf 'ping-bucket -s %s -m states failed:\n' "$n"
		tail -n 3 "$f"
		rc=1
	fi
	if ! grep -E '^ *&[a-z]+->pi_futex_lock: ' /proc/lock_stat >>"$f"; then
		echo "guest-ping-bucket: no pi_futex_lock line in /proc/lock_stat (states, $n)"
		rc=1
	fi
done
exit $rc
