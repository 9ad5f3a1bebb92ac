#!/bin/bash
# guest-soak.sh FUZZ OUT_DIR SECONDS RUN_SECONDS [ARG...]: runs inside the guest.
# Runs ping_fuzz (FUZZ) again and again, each run RUN_SECONDS long with a
# new seed and the ARGs (ping_fuzz's -x), until SECONDS have passed: run N in OUT_DIR/N/ as
# tests/guest-fuzz.sh leaves it (ping_fuzz.log, whose first line names
# the seed, and status.tsv). The kernel log of the whole boot goes to
# OUT_DIR/dmesg.txt, OUT_DIR/done last.
set -u
fuzz=${1:?usage: guest-soak.sh FUZZ OUT_DIR SECONDS RUN_SECONDS [ARG...]}
out=${2:?}
secs=${3:?}
run=${4:?}
shift 4
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" || exit 2
rm -f "$out/done"
t0=$(date +%s)
n=0
while [ $(($(date +%s) - t0 + run)) -le "$secs" ] || [ "$n" -eq 0 ]; do
	n=$((n + 1))
	"$top/tests/guest-fuzz.sh" "$fuzz" "$out/$n" "$run" "$@"
done
dmesg >"$out/dmesg.txt" 2>&1
echo ok >"$out/done"
