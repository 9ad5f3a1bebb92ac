#!/bin/bash
# guest-selftests.sh TEST_DIR OUT_DIR [PROGRAM...]: runs inside the guest.
# Runs every futex selftest program in TEST_DIR (or the PROGRAMs named),
# each with a time limit. Each program's KTAP output goes to
# OUT_DIR/NAME.log and its exit status to OUT_DIR/status.tsv ("NAME
# STATUS SECONDS"); the guest kernel log ends in OUT_DIR/dmesg.txt. The host
# (scripts/check/verdict.sh) judges the KTAP output against the expected list;
# the lines printed here are for the console log only.
# The list is every program built, so tests that functional/run.sh does not
# call (robust_list, futex_numa) run too. OUT_DIR/done is written last: a
# guest that died half-way leaves none.
set -u
src=${1:?usage: guest-selftests.sh TEST_DIR OUT_DIR [PROGRAM...]}
out=${2:?}
# Absolute: the programs run from a copy in /tmp.
case $out in /*) ;; *) out=$PWD/$out ;; esac
shift 2
limit=${TEST_TIMEOUT:-300}
mkdir -p "$out"
rm -f "$out/done" "$out/status.tsv"
# Some tests create files in their working directory: run a copy in /tmp,
# which vng makes writable, as the root file system is read-only.
dir=$(mktemp -d /tmp/futex-selftests.XXXXXX)
cp -a "$src/." "$dir/" || exit 2
cd "$dir" || exit 2

if [ $# -eq 0 ]; then
	for t in *; do
		if [ ! -f "$t" ] || [ ! -x "$t" ]; then
			continue
		fi
		case $t in *.sh) continue ;; esac
		set -- "$@" "$t"
	done
fi

printf 'kernel: %s, cmdline: %s\n' "$(uname -r)" "$(cat /proc/cmdline)"
for t in "$@"; do
	if [ ! -x "$t" ]; then
		printf '%s missing 0\n' "$t" >>"$out/status.tsv"
		continue
	fi
	t0=$(date +%s)
	timeout -k 5 "$limit" "./$t" >"$out/$t.log" 2>&1
	rc=$?
	dt=$(($(date +%s) - t0))
	printf '%s %s %s\n' "$t" "$rc" "$dt" >>"$out/status.tsv"
	printf 'selftest %-36s exit %3s %4ss\n' "$t" "$rc" "$dt"
done
dmesg >"$out/dmesg.txt" 2>&1
echo ok >"$out/done"
