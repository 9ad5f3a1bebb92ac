#!/usr/bin/env bash
# check.sh: "make check". It runs the steps of one table,
# scripts/check/table.sh, in its order (docs/check.md lists them and
# says what each does): each step's function is in scripts/check/steps/,
# the runner (the background steps and the guest boots side by side, the
# SKIP lines, the summary, Ctrl-C) in scripts/check/runner.sh. This file
# takes the mode and the settings, and sets the paths the steps use.
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
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/check/verdict.sh
. "$TOP/scripts/check/verdict.sh"

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
case ${CHECK_GUESTS:-3} in 1 | 2 | 3) ;; *) usage_error "CHECK_GUESTS=$CHECK_GUESTS: 1, 2 or 3" ;; esac
for var in KCSAN_SKIP_WATCH FUZZ_SECONDS FAILFUTEX_SECONDS SELFTEST_TIMEOUT CHECK_DISK_GIB; do
	case ${!var:-1} in *[!0-9]* | 0) usage_error "$var=${!var}: a number above 0" ;; esac
done
[ "$n_modes" -le 1 ] || usage_error "CHECK_PLANTED_ONLY, CHECK_ARM64_ONLY, CHECK_BISECT, CHECK_KCSAN: one at a time"
# A KERNEL_SRC that cannot be the base is refused now, before anything is
# deleted (queue.sh makes the tree from it).
check_kernel_src
# A make check from a fresh clone grew the disk's use by 6.6 GiB: these
# directories of work/ and the caches (docs/timings.md).
need_disk "${CHECK_DISK_GIB:-8}" "make check" linux src-check build-debug tools-debug tools-lava \
	b4 check model

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
# A guest that stalled in its boot and was booted again (vm.sh) says so
# here, so that the summary tells it.
export VM_NOTES=$out/notes
# The debug kernel the boots run, the i386 selftests, make check-kcsan's
# kernel.
kernel=$build/arch/x86/boot/bzImage
tdir32=$tools/kselftest32/futex/functional
kbuild=$WORK/build-kcsan

# shellcheck source=scripts/check/runner.sh
. "$TOP/scripts/check/runner.sh"
# shellcheck source=scripts/check/steps/prepare.sh
. "$TOP/scripts/check/steps/prepare.sh"
# shellcheck source=scripts/check/steps/selfcheck.sh
. "$TOP/scripts/check/steps/selfcheck.sh"
# shellcheck source=scripts/check/steps/bisect.sh
. "$TOP/scripts/check/steps/bisect.sh"
# shellcheck source=scripts/check/steps/arm64.sh
. "$TOP/scripts/check/steps/arm64.sh"
# shellcheck source=scripts/check/steps/kcsan.sh
. "$TOP/scripts/check/steps/kcsan.sh"
# shellcheck source=scripts/check/steps/builds.sh
. "$TOP/scripts/check/steps/builds.sh"
# shellcheck source=scripts/check/steps/static.sh
. "$TOP/scripts/check/steps/static.sh"
# shellcheck source=scripts/check/steps/detectors.sh
. "$TOP/scripts/check/steps/detectors.sh"
# shellcheck source=scripts/check/steps/boots.sh
. "$TOP/scripts/check/steps/boots.sh"
# shellcheck source=scripts/check/table.sh
. "$TOP/scripts/check/table.sh"

trap 'finish "interrupted"' INT TERM
touch "$tally"
run_steps
