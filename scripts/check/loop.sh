#!/usr/bin/env bash
# loop.sh [-n RUNS] [-p 0|1] [-b] [-3] PROGRAM...: hunt for tests that fail
# on timing. Boots the debug kernel of the last make check
# (work/build-debug) once, with sched_proxy_exec=0 or 1 (default 1), runs
# the futex selftest PROGRAMs (work/tools-debug; -3: the i386 build)
# RUNS times in a row (default 50), and judges every run as make check
# judges one: each case from its KTAP line against tests/selftests.expected
# and the allowed skips. With -b, a kernel build runs on the host beside
# the guest for as long as it runs (a tinyconfig kernel, built over and
# over without ccache), as make check's builds do.
#
# Prints one line per run and a count; each run's output stays in
# work/guest/loop-pePROXY/N/, the console in work/loop-pePROXY.log.
# Exit status 0 only if every run passed.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/check/verdict.sh
. "$TOP/scripts/check/verdict.sh"

usage() { usage_error "usage: loop.sh [-n RUNS] [-p 0|1] [-b] [-3] PROGRAM..."; }
runs=50 pe=1 build=0 bits=64
while getopts n:p:b3 o; do
	case $o in
	n) runs=$OPTARG ;;
	p) pe=$OPTARG ;;
	b) build=1 ;;
	3) bits=32 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || usage
case $runs in '' | *[!0-9]* | 0) usage_error "-n $runs: a number of runs, at least 1" ;; esac
case $pe in 0 | 1) ;; *) usage_error "-p $pe: 0 or 1" ;; esac

kernel=$WORK/build-debug/arch/x86/boot/bzImage
tdir=$WORK/tools-debug/kselftest/futex/functional
[ "$bits" = 64 ] || tdir=$WORK/tools-debug/kselftest32/futex/functional
[ -f "$kernel" ] || die "no $kernel: run make check first"
for p in "$@"; do
	[ -x "$tdir/$p" ] || die "no selftest $p in $tdir"
done

loopname=loop-pe$pe
[ "$bits" = 64 ] || loopname=$loopname-i386
res=$WORK/guest/$loopname log=$WORK/$loopname.log
rm -rf "$res"
mkdir -p "$res"

# guest-selftests.sh once per run, each into a directory of its own.
cmd="for i in \$(seq 1 $runs); do $(printf '%q ' "$TOP/tests/guest-selftests.sh" "$tdir")\"$res/\$i\" $(printf '%q ' "$@")>/dev/null; echo \"run \$i done\"; done"

builder=
if [ "$build" = 1 ]; then
	bdir=$WORK/build-loop
	(
		mkdir -p "$bdir"
		while :; do
			CCACHE_DISABLE=1 make -C "$LINUX" O="$bdir" -s tinyconfig >/dev/null 2>&1
			CCACHE_DISABLE=1 make -C "$LINUX" O="$bdir" -s -j2 >/dev/null 2>&1
			make -C "$LINUX" O="$bdir" -s clean >/dev/null 2>&1
		done
	) &
	builder=$!
	# The builder and everything it started (make, the compilers): its
	# children outlive a kill of the subshell alone.
	trap 'kill $(tree_pids "$builder") 2>/dev/null || true' EXIT
fi

loop_runs() {
	local rc=0 v secs i pattern passed=0 failed=0 allowed=$WORK/$loopname.skips
	"$TOP/scripts/guest/vm.sh" -t $((runs * 900)) -a sched_proxy_exec="$pe" -a panic_on_warn=1 \
		-a kmemleak=off "$kernel" "$log" -- bash -c "$cmd" || rc=$?
	cat "$TOP/tests/selftests.skips" >"$allowed"
	[ "$pe" = 1 ] || cat "$TOP/tests/selftests-pe0.skips" >>"$allowed"
	[ "$bits" = 64 ] || cat "$TOP/tests/selftests-i386.skips" >>"$allowed"
	pattern=$(printf '^%s |' "$@")
	for i in $(seq 1 "$runs"); do
		v=$(selftest_verdict "$res/$i" <(grep -E "${pattern%|}" "$TOP/tests/selftests.expected") "$allowed")
		secs=$(awk '{ s += $3 } END { print s + 0 }' "$res/$i/status.tsv" 2>/dev/null || echo '?')
		if printf '%s\n' "$v" | grep -q '^FAIL'; then
			failed=$((failed + 1))
			printf 'run %3d: FAIL (%s s)\n' "$i" "$secs"
			printf '%s\n' "$v" | grep '^FAIL' | sed 's/^/    /' || true
		else
			passed=$((passed + 1))
			printf 'run %3d: pass (%s s)\n' "$i" "$secs"
		fi
	done
	v=$(splat_scan "$loopname" "$log")
	printf '%s\n' "$v"
	case $v in FAIL*) rc=1 ;; esac
	printf '%s: %d of %d runs passed, %d failed\n' "$loopname" "$passed" "$runs" "$failed"
	[ "$failed" = 0 ] && [ "$rc" = 0 ]
}

beside=
[ "$build" = 0 ] || beside=", a kernel build beside"
step "$runs runs of $*, sched_proxy_exec=$pe$beside" loop_runs "$@"
! step_failed
