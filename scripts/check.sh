#!/usr/bin/env bash
# check.sh: "make check". The steps, in the order they run:
#
#   host set-up; the workbench's own tests and the model of the PING
#     word protocol started in the background; apply patches/ on the base;
#   the debug kernel, and beside it: checkpatch --strict, the series mailed
#     through a sendmail stand-in, the LAVA jobs against the schema, and
#     the futex selftests (x86_64, i386, static), ping_bench and
#     pingmutex/ (pthread mutexes on PING, LD_PRELOAD) built;
#   guest boots of the debug kernel, two at a time (CHECK_GUESTS=2, the
#     default), in three pairs: a hung guest, then planted reports that
#     taint the kernel (KASAN, an oops, a soft lockup, an RCU stall),
#     beside planted faults (a failing and a missing selftest, a
#     WARNING, a hung task, a lockdep report, a tortured lock that
#     excludes nobody), both ending in a panic, each of which the
#     verdict functions must judge red; every futex selftest
#     with sched_proxy_exec=1 (then ping_bench, the i386 selftests,
#     pingmutex's tests and unmodified Debian programs on it, and
#     FUZZ_SECONDS (60) of ping_fuzz), beside LAVA jobs under lava-run:
#     every futex selftest with sched_proxy_exec=0, locktorture's mutex
#     and ww_mutex torture, futex_priv_hash with 17 vCPUs; pingmutex, the
#     programs and ping_fuzz with sched_proxy_exec=0, beside futex stress
#     under fault injection with kmemleak (a LAVA job);
#   the background steps waited for.
#
# Any failed or missing test case, unexplained skip, guest time-out, panic
# or kernel report fails it. Ends with "N passed, N failed, N skipped".
#
# Modes (each variable 1 or unset; at most one):
#   CHECK_PLANTED_ONLY=1 (make check-planted): the debug kernel and the
#     detector boots only;
#   CHECK_ARM64_ONLY=1 (make check-arm64): the tip cross-built as the
#     arm64 debug kernel, booted in an emulated arm64 machine for every
#     futex selftest and ping_bench;
#   CHECK_BISECT=1 (make check-bisect): the whole bisect kernel built at
#     every patch, and the selftests, ping_bench and perf at each patch
#     that changes them;
#   CHECK_KCSAN=1 (make check-kcsan): the tip built with KCSAN instead of
#     KASAN, every futex selftest and ping_fuzz with sched_proxy_exec=1,
#     ping_fuzz with =0; a data race in the queue's code fails it.
# make check-arm64, make check-bisect and make check-kcsan are to be run before sending a
# series (README): make check builds the tip only, for x86_64, to fit
# CI's time with empty caches (docs/timings.md).
# Every step a mode leaves out prints a SKIP line saying so, and the
# summary names the mode.
# shellcheck disable=SC2317 # functions called through step and trap
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/verdict.sh
. "$TOP/scripts/verdict.sh"

t_start=$(date +%s)
mode=full
n_modes=0
for v in CHECK_PLANTED_ONLY:planted CHECK_ARM64_ONLY:arm64 CHECK_BISECT:bisect CHECK_KCSAN:kcsan; do
	var=${v%%:*}
	case ${!var:-} in
	'' | 0) ;;
	1)
		mode=${v#*:}
		n_modes=$((n_modes + 1))
		;;
	*) usage_error "$var=${!var}: 1, 0 or unset" ;;
	esac
done
case ${CHECK_GUESTS:-2} in 1 | 2) ;; *) usage_error "CHECK_GUESTS=$CHECK_GUESTS: 1 or 2" ;; esac
for var in KCSAN_SKIP_WATCH FUZZ_SECONDS FAILFUTEX_SECONDS SELFTEST_TIMEOUT; do
	case ${!var:-1} in *[!0-9]* | 0) usage_error "$var=${!var}: a number above 0" ;; esac
done
[ "$n_modes" -le 1 ] || usage_error "CHECK_PLANTED_ONLY, CHECK_ARM64_ONLY, CHECK_BISECT, CHECK_KCSAN: one at a time"
# A KERNEL_SRC that cannot be the base is refused now, before anything is
# deleted (queue.sh makes the tree from it).
check_kernel_src

lock_workbench
# make check's results stay where they are when another mode runs.
out=$WORK/check
[ "$mode" = full ] || out=$WORK/check-$mode
src=$WORK/src-check
build=$WORK/build-debug
bisect=$WORK/build-bisect
bisect_src=$WORK/src-bisect
bisect_tools=$WORK/tools-bisect
tools=$WORK/tools-debug
static_tools=$WORK/tools-lava
tdir=$tools/kselftest/futex/functional
# ping_fuzz's time in each boot that runs it (fuzz_check, kcsan_boot),
# and its arguments: without SCHED_DEADLINE (-x 512), whose stuck task
# (docs/ping-fuzz.md: a DEADLINE worker left runnable and never run
# again, reproduced on the unmodified base with docs/dl_flip.c) would
# fail runs at random.
fuzz_secs=${FUZZ_SECONDS:-60}
fuzz_args=(-x 512)
expected=$TOP/tests/selftests.expected
skips=$TOP/tests/selftests.skips
rm -rf "$out"
mkdir -p "$out"
tally=$out/tally
: >"$out/left-out"
: >"$out/notes"

record() { # record PASS|FAIL|SKIP NAME [DETAIL]
	printf '%s %s\n' "$1" "$2" >>"$tally"
	printf '  %-4s %s%s\n' "$1" "$2" "${3:+ ($3)}"
}

# record_lines SUFFIX: record the verdict lines on stdin, each name with
# SUFFIX; print the failures and skips, and the passes as one count.
record_lines() {
	local r rest n=0
	while read -r r rest; do
		case $r in PASS | FAIL | SKIP) ;; *) continue ;; esac
		printf '%s %s%s\n' "$r" "$rest" "$1" >>"$tally"
		if [ "$r" = PASS ]; then
			n=$((n + 1))
		else
			printf '  %-4s %s%s\n' "$r" "$rest" "$1"
		fi
	done
	printf '  PASS %d more%s\n' "$n" "$1"
}

# in_mode MODE...: this run's mode is one of them.
in_mode() {
	case " $* " in *" $mode "*) return 0 ;; esac
	return 1
}

# left_out NAME WHY: a step this mode does not run; said now and in the
# summary.
left_out() {
	printf '==> %s\n  SKIP (%s)\n' "$1" "$2"
	printf '%s (%s)\n' "$1" "$2" >>"$out/left-out"
}

# mode_finish: the end of make check-arm64, -kcsan or -bisect, which run
# their own step alone: the summary says what they left to make check.
mode_finish() {
	left_out "make check's steps: checkpatch, mail, workbench tests, model, the x86_64 debug kernel's boots" "make check"
	finish
}

# Background steps: bg_start NAME NICE CMD... runs "check_step NAME
# CMD..." in the background at nice NICE, its output kept; bg_wait NAME
# waits for it and prints that output. Both are stopped, with everything
# they started, by finish on an interrupt.
# A background step ignores SIGINT, with all it runs, so that a Ctrl-C
# (SIGINT to the whole process group) leaves it to finish, which stops
# its whole tree. Bash ignores SIGINT in an asynchronous subshell only
# until that runs a command: the step's command died of the Ctrl-C and
# left its own asynchronous children (which do ignore SIGINT) to init,
# out of kill_tree's reach (seen in the workbench's
# run-interrupt-stops-everything). An ignore set by trap is inherited.
declare -A bg_pid=() bg_log=()
bg_n=0
bg_start() {
	local name=$1 nice=$2
	shift 2
	bg_n=$((bg_n + 1))
	bg_log[$name]=$out/bg-$bg_n.out
	printf '==> %s: in the background\n' "$name"
	(
		trap '' INT
		renice -n "$nice" -p "$BASHPID" >/dev/null
		check_step "$name" "$@"
		# check_step records a failure; the status is for bg_wait.
		! step_failed
	) >"${bg_log[$name]}" 2>&1 &
	bg_pid[$name]=$!
}
bg_wait() {
	local name=$1 rc=0
	[ -n "${bg_pid[$name]:-}" ] || return 0
	printf '==> waiting for: %s\n' "$name"
	wait "${bg_pid[$name]}" || rc=$?
	unset "bg_pid[$name]"
	sed 's/^/  /' "${bg_log[$name]}"
	return "$rc"
}

finish() {
	local p f s n running
	if [ "${1:-}" = interrupted ]; then
		# Only steps still running: the pid of one that ended (bash
		# reaps it at once) may belong to another process by now.
		running=" $(jobs -rp | tr '\n' ' ') "
		for n in "${!bg_pid[@]}"; do
			case $running in *" ${bg_pid[$n]} "*) kill_tree "${bg_pid[$n]}" ;; esac
		done
	fi
	for n in "${!bg_pid[@]}"; do
		bg_wait "$n" || true
	done
	p=$(grep -c '^PASS ' "$tally" 2>/dev/null || true)
	f=$(grep -c '^FAIL ' "$tally" 2>/dev/null || true)
	s=$(grep -c '^SKIP ' "$tally" 2>/dev/null || true)
	if [ -n "${1:-}" ]; then
		f=$((f + 1))
		printf 'ERROR: %s\n' "$1" >&2
	fi
	printf '\nmake check (mode: %s): %ss (results: %s)\n' "$mode" "$(($(date +%s) - t_start))" "$tally"
	if [ -s "$out/left-out" ]; then
		printf 'not run in this mode:\n'
		sed 's/^/  /' "$out/left-out"
	fi
	if [ -s "$out/notes" ]; then
		printf 'boots tried again:\n'
		sed 's/^/  /' "$out/notes"
	fi
	if [ "$s" -gt 0 ]; then
		printf 'allowed skips:\n'
		grep '^SKIP ' "$tally" | sed 's/^SKIP /  /' | sort -u
	fi
	if [ "$f" -gt 0 ]; then
		printf 'failures:\n'
		grep '^FAIL ' "$tally" 2>/dev/null | sed 's/^FAIL /  /' || true
	fi
	counted
	printf '%d passed, %d failed, %d skipped\n' "$p" "$f" "$s"
	[ "$f" -eq 0 ]
	exit
}

# counted: what the tally's verdicts are, by kind: a selftest case in one
# configuration (the host's boots name it "selftest PROGRAM: CASE", the
# LAVA jobs "lava PROGRAM_CASE", each with its configuration in
# parentheses at the end), a program as a whole, a build, a static check,
# a check of the workbench's own detectors, a kernel log.
counted() {
	awk -v expfile="$expected" '
	function lava(s) { gsub(/[^-_a-zA-Z0-9]/, "_", s); return s }
	BEGIN {
		while ((getline l < expfile) > 0) {
			if (l ~ /^[ \t]*(#|$)/) continue
			split(l, p, " ")
			prog[lava(p[1])] = 1
			if (p[2] != "-") lcase[lava(p[1] "_" p[2])] = p[1] ": " p[2]
		}
	}
	{
		sub(/^(PASS|FAIL|SKIP) /, "")
		cfg = ""
		if (match($0, / \([^()]*\)$/)) cfg = substr($0, RSTART + 1)
	}
	/^selftest [^:]+: / && !/^selftest [^:]+: (exit status|did not run|not in the test directory)/ {
		split(substr($0, 10), q, ": ")
		k = q[1] ": " q[2]; sub(/ \(.*$/, "", k)
		n["case"]++; distinct[k] = 1; config[cfg] = 1; next
	}
	/^lava / {
		name = $2; sub(/:$/, "", name)
		if (name in lcase) { n["case"]++; distinct[lcase[name]] = 1; config[cfg] = 1 }
		else if (name in prog) n["program"]++
		else if (name == "kernel_log_clean") n["log"]++
		else if (name == "job") n["static"]++
		else n["other"]++
		next
	}
	/^selftest / { n["program"]++; next }
	/^build/ { n["build"]++; next }
	/^nothing to build/ { n["nobuild"]++; next }
	/^(checkpatch|mailable)/ { n["static"]++; next }
	/^(detector|workbench|model)/ { n["detector"]++; next }
	/^kernel log/ { n["log"]++; next }
	{ n["other"]++ }
	END {
		for (c in distinct) nd++
		for (c in config) nc++
		printf "counted: %d selftest case verdicts (%d distinct cases in %d configurations), %d programs as a whole,\n", n["case"], nd, nc, n["program"]
		printf "  %d builds (%d patches with nothing to build), %d static checks (checkpatch, mail, LAVA job schema),\n", n["build"], n["nobuild"], n["static"]
		printf "  %d checks of the detectors", n["detector"]
		printf " (workbench, model, planted faults), %d kernel logs scanned, %d other runs\n", n["log"], n["other"]
		printf "  (guests, locktorture, ping_bench, ping_fuzz, fault injection)\n"
	}' "$tally"
}
# kill_tree PID: PID and every process below it (a background step: its
# make and compilers ignore the SIGINT of a Ctrl-C, as any asynchronous
# command of a script does).
# Each process is stopped before its children are listed, so that none
# escapes by being forked, or by being reparented when its parent dies.
kill_tree() {
	local c
	kill -STOP "$1" 2>/dev/null || return 0
	for c in $(pgrep -P "$1"); do
		kill_tree "$c"
	done
	kill -TERM "$1" 2>/dev/null || true
	kill -CONT "$1" 2>/dev/null || true
}
trap 'finish "interrupted"' INT TERM
touch "$tally"

# check_step NAME CMD...: step, and a step that fails is a failure in the
# tally even where CMD recorded nothing (it died half-way).
check_step() {
	step "$@"
	if step_failed; then
		record FAIL "step: $1" "exit status $STEP_RC"
	fi
}

# guest_run NAME LOG VM_ARGS... -- CMD...: boot the debug kernel and run
# CMD; a time-out, a panic or a guest that ends early is a failure, named
# with vm.sh's one-line reason.
# kmemleak is built in but switched off at boot (kmemleak=off) except in
# the fault-injection boot: its tracking and its scans of guest memory
# slow a TCG guest down by minutes.
guest_run() {
	local name=$1 log=$2 rc=0
	shift 2
	"$TOP/scripts/vm.sh" "$@" >"$log.out" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		record FAIL "guest run: $name" "$(grep -m 1 '^ERROR' "$log.out" || echo "vm.sh exit $rc")"
		tail -n 5 "$log.out" >&2
		return 0
	fi
	record PASS "guest run: $name"
}

# guests NAME1 FUNC1 NAME2 FUNC2: two boot steps, side by side with
# CHECK_GUESTS=2 (the default: a TCG guest leaves part of the two CPUs
# idle, docs/timings.md), one after the other with CHECK_GUESTS=1. The
# second one's output follows the first's.
guests() {
	case ${CHECK_GUESTS:-2} in
	1)
		check_step "$1" "$2"
		check_step "$3" "$4"
		;;
	2)
		bg_start "$3" 0 "$4"
		check_step "$1" "$2"
		bg_wait "$3" || true
		;;
	esac
}

step "host set-up" "$TOP/scripts/setup.sh"
! step_failed || finish "host set-up failed"

workbench() {
	local rc=0
	"$TOP/tests/workbench.sh" >"$out/workbench.log" 2>&1 || rc=$?
	grep -E '^(PASS|FAIL) ' "$out/workbench.log" | sed 's/^\(PASS\|FAIL\) /\1 workbench: /' |
		record_lines ""
	grep -A15 '^FAIL' "$out/workbench.log" | grep -v '^PASS' | head -n 40 >&2 || true
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out/workbench.log"; then
		record FAIL "workbench tests" "exit status $rc, log: $out/workbench.log"
	fi
}
model() {
	local rc=0
	"$TOP/scripts/model.sh" >"$out/model.log" 2>&1 || rc=$?
	grep -E '^(PASS|FAIL) ' "$out/model.log" | record_lines ""
	grep -A10 '^FAIL' "$out/model.log" | head -n 30 >&2 || true
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out/model.log"; then
		record FAIL "model" "exit status $rc, log: $out/model.log"
	fi
}

# The workbench's own tests and the model need no kernel tree: they start
# at once, beside the patches' application (one CPU's work for minutes),
# so that they have less left to take from the debug kernel's build. Not
# inside a workbench test (FUTEX_WORKBENCH_TEST, set by tests/workbench.sh):
# a planted check.sh that gets this far would run the workbench's tests,
# and with them the plant, again, without end.
if ! in_mode full; then
	:
elif [ -n "${FUTEX_WORKBENCH_TEST:-}" ]; then
	left_out "workbench tests, model" "inside the workbench's own tests"
else
	bg_start "workbench tests" 0 workbench
	if [ -x "$TOP/scripts/model.sh" ]; then
		bg_start "model of the PING word protocol" 0 model
	else
		left_out "model of the PING word protocol" "no scripts/model.sh"
	fi
fi

apply_queue() {
	"$TOP/scripts/queue.sh" "$src" >"$out/queue.txt"
}
step "apply patches/ on the base" apply_queue
! step_failed || finish "patches/ do not apply on $BASE_TAG"
mapfile -t commits <"$out/queue.txt"
printf '  %d patches\n' "${#commits[@]}"

# arm64: the tip cross-built as the debug kernel (Debian's
# gcc-aarch64-linux-gnu; configs/debug-arm64.config in place of the x86
# part: no KASAN), booted in an emulated arm64 machine (virtme-ng,
# qemu-system-aarch64 -M virt -cpu cortex-a57, TCG) on a Debian arm64
# root (scripts/arm64-root.sh), runs every futex selftest and the
# ping_bench smoke run, judged as on x86_64. cortex-a57 has no LSE
# atomics, so the kernel's futex cmpxchg is the LL/SC loop, whose
# -EAGAIN x86 never returns. TCG runs the guest's CPUs one instruction
# block at a time with sequentially consistent host atomics: it does
# not reorder memory as arm64 hardware may, so a missing barrier passes
# here (README).
arm64_tests() {
	local kbuild=$WORK/build-arm64-debug atools=$WORK/tools-arm64 log=$out/arm64.log
	local res=$WORK/guest/check-arm64 cmd
	if ! ARCH=arm64 "$TOP/scripts/build-kernel.sh" debug "$src" "$kbuild" >/dev/null; then
		record FAIL "build: arm64 debug kernel" "log: $kbuild/build.log"
		return 1
	fi
	record PASS "build: arm64 debug kernel"
	if ! ARCH=arm64 "$TOP/scripts/build-tools.sh" "$src" "$atools" selftests ping_bench; then
		record FAIL "build: arm64 futex selftests and ping_bench"
		return 1
	fi
	record PASS "build: arm64 futex selftests and ping_bench"
	rm -rf "$res"
	cmd=$(printf '%q ' "$TOP/tests/guest-selftests.sh" "$atools/kselftest/futex/functional" "$res")
	[ ! -x "$atools/ping_bench" ] ||
		cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-ping-bench.sh" "$atools/ping_bench" "$res")"
	ARCH=arm64 guest_run "arm64 selftests, sched_proxy_exec=1" "$log" -t "${SELFTEST_TIMEOUT:-1800}" \
		-r "$TOP/tests" -r "$atools" -a sched_proxy_exec=1 -a panic_on_warn=1 -a kmemleak=off \
		"$kbuild/arch/arm64/boot/Image" "$log" -- bash -c "$cmd"
	cat "$skips" "$TOP/tests/selftests-arm64.skips" >"$out/selftests-arm64.skips"
	{
		selftest_verdict "$res" "$expected" "$out/selftests-arm64.skips"
		[ ! -x "$atools/ping_bench" ] || ping_bench_verdict "$res/ping_bench.log"
		splat_scan "arm64" "$log" "$res/dmesg.txt"
	} | record_lines " (arm64)"
}
if in_mode arm64; then
	check_step "arm64: cross-build, emulated guest, futex selftests" arm64_tests
	mode_finish
fi

# KCSAN (make check-kcsan): the tip built as configs/kcsan.config (the
# data-race detector in place of KASAN, which it excludes; lockdep kept),
# booted twice side by side: every futex selftest, the ping_bench smoke
# run, then ping_fuzz for FUZZ_SECONDS, with sched_proxy_exec=1; ping_fuzz
# alone with =0. Once booted, KCSAN watches one access in
# KCSAN_SKIP_WATCH (100) instead of its default 4000: PING's lockless
# code runs a few thousand times in a TCG guest's minute, too few for a
# watch one in 4000 to land there (docs/ping-fuzz.md); so dense a watch
# from boot on slowed the boot until the hung-task detector fired. KCSAN's
# own boot-time selftest must pass. A KCSAN report with an access on a
# line the queue adds or changes fails (scripts/kcsan-verdict.sh); one
# elsewhere is listed (NOTE, and in the summary) and does not; every
# other kernel report fails as in make check.
kcsan_boot() { # kcsan_boot PE
	local pe=$1 log=$out/kcsan-pe$1.log res=$WORK/guest/check-kcsan-pe$1 cmd
	rm -rf "$res"
	cmd="echo ${KCSAN_SKIP_WATCH:-100} >/sys/module/kcsan/parameters/skip_watch; "
	[ "$pe" = 0 ] ||
		cmd="$cmd$(printf '%q ' "$TOP/tests/guest-selftests.sh" "$tdir" "$res"); "
	[ "$pe" = 0 ] || [ ! -x "$tools/ping_bench" ] ||
		cmd="$cmd$(printf '%q ' "$TOP/tests/guest-ping-bench.sh" "$tools/ping_bench" "$res"); "
	cmd="$cmd$(printf '%q ' "$TOP/tests/guest-fuzz.sh" "$tools/ping_fuzz" "$res/fuzz" "$fuzz_secs" "${fuzz_args[@]}")"
	# KCSAN's counters (watchpoints set up, races seen), for the record.
	cmd="$cmd; mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug"
	cmd="$cmd; cat /sys/kernel/debug/kcsan >$(printf '%q' "$res/kcsan-counters.txt")"
	# Without panic_on_warn: KCSAN panics on its first report with it,
	# even one in code the queue does not touch (a maple tree race ended
	# the first boot with CONFIG_KCSAN_REPORT_VALUE_CHANGE_ONLY=n). Any
	# WARNING still fails the run (splat_scan below).
	guest_run "KCSAN, sched_proxy_exec=$pe" "$log" -t "${SELFTEST_TIMEOUT:-1800}" \
		-a sched_proxy_exec="$pe" "$kbuild/arch/x86/boot/bzImage" "$log" -- \
		bash -c "$cmd"
	# The kernel log without the KCSAN reports, for the other classes: a
	# report runs from the line of = before "BUG: KCSAN:" to the line of =
	# after "Reported by Kernel Concurrency Sanitizer".
	awk '/BUG: KCSAN: / { skip = 1; held = ""; next }
		skip == 1 { if (/Reported by Kernel Concurrency Sanitizer/) skip = 2; next }
		skip == 2 { if (/====================/) skip = 0; next }
		held != "" { print held; held = "" }
		/====================/ { held = $0; next }
		{ print }
		END { if (held != "") print held }' "$log" >"$log.other"
	{
		[ "$pe" = 0 ] || selftest_verdict "$res" "$expected" "$skips"
		[ "$pe" = 0 ] || [ ! -x "$tools/ping_bench" ] || ping_bench_verdict "$res/ping_bench.log"
		fuzz_verdict "$res/fuzz"
		if grep -q 'kcsan: selftest: [0-9]*/[0-9]* tests passed' "$log" &&
			! grep -q 'kcsan: selftest: .*FAIL' "$log"; then
			echo "PASS KCSAN boot selftest"
		else
			echo "FAIL KCSAN boot selftest: $(grep -m 1 'kcsan: selftest' "$log" || echo 'no result in the log')"
		fi
		splat_scan "KCSAN, sched_proxy_exec=$pe" "$log.other"
		"$TOP/scripts/kcsan-verdict.sh" "$log" "$kbuild/vmlinux" "$src" "$BASE_TAG" HEAD
	} >"$out/kcsan-pe$pe.verdict"
	record_lines " (KCSAN, sched_proxy_exec=$pe)" <"$out/kcsan-pe$pe.verdict"
	sed -n "s/^NOTE /  NOTE /p" "$out/kcsan-pe$pe.verdict"
	sed -n "s/^NOTE \(.*\)/\1 (sched_proxy_exec=$pe)/p" "$out/kcsan-pe$pe.verdict" >>"$out/notes"
}
kcsan_build() {
	if ! "$TOP/scripts/build-kernel.sh" kcsan "$src" "$kbuild" >/dev/null; then
		record FAIL "build: KCSAN kernel" "log: $kbuild/build.log"
		return 1
	fi
	record PASS "build: KCSAN kernel"
	if ! "$TOP/scripts/build-tools.sh" "$src" "$tools" selftests ping_bench >"$out/tools.log" 2>&1; then
		record FAIL "build: futex selftests and ping_fuzz" "log: $out/tools.log"
		return 1
	fi
	record PASS "build: futex selftests and ping_fuzz"
}
kcsan_pe1() { kcsan_boot 1; }
kcsan_pe0() { kcsan_boot 0; }
if in_mode kcsan; then
	kbuild=$WORK/build-kcsan
	check_step "KCSAN kernel and the tools built" kcsan_build
	if step_failed; then
		finish "the KCSAN kernel or the tools did not build"
	fi
	guests "KCSAN, sched_proxy_exec=1: futex selftests and ping_fuzz" kcsan_pe1 \
		"KCSAN, sched_proxy_exec=0: ping_fuzz" kcsan_pe0
	mode_finish
fi

# Bisectability (make check-bisect): every patch builds, and so do the
# selftests, ping_bench and perf at the patches that change them, warnings
# as errors. The kernel of this step is the bisect flavour
# (configs/bisect.config: every futex path and lock debugging on
# tinyconfig), in a tree and build directory of its own, built whole at
# each patch (build_each 1), which catches a header change that breaks a
# file the patch does not touch; build_each 0 compiles only what each
# patch changes (compile_targets) and kernel/futex/. A patch that changes
# nothing the kernel build reads (kernel_unchanged) keeps the build of the
# patch before it. A failing command here fails the step (step runs it
# with errexit), so a failed checkout cannot pass as the previous build.
build_each() {
	local whole=$1 c name files built='' note bcommits targets made
	"$TOP/scripts/queue.sh" "$bisect_src" >"$out/queue-bisect.txt"
	mapfile -t bcommits <"$out/queue-bisect.txt"
	for c in "${bcommits[@]}"; do
		name=${c#* }
		git -C "$bisect_src" checkout -q --detach "${c%% *}"
		files=$(git -C "$bisect_src" diff --name-only "${c%% *}^" "${c%% *}")
		note=''
		targets=''
		made=''
		[ "$whole" = 1 ] || targets=$(compile_targets "$bisect_src" <<<"$files")
		if [ -n "$built" ] && kernel_unchanged <<<"$files"; then
			note="kernel unchanged"
		elif ! BUILD_TARGETS=$targets "$TOP/scripts/build-kernel.sh" bisect "$bisect_src" "$bisect" >/dev/null; then
			record FAIL "build: $name" "kernel${targets:+ ($targets)}, log: $bisect/build.log"
			return 1
		else
			note=${targets:+compiled: $targets}
			made=1
		fi
		built=1
		if grep -q '^tools/testing/selftests/futex/' <<<"$files" &&
			! "$TOP/scripts/build-tools.sh" "$bisect_src" "$bisect_tools" selftests; then
			record FAIL "build: $name" "selftests"
			return 1
		fi
		grep -q '^tools/testing/selftests/futex/' <<<"$files" && made=1
		if grep -q '^tools/testing/futex/' <<<"$files" &&
			! "$TOP/scripts/build-tools.sh" "$bisect_src" "$bisect_tools" ping_bench; then
			record FAIL "build: $name" "ping_bench"
			return 1
		fi
		grep -q '^tools/testing/futex/' <<<"$files" && made=1
		if grep -q -E '^tools/(perf|include)/' <<<"$files" &&
			! "$TOP/scripts/build-tools.sh" "$bisect_src" "$bisect_tools" perf; then
			record FAIL "build: $name" "perf"
			return 1
		fi
		grep -q -E '^tools/(perf|include)/' <<<"$files" && made=1
		# A patch of documentation alone is no build (it was counted
		# as one).
		if [ -z "$made" ]; then
			record SKIP "nothing to build: $name" "it changes no file a build reads"
			continue
		fi
		record PASS "build: $name" "$note"
	done
}

if in_mode bisect; then
	check_step "build every patch (the whole bisect kernel)" build_each 1
	mode_finish
fi
# With empty caches, the per-patch build and the arm64 build beside the
# debug kernel and the boots took make check past an hour on two CPUs
# (docs/timings.md): they are make check-bisect's and make check-arm64's.
left_out "every patch built (the bisect kernel, selftests, perf, ping_bench)" "make check-bisect"
left_out "arm64: the kernel and selftests built, booted, futex selftests run" "make check-arm64"
left_out "KCSAN: the kernel built with the data-race detector, futex selftests and ping_fuzz run" "make check-kcsan"

build_tip() {
	if ! "$TOP/scripts/build-kernel.sh" debug "$src" "$build" >/dev/null; then
		record FAIL "build: debug kernel" "log: $build/build.log"
		return 1
	fi
	record PASS "build: debug kernel"
}
bg_start "build the debug kernel" 0 build_tip

# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") fires for every new
# file; instead, every file a patch adds must have a maintainer entry.
# UNKNOWN_COMMIT_ID (a Fixes: tag naming a commit the tree lacks) can only
# be checked in a tree with upstream history: on the Debian import, a
# single commit, it is skipped; with KERNEL_SRC=upstream tree it runs.
checkpatch() {
	local c p r f m ignore=FILE_PATH_CHANGES
	if [ "$(git -C "$src" rev-list --count "$BASE_TAG")" = 1 ]; then
		ignore=$ignore,UNKNOWN_COMMIT_ID
	fi
	for c in "${commits[@]}"; do
		p=$PATCHES/${c#* }
		# /usr/bin first: spdxcheck.py needs python3-ply from Debian.
		r=$(cd "$src" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --terse --no-summary \
			--ignore "$ignore" "$p" 2>&1) || true
		for f in $(git -C "$src" diff --name-only --diff-filter=A "${c%% *}^" "${c%% *}"); do
			m=$(cd "$src" && ./scripts/get_maintainer.pl --no-git --no-git-fallback -f "$f" 2>&1) || true
			case $m in
			*"(maintainer:"*) ;;
			*) r="$r${r:+
}$f: no MAINTAINERS entry covers this new file" ;;
			esac
		done
		if [ -z "$r" ]; then
			record PASS "checkpatch --strict: ${c#* }"
		else
			record FAIL "checkpatch --strict: ${c#* }"
			printf '%s\n' "$r" | head -n 10 | sed 's/^/       /' || true
		fi
	done
}

# mail_verdict LABEL MAILDIR SERIESDIR LOG: the messages in MAILDIR of the
# series in SERIESDIR: one per file of it, each with a To:, none to the
# workbench's identity.
mail_verdict() {
	local label=$1 dir=$2 sdir=$3 log=$4 m want bad noto f
	m=$(find "$dir" -name '*.eml' 2>/dev/null | wc -l)
	want=$(find "$sdir" -name '*.patch' | wc -l)
	# The recipients: To, Cc and Bcc, continuation lines unfolded.
	bad=$(for f in "$dir"/*.eml; do
		[ -f "$f" ] || continue
		awk 'NR == 1, /^$/' "$f" |
			awk '/^[ \t]/ { h = h $0; next } { if (h != "") print h; h = $0 } END { print h }' |
			grep -i -E '^(To|Cc|Bcc):' |
			grep -i -o -E '[^ <,]*(a-seed-|workbench@localhost)[^ >,]*' || true
	done | sort -u | tr '\n' ' ')
	# To: in the header, counted: grep -q at the end of a pipe would end it
	# early, and pipefail would take that for a failure.
	noto=$(for f in "$dir"/*.eml; do
		[ -f "$f" ] || continue
		[ "$(sed -n '1,/^$/p' "$f" | grep -c '^To: ' || true)" -gt 0 ] || echo "$f"
	done)
	if [ "$m" -ne "$want" ]; then
		record FAIL "$label" "$m messages for $want files, log: $log"
	elif [ -n "$bad" ]; then
		record FAIL "$label" "addressed to $bad"
	elif [ -n "$noto" ]; then
		record FAIL "$label" "a message without To: $(head -n 1 <<<"$noto")"
	else
		record PASS "$label ($m messages)"
	fi
}

# Every series can be mailed: scripts/send.sh sends it through a sendmail
# stand-in that keeps the messages. One message per file of the series,
# each To someone MAINTAINERS names, none to the workbench's own identity
# (the patches' author) or to the committer of the base import.
mailable() {
	local d n stub=$out/sendmail
	# shellcheck disable=SC2016 # expanded by the stand-in
	printf '#!/bin/sh\n# make check: keep the message, send nothing.\ncat >"$MAILDIR/$(date +%%s%%N).eml"\n' >"$stub"
	chmod +x "$stub"
	while IFS= read -r d; do
		n=${d##*/}
		rm -rf "$out/mail/$n"
		mkdir -p "$out/mail/$n"
		if ! MAILDIR=$out/mail/$n SEND=1 SENDMAIL=$stub KERNEL_TREE=$src "$TOP/scripts/send.sh" "$n" \
			--from="make check <make-check@localhost.invalid>" >"$out/mail/$n.log" 2>&1; then
			record FAIL "mailable: $n" "send.sh failed, log: $out/mail/$n.log"
			tail -n 5 "$out/mail/$n.log" | sed 's/^/       /'
			continue
		fi
		mail_verdict "mailable: $n" "$out/mail/$n" "$d" "$out/mail/$n.log"
	done < <(series_dirs)
}

# LAVA: every job of lava/ (debug and bench, x86_64 and arm64, QEMU and
# boards) checked offline against lava-common's job schema, which must
# also reject a job with a planted error.
lava_schema() {
	local v bad=$out/lava/planted-invalid.yaml
	mkdir -p "$out/lava"
	"$TOP/scripts/lava.sh" validate | record_lines ""
	sed 's/^    method: qemu$/    method: qemu-typo/' "$WORK/lava/validate/futex-debug-x86_64.yaml" >"$bad"
	v=$(/usr/bin/python3 "$TOP/scripts/lava-validate.py" "$bad" || true)
	if grep -q '^FAIL lava job planted-invalid.yaml' <<<"$v"; then
		record PASS "detector fires: an invalid LAVA job"
	else
		record FAIL "detector fires: an invalid LAVA job" "$v"
	fi
}

build_tools() {
	"$TOP/scripts/build-tools.sh" "$src" "$tools" selftests selftests32 ping_bench pingmutex
	# The LAVA job's ramdisk has no C library.
	STATIC=1 "$TOP/scripts/build-tools.sh" "$src" "$static_tools" selftests
}

# b4_mailable: every series as b4 would send it (scripts/b4-send.sh, b4
# send -o: written, not sent): one message per patch and the cover letter,
# each with a To:, none to the workbench's identity.
b4_mailable() {
	local d n
	rm -rf "$out/b4"
	# sendemail.smtpServer set: b4 would otherwise pick its web endpoint,
	# which -o never reaches but which wants a signature. b4 copies the
	# patches' Signed-off-by addresses, the workbench's identity until
	# the sender re-signs them as themselves (docs/sending.md): here the
	# sender is that identity, and --not-me-too leaves it out, as it
	# leaves out a real sender's own address.
	local me
	me=$(awk '/^From: / { f = 1; l = $0; next } f && /^[ \t]/ { l = l $0; next } f { print l; exit }' \
		"$(series_patches "$(series_dirs | head -n 1)" | head -n 1)" | sed 's/.*<\(.*\)>.*/\1/')
	if ! GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=sendemail.smtpserver GIT_CONFIG_VALUE_0=/bin/false \
		GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1="$me" \
		QUEUE=$out/queue.txt "$TOP/scripts/b4-send.sh" all --no-sign --not-me-too -o "$out/b4" \
		>"$out/b4.log" 2>&1; then
		record FAIL "mailable (b4)" "b4-send.sh failed, log: $out/b4.log"
		tail -n 5 "$out/b4.log" | sed 's/^/       /'
		return 0
	fi
	while IFS= read -r d; do
		n=${d##*/}
		mail_verdict "mailable (b4): $n" "$out/b4/$n" "$d" "$out/b4.log"
	done < <(series_dirs)
}

# While the debug kernel builds: the checks that need no guest, and the
# programs the guests run.
if in_mode full; then
	# b4 (get_maintainer.pl for every patch, in Python) takes about as
	# long as the workbench tests spend waiting for their time-outs.
	[ ${#commits[@]} -eq 0 ] || bg_start "series mailable (b4)" 0 b4_mailable
	if [ ${#commits[@]} -gt 0 ]; then
		check_step "checkpatch --strict" checkpatch
		check_step "series mailable (git send-email)" mailable
	fi
	check_step "LAVA jobs against the schema" lava_schema
	bg_wait "series mailable (b4)" || true
else
	left_out "workbench tests, model, checkpatch, mailable, LAVA schema" "mode $mode"
fi
step "build the futex selftests (x86_64, i386, static), ping_bench and pingmutex" build_tools
! step_failed || finish "the futex selftests do not build"
bg_wait "workbench tests" || true
bg_wait "model of the PING word protocol" || true
bg_wait "build the debug kernel" || finish "the debug kernel does not build"
kernel=$build/arch/x86/boot/bzImage
tdir32=$tools/kselftest32/futex/functional
[ -n "$(ls -A "$tdir" 2>/dev/null)" ] || finish "no futex selftests in $tdir"
[ -n "$(ls -A "$tdir32" 2>/dev/null)" ] || finish "no i386 futex selftests in $tdir32"

# The detectors are trusted only once seen to fire: a hung guest, and two
# boots with planted faults whose evidence the same verdict functions as
# the real runs must judge red, each for its own reason, and which end in
# a panic that vm.sh must report as one. futex_wait_timeout runs
# unchanged and must stay green.
# expect_red VERDICT_FILE WHAT REGEX: the planted fault WHAT was judged
# red: a line of VERDICT_FILE matches REGEX.
expect_red() {
	if grep -q -E "$3" "$1"; then
		record PASS "detector fires: $2"
	else
		record FAIL "detector fires: $2" "no '$3' in $1"
	fi
}
hung_guest() {
	# Fires while the guest still boots or once it sleeps: the same
	# timeout ends both.
	if "$TOP/scripts/vm.sh" -t 30 -a kmemleak=off "$kernel" "$out/vm-hang.log" -- sleep 600 \
		2>"$out/vm-hang.err" || ! grep -q 'did not finish within 30s' "$out/vm-hang.err"; then
		record FAIL "detector fires: hung guest"
		cat "$out/vm-hang.err" >&2
	else
		record PASS "detector fires: hung guest"
	fi
}
# The planted-fault boot: the guest leaves the same evidence as a real
# run, and the verdict functions must judge it red. The same boot
# tortures locktorture's lock_busted, a "lock" that excludes nobody,
# which locktorture_verdict must judge red, and ends with a panic
# (sysrq c).
planted() {
	local res=$WORK/guest/check-planted v
	rm -rf "$res"
	if "$TOP/scripts/vm.sh" -t 1200 -a kmemleak=off -a locktorture.torture_type=lock_busted \
		-a locktorture.stat_interval=5 -a locktorture.nwriters_stress=2 "$kernel" "$out/planted.log" -- \
		"$TOP/tests/guest-planted.sh" "$tdir" "$res" >"$out/planted.out" 2>&1 ||
		! grep -q 'guest kernel panicked' "$out/planted.out"; then
		record FAIL "detector fires: guest panic"
		tail -n 5 "$out/planted.out" >&2
	else
		record PASS "detector fires: guest panic"
	fi
	v=$(
		selftest_verdict "$res" <(grep -E '^(futex_wait_timeout|futex_requeue|futex_wait_wouldblock) ' "$expected") /dev/null
		splat_scan planted "$res/dmesg.txt"
		locktorture_verdict lock_busted "$res/torture-dmesg.txt"
	)
	printf '%s\n' "$v" >"$out/planted.verdict"
	v=$out/planted.verdict
	expect_red "$v" "a failing selftest case" '^FAIL selftest futex_requeue: global.requeue_multiple$'
	expect_red "$v" "a missing selftest" '^FAIL selftest futex_wait_wouldblock: did not run$'
	expect_red "$v" "a kernel WARNING" '^FAIL kernel log clean \(planted\): WARNING: '
	expect_red "$v" "a lockdep report" '^FAIL kernel log clean \(planted\): lockdep: '
	expect_red "$v" "a hung task" '^FAIL kernel log clean \(planted\): hung task: '
	expect_red "$v" "locktorture of a broken lock" '^FAIL locktorture lock_busted: mutual exclusion broken'
	expect_red "$v" "a passing selftest stays green" '^PASS selftest futex_wait_timeout: global.wait_bitset$'
	if grep -q -E '^FAIL selftest futex_wait_timeout' "$v"; then
		record FAIL "detector fires: only on the planted faults" "$(grep -m 1 '^FAIL selftest futex_wait_timeout' "$v")"
	fi
}
# The second planted-fault boot: the reports that taint the kernel (which
# turns lockdep off, so they cannot come before the first boot's lockdep
# plant, nor after it: its spinlock held leaves that CPU atomic). Beside
# the first boot, after the hung guest, which takes a fraction of its time.
planted_oops() {
	local res=$WORK/guest/check-planted-oops v=$out/planted-oops.verdict
	rm -rf "$res"
	# Its own panic, at its end: not one of an oops plant (oops=panic).
	if "$TOP/scripts/vm.sh" -t 600 -a kmemleak=off "$kernel" "$out/planted-oops.log" -- \
		"$TOP/tests/guest-planted-oops.sh" "$res" >"$out/planted-oops.out" 2>&1 ||
		! grep -q 'guest kernel panicked' "$out/planted-oops.out" || [ ! -e "$res/done" ] ||
		! grep -a -q 'Kernel panic - not syncing: sysrq triggered crash' "$out/planted-oops.log"; then
		record FAIL "guest run: planted oopses" "the boot did not end in its own panic (sysrq c)"
		tail -n 5 "$out/planted-oops.out" >&2
	else
		record PASS "guest run: planted oopses"
	fi
	splat_scan "planted oops" "$res/dmesg.txt" >"$v"
	expect_red "$v" "a KASAN report" '^FAIL kernel log clean \(planted oops\): KASAN: BUG: KASAN: slab-use-after-free'
	expect_red "$v" "an oops (BUG())" '^FAIL kernel log clean \(planted oops\): oops: kernel BUG at '
	expect_red "$v" "a soft lockup" '^FAIL kernel log clean \(planted oops\): soft lockup: '
	expect_red "$v" "an RCU stall" '^FAIL kernel log clean \(planted oops\): RCU stall: '
}
hung_then_oops() {
	hung_guest
	planted_oops
}
guests "guest failure detection: a hung guest, then planted oopses" hung_then_oops \
	"detectors fire on planted faults, and on a panic" planted
if in_mode planted; then
	left_out "futex selftests, pingmutex, locktorture, 17 vCPUs, fault injection" "mode planted"
	finish
fi

# The futex selftests with Proxy Execution, every case judged from its
# KTAP output; then a smoke run of ping_bench, the i386 build of the
# selftests, through the compat entry (FUTEX_SET_WAIT's val2 in a 32-bit
# uaddr2 slot, the PING ops, compat robust lists, 32-bit time), and
# pthread mutexes on PING: libpingmutex's tests and unmodified Debian
# programs on it (tests/guest-peers.sh, judged against tests/peers.expected);
# last, ping_fuzz (fuzz_check).
selftests_pe1() {
	local log=$out/selftests-pe1.log res=$WORK/guest/check-pe1 cmd
	rm -rf "$res"
	cmd=$(printf '%q ' "$TOP/tests/guest-selftests.sh" "$tdir" "$res")
	[ ! -x "$tools/ping_bench" ] ||
		cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-ping-bench.sh" "$tools/ping_bench" "$res")"
	cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-selftests.sh" "$tdir32" "$res/i386")"
	cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-peers.sh" "$tools/pingmutex" "$res/peers")"
	[ ! -x "$tools/ping_fuzz" ] ||
		cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-fuzz.sh" "$tools/ping_fuzz" "$res/fuzz" "$fuzz_secs" "${fuzz_args[@]}")"
	guest_run "selftests, sched_proxy_exec=1" "$log" -t "${SELFTEST_TIMEOUT:-1800}" \
		-a sched_proxy_exec=1 -a panic_on_warn=1 -a kmemleak=off "$kernel" "$log" -- \
		bash -c "$cmd"
	{
		selftest_verdict "$res" "$expected" "$skips"
		if [ -x "$tools/ping_bench" ]; then
			ping_bench_verdict "$res/ping_bench.log"
		else
			printf 'SKIP ping_bench smoke: not in this queue (no tools/testing/futex)\n'
		fi
		splat_scan "sched_proxy_exec=1" "$log" "$res/dmesg.txt"
	} | record_lines " (sched_proxy_exec=1)"
	cat "$skips" "$TOP/tests/selftests-i386.skips" >"$out/selftests-i386.skips"
	{
		selftest_verdict "$res/i386" "$expected" "$out/selftests-i386.skips"
		splat_scan "i386, sched_proxy_exec=1" "$res/i386/dmesg.txt"
	} | record_lines " (i386, sched_proxy_exec=1)"
	{
		selftest_verdict "$res/peers" "$TOP/tests/peers.expected" /dev/null
		splat_scan "pingmutex, sched_proxy_exec=1" "$res/peers/dmesg.txt"
	} | record_lines " (pingmutex, sched_proxy_exec=1)"
	fuzz_check "$res/fuzz" "sched_proxy_exec=1"
}

# ping_fuzz (tools/testing/futex, series 06) for FUZZ_SECONDS at the end
# of a boot of the debug kernel: it must end by its deadline with exit
# status 0 (its seed, printed, replays its decisions: ping_fuzz -s SEED),
# and the kernel log must stay clean. A queue without it says so.
fuzz_check() { # fuzz_check DIR LABEL
	if [ ! -x "$tools/ping_fuzz" ]; then
		record SKIP "ping_fuzz: not in this queue (no tools/testing/futex/ping_fuzz.c)"
		return
	fi
	{
		fuzz_verdict "$1"
		splat_scan "ping_fuzz, $2" "$1/dmesg.txt"
	} | record_lines " ($2)"
}

# lava_boot NAME DIR VAR=VALUE...: the x86_64 LAVA job of lava/ that the
# variables make (LAVA_PROXY_EXEC, LAVA_CPUS, LAVA_PROGRAMS, LAVA_TORTURE:
# scripts/lava.sh) under lava-run on this kernel and the static
# selftests, in DIR: its log DIR/run/job.log, its results
# DIR/results/results.tsv, the guest's console DIR/results/console-job.txt.
# A boot from the LAVA ramdisk (busybox) takes a fraction of a virtme-ng
# boot of the host's root, whose init spends minutes in a KASAN guest.
lava_boot() {
	local name=$1 d=$2
	shift 2
	mkdir -p "$d"
	if ! env "$@" LAVA_RUN_TIMEOUT="${SELFTEST_TIMEOUT:-1800}" "$TOP/scripts/lava.sh" check "$kernel" \
		"$static_tools" "$d" >"$d/lava.out" 2>&1; then
		record FAIL "lava-run: $name" "$(grep -m 1 '^  lava-run: [0-9]' "$d/lava.out" | sed 's/^ *lava-run: //'), log: $d/run/job.log"
		# The guest's last words, where a boot that never reached its
		# prompt shows why.
		tail -n 15 "$d/results/console-job.txt" >&2 2>/dev/null
	else
		record PASS "lava-run: $name"
	fi
	# A boot that LAVA tried again (failure_retry): said, with why, here
	# and in the summary.
	sed -n 's/.*"lvl": "error", "msg": "\(boot-[a-z-]*retry failed: [0-9]* of [0-9]* attempts[^"]*\)".*/\1/p' \
		"$d/run/job.log" 2>/dev/null | while IFS= read -r why; do
		printf '  NOTE %s: %s\n' "$name" "$why"
		printf '%s: %s\n' "$name" "$why" >>"$out/notes"
	done
}

# The futex selftests without Proxy Execution, as the x86_64 debug job of
# lava/ run end to end under lava-run (Debian's lava-dispatcher) on a
# local QEMU device, on this kernel, with a ramdisk of the statically
# linked selftests: every case a LAVA result, judged against the same
# list (the priority inheritance cases and the donor wake may skip
# without Proxy Execution: tests/selftests-pe0.skips), and the guest's
# console scanned as every other boot's log.
selftests_pe0_lava() {
	local d=$out/lava allowed=$out/selftests-pe0.skips
	cat "$skips" "$TOP/tests/selftests-pe0.skips" >"$allowed"
	lava_boot "x86_64 debug job, sched_proxy_exec=0" "$d" LAVA_PROXY_EXEC=0
	{
		lava_verdict "$d/results/results.tsv" "$d/run/job.log" "$expected" "$allowed" \
			"$d/results/console-job.txt"
		splat_scan "LAVA" "$d/results/console-job.txt"
	} | record_lines " (LAVA, sched_proxy_exec=0)"
}
# locktorture's mutex and ww_mutex torture with Proxy Execution on: series
# 05 changes how task_struct::blocked_on names a mutex, and mutexes must
# work as before. A broken lock turns this red (planted()). Each torture
# runs from boot for LOCKTORTURE_SECONDS in a guest of its own (its
# writers starve anything beside them on two vCPUs), the LAVA torture
# job, whose ramdisk boots in seconds.
torture() { # torture TYPE
	local t=$1 d=$out/locktorture-$1
	lava_boot "locktorture $t" "$d" LAVA_TORTURE="$t" LAVA_TORTURE_SECONDS="${LOCKTORTURE_SECONDS:-60}"
	{
		if grep -q -P '\tlocktorture\tpass\t' "$d/results/results.tsv" 2>/dev/null; then
			printf 'PASS lava locktorture %s\n' "$t"
		else
			printf 'FAIL lava locktorture %s: no pass result (%s)\n' "$t" "$d/results/results.tsv"
		fi
		locktorture_verdict "$t" "$d/results/console-job.txt"
		splat_scan "locktorture $t" "$d/results/console-job.txt"
	} | record_lines ""
}

# futex_priv_hash checks the automatic growth of the private hash, which
# happens only with more than 16 CPUs: a 17-vCPU TCG guest has them on
# this 2-CPU host (the LAVA debug job with only this program). Skipping
# is not allowed here.
priv_hash() {
	local d=$out/priv-hash
	lava_boot "futex_priv_hash, 17 vCPUs" "$d" LAVA_CPUS=17 LAVA_PROGRAMS=futex_priv_hash
	{
		lava_verdict "$d/results/results.tsv" "$d/run/job.log" <(grep '^futex_priv_hash ' "$expected") /dev/null \
			"$d/results/console-job.txt"
		splat_scan "17 vCPUs" "$d/results/console-job.txt"
	} | record_lines " (17 vCPUs)"
}

# fail_futex: faults injected under stress, as the fault-injection job of
# lava/ (futex-lava.sh failfutex: nine stress programs of at most
# FAILFUTEX_SECONDS each). The programs' own verdicts do not count; the
# kernel's do: no report, no leak (kmemleak), no hang, and faults must
# really have been injected. The ramdisk boots in a minute where a
# virtme-ng boot of the host's root with kmemleak on took six.
failfutex() {
	local d=$out/failfutex
	lava_boot "fault injection" "$d" LAVA_FAILFUTEX="${FAILFUTEX_SECONDS:-30}"
	{
		failfutex_verdict "$d/results"
		splat_scan "fault injection" "$d/results/console-job.txt"
	} | record_lines ""
}
# pthread mutexes on PING without Proxy Execution: libpingmutex's tests
# and the programs run on it, as in selftests_pe1.
peers_pe0() {
	local log=$out/peers-pe0.log res=$WORK/guest/check-peers-pe0 cmd
	rm -rf "$res"
	cmd=$(printf '%q ' "$TOP/tests/guest-peers.sh" "$tools/pingmutex" "$res")
	[ ! -x "$tools/ping_fuzz" ] ||
		cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-fuzz.sh" "$tools/ping_fuzz" "$res/fuzz" "$fuzz_secs" "${fuzz_args[@]}")"
	guest_run "pingmutex and ping_fuzz, sched_proxy_exec=0" "$log" -t "${SELFTEST_TIMEOUT:-1800}" \
		-a sched_proxy_exec=0 -a panic_on_warn=1 -a kmemleak=off "$kernel" "$log" -- \
		bash -c "$cmd"
	{
		selftest_verdict "$res" "$TOP/tests/peers.expected" /dev/null
		splat_scan "pingmutex, sched_proxy_exec=0" "$log" "$res/dmesg.txt"
	} | record_lines " (pingmutex, sched_proxy_exec=0)"
	fuzz_check "$res/fuzz" "sched_proxy_exec=0"
}
# Two guests at a time, one of them a LAVA job (one lava-run at a time),
# each pair about as long as its other half: the virtme-ng boots of the
# host's root (the selftests with Proxy Execution, pingmutex and ping_fuzz
# without) beside the LAVA jobs, whose busybox ramdisk boots in a minute.
lava_pe0() {
	selftests_pe0_lava
	torture mutex_lock
	torture ww_mutex_lock
	priv_hash
}
guests "futex selftests, sched_proxy_exec=1 (and ping_bench, i386, pingmutex, ping_fuzz)" selftests_pe1 \
	"futex selftests, sched_proxy_exec=0 (the LAVA debug job under lava-run), locktorture mutex_lock and ww_mutex_lock, futex_priv_hash with 17 vCPUs" lava_pe0
guests "pingmutex and ping_fuzz, sched_proxy_exec=0" peers_pe0 \
	"futex stress under fault injection (LAVA)" failfutex

finish
