#!/bin/bash
# guest-soak.sh FUZZ OUT_DIR SECONDS RUN_SECONDS [ARG...]: runs inside the guest.
# Runs ping_fuzz (FUZZ) again and again, each run RUN_SECONDS long with a
# new seed and the ARGs (ping_fuzz's -x), the last one shorter, until the
# runs add up to SECONDS of fuzzing: run N in OUT_DIR/N/ as
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
# Counted in the runs' lengths, not the clock: a loop that started a run
# only while a whole one still fitted ran 3361 s of an hour's soak.
n=0 done_secs=0
while [ "$done_secs" -lt "$secs" ]; do
	n=$((n + 1))
	r=$((secs - done_secs < run ? secs - done_secs : run))
	"$top/tests/guest-fuzz.sh" "$fuzz" "$out/$n" "$r" "$@"
	done_secs=$((done_secs + r))
done
dmesg >"$out/dmesg.txt" 2>&1
echo ok >"$out/done"
