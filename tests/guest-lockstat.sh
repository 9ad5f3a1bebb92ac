#!/bin/bash
# guest-lockstat.sh PERF ROWS OUT TAG [ROTATE]: runs inside the guest of a
# lock statistics kernel (configs/lockstat.config). Runs the rows of the
# ROWS file that ask for hb->lock statistics (metric hbwait% or hbcont%),
# in file order rotated by ROTATE, each with /proc/lock_stat cleared
# before; the output of row N goes to OUT/N.lockstat-TAG.txt: perf's
# output, then the head of /proc/lock_stat (the most contended classes)
# and the line of the futex hash bucket lock's class, &fhb->lock.
set -u
perf=${1:?} rows=${2:?} out=${3:?} tag=${4:?} rotate=${5:-0}
[ -w /proc/lock_stat ] || { echo "guest-lockstat: no /proc/lock_stat (CONFIG_LOCK_STAT)" >&2; exit 2; }
mkdir -p "$out"
nums=() argv=()
n=0
while IFS='|' read -r name args metrics; do
	case $name in '#'* | '') continue ;; esac
	n=$((n + 1))
	case $metrics in *hbwait%* | *hbcont%*) ;; *) continue ;; esac
	nums+=("$n")
	argv+=("$args")
done <"$rows"
total=${#nums[@]}
[ "$total" -gt 0 ] || { echo "guest-lockstat: no row of $rows asks for hbwait% or hbcont%" >&2; exit 2; }
rc=0
for ((i = 0; i < total; i++)); do
	j=$(((i + rotate) % total))
	f=$out/${nums[$j]}.lockstat-$tag.txt
	echo 0 >/proc/lock_stat
	# shellcheck disable=SC2086 # the arguments are words
	if ! "$perf" bench futex ${argv[$j]} >"$f" 2>&1; then
		printf 'lockstat row %d failed:\n' "${nums[$j]}"
		tail -n 5 "$f"
		rc=1
	fi
	{
		head -n 40 /proc/lock_stat
		echo '== &fhb->lock'
		grep -E '^ *&fhb->lock: ' /proc/lock_stat
	} >>"$f"
done
echo "guest-lockstat: $total rows"
exit $rc
