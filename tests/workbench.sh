#!/usr/bin/env bash
# workbench.sh [TEST...]: the workbench's own tests. Each proves one promise
# of the scripts (round trip, refusals, one-line errors, cleanup on
# signals, locking) on small fake inputs, so none needs the kernel download.
# Prints one PASS/FAIL line per test and ends with "workbench: N passed, N
# failed"; exits non-zero if one failed. With TEST names, runs only those.
# planted-bugs-are-caught runs a copy of this file against copies of the
# scripts with bugs planted in them: the tests must catch each.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
# For check.sh: a planted check.sh that gets past its refusals must not
# start these tests (and with them the plant) again.
export FUTEX_WORKBENCH_TEST=1
T=$(mktemp -d /tmp/workbench-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0 times=()
only=" $* "

# run NAME FUNCTION: run one test in a subshell with errexit, so that any
# failing command in it fails the test. Bash ignores errexit inside any
# command whose status is tested (if, &&, ||, !), subshells included:
# the subshell must not be one, hence the status taken from $? after it
# (and set +e around it: run-fails-on-any-step calls run with errexit on).
# So run itself must not be called in such a context either.
# inherit_errexit: a failing command inside $(...) counts as well.
# Commands that may fail by design are written so (|| true, if, !). The
# ERR trap names the command that failed.
run() {
	local name=$1 rc e=${-//[^e]/} t0=$SECONDS
	shift
	case $only in "  " | *" $name "*) ;; *) return 0 ;; esac
	set +e
	(
		set -eE
		shopt -s inherit_errexit
		trap 'echo "failed (exit $?): $BASH_COMMAND"' ERR
		"$@"
	) >"$T/$name.log" 2>&1
	rc=$?
	times+=("$((SECONDS - t0)) $name")
	[ -z "$e" ] || set -e
	if [ "$rc" -eq 0 ]; then
		printf 'PASS %s\n' "$name"
		pass=$((pass + 1))
	else
		printf 'FAIL %s\n' "$name"
		sed 's/^/     /' "$T/$name.log" | tail -n 15
		fail=$((fail + 1))
	fi
}

# expect_fail PATTERN CMD...: CMD must fail and say PATTERN on stderr, in
# one ERROR: line.
expect_fail() {
	local pat=$1
	shift
	if "$@" >"$T/out" 2>"$T/err"; then
		echo "expected failure, got success: $*"
		return 1
	fi
	grep -q -E "^ERROR: .*$pat" "$T/err" || {
		echo "no 'ERROR: ...$pat' line from: $*"
		cat "$T/err"
		return 1
	}
}

# expect_usage PATTERN CMD...: CMD must refuse its input: exit status 2 and
# nothing on stderr but one line, ERROR: ...PATTERN.
expect_usage() {
	local pat=$1 rc=0
	shift
	"$@" >"$T/out" 2>"$T/err" || rc=$?
	if [ "$rc" -ne 2 ] || [ "$(wc -l <"$T/err")" -ne 1 ] ||
		! grep -q -E "^ERROR: .*$pat" "$T/err"; then
		echo "expected exit status 2 and one line 'ERROR: ...$pat', got $rc and:"
		cat "$T/err"
		return 1
	fi
}

# wait_for SECONDS CMD...: poll CMD every 0.1s until it succeeds.
wait_for() {
	local n=$(($1 * 10))
	shift
	until "$@"; do
		n=$((n - 1))
		[ "$n" -gt 0 ] || return 1
		sleep 0.1
	done
}

# running PID...: one of them is alive (zombies, which no one reaps in
# some containers, count as ended).
running() {
	local p s
	for p; do
		s=$(cat "/proc/$p/stat" 2>/dev/null) || continue
		s=${s##*) }
		[ "${s%% *}" = Z ] || return 0
	done
	return 1
}

ended() {
	! running "$@"
}

# fake_kernel DIR [VERSION PATCHLEVEL]: a tiny stand-in for the kernel
# source (7.3 by default), used through KERNEL_SRC.
fake_kernel() {
	local d=$1
	mkdir -p "$d"
	git -C "$d" init -q -b master
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 4\nall:\n\ttrue\n' \
		"${2:-7}" "${3:-3}" >"$d/Makefile"
	printf 'int futex(void);\n' >"$d/futex.c"
	git -C "$d" add -A
	git -C "$d" -c user.name=t -c user.email=t@t commit -q -m "v7.3"
}

env_for() { # env_for DIR: an isolated workbench around DIR
	export WORK=$1/work PATCHES=$1/patches FUTEX_CACHE=$1/cache
	export LINUX=$1/work/linux KERNEL_SRC=$1/src
	# An identity for the test commits, also where git config has none.
	export GIT_AUTHOR_NAME=T GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=T GIT_COMMITTER_EMAIL=t@t
	# Run by make check, the tests inherit its notes file: a planted
	# stall must not be noted there.
	unset VM_NOTES
	mkdir -p "$PATCHES"
}

commit() { # commit FILE LINE SUBJECT
	printf '%s\n' "$2" >>"$LINUX/$1"
	git -C "$LINUX" add "$1"
	git -C "$LINUX" commit -q -m "$3" -m "Explain why $3."
}

# run itself: a test whose early step fails while its last succeeds fails.
early_failure() {
	false
	true
}
t_run_fails_on_any_step() {
	local before=$fail
	only="  "
	run early-failure early_failure >/dev/null
	[ "$fail" -eq $((before + 1)) ]
}

t_shellcheck() {
	cd "$TOP"
	shellcheck -x scripts/*.sh scripts/*/*.sh scripts/check/steps/*.sh tests/*.sh lava/*.sh bench/*.sh .ci/run
}

t_export_round_trip() {
	env_for "$T/rt"
	fake_kernel "$KERNEL_SRC"
	"$TOP/scripts/queue/tree.sh"
	git -C "$LINUX" checkout -q -b series/01-first
	commit futex.c 'int a;' 'futex: Add a'
	commit futex.c 'int b;' 'futex: Add b'
	git -C "$LINUX" config branch.series/01-first.description \
		"$(printf 'futex: First series\n\nIts cover letter.\n\nName (1):\n  not a shortlog')"
	git -C "$LINUX" checkout -q -b series/02-second
	commit other.c 'int c;' 'futex: Add c'
	"$TOP/scripts/queue/export.sh"
	ls "$PATCHES/01-first/0000-cover-letter.patch" "$PATCHES/01-first/0002-futex-Add-b.patch" \
		"$PATCHES/02-second/0001-futex-Add-c.patch"
	grep -q '^Subject: \[PATCH 0/2\] futex: First series' "$PATCHES/01-first/0000-cover-letter.patch"
	# With a cover letter, the base goes there: the base tag, and the
	# series below as prerequisites.
	grep -q '^base-commit: ' "$PATCHES/02-second/0000-cover-letter.patch"
	grep -q '^prerequisite-patch-id: ' "$PATCHES/02-second/0000-cover-letter.patch"
	# The index lines' abbreviation is pinned (git's default grows with
	# the number of objects: a fresh tree would export other bytes).
	grep -q -E '^index [0-9a-f]{9}\.\.[0-9a-f]{9}( |$)' "$PATCHES/02-second/0001-futex-Add-c.patch"
	cp -a "$PATCHES" "$T/rt/first"
	# An unchanged tree exports byte-identical files.
	"$TOP/scripts/queue/export.sh"
	diff -r "$T/rt/first" "$PATCHES"
	# export -> tree -> export is a no-op.
	"$TOP/scripts/queue/tree.sh"
	"$TOP/scripts/queue/export.sh"
	diff -r "$T/rt/first" "$PATCHES"
	desc=$(git -C "$LINUX" config branch.series/01-first.description)
	grep -q 'Its cover letter' <<<"$desc"
}

# A posted version kept in patches/vK/: the next export is v(K+1), make tree
# tags vK for a range-diff, and export -> tree -> export stays a no-op.
t_export_versions() {
	env_for "$T/ver"
	fake_kernel "$KERNEL_SRC"
	"$TOP/scripts/queue/tree.sh"
	git -C "$LINUX" checkout -q -b series/01-first
	commit futex.c 'int a;' 'futex: Add a'
	commit futex.c 'int b;' 'futex: Add b'
	git -C "$LINUX" config branch.series/01-first.description "$(printf 'futex: First\n\nBlurb.')"
	"$TOP/scripts/queue/export.sh"
	grep -q '^Subject: \[PATCH 0/2\] futex: First' "$PATCHES/01-first/0000-cover-letter.patch"
	mkdir -p "$PATCHES/v1"
	cp -a "$PATCHES/01-first" "$PATCHES/v1/"
	"$TOP/scripts/queue/export.sh"
	grep -q '^Subject: \[PATCH v2 0/2\] futex: First' "$PATCHES/01-first/0000-cover-letter.patch"
	grep -q '^Subject: \[PATCH v2 2/2\] futex: Add b' "$PATCHES/01-first/0002-futex-Add-b.patch"
	git -C "$LINUX" commit -q --amend -m 'futex: Add b' -m 'Explain better why.'
	"$TOP/scripts/queue/export.sh"
	cp -a "$PATCHES" "$T/ver/first"
	"$TOP/scripts/queue/tree.sh"
	git -C "$LINUX" rev-parse -q --verify refs/tags/series/01-first-v1 >/dev/null
	"$TOP/scripts/queue/export.sh"
	diff -r "$T/ver/first" "$PATCHES"
	# v1 as posted against the tree: the reworded commit, nothing else.
	rd=$(git -C "$LINUX" range-diff base-7.3.4..series/01-first-v1 base-7.3.4..series/01-first)
	grep -q '^1: .* = 1: .* futex: Add a' <<<"$rd"
	grep -q '^2: .* ! 2: .* futex: Add b' <<<"$rd"
}

# A posted series sits on what its cover letter's prerequisite-patch-id
# lines name, even when that is the newer version of the series before it
# (v1 of 04-06 was sent on v2 of 01-03), not on the folder's older version.
t_posted_on_newer() {
	env_for "$T/pn"
	fake_kernel "$KERNEL_SRC"
	"$TOP/scripts/queue/tree.sh"
	git -C "$LINUX" checkout -q -b series/01-first
	commit futex.c 'int a;' 'futex: Add a'
	git -C "$LINUX" config branch.series/01-first.description "$(printf 'futex: First\n\nBlurb.')"
	"$TOP/scripts/queue/export.sh"
	mkdir -p "$PATCHES/v1"
	cp -a "$PATCHES/01-first" "$PATCHES/v1/"
	sed -i 's/^int a;$/int a2;/' "$LINUX/futex.c"
	git -C "$LINUX" commit -q --amend -a --no-edit
	git -C "$LINUX" checkout -q -b series/02-second
	commit futex.c 'int c;' 'futex: Add c'
	git -C "$LINUX" config branch.series/02-second.description "$(printf 'futex: Second\n\nBlurb.')"
	"$TOP/scripts/queue/export.sh"
	cp -a "$PATCHES/02-second" "$PATCHES/v1/"
	git -C "$LINUX" commit -q --amend -m 'futex: Add c' -m 'Explain better why.'
	"$TOP/scripts/queue/export.sh"
	cp -a "$PATCHES" "$T/pn/saved"
	"$TOP/scripts/queue/tree.sh"
	[ "$(git -C "$LINUX" rev-parse series/02-second-v1~1)" = \
		"$(git -C "$LINUX" rev-parse series/01-first)" ]
	[ "$(git -C "$LINUX" rev-parse series/01-first-v1~1)" = \
		"$(git -C "$LINUX" rev-parse base-7.3.4)" ]
	[ "$(git -C "$LINUX" symbolic-ref HEAD)" = refs/heads/series/02-second ]
	"$TOP/scripts/queue/export.sh"
	diff -r "$T/pn/saved" "$PATCHES"
}

t_tree_refuses_unexported() {
	env_for "$T/ue"
	fake_kernel "$KERNEL_SRC"
	"$TOP/scripts/queue/tree.sh"
	git -C "$LINUX" checkout -q -b series/01-first
	commit futex.c 'int a;' 'futex: Add a'
	expect_fail "not in patches/" "$TOP/scripts/queue/tree.sh"
	echo 'int dirty;' >>"$LINUX/futex.c"
	expect_fail "uncommitted changes" "$TOP/scripts/queue/tree.sh"
	expect_fail "uncommitted changes" "$TOP/scripts/queue/export.sh"
	git -C "$LINUX" checkout -q -- futex.c
	git -C "$LINUX" checkout -q --detach
	commit futex.c 'int b;' 'futex: Add b'
	expect_fail "on no series" "$TOP/scripts/queue/export.sh"
	# The work is still there after every refusal.
	subjects=$(git -C "$LINUX" log --format=%s)
	grep -q 'futex: Add b' <<<"$subjects"
}

t_broken_patch() {
	local n
	env_for "$T/bp"
	fake_kernel "$KERNEL_SRC"
	mkdir -p "$PATCHES/01-broken"
	# A good patch, the broken one, and one after it: the series is
	# applied by one git am, which must still name the patch that failed.
	for n in 1 2 3; do
		cat >"$PATCHES/01-broken/000$n-futex-Patch-$n.patch" <<-P
		From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
		From: T <t@t>
		Date: Mon, 1 Jan 2026 00:00:00 +0000
		Subject: [PATCH] futex: Patch $n

		---
		 new$n.c | 1 +
		 1 file changed, 1 insertion(+)

		diff --git a/new$n.c b/new$n.c
		new file mode 100644
		--- /dev/null
		+++ b/new$n.c
		@@ -0,0 +1 @@
		+int new$n;
		P
	done
	cat >"$PATCHES/01-broken/0002-futex-Patch-2.patch" <<-'P'
	From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
	From: T <t@t>
	Date: Mon, 1 Jan 2026 00:00:00 +0000
	Subject: [PATCH] futex: Break

	---
	 futex.c | 2 +-
	 1 file changed, 1 insertion(+), 1 deletion(-)

	diff --git a/futex.c b/futex.c
	--- a/futex.c
	+++ b/futex.c
	@@ -1 +1 @@
	-int not_in_the_file(void);
	+int futex(int);
	P
	expect_fail "patch does not apply: .*/0002-futex-Patch-2.patch\$" "$TOP/scripts/queue/tree.sh"
	# The patch before it stays applied, to fix the broken one on.
	n=$(git -C "$LINUX" log -1 --format=%s)
	[ "$n" = "futex: Patch 1" ] || { echo "after the failure work/linux is at '$n', not at patch 1"; return 1; }
}

# A stand-in apt-get that "downloads" a file with the wrong content, or
# fails as apt does (FAKE_APT_FAIL=package: no such package; version: no
# such version; network: no archive), to prove fetch-base.sh refuses all.
fake_apt() {
	mkdir -p "$T/bin"
	cat >"$T/bin/apt-get" <<-'A'
	#!/bin/sh
	for a; do
		[ "$a" = download ] || continue
		case ${FAKE_APT_FAIL:-} in
		package) echo "E: Unable to locate package linux-source-7.3" >&2; exit 100 ;;
		version) echo "E: Version '7.3.4-1~bpo13+1' for 'linux-source-7.3' was not found" >&2; exit 100 ;;
		network) echo "E: Failed to fetch http://deb.debian.org/x.deb  Temporary failure resolving 'deb.debian.org'" >&2; exit 100 ;;
		esac
		echo garbage >'linux-source-7.3_7.3.4-1~bpo13+1_all.deb'
	done
	exit 0
	A
	chmod +x "$T/bin/apt-get"
	export PATH=$T/bin:$PATH
}

t_corrupt_download() {
	env_for "$T/cd"
	fake_apt
	expect_fail "sha256 .* expected 703e369d" "$TOP/scripts/setup/fetch-base.sh" "$T/cd/out"
	[ ! -e "$T/cd/out" ]
	[ ! -e "$T/cd/out.unpack" ]
}

t_missing_download() {
	local m
	env_for "$T/md"
	fake_apt
	# A pinned version that the archive has dropped: say so in one line,
	# with what to change and how to list the versions there are.
	for m in package version; do
		FAKE_APT_FAIL=$m expect_fail "apt-get download linux-source-7.3=7.3.4-1~bpo13\+1 failed: .*no longer in the Debian archive; re-pin: set BASE_VER, BASE_SHA256 and BASE_FILES in scripts/lib.sh .*'scripts/setup/apt-private.sh madison linux-source-7.3'" \
			"$TOP/scripts/setup/fetch-base.sh" "$T/md/out"
		[ "$(wc -l <"$T/err")" -eq 1 ] || { cat "$T/err"; return 1; }
	done
	# Any other failure is no reason to re-pin.
	FAKE_APT_FAIL=network expect_fail "apt-get download linux-source-7.3=7.3.4-1~bpo13\+1 failed \(log" \
		"$TOP/scripts/setup/fetch-base.sh" "$T/md/out"
	if grep -q re-pin "$T/err"; then
		echo "a network failure asks for a re-pin"
		return 1
	fi
}

t_build_failure() {
	env_for "$T/bf"
	mkdir -p "$T/bf/src"
	printf 'all tinyconfig olddefconfig bzImage:\n\t@echo "error: broken on purpose" >&2; false\n' \
		>"$T/bf/src/Makefile"
	expect_fail "make tinyconfig failed" "$TOP/scripts/build/build-kernel.sh" guest "$T/bf/src" "$T/bf/out"
}

# one_series: work/linux from the fake kernel, with one series exported.
one_series() {
	fake_kernel "$KERNEL_SRC"
	"$TOP/scripts/queue/tree.sh"
	git -C "$LINUX" checkout -q -b series/01-first
	commit futex.c 'int a;' 'futex: Add a'
	"$TOP/scripts/queue/export.sh"
}

# Bad input: exit status 2, one ERROR: line, and work/linux untouched, even
# with FORCE=1 (which discards unexported work).
t_bad_input() {
	local before after t=$TOP/scripts/queue/tree.sh
	env_for "$T/bi"
	one_series
	commit futex.c 'int b;' 'futex: Add b (not exported)'
	before=$(git -C "$LINUX" for-each-ref; git -C "$LINUX" rev-parse HEAD)
	export FORCE=1
	KERNEL_SRC=$T/bi/nowhere expect_usage "KERNEL_SRC=.*/nowhere is not a directory" "$t"
	mkdir "$T/bi/empty"
	KERNEL_SRC=$T/bi/empty expect_usage "KERNEL_SRC=.*/empty is not a git tree" "$t"
	fake_kernel "$T/bi/v6" 6 12
	KERNEL_SRC=$T/bi/v6 expect_usage "KERNEL_SRC=.*/v6 is not a 7.3 tree \(its Makefile says 6.12\)" "$t"
	KERNEL_REF=no-such-ref expect_usage "KERNEL_REF=no-such-ref is not a commit of KERNEL_SRC" "$t"
	after=$(git -C "$LINUX" for-each-ref; git -C "$LINUX" rev-parse HEAD)
	[ "$before" = "$after" ] || { echo "tree.sh changed work/linux on bad input"; return 1; }
	# The other scripts' usage errors.
	expect_usage "usage: queue.sh DIR" "$TOP/scripts/queue/queue.sh"
	expect_usage "usage: vm.sh" "$TOP/scripts/guest/vm.sh"
	expect_usage "already exists" "$TOP/scripts/setup/fetch-base.sh" "$LINUX"
	# make check refuses a bad KERNEL_SRC before it deletes work/check.
	mkdir -p "$WORK/check"
	touch "$WORK/check/tally"
	KERNEL_SRC=$T/bi/v6 expect_usage "KERNEL_SRC=.*/v6 is not a 7.3 tree" "$TOP/scripts/check/check.sh"
	[ -f "$WORK/check/tally" ] || { echo "check.sh deleted work/check on bad input"; return 1; }
	# A good KERNEL_REF: a branch of KERNEL_SRC.
	KERNEL_REF=master "$t"
	[ "$(git -C "$LINUX" rev-parse base-7.3.4)" = "$(git -C "$KERNEL_SRC" rev-parse master)" ]
	# Another KERNEL_REF once work/linux exists: the queue is made on it,
	# not on the base the tree was made from.
	printf '# another 7.3 commit\n' >>"$KERNEL_SRC/Makefile"
	git -C "$KERNEL_SRC" -c user.name=t -c user.email=t@t commit -q -a -m "v7.3 again"
	KERNEL_REF=master "$TOP/scripts/queue/queue.sh" "$T/bi/q" >/dev/null 2>"$T/bi/q.err" || {
		cat "$T/bi/q.err"
		return 1
	}
	[ "$(git -C "$T/bi/q" rev-parse base-7.3.4)" = "$(git -C "$KERNEL_SRC" rev-parse master)" ] || {
		echo "queue.sh kept the old base:"
		cat "$T/bi/q.err"
		return 1
	}
	grep -q 'KERNEL_SRC asks for git' "$T/bi/q.err"
	# The same KERNEL_SRC again: nothing is made again.
	KERNEL_REF=master "$TOP/scripts/queue/queue.sh" "$T/bi/q" >/dev/null 2>"$T/bi/q.err"
	! grep -q 'making it again' "$T/bi/q.err"
}

# make check compiles, at each patch, the directories of the C files it
# changes (the objects, in a directory with subdirectories) and
# kernel/futex/; headers, tools and documentation have no target.
t_compile_targets() {
	local d=$T/ct got
	mkdir -p "$d/kernel/futex" "$d/kernel/sched" "$d/init" "$d/include/linux" "$d/tools/x"
	touch "$d/kernel/Makefile" "$d/kernel/futex/Makefile" "$d/kernel/sched/Makefile" "$d/init/Makefile" \
		"$d/tools/x/Makefile"
	# lib.sh in a shell of its own: it sets TOP and WORK.
	ct() { bash -c '. "$1/scripts/lib.sh" && compile_targets "$2"' ct "$TOP" "$d"; }
	got=$(printf '%s\n' include/linux/sched.h kernel/fork.c kernel/sched/core.c kernel/sched/sched.h \
		init/init_task.c tools/x/a.c Documentation/a.rst kernel/futex/Makefile | ct)
	[ "$got" = "init/ kernel/fork.o kernel/futex/ kernel/sched/" ] || { echo "got: '$got'"; return 1; }
	got=$(printf 'include/linux/restart_block.h\n' | ct)
	[ "$got" = "kernel/futex/" ] || { echo "got: '$got'"; return 1; }
}

# make check's modes: 1, 0 or unset, one at a time; anything else is bad
# input, refused before anything is deleted.
t_check_modes() {
	env_for "$T/cm"
	mkdir -p "$WORK/check"
	touch "$WORK/check/keep"
	CHECK_PLANTED_ONLY=yes expect_usage "CHECK_PLANTED_ONLY=yes: 1, 0 or unset" "$TOP/scripts/check/check.sh"
	KCSAN_SKIP_WATCH=abc expect_usage "KCSAN_SKIP_WATCH=abc: a number above 0" "$TOP/scripts/check/check.sh"
	FAILFUTEX_SECONDS=0 expect_usage "FAILFUTEX_SECONDS=0: a number above 0" "$TOP/scripts/check/check.sh"
	FUZZ_SECONDS=1m expect_usage "FUZZ_SECONDS=1m: a number above 0" "$TOP/scripts/check/check.sh"
	CHECK_PLANTED_ONLY=1 CHECK_BISECT=1 expect_usage "one at a time" "$TOP/scripts/check/check.sh"
	CHECK_DISK_GIB=-1 expect_usage "CHECK_DISK_GIB=-1: a number above 0" "$TOP/scripts/check/check.sh"
	# A disk too small for it (here: a need larger than any disk) stops
	# make check at once, and says so, before anything is deleted.
	fake_kernel "$KERNEL_SRC"
	CHECK_DISK_GIB=1048576 expect_fail "make check needs about [0-9]+ GiB free on the file system of $WORK, which has [0-9]+ GiB" \
		"$TOP/scripts/check/check.sh"
	[ -e "$WORK/check/keep" ]
}

# check_steps MODE [VAR=VALUE...]: make check's runner (scripts/check/runner.sh)
# on its table (scripts/check/table.sh) in MODE, every step's function a
# stand-in that succeeds: the steps announced, in the background or
# waited for, the SKIP lines, and what the summary says was not run.
check_steps() {
	local m=$1 r=$T/check-steps/$1
	shift
	mkdir -p "$r/out"
	# shellcheck disable=SC2016 # expanded by the inner shell
	env "$@" WORK="$r/work" mode="$m" out="$r/out" bash -c '
		. "$1/scripts/lib.sh"
		. "$1/scripts/check/runner.sh"
		tally=$out/tally t_start=0 expected=/dev/null tdir=/t tdir32=/t32
		: >"$out/left-out"
		. "$1/scripts/check/table.sh"
		for f in "${step_fn[@]}"; do
			[ "$f" = - ] || eval "$f() { :; }"
		done
		read_queue() { commits=(c); }
		run_steps' check_steps "$TOP" >"$r/log" 2>&1 || true
	printf '%s\n' "# $m${*:+ ($*)}"
	grep -E '^(==> |  SKIP |ERROR)' "$r/log"
	sed 's/^/not run: /' "$r/out/left-out"
}

# make check's modes, as the table drives them: which steps run, in the
# background or side by side, and which SKIP lines say what each mode
# left out (make check-arm64, -kcsan and -bisect end with mode_finish,
# whose summary names what they left to make check), against
# tests/check-steps.expected.
t_mode_summary() {
	local v
	v=$(
		check_steps full FUTEX_WORKBENCH_TEST=
		check_steps full FUTEX_WORKBENCH_TEST=1
		check_steps full FUTEX_WORKBENCH_TEST= CHECK_GUESTS=1
		check_steps full FUTEX_WORKBENCH_TEST= CHECK_GUESTS=2
		for m in planted arm64 kcsan bisect; do check_steps "$m"; done
	)
	if [ "$v" != "$(cat "$TOP/tests/check-steps.expected")" ]; then
		diff -u "$TOP/tests/check-steps.expected" - <<<"$v" | head -n 40 || true
		return 1
	fi
}

# steps_doc: docs/check.md's list of make check's steps, made from the
# table (scripts/check/table.sh).
steps_doc() {
	bash -c '. "$1/scripts/check/runner.sh"
		. "$1/scripts/check/table.sh"
		printf "| step | how | modes | function | if | fatal |\n| --- | --- | --- | --- | --- | --- |\n"
		for ((i = 0; i < ${#step_name[@]}; i++)); do
			f=yes
			[ "${step_fatal[i]}" != - ] || f=-
			printf "| %s | %s | %s | %s | %s | %s |\n" "${step_name[i]}" "${step_how[i]}" "${step_modes[i]}" \
				"${step_fn[i]}" "${step_if[i]}" "$f"
		done' steps_doc "$TOP"
}

# The list of steps in docs/check.md is the table's, and every function
# the table names is a step's, in scripts/check/steps/ (or, for an IF,
# the runner's).
t_steps_doc() {
	local want got f
	want=$(steps_doc)
	got=$(sed -n '/^<!-- steps: begin/,/^<!-- steps: end/p' "$TOP/docs/check.md" | sed '1d;$d')
	if [ "$want" != "$got" ]; then
		echo "docs/check.md's list of steps is not scripts/check/table.sh's; it should be:"
		printf '%s\n' "$want"
		return 1
	fi
	for f in $(bash -c '. "$1/scripts/check/runner.sh"; . "$1/scripts/check/table.sh"
		printf "%s\n" "${step_fn[@]}" "${step_if[@]}"' fns "$TOP" | sort -u); do
		[ "$f" = - ] || grep -q "^$f() {" "$TOP"/scripts/check/steps/*.sh "$TOP/scripts/check/runner.sh" || {
			echo "scripts/check/table.sh names $f, which no step defines"
			return 1
		}
	done
}

# A lava-run that hangs is killed at LAVA_RUN_TIMEOUT, and the kill names
# the action that hung and the guest's last console line: a stand-in
# lava-run writes a job log as lava-run does (JSON lines), hangs in
# "2.4 auto-login-action", and on the kill writes the exception and the
# end of that action, as a canceled lava-run does.
t_lava_hang() {
	local r=$T/lava-hang v rc=0
	mkdir -p "$r/out"
	cat >"$r/lava-run" <<-'STUB'
		#!/bin/bash
		l() { printf '{"dt": "2026-12-04T00:00:00", "lvl": "%s", "msg": "%s"}\n' "$1" "$2"; }
		trap 'l exception "JobCanceled"; l debug "end: 2.4 auto-login-action (duration 00:00:02) [common]"; exit 2' TERM
		l info "start: 2.4 auto-login-action"
		l target "Run /init as init process"
		l target "futex_ping: waiting for the lock"
		sleep 10 &
		wait
	STUB
	chmod +x "$r/lava-run"
	v=$(LAVA_RUN=$r/lava-run LAVA_RUN_TIMEOUT=2 bash -c '. "$1/scripts/lib.sh"
		eval "$(sed -n "/^lava_run() {/,/^}/p" "$1/scripts/lab/lava.sh")"
		device_types() { echo /nonexistent; }
		py=true
		lava_run /dev/null "$2/out"' lava_run "$TOP" "$r") || rc=$?
	printf '%s\n' "$v"
	[ "$rc" = 124 ] &&
		grep -q "^  lava-run: killed after [0-9]*s (LAVA_RUN_TIMEOUT): the job hung in 2.4 auto-login-action; the guest's last line: futex_ping: waiting for the lock\$" <<<"$v"
}

# hold_lock FILE: a process that holds flock on FILE, as a workbench run
# does, until killed; its pid in $holder and in FILE.
hold_lock() {
	(
		exec 9>>"$1"
		flock 9
		echo "$BASHPID" >"$1"
		exec sleep 600
	) &
	holder=$!
	kids+=("$holder")
	wait_for 60 grep -q "^$holder\$" "$1"
}

t_lock() {
	local rc waiter killed
	env_for "$T/lk"
	# This test may itself run under a locked make check.
	unset FUTEX_WORKBENCH_LOCKED
	kids=()
	trap 'kill "${kids[@]}" 2>/dev/null || true' EXIT
	fake_kernel "$KERNEL_SRC"
	# A run killed with SIGKILL frees the lock, though a child of it (a
	# guest, say) lives on: the next run waits for neither.
	bash -c '. "$1/scripts/lib.sh"; lock_workbench; sleep 600 & echo $! >"$2"; wait' \
		lock "$TOP" "$T/lk/child" &
	killed=$!
	wait_for 30 test -s "$T/lk/child"
	kids+=("$(cat "$T/lk/child")")
	kill -9 "$killed"
	rc=0
	timeout 30 "$TOP/scripts/queue/tree.sh" >/dev/null 2>"$T/lk/err" || rc=$?
	[ "$rc" -eq 0 ] || {
		echo "the lock outlived the run killed with SIGKILL (tree.sh: exit $rc)"
		cat "$T/lk/err"
		return 1
	}
	rm -rf "$LINUX"
	# A script that runs other scripts that lock does not wait for
	# itself: queue.sh runs tree.sh (no work/linux yet), which runs
	# export.sh (work/linux exists). Seconds on a fake kernel; the bound
	# is what the planted deadlock costs.
	timeout 60 "$TOP/scripts/queue/queue.sh" "$WORK/src-q"
	timeout 60 "$TOP/scripts/queue/tree.sh"
	# Another run uses work/: tree.sh waits, and says for whom. (Not
	# with a time-out of a few seconds: on a loaded machine tree.sh took
	# longer than 2 s to reach the lock.)
	hold_lock "$WORK/.lock"
	waits_for_holder "$TOP/scripts/queue/tree.sh" || return 1
	# It goes on once the other run ends.
	"$TOP/scripts/queue/export.sh" 2>"$T/lk/err" &
	waiter=$!
	wait_for 30 grep -q "^waiting for another workbench run (pid $holder)" "$T/lk/err"
	running "$waiter"
	kill "$holder"
	wait "$waiter"

	# Another run, on another work/, uses the same cache: tree.sh waits.
	hold_lock "$FUTEX_CACHE/.lock"
	WORK=$T/lk/work2 LINUX=$T/lk/work2/linux waits_for_holder "$TOP/scripts/queue/tree.sh"
}

group_gone() { ! pgrep -g "$1" >/dev/null; }

# waits_for_holder CMD...: CMD, started now in a process group of its own,
# says within 60 s that it waits for $holder and is still waiting then.
# Then it is killed, itself alone (not its group, as a Ctrl-C would): what
# it started to wait for the lock must end within 10 s, not take the lock
# later for a run that is gone.
waits_for_holder() {
	local w ok=0
	setsid "$@" 2>"$T/lk/err" >/dev/null &
	w=$!
	if ! wait_for 60 grep -q "^waiting for another workbench run (pid $holder)" "$T/lk/err"; then
		echo "$* did not say that it waits for pid $holder:"
		cat "$T/lk/err"
	elif ! running "$w"; then
		echo "$* did not wait for the lock held by pid $holder"
	else
		ok=1
	fi
	kill "$w" 2>/dev/null || true
	wait "$w" 2>/dev/null || true
	if ! wait_for 10 group_gone "$w"; then
		echo "what $* started to wait for the lock outlived it:"
		ps -o pid,stat,wchan:20,args -g "$w" || true
		pkill -9 -g "$w" || true
		ok=0
	fi
	[ "$ok" = 1 ]
}

# A queue worktree whose directory was deleted, whose metadata in
# work/linux was deleted, or whose work/linux was made anew, is made again
# instead of failing as if the patches did not apply.
t_stale_worktree() {
	local q
	env_for "$T/sw"
	one_series
	q=$WORK/src-q
	"$TOP/scripts/queue/queue.sh" "$q" >"$T/sw/first"
	[ "$(wc -l <"$T/sw/first")" -eq 1 ]
	rm -rf "$q"
	"$TOP/scripts/queue/queue.sh" "$q" >"$T/sw/out"
	diff "$T/sw/first" "$T/sw/out"
	rm -rf "$LINUX/.git/worktrees"
	"$TOP/scripts/queue/queue.sh" "$q" >"$T/sw/out"
	diff "$T/sw/first" "$T/sw/out"
	"$TOP/scripts/queue/tree.sh"
	"$TOP/scripts/queue/queue.sh" "$q" >"$T/sw/out"
	diff "$T/sw/first" "$T/sw/out"
	# A copy of a worktree shares the original's metadata.
	cp -a "$q" "$WORK/src-copy"
	"$TOP/scripts/queue/queue.sh" "$WORK/src-copy" >"$T/sw/out"
	diff "$T/sw/first" "$T/sw/out"
	[ "$(git -C "$q" rev-parse --git-dir)" != "$(git -C "$WORK/src-copy" rev-parse --git-dir)" ]
	git -C "$q" status --short >/dev/null
}

# A stand-in vng that plays a hung guest: it starts a "qemu" and waits,
# both for 600s, their pids in $FAKE_VNG_DIR. The qemu leaves vng's process
# group (setsid), so only stopping the whole process tree stops it. The
# KVM probe gets its answer at once, unless FAKE_VNG_PROBE_HANG is set.
fake_vng() {
	mkdir -p "$T/bin"
	cat >"$T/bin/vng" <<-'V'
	#!/bin/sh
	case "$*" in
	*kvm-probe-ok*) [ -n "${FAKE_VNG_PROBE_HANG:-}" ] || { echo kvm-probe-ok; exit 0; } ;;
	esac
	setsid sleep 600 &
	echo $! >"$FAKE_VNG_DIR/qemu.pid"
	echo $$ >"$FAKE_VNG_DIR/vng.pid"
	wait
	V
	chmod +x "$T/bin/vng"
	export PATH=$T/bin:$PATH
}

# interrupt_vm SIGNAL STATUS: start vm.sh on the fake vng and send it SIGNAL
# once the guest runs: it must end with STATUS within seconds, the fake vng
# and qemu gone and no temporary command script left.
interrupt_vm() {
	local sig=$1 want=$2 d=$FAKE_VNG_DIR vm rc=0
	rm -f "$d/vng.pid" "$d/qemu.pid"
	# A signal ignored when a shell starts cannot be trapped there: a
	# workbench run started in the background (nohup make check &)
	# ignores SIGINT, and vm.sh would too. The default, as under a
	# terminal's Ctrl-C.
	env --default-signal=INT,TERM,HUP "$TOP/scripts/guest/vm.sh" "$d/bzImage" "$d/guest.log" -- true >"$d/vm.out" 2>&1 &
	vm=$!
	wait_for 120 test -s "$d/vng.pid"
	fakes=("$(cat "$d/vng.pid")" "$(cat "$d/qemu.pid")")
	kids+=("${fakes[@]}")
	kill "-$sig" "$vm"
	if ! wait_for 30 ended "$vm"; then
		echo "vm.sh still runs 30s after SIG$sig; its processes:"
		ps -o pid,ppid,pgid,stat,wchan:20,args --pid "$vm" --ppid "$vm" || true
		grep -h -E '^Sig(Blk|Ign|Cgt)' /proc/"$vm"/status || true
		tail -n 3 "$d/vm.out"
		kill -KILL "$vm"
		return 1
	fi
	wait "$vm" || rc=$?
	[ "$rc" -eq "$want" ] || { echo "vm.sh: exit status $rc after SIG$sig, expected $want"; return 1; }
	if ! wait_for 30 ended "${fakes[@]}"; then
		echo "the fake vng or qemu still runs 30s after SIG$sig to vm.sh"
		return 1
	fi
	if [ -n "$(ls -A "$WORK/guest")" ]; then
		echo "left in $WORK/guest: $(ls "$WORK/guest")"
		return 1
	fi
}

t_guest_interrupt() {
	env_for "$T/gi"
	export RESULTS=$T/gi/results FAKE_VNG_DIR=$T/gi
	kids=()
	trap 'kill "${kids[@]}" 2>/dev/null || true' EXIT
	fake_vng
	: >"$T/gi/bzImage"
	# Interrupted in the KVM probe (when there is /dev/kvm to probe): no
	# answer is cached.
	FAKE_VNG_PROBE_HANG=1 interrupt_vm TERM 143
	[ ! -e "$FUTEX_CACHE/kvm-probe" ] || [ ! -w /dev/kvm ]
	# Interrupted while the guest runs its command.
	interrupt_vm TERM 143
	grep -q 'guest: ' "$T/gi/vm.out"
	# Ctrl-C: with job control (set -m) the background vm.sh does not
	# ignore SIGINT, as a command started from a terminal does not.
	set -m
	interrupt_vm INT 130
	set +m
	# Ctrl-C during a step's boot (the whole process group gets SIGINT):
	# the step's shell stops too, it does not go on to its next boot.
	rm -f "$T/gi/next" "$T/gi/vng.pid"
	set -m
	# shellcheck disable=SC2016 # expanded by the inner shell
	env --default-signal=INT bash -c '"$1" "$2/bzImage" "$2/guest.log" -- true >"$2/vm.out" 2>&1 || true
		echo "the next boot" >"$2/next"' step "$TOP/scripts/guest/vm.sh" "$T/gi" &
	local stepper=$!
	set +m
	wait_for 120 test -s "$T/gi/vng.pid"
	kids+=("$(cat "$T/gi/vng.pid")" "$(cat "$T/gi/qemu.pid")")
	kill -INT -- "-$stepper"
	wait "$stepper" || true
	[ ! -e "$T/gi/next" ] || { echo "after a Ctrl-C, the step went on to its next command"; return 1; }
}

# A guest that stalls in its boot is booted once more, and a second
# stall fails: a stand-in vng stalls in the first FAKE_VNG_STALLS boots (a
# line of kernel log, then nothing) and runs the command in the next.
# stalling_vng DIR: a stand-in vng on PATH whose first $FAKE_VNG_STALLS
# boots stall (the console silent after a line of the kernel's), the
# others run the command; DIR/boots counts them.
stalling_vng() {
	export FAKE_VNG_DIR=$1
	mkdir -p "$T/bin"
	cat >"$T/bin/vng" <<-'V'
	#!/bin/bash
	case "$*" in *kvm-probe-ok*) echo kvm-probe-ok; exit 0 ;; esac
	n=$(cat "$FAKE_VNG_DIR/boots" 2>/dev/null || echo 0)
	echo $((n + 1)) >"$FAKE_VNG_DIR/boots"
	if [ "$n" -lt "$FAKE_VNG_STALLS" ]; then
		echo "[   11.130521] vgaarb: loaded"
		echo $$ >"$FAKE_VNG_DIR/stalled.pid"
		exec sleep 600
	fi
	while [ $# -gt 1 ] && [ "$1" != --exec ]; do shift; done
	exec bash "$2"
	V
	chmod +x "$T/bin/vng"
	export PATH=$T/bin:$PATH
}
t_boot_stall() {
	local d=$T/bs
	env_for "$d"
	export RESULTS=$d/results VM_BOOT_TIMEOUT=5
	stalling_vng "$d"
	: >"$d/bzImage"
	# The log of a boot before, which a stall must not be taken for.
	echo 'vm.sh: command started' >"$d/guest.log"
	# -t 60: a stalled guest left running ends the boot at 60 s, not at
	# the boot bound, and the test fails on the time.
	local t0=$SECONDS
	FAKE_VNG_STALLS=1 VM_NOTES=$d/notes "$TOP/scripts/guest/vm.sh" -t 60 "$d/bzImage" "$d/guest.log" -- echo the-command-ran >"$d/vm.out" 2>&1
	grep -q "stalled in its boot.*guest.log.stalled" "$d/notes"
	grep -q 'stalled' "$d/vm.out"
	grep -q 'booting it once more' "$d/vm.out"
	grep -q 'vgaarb: loaded' "$d/guest.log.stalled"
	grep -q 'the-command-ran' "$d/guest.log"
	if grep -q 'vgaarb: loaded' "$d/guest.log"; then
		echo "the second boot's log holds the stalled boot's lines"
		return 1
	fi
	[ "$(cat "$d/boots")" = 2 ]
	rm "$d/boots" "$d/guest.log.stalled" "$d/notes"
	FAKE_VNG_STALLS=2 VM_NOTES=$d/notes expect_fail "stalled in its boot twice" \
		"$TOP/scripts/guest/vm.sh" -t 60 "$d/bzImage" "$d/guest.log" -- true
	[ "$(cat "$d/boots")" = 2 ]
	# The first stall's log is kept, the second boot's is LOG; the note
	# names only the boot that was booted again.
	[ -s "$d/guest.log.stalled" ]
	[ "$(wc -l <"$d/notes")" = 1 ]
	# Three 5 s stalls take about 20 s; a stalled guest left running
	# takes its whole 60 s time-out at least.
	[ $((SECONDS - t0)) -lt 60 ] || { echo "$((SECONDS - t0)) s: a stalled guest ran to its time-out"; return 1; }
	! running "$(cat "$d/stalled.pid")" || { echo "a stalled guest was left running"; return 1; }
	[ -z "$(ls -A "$WORK/guest")" ] || { echo "left in $WORK/guest: $(ls "$WORK/guest")"; return 1; }
}

# A command that fails in the guest: vm.sh exits with its status and
# prints the end of its output, which says why (make check shows it).
t_command_failure() {
	local d=$T/cf rc=0
	env_for "$d"
	export RESULTS=$d/results
	stalling_vng "$d"
	: >"$d/bzImage"
	FAKE_VNG_STALLS=0 "$TOP/scripts/guest/vm.sh" -t 60 "$d/bzImage" "$d/guest.log" -- \
		sh -c 'echo the reason it failed; exit 3' >"$d/vm.out" 2>&1 || rc=$?
	[ "$rc" = 3 ] || { echo "vm.sh exit $rc, not the command's 3"; return 1; }
	grep -q 'exited with status 3' "$d/vm.out"
	grep -q 'the reason it failed' "$d/vm.out" || { echo "the command's output is not shown"; cat "$d/vm.out"; return 1; }
}

# One Ctrl-C ends the whole run. check.sh's runner (scripts/check/runner.sh:
# its record, step, background step and finish functions; and check.sh's
# trap) runs a background
# "build" whose child runs on, and a boot on the fake vng in the
# foreground; a SIGINT to the whole process group, as a terminal's Ctrl-C
# sends, must stop the boot, the build and its child, run no later step,
# and end with the summary of what ran, as an interrupted run.
t_run_interrupt() {
	local d=$T/ri run=$T/ri/runner.sh rc=0 runner
	env_for "$d"
	export FAKE_VNG_DIR=$d
	kids=()
	trap 'kill "${kids[@]}" 2>/dev/null || true' EXIT
	fake_vng
	: >"$d/bzImage"
	{
		printf '#!/bin/bash\n. %q/scripts/lib.sh\n. %q/scripts/check/runner.sh\n' "$TOP" "$TOP"
		sed -n "/^trap 'finish \"interrupted\"' INT TERM\$/p" "$TOP/scripts/check/check.sh"
		cat <<-'R'
			out=$1 tally=$1/tally mode=interrupted-test t_start=$(date +%s) expected=/dev/null
			touch "$tally" "$out/left-out" "$out/notes"
			# The build's child writes its own pid, once it runs with the
			# signal dispositions of a background job: a pid written by
			# its parent at fork let the Ctrl-C reach the child before
			# bash set them (a step at nice 19 under load), and a
			# planted runner without its trap '' INT passed.
			# shellcheck disable=SC2016 # expanded by the inner shells
			bg_start "a build" 19 bash -c 'bash -c "echo \$\$ >\"\$1/build.pid\"; exec sleep 600" child "$1" & wait' build "$out"
			check_step "a boot" "$TOP/scripts/guest/vm.sh" "$out/bzImage" "$out/guest.log" -- true
			echo ran >"$out/next-step"
			finish
		R
	} >"$run"
	chmod +x "$run"
	grep -q '^trap .finish "interrupted". INT TERM$' "$run" || { echo "no trap in check.sh's runner"; return 1; }
	set -m
	env --default-signal=INT "$run" "$d" >"$d/out" 2>&1 &
	runner=$!
	set +m
	kids+=("$runner")
	wait_for 120 test -s "$d/vng.pid"
	wait_for 60 test -s "$d/build.pid"
	kids+=("$(cat "$d/vng.pid")" "$(cat "$d/qemu.pid")" "$(cat "$d/build.pid")")
	kill -INT -- "-$runner"
	if ! wait_for 60 ended "$runner"; then
		echo "the run still goes 60 s after a Ctrl-C:"
		tail -n 5 "$d/out"
		return 1
	fi
	wait "$runner" || rc=$?
	cat "$d/out"
	[ "$rc" -ne 0 ] || { echo "an interrupted run exited 0"; return 1; }
	[ ! -e "$d/next-step" ] || { echo "after a Ctrl-C, the run went on to its next step"; return 1; }
	if ! wait_for 30 ended "$(cat "$d/vng.pid")" "$(cat "$d/qemu.pid")" "$(cat "$d/build.pid")"; then
		echo "the guest or the background build's child still runs after the run ended"
		return 1
	fi
	grep -q '^ERROR: interrupted$' "$d/out" &&
		grep -q '^make check (mode: interrupted-test): ' "$d/out" &&
		grep -q '^==> waiting for: a build$' "$d/out" &&
		grep -q '^[0-9]* passed, [1-9][0-9]* failed, [0-9]* skipped$' "$d/out"
}

# plant TEST FILE SED: a copy of scripts/ and tests/ with a bug planted in
# FILE by SED; TEST, run by the copy's workbench.sh, must fail on it.
plant() {
	local test=$1 file=$2 expr=$3 d
	d=$(mktemp -d "$T/plant.XXXXXX")
	cp -a "$TOP/scripts" "$TOP/tests" "$TOP/lava" "$TOP/pingmutex" "$TOP/bench" "$d/"
	# The tests read committed results as fixtures: without them every
	# planted copy of such a test failed, whatever was planted.
	ln -s "$TOP/results" "$d/results"
	# steps-table-is-documented reads docs/check.md, model-tally the
	# model, shellcheck .ci/run.
	ln -s "$TOP/docs" "$d/docs"
	ln -s "$TOP/models" "$d/models"
	cp -a "$TOP/.ci" "$d/"
	sed -i "$expr" "$d/$file"
	echo "$d" >>"$T/plants"
	if cmp -s "$TOP/$file" "$d/$file"; then
		echo "planting changed nothing (update the plant): $file: $expr" >"$d/verdict"
		echo 1 >"$d/rc"
		return 0
	fi
	# Each copy is a workbench of its own (own T, work/, lock, process
	# groups), and the planted tests mostly wait (for time-outs, for a
	# killed process to go): three run at once, judged in the order they
	# were planted by plants_judged.
	while [ "$(jobs -rp | wc -l)" -ge 3 ]; do
		wait -n || true
	done
	(
		rc=0
		plant_run "$test" "$file" "$expr" "$d" >"$d/verdict" 2>&1 || rc=$?
		echo "$rc" >"$d/rc"
	) &
}

# plant_run TEST FILE EXPR DIR: run TEST of the planted copy DIR, which
# must fail it.
plant_run() {
	local test=$1 file=$2 expr=$3 d=$4
	# Bounded: a plant can turn a test into one that never ends (a
	# planted check.sh that got past its refusal ran the workbench tests,
	# which ran it again, without end).
	local rc=0 t0=$SECONDS
	timeout -k 10 900 "$d/tests/workbench.sh" "$test" >"$d/out" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "NOT caught by $test: $file: $expr"
		return 1
	elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "$test did not end within 900 s with: $file: $expr"
		tail -n 5 "$d/out"
		return 1
	fi
	if ! grep -q "^FAIL $test\$" "$d/out"; then
		echo "$test did not run:"
		cat "$d/out"
		return 1
	fi
	echo "caught by $test in $((SECONDS - t0)) s: $file: $expr"
	printf '%s %s:%s\n' "$((SECONDS - t0))" "$test" "$file" >>"$T/plant-times"
	sed -n '/^     /p' "$d/out" | tail -n 2
}

# plants_judged: wait for every plant started, print what each said, in
# the order they were planted; fails if one was not caught or did not
# end.
plants_judged() {
	local d bad=0
	wait
	while read -r d; do
		cat "$d/verdict"
		[ "$(cat "$d/rc" 2>/dev/null)" = 0 ] || bad=1
	done <"$T/plants"
	return "$bad"
}

# The verdict functions of make check on planted evidence, as a guest
# leaves it: a failing case, a missing program, an unlisted skip, a
# WARNING and a lockdep report must each be judged red, a passing case
# green. (make check-planted produces the same evidence in a real guest.)
t_verdict() {
	local r=$T/verdict v
	mkdir -p "$r"
	printf 'p_ok global.a\np_ok global.b\np_fail global.a\np_fail global.b\np_gone global.a\np_skip global.s\np_inner f.t\n' >"$r/expected"
	printf 'p_ok 0 1\np_fail 1 1\np_skip 0 1\np_inner 0 1\n' >"$r/status.tsv"
	# A fixture's set-up that skips with a nameless result, then the
	# harness's "ok" for the case (robust_list's vdso_unlock cases).
	printf 'TAP version 13\n1..1\n#  RUN           f.t ...\nok 1 # SKIP no vDSO\nok 1 f.t\n' >"$r/p_inner.log"
	printf 'TAP version 13\n1..2\nok 1 global.a\nok 2 global.b\n' >"$r/p_ok.log"
	printf 'TAP version 13\n1..2\nok 1 global.a\nnot ok 2 global.b\n' >"$r/p_fail.log"
	printf 'TAP version 13\n1..1\nok 1 global.s # SKIP no reason\n' >"$r/p_skip.log"
	echo ok >"$r/done"
	# An allowed skip for its own reason, the same case allowed for another.
	printf 'p_inner f.t | no vDSO | the vDSO is x86 only\n' >"$r/skips-ok"
	printf 'p_inner f.t | no (vDSO|thing) here | the vDSO is x86 only\n' >"$r/skips-other"
	v=$(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		selftest_verdict "$r" <(grep p_inner "$r/expected") "$r/skips-ok"
		selftest_verdict "$r" <(grep p_inner "$r/expected") "$r/skips-other"
	)
	printf '%s\n' "$v"
	grep -q -x 'SKIP selftest p_inner: f.t: no vDSO (allowed: the vDSO is x86 only)' <<<"$v"
	grep -q -x 'FAIL selftest p_inner: f.t: skipped (no vDSO), allowed only as (no (vDSO|thing) here)' <<<"$v"
	printf '[ 1.0] lkdtm: Performing direct entry WARNING\n[ 1.1] WARNING: CPU: 0 PID: 1 at drivers/misc/lkdtm/bugs.c:1 lkdtm_WARNING+0x1/0x2\n[ 2.0] WARNING: lock held when returning to user space!\n' >"$r/dmesg.txt"
	v=$(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		selftest_verdict "$r" "$r/expected" /dev/null
		splat_scan planted "$r/dmesg.txt"
	)
	printf '%s\n' "$v"
	grep -q -x 'PASS selftest p_ok: global.a' <<<"$v"
	grep -q -x 'FAIL selftest p_fail: global.b' <<<"$v"
	grep -q -x 'FAIL selftest p_gone: did not run' <<<"$v"
	grep -q '^FAIL selftest p_skip: global.s: skipped' <<<"$v"
	grep -q -x 'FAIL selftest p_inner: f.t: skipped (no vDSO), not an allowed skip' <<<"$v"
	grep -q '^FAIL kernel log clean (planted): WARNING: WARNING: CPU: 0' <<<"$v"
	grep -q '^FAIL kernel log clean (planted): lockdep: WARNING: lock held' <<<"$v"
	if grep -q '^FAIL selftest p_ok' <<<"$v"; then
		echo "a passing program was judged red"
		return 1
	fi
	# A clean log is judged clean.
	printf '[ 1.0] futex hash table entries: 16\n' >"$r/clean.txt"
	(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		splat_scan clean "$r/clean.txt"
	) | grep -q -x 'PASS kernel log clean (clean)'
	# A log that was not written, or is empty, is no clean log.
	: >"$r/empty.txt"
	v=$(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		splat_scan lost "$r/clean.txt" "$r/nowhere.txt"
		splat_scan empty "$r/empty.txt"
	)
	grep -q -x "FAIL kernel log clean (lost): no log: $r/nowhere.txt is missing or empty" <<<"$v"
	grep -q -x "FAIL kernel log clean (empty): no log: $r/empty.txt is missing or empty" <<<"$v"
	# Every class of lava/kernel-log-badness, each named as its class, a
	# line taken by a specific class not named again as WARNING or BUG,
	# and the lines console-badness.sh ignores ignored.
	cat >"$r/classes.txt" <<-'LOG'
		[ 1.0] ODEBUG: Warning: object is on stack, but not annotated
		[ 1.1] Warning: unable to open an initial console.
		[ 2.0] BUG: KASAN: slab-use-after-free in lkdtm_SLAB_USE_AFTER_FREE+0x1/0x2
		[ 3.0] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [cat:99]
		[ 4.0] INFO: task cat:99 blocked for more than 10 seconds.
		[ 5.0] rcu: INFO: rcu_preempt self-detected stall on CPU
		[ 6.0] unreferenced object 0xffff888012345678 (size 64):
		[ 7.0] Writes:  Total: 8113226  Max/Min: 4117005/3996221   Fail: 1 !!!
		[ 8.0] kernel BUG at drivers/misc/lkdtm/bugs.c:1!
		[ 9.0] BUG: KCSAN: data-race in futex_wait / futex_wake
	LOG
	v=$(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		splat_scan classes "$r/classes.txt"
	)
	printf '%s\n' "$v"
	local want
	for want in 'KASAN: BUG: KASAN: slab' 'soft lockup: watchdog: BUG: soft' \
		'hung task: INFO: task cat' 'RCU stall: rcu: INFO: rcu_preempt self-detected' \
		'kmemleak: unreferenced object' 'torture failure: Writes:' \
		'oops: kernel BUG at drivers' 'KCSAN: BUG: KCSAN: data-race'; do
		grep -q -F "FAIL kernel log clean (classes): $want" <<<"$v" || {
			echo "not named: $want"
			return 1
		}
	done
	[ "$(wc -l <<<"$v")" -eq 8 ]
	# A user program's fault (the "traps:" line, which a static program's
	# abort() ends in under fault injection) is no kernel report; the
	# kernel's own general protection fault is.
	printf '%s\n' '[ 1.0] traps: robust_list[166] general protection fault ip:4012b1 sp:7f8774babef0 error:0 in robust_list[12b1,401000+7f000]' \
		'[ 1.1] virtme-init: script returned {0}' >"$r/user-gp.txt"
	printf '[ 1.0] Oops: general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] SMP\n' >"$r/gp.txt"
	v=$(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		splat_scan user-gp "$r/user-gp.txt"
		splat_scan gp "$r/gp.txt"
	)
	printf '%s\n' "$v"
	grep -q -x 'PASS kernel log clean (user-gp)' <<<"$v"
	grep -q '^FAIL kernel log clean (gp): oops: Oops: general protection fault' <<<"$v"
	# A report's trace alone (a stack dump) is still a report.
	printf '[ 1.0] Call Trace:\n[ 1.1]  <TASK>\n' >"$r/trace.txt"
	(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		splat_scan trace "$r/trace.txt"
	) | grep -q -x 'FAIL kernel log clean (trace): other: Call Trace:'
}

# ping_bench_verdict on the logs of tests/guest-ping-bench.sh: good runs,
# a failed run with a counter off by one, a failed run, a counter off by
# one in a run that exited 0, an uncontended run that entered the
# kernel, a run cut short, and no log.
t_ping_bench_verdict() {
	local r=$T/ping-bench v
	mkdir -p "$r"
	cat >"$r/log" <<-'LOG'
		== -f n -a -w 5000 -s 100 -t 8 -n 200
		ping_bench: kind n, 8 threads (all): 1592 samples, median 5 ns, p99 9 ns, max 10 ns, counter 1600 of 1600: ok
		exit 0
		== -f N -a -w 5000 -s 100 -t 8 -n 200
		ping_bench: kind N, 8 threads (all): 1592 samples, median 5 ns, p99 9 ns, max 10 ns, counter 1599 of 1600: ok
		exit 1
		== -f p -a -w 5000 -s 100 -t 8 -n 200
		ping_bench: kind p, 8 threads (all): 1592 samples, median 5 ns, p99 9 ns, max 10 ns, counter 1600 of 1600: ok
		exit 1
		== -f m -a -w 5000 -s 100 -t 8 -n 200
		ping_bench: kind m, 8 threads (all): 1592 samples, median 5 ns, p99 9 ns, max 10 ns, counter 1599 of 1600: ok
		exit 0
		== -f n -t 1 -n 1000
		ping_bench: kind n, 1 threads (thread 0): 999 samples, median 70 ns, p99 90 ns, max 221 ns, counter 1000 of 1000: ok
		ping_bench: kind n: locks: 1000 fast path, 0 user space steals, 0 in the kernel; unlocks in the kernel: 0
		exit 0
		== -f N -t 1 -n 1000
		ping_bench: kind N, 1 threads (thread 0): 999 samples, median 70 ns, p99 90 ns, max 221 ns, counter 1000 of 1000: ok
		ping_bench: kind N: locks: 999 fast path, 0 user space steals, 1 in the kernel; unlocks in the kernel: 0
		exit 0
		== -f m -t 2 -n 100
	LOG
	v=$(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		ping_bench_verdict "$r/log"
		ping_bench_verdict "$r/none"
	)
	printf '%s\n' "$v"
	grep -q -x 'PASS ping_bench -f n -a -w 5000 -s 100 -t 8 -n 200' <<<"$v" &&
		grep -q -x 'FAIL ping_bench -f N -a -w 5000 -s 100 -t 8 -n 200: exit status 1' <<<"$v" &&
		grep -q -x 'FAIL ping_bench -f p -a -w 5000 -s 100 -t 8 -n 200: exit status 1' <<<"$v" &&
		grep -q -x 'FAIL ping_bench -f m -a -w 5000 -s 100 -t 8 -n 200: counter not exact or no summary' <<<"$v" &&
		grep -q -x 'PASS ping_bench -f n -t 1 -n 1000' <<<"$v" &&
		grep -q -x 'FAIL ping_bench -f N -t 1 -n 1000: calls into the kernel uncontended' <<<"$v" &&
		grep -q -x 'FAIL ping_bench -f m -t 2 -n 100: exit status missing' <<<"$v" &&
		grep -q -x "FAIL ping_bench smoke: no log $r/none" <<<"$v" &&
		[ "$(grep -c '^PASS' <<<"$v")" -eq 2 ]
}

# tests/guest-peers.sh on this machine, whose kernel has no PING: the
# library falls back to the C library's mutexes, and every program run on
# it must be judged red (no lock went through PING), as must the library's
# ping_proof in both modes; its other cases pass on glibc's mutexes.
t_peers_fallback() {
	local r=$T/peers v c
	mkdir -p "$r/pm"
	make -s -C "$TOP/pingmutex" O="$r/pm" >/dev/null
	if ! LD_PRELOAD=$r/pm/libpingmutex.so /bin/true 2>&1 | grep -q 'no FUTEX_\*_PING'; then
		echo "this machine's kernel has PING: no fallback to test here"
		return 1
	fi
	TEST_TIMEOUT=120 "$TOP/tests/guest-peers.sh" "$r/pm" "$r/out" >/dev/null
	v=$(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		selftest_verdict "$r/out" "$TOP/tests/peers.expected" /dev/null
	)
	printf '%s\n' "$v"
	while read -r c; do
		grep -q -x "FAIL selftest peers: $c" <<<"$v"
	done < <(awk '$1 == "peers" { print $2 }' "$TOP/tests/peers.expected")
	grep -q -x 'FAIL selftest pingmutex_test-pi: ping_proof' <<<"$v"
	grep -q -x 'FAIL selftest pingmutex_test-all: ping_proof' <<<"$v"
	[ "$(grep -c '^PASS' <<<"$v")" -eq $(($(grep -c '^pingmutex_test' "$TOP/tests/peers.expected") - 2)) ] || return 1
	# make bench's peers rows: a ping row without locks through PING stops it.
	mkdir -p "$r/bench"
	if BENCH_VARIANT=pe1 "$TOP/bench/peers.sh" "$r/pm" "$r/bench" patched.0 >"$r/bench.out" 2>&1; then
		echo "bench/peers.sh took a ping row without PING"
		return 1
	fi
	grep -q 'on ping: no locks through PING' "$r/bench.out"
}

# lava/futex-lava.sh under busybox's sh and applets, as in the LAVA
# ramdisk, on fake selftests: a pass, a failure, a skip, a case that a
# fixture skips from inside (a nameless "ok N # SKIP"), a program that
# fails and one that exits 4 (skipped), and a kernel log with a WARNING.
t_futex_lava() {
	local r=$T/futex-lava v a
	mkdir -p "$r/kselftest/futex/functional" "$r/bb" "$r/stub"
	for a in $(busybox --list); do
		ln -sf /bin/busybox "$r/bb/$a"
	done
	printf '#!/bin/sh\necho "[ 1.0] WARNING: planted at kernel/futex/core.c:1"\n' >"$r/stub/dmesg"
	cat >"$r/kselftest/futex/functional/prog_a" <<-'PROG'
		#!/bin/sh
		echo "1..4"
		echo "#  RUN           x.one ..."
		echo "ok 1 x.one"
		echo "#  RUN           x.two ..."
		echo "not ok 2 x.two"
		echo "#  RUN           x.three ..."
		echo "ok 3 x.three # SKIP no such thing"
		echo "#  RUN           x.four ..."
		echo "ok 1 # SKIP set-up says no"
		echo "ok 4 x.four"
		exit 1
	PROG
	printf '#!/bin/sh\nexit 4\n' >"$r/kselftest/futex/functional/prog_b"
	chmod +x "$r/stub/dmesg" "$r"/kselftest/futex/functional/*
	cp "$TOP/lava/futex-lava.sh" "$TOP/lava/kernel-log-badness" "$r/"
	# busybox sh runs its dmesg applet whatever PATH says: name the stub.
	v=$(cd /tmp && FUTEX_LAVA_DMESG=$r/stub/dmesg PATH=$r/stub:$r/bb /bin/busybox sh \
		"$r/futex-lava.sh" selftests 2>&1 | grep '^RESULT ')
	printf '%s\n' "$v"
	grep -q -x 'RESULT prog_a_x_one pass' <<<"$v" &&
		grep -q -x 'RESULT prog_a_x_two fail' <<<"$v" &&
		grep -q -x 'RESULT prog_a_x_three skip' <<<"$v" &&
		grep -q -x 'RESULT prog_a_x_four skip' <<<"$v" &&
		grep -q -x 'RESULT prog_a fail' <<<"$v" &&
		grep -q -x 'RESULT prog_b skip' <<<"$v" &&
		grep -q -x 'RESULT kernel_log_clean fail' <<<"$v" &&
		[ "$(wc -l <<<"$v")" -eq 7 ] || return 1
	# kernel_log_clean on logs of its own: the same classes as the host's
	# verdict (an RCU stall, a lone BUG line), a clean log, an empty one.
	lava_log() { # lava_log LINE: futex-lava.sh's kernel_log_clean for it
		printf '#!/bin/sh\nprintf "%%s" "%s"\n' "$1" >"$r/stub/dmesg"
		(cd /tmp && FUTEX_LAVA_DMESG=$r/stub/dmesg PATH=$r/stub:$r/bb /bin/busybox sh \
			"$r/futex-lava.sh" selftests prog_b 2>&1 | grep '^RESULT kernel_log_clean ')
	}
	[ "$(lava_log '[ 1.0] rcu: INFO: rcu_preempt self-detected stall on CPU')" = 'RESULT kernel_log_clean fail' ] &&
		[ "$(lava_log '[ 1.0] kernel BUG at kernel/futex/core.c:1!')" = 'RESULT kernel_log_clean fail' ] &&
		[ "$(lava_log '[ 1.0] ODEBUG: Warning: an ignored line')" = 'RESULT kernel_log_clean pass' ] &&
		[ "$(lava_log '[ 1.0] traps: robust_list[166] general protection fault ip:4012b1 sp:7f8774babef0 error:0')" = 'RESULT kernel_log_clean pass' ] &&
		[ "$(lava_log '[ 1.0] Oops: general protection fault, probably for non-canonical address 0x1: 0000 [#1] SMP')" = 'RESULT kernel_log_clean fail' ] &&
		[ "$(lava_log '[ 1.0] futex hash table entries: 16')" = 'RESULT kernel_log_clean pass' ] &&
		[ "$(lava_log '')" = 'RESULT kernel_log_clean fail' ]
}

# bench-table.sh on the committed raw output of the base rows: the table
# as before; with one run's output cut short, an error naming the file, not
# a median of the runs that are left.
t_bench_table() {
	local r=$T/bench-table
	mkdir -p "$r/work"
	cp -a "$TOP/results/base/raw" "$r/raw"
	WORK=$r/work BENCH_RAW=$r/raw BENCH_OUT=$r/out "$TOP/scripts/bench/bench-table.sh" base >"$r/table"
	: >"$r/raw/1.base.2.txt"
	if WORK=$r/work BENCH_RAW=$r/raw BENCH_OUT=$r/out2 "$TOP/scripts/bench/bench-table.sh" base >/dev/null 2>"$r/err"; then
		echo "a run without its value went unnoticed"
		return 1
	fi
	cat "$r/err"
	grep -q -x '  1.base.2.txt (ops)' "$r/err"
}

# The path-length table of committed runs, then with a run that lost its
# values (an empty file) and one whose value does not parse: both named,
# exit status 1. A row the kernel does not have ("unsupported", and the
# derived set-wait-extra beside it) is no error.
t_pathlen_table() {
	local r=$T/pathlen-table
	mkdir -p "$r/work"
	cp -a "$TOP/results/02-futex-set-wait/raw" "$r/raw"
	WORK=$r/work BENCH_RAW=$r/raw BENCH_OUT=$r/out "$TOP/scripts/bench/bench-pathlen-table.sh" x >"$r/table"
	grep -q '^set-wait-mismatch  *- ' "$r/table"
	: >"$r/raw/pathlen.parent.2.1.txt"
	sed -i 's/^wake-nobody .*/wake-nobody 5x3/' "$r/raw/pathlen.patched.1.1.txt"
	local rc=0
	WORK=$r/work BENCH_RAW=$r/raw BENCH_OUT=$r/out2 "$TOP/scripts/bench/bench-pathlen-table.sh" x \
		>"$r/out2.txt" 2>"$r/err" || rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "runs without their values went unnoticed"
		return 1
	fi
	# One run of make check (w15) failed below with nothing on stderr;
	# say what the script did if that comes again.
	echo "bench-pathlen-table.sh: exit $rc, stderr:"
	cat "$r/err"
	[ -s "$r/err" ] || tail -n 5 "$r/out2.txt"
	grep -q -x '  pathlen.parent.2.1.txt (syscall: missing)' "$r/err" &&
		grep -q -x '  pathlen.patched.1.1.txt (wake-nobody: 5x3)' "$r/err"
}

# The ablation table of three boots: each setting's median, its ratio to
# default's and ministat's verdict on the per-boot values (a setting at
# half default's throughput is -50%, one that is the same is "="); a line
# that does not parse fails the table.
t_ablation_table() {
	local r=$T/ablation b v
	mkdir -p "$r/work" "$r/raw"
	for b in 1 2 3; do
		{
			# ab SETTING row ping THREADS OPS/S SD% WAITS EAGAIN WAKES NOBODY CPUS CS MIGR WAKEUPS
			printf 'ab default row ping 2 %s 1.0 0.5 0 0.5 0 1.9 0.1 0 0.2\n' "$((1000000 + b * 10000))"
			printf 'ab T=0 row ping 2 %s 1.0 1.0 0 1.0 0 1.2 0.9 0 1.0\n' "$((500000 + b * 5000))"
			printf 'ab same row ping 2 %s 1.0 0.5 0 0.5 0 1.9 0.1 0 0.2\n' "$((1000000 + (4 - b) * 10000))"
			# ab SETTING pb WORKLOAD SAMPLES MEAN MEDIAN P99 MAX
			printf 'ab default pb starve 100 2000 1000 %s 3000000\n' "$((1000000 + b * 1000))"
			printf 'ab T=0 pb starve 100 2000 1000 %s 3000000\n' "$((3000000 + b * 1000))"
			printf 'ab same pb starve 100 2000 1000 %s 3000000\n' "$((1000000 + b * 1000))"
		} >"$r/raw/ablation.patched.$b.txt"
	done
	WORK=$r/work BENCH_RAW=$r/raw BENCH_OUT=$r/out "$TOP/scripts/bench/bench-ablation-table.sh" x >"$r/table"
	cat "$r/table"
	grep -q '^default  *1020.0 ' "$r/table"
	grep -q '^T=0  *510.0 0.50x -50.0%±[0-9.]*% ' "$r/table"
	grep -q '^same  *1020.0 1.00x = ' "$r/table"
	grep -q '^T=0  *2.0 1.00x = .* 3002.0 3.00x +199.[0-9]%±' "$r/table"
	grep -q -P '^T=0\t' "$r/out/ablation.tsv"
	echo 'ab T=0 row ping 4 1 2' >>"$r/raw/ablation.patched.2.txt"
	if WORK=$r/work BENCH_RAW=$r/raw BENCH_OUT=$r/out2 "$TOP/scripts/bench/bench-ablation-table.sh" x \
		>/dev/null 2>"$r/err"; then
		echo "a line that does not parse went unnoticed"
		return 1
	fi
	grep -q 'bad line in .*ablation.patched.2.txt: ab T=0 row ping 4 1 2' "$r/err"
}

# mail_verdict on messages as send.sh's stand-in or b4 leave them: good
# ones, one without To: (among others with it), one to the workbench's
# identity, one missing; b4's one message for a series of one patch and
# its cover letter, and none.
t_mail_verdict() {
	local r=$T/mail v
	mkdir -p "$r/series" "$r/good" "$r/noto" "$r/seed" "$r/short"
	touch "$r/series/0000-cover-letter.patch" "$r/series/0001-a.patch"
	printf 'From: a <a@b.c>\nTo: x <x@kernel.org>\nSubject: s\n\nbody\n' | tee "$r/good/1.eml" "$r/good/2.eml" \
		"$r/noto/1.eml" "$r/seed/1.eml" "$r/short/1.eml" >/dev/null
	printf 'From: a <a@b.c>\nCc: x <x@kernel.org>\nSubject: s\n\nTo: not a header\n' >"$r/noto/2.eml"
	printf 'From: a <a@b.c>\nTo: x <x@kernel.org>\nCc: y <y@kernel.org>,\n w <workbench@localhost>\nSubject: s\n\nbody\n' >"$r/seed/2.eml"
	# The identity in a Message-Id (b4 takes its domain from the sender)
	# is no recipient.
	mkdir -p "$r/msgid"
	cp "$r/good/1.eml" "$r/msgid/1.eml"
	printf 'From: a <a@b.c>\nTo: x <x@kernel.org>\nMessage-Id: <1@users.noreply.a-seed-1.example>\n\nbody\n' >"$r/msgid/2.eml"
	v=$(tally=$r/tally bash -c '. "$1/scripts/check/runner.sh"
		. "$1/scripts/check/steps/static.sh"
		for k in good noto seed short msgid; do mail_verdict "mailable: $k" "$2/$k" "$2/series" log; done
		mail_verdict "mailable (b4): one" "$2/short" "$2/series" log 1
		mail_verdict "mailable (b4): none" "$2/none" "$2/series" log 1' \
		mv "$TOP" "$r")
	printf '%s\n' "$v"
	grep -q -x '  PASS mailable: good (2 messages)' <<<"$v" &&
		grep -q -x "  FAIL mailable: noto (a message without To: $r/noto/2.eml)" <<<"$v" &&
		grep -q -x '  FAIL mailable: seed (addressed to workbench@localhost )' <<<"$v" &&
		grep -q -x '  FAIL mailable: short (1 messages for 2 files, log: log)' <<<"$v" &&
		grep -q -x '  PASS mailable: msgid (2 messages)' <<<"$v" &&
		grep -q -x '  PASS mailable (b4): one (1 messages)' <<<"$v" &&
		grep -q -x '  FAIL mailable (b4): none (0 messages for 1 files, log: log)' <<<"$v"
}

# Verdicts reused (selfcheck.sh's reuse_step): a run whose verdicts all
# passed is replayed for a run on the same inputs, with its verdicts and
# its log, and nothing else is: not after a change of a file, tracked or
# not, or of a setting; not a run that failed, or recorded a FAIL or a
# SKIP; not with CHECK_REUSE=0; not outside a git checkout. patches/ is
# not an input here (as for the workbench tests). Verdicts of a step
# beside it are not taken into what is kept.
t_reuse() {
	local r=$T/reuse
	mkdir -p "$r/repo/a" "$r/repo/patches" "$r/out"
	git -C "$r/repo" init -q
	echo 1 >"$r/repo/a/x"
	echo 1 >"$r/repo/patches/p"
	git -C "$r/repo" add -A
	# step [ENV=VALUE...]: one reuse_step of a function that counts its
	# runs, writes a log and records $HOW (PASS by default) and, beside
	# it, a verdict of another step; the tally and the output, printed.
	cat >"$r/step" <<-'STEP'
		#!/usr/bin/env bash
		set -euo pipefail
		. "$WB/scripts/check/runner.sh"
		. "$WB/scripts/check/steps/selfcheck.sh"
		CACHE=$R/cache out=$R/out TOP=$R/repo tally=$R/out/tally
		: >"$tally"
		fn() {
			echo run >>"$R/count"
			echo "log $(wc -l <"$R/count")" >"$out/w.log"
			printf 'PASS other step\n' >>"$R/out/tally"
			[ "${HOW:-PASS}" != CRASH ]
			record "${HOW:-PASS}" "thing"
			[ "${HOW:-PASS}" != EXIT ]
		}
		# Not "reuse_step ... || rc=$?": that would turn errexit off
		# inside it, as no step of make check does.
		key=$(inputs_key . ':!patches' || true)
		set +e
		reuse_step w "$key" fn
		rc=$?
		set -e
		cat "$tally"
		exit "$rc"
	STEP
	chmod +x "$r/step"
	export R=$r WB=$TOP
	unset CHECK_REUSE HOW
	n() { wc -l <"$r/count"; }
	"$r/step" >"$r/o"
	grep -q -x '  PASS thing' "$r/o" && grep -q -x 'PASS thing' "$r/o"
	[ "$(n)" -eq 1 ]
	# The same inputs: replayed (what it printed, its verdict, its log),
	# said in the step and in the summary's notes.
	rm "$r/out/w.log"
	"$r/step" >"$r/o"
	cat "$r/o"
	[ "$(n)" -eq 1 ] || { echo "the same inputs ran again"; return 1; }
	grep -q '^  reused: a run on the same inputs whose verdicts all passed (verdicts/w-' "$r/o"
	grep -q -x '  PASS thing' "$r/o" && grep -q -x 'PASS thing' "$r/o"
	grep -q -x 'log 1' "$r/out/w.log"
	[ "$(grep -c -x 'PASS other step' "$r/o")" -eq 0 ] || { echo "a step beside it was kept"; return 1; }
	grep -q '^w: reused a run on the same inputs whose verdicts all passed, from .* (CHECK_REUSE=0 runs it)$' "$r/out/notes"
	echo 2 >"$r/repo/patches/p"
	"$r/step" >/dev/null
	[ "$(n)" -eq 1 ] || { echo "a change in patches/ ran again"; return 1; }
	echo 2 >"$r/repo/a/x"
	"$r/step" >/dev/null
	[ "$(n)" -eq 2 ] || { echo "a changed file (not committed) reused verdicts"; return 1; }
	echo 1 >"$r/repo/a/new"
	"$r/step" >/dev/null
	[ "$(n)" -eq 3 ] || { echo "a new file (untracked) reused verdicts"; return 1; }
	FUZZ_SECONDS=5 "$r/step" >/dev/null
	[ "$(n)" -eq 4 ] || { echo "a changed setting reused verdicts"; return 1; }
	CHECK_REUSE=0 "$r/step" >/dev/null
	[ "$(n)" -eq 5 ] || { echo "CHECK_REUSE=0 reused verdicts"; return 1; }
	# Never kept: a failed run, a FAIL, a SKIP.
	echo 3 >"$r/repo/a/x"
	if HOW=EXIT "$r/step" >/dev/null; then echo "a failed run passed"; return 1; fi
	"$r/step" >/dev/null
	[ "$(n)" -eq 7 ] || { echo "a failed run was kept"; return 1; }
	# A command that fails inside the step function ends it (errexit).
	echo 4 >"$r/repo/a/x"
	if HOW=CRASH "$r/step" >"$r/o"; then echo "a step function that crashed passed"; return 1; fi
	if grep -q 'thing' "$r/o"; then echo "a step function went on after a failed command"; return 1; fi
	"$r/step" >/dev/null
	[ "$(n)" -eq 9 ] || { echo "a crashed run was kept"; return 1; }
	for how in FAIL SKIP; do
		echo "$how" >"$r/repo/a/x"
		HOW=$how "$r/step" >/dev/null
		"$r/step" >/dev/null
	done
	[ "$(n)" -eq 13 ] || { echo "a run that recorded a FAIL or a SKIP was kept"; return 1; }
	# No git checkout, no key: it runs.
	rm -rf "$r/repo/.git"
	"$r/step" >/dev/null
	"$r/step" >/dev/null
	[ "$(n)" -eq 15 ] || { echo "verdicts reused outside a git checkout"; return 1; }
}

# knobs_apply (scripts/check/steps/static.sh): a knobs patch made on its
# series' tip passes; one whose context the series has changed since fails,
# naming the file.
knobs_apply_in() { # knobs_apply_in DIR: knobs_apply on DIR/top's patches and DIR/src
	local top=$TOP
	TOP=$1/top out=$1/out src=$1/src bash -c \
		'record() { echo "$@"; }; . "$1/scripts/check/steps/static.sh"; knobs_apply' ka "$top"
}
t_knobs_apply() {
	local d=$T/ka v
	env_for "$d"
	mkdir -p "$d/top/bench" "$d/out"
	git init -q "$d/src"
	printf 'a\nb\nc\n' >"$d/src/f.c"
	git -C "$d/src" add f.c
	git -C "$d/src" commit -q -m base
	git -C "$d/src" branch series/06-a
	sed -i 's/^b$/b knob/' "$d/src/f.c"
	git -C "$d/src" diff >"$d/top/bench/06-a.knobs.patch"
	git -C "$d/src" checkout -q f.c
	v=$(knobs_apply_in "$d")
	grep -q '^PASS bench knobs: bench/06-a.knobs.patch applies to series/06-a$' <<<"$v" ||
		{ echo "a patch that applies: $v"; return 1; }
	# The series changes the patch's context.
	sed -i 's/^a$/a changed/; s/^c$/c changed/' "$d/src/f.c"
	git -C "$d/src" commit -q -a -m change
	git -C "$d/src" branch -f series/06-a
	v=$(knobs_apply_in "$d")
	grep -q '^FAIL bench knobs: bench/06-a.knobs.patch applies to series/06-a .*f.c' <<<"$v" ||
		{ echo "a patch that does not apply: $v"; return 1; }
	[ "$(git -C "$d/src" status --porcelain)" = "" ] || { echo "the tree was changed"; return 1; }
}

# make check's closing count by kind, on a tally of each kind: one case in
# two configurations (the host's and LAVA's names for it), a program, a
# build, static checks, a detector check, kernel logs, a guest run.
t_counted() {
	local r=$T/counted v
	mkdir -p "$r"
	printf 'prog a.one\nprog b.two\nother -\n' >"$r/expected"
	cat >"$r/tally" <<-'TALLY'
		PASS selftest prog: a.one (sched_proxy_exec=1)
		SKIP selftest prog: b.two: no thing (allowed: not there) (sched_proxy_exec=1)
		PASS lava prog_a_one (LAVA, sched_proxy_exec=0)
		FAIL selftest other: exit status 1 (sched_proxy_exec=1)
		PASS lava prog (LAVA, sched_proxy_exec=0)
		PASS build: every patch
		SKIP nothing to build: a documentation patch
		PASS checkpatch --strict: 01-a/0001-a.patch
		PASS mailable: 01-a
		PASS bench knobs: bench/06-a.knobs.patch applies to series/06-a
		PASS lava job futex-debug-x86_64.yaml
		PASS detector fires: a hung guest
		PASS kernel log clean (sched_proxy_exec=1)
		PASS lava kernel_log_clean (LAVA, sched_proxy_exec=0)
		PASS guest run: selftests
	TALLY
	v=$(tally=$r/tally expected=$r/expected bash -c '. "$1/scripts/check/runner.sh"; counted' \
		counted "$TOP")
	printf '%s\n' "$v"
	grep -q '^counted: 3 selftest case verdicts (2 distinct cases in 2 configurations), 2 programs as a whole,$' <<<"$v" &&
		grep -q '^  1 builds (1 patches with nothing to build), 4 static checks (checkpatch, mail, LAVA job schema, knobs patches),$' <<<"$v" &&
		grep -q '^  1 checks of the detectors (workbench, model, planted faults), 2 kernel logs scanned, 1 other runs$' <<<"$v"
}

# model.sh's tally, on stand-ins for spin and gcc whose "pan" finds an
# error exactly where a seeded bug or a finding is (-DMUTANT_*, P3 but P4
# for -DMUTANT_LEAVE_DROPS_OD; finding 12's -DDUE_BYPASSES=0, with the
# text of the assertion it wants): every check gives its verdict, and a
# check that gives none fails the run.
t_model() {
	local r=$T/model v
	mkdir -p "$r/bin"
	cat >"$r/bin/spin" <<-'STUB'
		#!/bin/sh
		[ "$1" = -V ] && { echo "Spin Version 0 (stand-in)"; exit 0; }
		[ "$1" = -a ] || exit 0
		err=0 prop=P1_mutex text=
		case " $* " in *" -DMUTANT_"*) err=1 prop=P3_bypass ;; esac
		case " $* " in *" -DDUE_BYPASSES=0 "*) err=1 prop=P3_bypass text='(bypd[0]<1)||' ;; esac
		case " $* " in *" -DMUTANT_LEAVE_DROPS_OD "*) err=1 prop=P4_ownerdied ;; esac
		printf '#!/bin/sh\n' >pan.c
		[ "$err" = 0 ] || printf 'echo "pan: assertion violated %s!(%s)"\n' "$text" "$prop" >>pan.c
		printf 'echo "10 states, stored"\necho "State-vector 100 byte, depth reached 9, errors: %s"\n' "$err" >>pan.c
	STUB
	cat >"$r/bin/gcc" <<-'STUB'
		#!/bin/sh
		while [ "$1" != -o ]; do shift; done
		cp "$3" "$2"
		chmod +x "$2"
	STUB
	chmod +x "$r/bin/spin" "$r/bin/gcc"
	v=$(PATH=$r/bin:$PATH MODEL_OUT=$r/out "$TOP/scripts/check/model.sh" --full 2>&1) || {
		printf '%s\n' "$v"
		return 1
	}
	printf '%s\n' "$v" | tail -n 3
	grep -q -E '^model: 43 passed, 0 failed in [0-9]+s \(33 checks\)$' <<<"$v" &&
		grep -q -E '^PASS model mutant leave-drops-od is caught \(P4 ' <<<"$v" &&
		grep -q -E '^PASS model mutant lost-look-no-w is caught \(P3 ' <<<"$v"
}

# fuzz_verdict on what tests/guest-fuzz.sh leaves: a run that ended with
# 0 passes and names its seed; a run that failed names the seed and the
# first error from the log's last line; a run without status, or without
# "done" (the guest died), fails.
t_fuzz_verdict() {
	local r=$T/fuzz v
	mkdir -p "$r/ok" "$r/bad" "$r/died" "$r/none"
	printf 'ping_fuzz: seed 42, 60 s, 3 processes x 4 threads, leaving out 0\nping_fuzz: seed 42: ok\n' >"$r/ok/ping_fuzz.log"
	printf 'ping_fuzz 0 61\n' >"$r/ok/status.tsv"
	printf 'ping_fuzz: seed 7, 60 s\nping_fuzz: seed 7: FAILED: 1 errors; the first: PI unlock 0x1 by 9: Invalid argument\n' >"$r/bad/ping_fuzz.log"
	printf 'ping_fuzz 1 151\n' >"$r/bad/status.tsv"
	cp "$r/ok/ping_fuzz.log" "$r/ok/status.tsv" "$r/died/"
	echo ok | tee "$r/ok/done" "$r/bad/done" "$r/none/done" >/dev/null
	v=$(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		for d in ok bad died none; do fuzz_verdict "$r/$d"; done
	)
	printf '%s\n' "$v"
	grep -q -x 'PASS ping_fuzz: seed 42, 61s' <<<"$v" &&
		grep -q -x "FAIL ping_fuzz: exit status 1 after 151s: ping_fuzz: seed 7: FAILED: 1 errors; the first: PI unlock 0x1 by 9: Invalid argument (log: $r/bad/ping_fuzz.log)" <<<"$v" &&
		grep -q -x "FAIL ping_fuzz: did not run to its end ($r/died)" <<<"$v" &&
		grep -q -x "FAIL ping_fuzz: did not run to its end ($r/none)" <<<"$v" &&
		[ "$(grep -c '^PASS' <<<"$v")" -eq 1 ]
}

# kcsan-verdict.sh on KCSAN reports whose accesses resolve (through a
# stand-in faddr2line) to a line the queue changed, to an unchanged line,
# and to no line at all (a vmlinux without debug information): the
# first and the last fail, the second is listed; a log without a report
# passes.
t_kcsan_verdict() {
	local r=$T/kcsan v
	mkdir -p "$r/src/scripts" "$r/src/kernel/futex"
	git -C "$r/src" init -q
	seq 1 10 >"$r/src/kernel/futex/ping.c"
	git -C "$r/src" add -A
	git -C "$r/src" -c user.name=t -c user.email=t@t commit -q -m base
	git -C "$r/src" tag base
	sed -i '5s/.*/five, racy/' "$r/src/kernel/futex/ping.c"
	git -C "$r/src" -c user.name=t -c user.email=t@t commit -q -a -m tip
	cat >"$r/src/scripts/faddr2line" <<-'EOF2'
		#!/bin/sh
		f=${2%%+*}
		echo "$2:"
		case $f in
		ping_spin) echo "$f at $PWD/kernel/futex/ping.c:5" ;;
		other_fn) echo "$f at $PWD/kernel/futex/ping.c:1" ;;
		*) echo "$f at ??:0" ;;
		esac
	EOF2
	chmod +x "$r/src/scripts/faddr2line"
	report() { # report A B
		printf '[ 1.0] ==================================================================\n'
		printf '[ 1.0] BUG: KCSAN: data-race in %s / %s\n[ 1.0] \n' "$1" "$2"
		printf '[ 1.0] write to 0xffffffff829126f0 of 8 bytes by task 7 on cpu 1:\n[ 1.0]  %s+0xec/0x1621\n[ 1.0]  do_futex+0x1/0x2\n' "$1"
		printf '[ 1.0] \n[ 1.0] read to 0xffffffff829126f0 of 8 bytes by task 8 on cpu 0:\n[ 1.0]  %s+0xd5/0x1621\n' "$2"
		printf '[ 1.0] Reported by Kernel Concurrency Sanitizer on:\n[ 1.0] ==================================================================\n'
	}
	{ report ping_spin other_fn; report other_fn other_fn; report nodebug other_fn; } >"$r/log"
	echo '[ 1.0] nothing' >"$r/clean"
	v=$("$TOP/scripts/check/kcsan-verdict.sh" "$r/log" /dev/null "$r/src" base HEAD
		"$TOP/scripts/check/kcsan-verdict.sh" "$r/clean" /dev/null "$r/src" base HEAD)
	printf '%s\n' "$v"
	grep -q -x "FAIL KCSAN in the queue's code: data-race in ping_spin / other_fn (kernel/futex/ping.c:5, kernel/futex/ping.c:1)" <<<"$v" &&
		grep -q -x "NOTE KCSAN outside the queue's code: data-race in other_fn / other_fn (kernel/futex/ping.c:1, kernel/futex/ping.c:1)" <<<"$v" &&
		grep -q -x "FAIL KCSAN at an unknown line: data-race in nodebug / other_fn (nodebug+0xec/0x1621, kernel/futex/ping.c:1)" <<<"$v" &&
		grep -q -x "PASS KCSAN: no report in the queue's code (0 elsewhere)" <<<"$v" &&
		[ "$(grep -c '^PASS' <<<"$v")" -eq 1 ]
}

# failfutex_verdict on the fault-injection job's results
# (scripts/lab/lava-results.py): a clean pass, a leak, no fault injected, a
# missing stress program, no kmemleak result, a pass without its report
# file, no results at all.
t_failfutex_verdict() {
	local r=$T/failfutex v d h
	h=$(printf 'log\tsuite\tcase\tresult\tmeasurement\tunits')
	for d in ok leak none missing noleakrow noreport empty; do mkdir -p "$r/$d/raw"; done
	row() { printf 'job\tfutex-failfutex\t%s\t%s\t%s\t%s\n' "$@"; }
	{
		echo "$h"
		row failfutex_injected pass 112.0000000000 faults
		row kmemleak_clean pass '' ''
		row kernel_log_clean pass '' ''
	} >"$r/ok/results.tsv"
	: >"$r/ok/raw/job.kmemleak.txt"
	sed 's/\tkmemleak_clean\tpass/\tkmemleak_clean\tfail/' "$r/ok/results.tsv" >"$r/leak/results.tsv"
	printf 'unreferenced object 0x1 (size 64):\nunreferenced object 0x2 (size 64):\n' >"$r/leak/raw/job.kmemleak.txt"
	sed 's/\tfailfutex_injected\tpass\t112.0000000000/\tfailfutex_injected\tfail\t0.0000000000/' \
		"$r/ok/results.tsv" >"$r/none/results.tsv"
	{ cat "$r/ok/results.tsv"; row failfutex_futex_ping fail '' ''; } >"$r/missing/results.tsv"
	grep -v kmemleak_clean "$r/ok/results.tsv" >"$r/noleakrow/results.tsv"
	cp "$r/ok/results.tsv" "$r/noreport/"
	cp "$r/ok/raw/job.kmemleak.txt" "$r/none/raw/"
	cp "$r/ok/raw/job.kmemleak.txt" "$r/missing/raw/"
	v=$(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		for d in ok leak none missing noleakrow noreport empty; do failfutex_verdict "$r/$d" | sed "s/^/$d: /"; done
	)
	printf '%s\n' "$v"
	[ "$(grep -c '^ok: ' <<<"$v")" -eq 2 ] && ! grep -q '^ok: FAIL' <<<"$v" &&
		grep -q -x 'ok: PASS fault injection: 112 faults injected' <<<"$v" &&
		grep -q -x 'ok: PASS fault injection: no kmemleak report' <<<"$v" &&
		grep -q -x "leak: FAIL fault injection: no kmemleak report: 2 objects ($r/leak/raw/job.kmemleak.txt)" <<<"$v" &&
		grep -q -x "none: FAIL fault injection: faults injected: 0.0000000000 (fail) ($r/none/results.tsv)" <<<"$v" &&
		grep -q -x "missing: FAIL fault injection: failfutex_futex_ping failed ($r/missing/results.tsv)" <<<"$v" &&
		grep -q -x "noleakrow: FAIL fault injection: no kmemleak report: no result ($r/noleakrow/results.tsv)" <<<"$v" &&
		grep -q "^noreport: FAIL fault injection: no kmemleak report: " <<<"$v" &&
		grep -q -x "empty: FAIL fault injection: no results ($r/empty/results.tsv)" <<<"$v"
}

# lava_verdict on a LAVA job's results.tsv (scripts/lab/lava-results.py) and
# log: a pass, a failed case, an expected case without a result, an
# allowed and a disallowed skip, no kernel_log_clean result, a job that
# did not complete.
t_lava_verdict() {
	local r=$T/lava v
	mkdir -p "$r"
	printf 'prog a.one\nprog b.two\nprog c.three\nprog d.four\nother -\n' >"$r/expected"
	printf 'prog d.four | only [0-9]+ CPUs | needs more CPUs\nprog f.six | no such thing | not there\n' >"$r/skips"
	printf 'log\tsuite\tcase\tresult\tmeasurement\tunits\n' >"$r/tsv"
	printf 'job\tkselftest-futex\t%s\t%s\t\t\n' prog_a_one pass prog_b_two fail \
		prog_d_four skip prog_e_five skip prog_f_six skip prog pass >>"$r/tsv"
	printf '{"lvl": "results", "msg": {"case": "job", "definition": "lava", "result": "fail"}}\n' >"$r/log"
	printf 'ok 4 d.four # SKIP only 2 CPUs\r\nok 6 f.six # SKIP something else\n' >"$r/console"
	v=$(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		lava_verdict "$r/tsv" "$r/log" "$r/expected" "$r/skips" "$r/console"
	)
	printf '%s\n' "$v"
	grep -q -x 'PASS lava prog_a_one' <<<"$v" &&
		grep -q -x 'PASS lava prog' <<<"$v" &&
		grep -q -x 'FAIL lava prog_b_two: fail' <<<"$v" &&
		grep -q -x 'FAIL lava prog_c_three: no result' <<<"$v" &&
		grep -q -x 'FAIL lava other: no result' <<<"$v" &&
		grep -q -x 'SKIP lava prog_d_four: only 2 CPUs (allowed: needs more CPUs)' <<<"$v" &&
		grep -q -x 'FAIL lava prog_e_five: not in the expected list' <<<"$v" &&
		grep -q -x 'FAIL lava prog_f_six: not in the expected list' <<<"$v" &&
		grep -q -x 'FAIL lava kernel_log_clean: no result' <<<"$v" &&
		grep -q -x "FAIL lava job: did not complete (log: $r/log)" <<<"$v" &&
		[ "$(grep -c '^PASS' <<<"$v")" -eq 2 ] || return 1
	# An expected case that skips for another reason than the allowed
	# one, or with no reason on the console; one that skips unlisted.
	printf 'prog e.five\nprog f.six\nprog g.seven\n' >>"$r/expected"
	printf 'prog g.seven | whatever | allowed\n' >>"$r/skips"
	v=$(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		lava_verdict "$r/tsv" "$r/log" "$r/expected" "$r/skips" "$r/console"
	)
	printf '%s\n' "$v"
	grep -q -x 'FAIL lava prog_f_six: skipped (something else), allowed only as (no such thing)' <<<"$v" &&
		grep -q -x 'FAIL lava prog_e_five: skip' <<<"$v" &&
		grep -q -x 'FAIL lava prog_g_seven: no result' <<<"$v"
}

# locktorture_verdict on kernel logs of the three kinds: clean, a lock
# that excludes nobody, a torture that stalled or never started.
t_locktorture_verdict() {
	local r=$T/locktorture v
	mkdir -p "$r"
	local start
	start='[ 5.0] mutex_lock-torture:--- Start of test: nwriters_stress=4'
	printf '%s\n[ 20.0] Writes:  Total: 100  Max/Min: 30/20   Fail: 0 \n[ 35.0] Writes:  Total: 900  Max/Min: 300/200   Fail: 0 \n' "$start" >"$r/good.txt"
	printf '%s\n[ 20.0] Writes:  Total: 100  Max/Min: 30/20   Fail: 0 \n[ 35.0] Writes:  Total: 900  Max/Min: 300/200   Fail: 1 !!!\n' "$start" >"$r/broken.txt"
	printf '%s\n[ 20.0] Writes:  Total: 100  Max/Min: 30/20   Fail: 0 \n[ 35.0] Writes:  Total: 100  Max/Min: 30/20   Fail: 0 \n' "$start" >"$r/stalled.txt"
	printf '[ 20.0] Writes:  Total: 100  Max/Min: 30/20   Fail: 0 \n' >"$r/none.txt"
	# A long log (more than a pipe holds after its start line).
	{
		cat "$r/good.txt"
		seq -f '[ 40.0] later line %g' 50000
	} >"$r/long.txt"
	v=$(
		# shellcheck source=scripts/check/verdict.sh
		. "$TOP/scripts/check/verdict.sh"
		for f in good broken stalled none long; do
			locktorture_verdict mutex_lock "$r/$f.txt" | sed "s/^/$f: /"
		done
	)
	printf '%s\n' "$v"
	[ "$(grep -c '^good: PASS' <<<"$v")" -eq 2 ] && ! grep -q '^good: FAIL' <<<"$v" &&
		[ "$(grep -c '^long: PASS' <<<"$v")" -eq 2 ] &&
		grep -q '^broken: FAIL locktorture mutex_lock: mutual exclusion broken: Writes:  Total: 900' <<<"$v" &&
		grep -q '^stalled: FAIL locktorture mutex_lock: writes stopped at 100' <<<"$v" &&
		grep -q '^none: FAIL locktorture mutex_lock: did not start' <<<"$v"
}

# make check-bisect's loop over the patches (build_each), with stand-ins
# for the queue and the builds, on a tree of four commits: the kernel, the
# selftests, documentation alone, the kernel again. The documentation
# patch is no build, the selftest one builds the selftests only.
t_build_each() {
	local r=$T/build-each v
	mkdir -p "$r/top/scripts/build" "$r/top/scripts/queue" "$r/src" "$r/out"
	# shellcheck disable=SC2016 # the stand-ins' own arguments
	printf '#!/bin/sh\necho "kernel $*" >>"%s/log"\n' "$r" >"$r/top/scripts/build/build-kernel.sh"
	# shellcheck disable=SC2016
	printf '#!/bin/sh\necho "tools $3" >>"%s/log"\n' "$r" >"$r/top/scripts/build/build-tools.sh"
	# shellcheck disable=SC2016
	printf '#!/bin/sh\ngit -C "$1" log --reverse --format="%%H %%s" HEAD~4..HEAD\n' >"$r/top/scripts/queue/queue.sh"
	chmod +x "$r"/top/scripts/*/*.sh
	cp "$TOP/scripts/lib.sh" "$r/top/scripts/"
	(
		cd "$r/src"
		git init -q
		git -c user.name=t -c user.email=t@t commit -q --allow-empty -m base
		for f in kernel/futex/core.c tools/testing/selftests/futex/functional/a.c \
			Documentation/locking/futex.rst kernel/futex/ping.c; do
			mkdir -p "${f%/*}"
			echo x >"$f"
			git add "$f"
			git -c user.name=t -c user.email=t@t commit -q -m "patch ${f##*/}"
		done
	)
	# lib.sh in $2 (TOP), the runner and the step from this tree.
	v=$(tally=$r/tally out=$r/out bisect_src=$r/src bisect=$r/b bisect_tools=$r/t bash -c '
		. "$2/scripts/lib.sh"
		. "$1/scripts/check/runner.sh"
		. "$1/scripts/check/steps/bisect.sh"
		build_each 1' build_each "$TOP" "$r/top")
	printf '%s\n' "$v"
	cat "$r/log"
	[ "$(cat "$r/tally")" = "PASS build: patch core.c
PASS build: patch a.c
SKIP nothing to build: patch futex.rst
PASS build: patch ping.c" ] &&
		[ "$(grep -c '^kernel ' "$r/log")" -eq 2 ] &&
		grep -q -x 'tools selftests' "$r/log"
}

# make check builds the kernel again at every patch but those that change
# nothing a kernel build reads (kernel_unchanged).
t_kernel_unchanged() {
	(
		# shellcheck source=scripts/lib.sh
		. "$TOP/scripts/lib.sh"
		printf 'tools/testing/selftests/futex/functional/futex_wait.c\n' | kernel_unchanged
		printf 'tools/perf/bench/futex-lock.c\nDocumentation/userspace-api/futex-set-wait.rst\nMAINTAINERS\n' |
			kernel_unchanged
		for f in kernel/futex/core.c include/uapi/linux/futex.h tools/objtool/check.c \
			tools/include/uapi/linux/futex.h Documentation/Kconfig Makefile; do
			if printf 'tools/testing/selftests/futex/Makefile\n%s\n' "$f" | kernel_unchanged; then
				echo "a patch changing '$f' would not be built"
				exit 1
			fi
		done
		if printf '' | kernel_unchanged; then
			echo "a patch changing no file would not be built"
			exit 1
		fi
	)
}

# shellcheck disable=SC2016 # $ in the sed expressions is sed's
t_planted() {
	# run without errexit in the test, as with its old "if (set -e; ...)".
	plant run-fails-on-any-step tests/workbench.sh 's/^\t\tset -eE$/\t\tset +e/'
	# tree.sh no longer refuses to replace unexported work.
	plant tree-refuses-unexported-work scripts/queue/tree.sh '/^check_unexported$/d'
	# export.sh drops the cover letter; writes a file that changes on
	# every export.
	plant export-round-trip scripts/queue/export.sh 's/ --cover-letter / /'
	plant export-round-trip scripts/queue/export.sh 's/g -c core.abbrev=9 format-patch/g format-patch/'
	plant export-round-trip scripts/queue/export.sh \
		's|^\tprev=\$b$|\tdate +%N >>"$out/$name/0000-cover-letter.patch"\n&|'
	# tree.sh stacks a posted series on the folder's series before it,
	# whatever its cover letter's prerequisites say.
	plant posted-on-newer scripts/queue/tree.sh 's/^\t\tposted_parent "\$d" "\$prev"$/\t\tparent=$prev/'
	# tree.sh cuts a cover letter's blurb at a paragraph that looks like
	# git's shortlog.
	plant export-round-trip scripts/lib.sh 's/^\t\tif (got == total && total > 0) end = j + 1$/\t\t# &/'
	# tree.sh fails on bad input with status 1, like any failure; takes
	# in a KERNEL_SRC that is not 7.3.
	plant bad-input-is-refused scripts/lib.sh 's/usage_error "/die "/'
	plant bad-input-is-refused scripts/lib.sh 's/^\t\[ "\$v" = "\$want" \] ||$/\ttrue ||/'
	# fetch-base.sh no longer recognizes a version gone from the archive.
	plant missing-download-fails scripts/setup/fetch-base.sh 's/^gone=.*/gone=no-such-message/'
	# vm.sh without its traps; stopping only timeout and its group.
	plant guest-interrupt-stops-qemu scripts/guest/vm.sh '/^trap .on_signal/d'
	plant guest-interrupt-stops-qemu scripts/guest/vm.sh 's/^\tpids=\$(tree_pids "\$guest")$/\tpids=$guest/'
	plant run-interrupt-stops-everything scripts/check/runner.sh "/^\t\ttrap '' INT\$/d"
	plant run-interrupt-stops-everything scripts/check/runner.sh 's/^\t\t\tcase \$running in \*" \${bg_pid\[\$n\]} "\*) kill_tree/\t\t\tcase x in y) kill_tree/'
	plant run-interrupt-stops-everything scripts/check/check.sh '/^trap .finish "interrupted". INT TERM$/d'
	# tree.sh without the lock; a nested script waiting for its parent.
	plant workbench-lock scripts/queue/tree.sh '/^lock_workbench$/d'
	plant workbench-lock scripts/lib.sh '/FUTEX_WORKBENCH_LOCKED:-/s/ || return 0$/ || true/'
	# queue.sh trusting any DIR/.git, as it did.
	# The verdict no longer fails a "not ok" case, nor sees lockdep.
	plant verdict-detects scripts/check/verdict.sh 's/got\[desc\] = "FAIL"/got[desc] = "PASS"/'
	# objtool's sources, or Documentation/Kconfig, taken for kernel-neutral.
	plant kernel-unchanged-is-exact scripts/lib.sh 's|^\t\ttools/testing/\* |\t\ttools/* |'
	# make check-kcsan's summary silent on what it did not run; the
	# SKIP line of rows that share one said at the first, not the last
	# (make check-planted's before the patches are applied); b4 mailing
	# the series in make check-planted; the list of steps in the docs
	# that the table no longer has.
	plant mode-summary-says-what-is-left scripts/check/runner.sh '/^\tleft_out "make check.s steps: /d'
	plant mode-summary-says-what-is-left scripts/check/runner.sh 's/^\tin_mode full planted || mode_finish$/\ttrue/'
	plant mode-summary-says-what-is-left scripts/check/runner.sh 's/^\tfor ((j = i + 1; j < /\tfor ((j = 0; j < i; /'
	plant mode-summary-says-what-is-left scripts/check/table.sh 's/^row bg-low       full           b4_mailable /row bg-low       "full planted" b4_mailable /'
	# The third guest booted alone, before the pair it should run beside.
	plant mode-summary-says-what-is-left scripts/check/runner.sh 's/^\t\t\t3) bg_start "\$name" 0 "\$fn" ;;$/\t\t\t3) check_step "$name" "$fn" ;;/'
	plant steps-table-is-documented scripts/check/table.sh '/ lava_schema /d'
	# A hung lava-run left to CI's limit; a kill that does not say where
	# the job hung.
	plant lava-hang-is-named scripts/lab/lava.sh 's/"\${LAVA_RUN_TIMEOUT:-3600}"/3600/'
	plant lava-hang-is-named scripts/lab/lava.sh 's/c \&\& \/"msg": "end: \/ {/c \&\& \/"msg": "start: \/ {/'
	# A documentation patch counted as a build.
	plant build-each-counts-builds scripts/check/steps/bisect.sh 's/^\t\tif \[ -z "\$made" \]; then$/\t\tif false; then/'
	plant kernel-unchanged-is-exact scripts/lib.sh '/^\t\tDocumentation\/Kconfig) return 1 ;;$/d'
	# Every C file's directory, or no kernel/futex/; modes taken by -z.
	plant compile-targets scripts/lib.sh 's/-mindepth 2 -maxdepth 2 -name Makefile -print -quit/-name NoSuchFile -print -quit/'
	plant compile-targets scripts/lib.sh 's|^\t\techo kernel/futex/$|\t\t:|'
	plant check-modes-are-checked scripts/check/check.sh "s/^\t\*) usage_error \"\$var=.*/\t*) mode=\${v#*:} ;;/"
	plant verdict-detects lava/kernel-log-badness '/^lockdep|/d'
	# A lost log taken for a clean one.
	plant verdict-detects scripts/check/verdict.sh 's/^\t\tif \[ ! -s "\$f" \]; then$/\t\tif false; then/'
	# locktorture_verdict that no longer reads the Fail: count.
	plant locktorture-verdict-detects scripts/check/verdict.sh 's/!\/Fail: 0( |\$)\/ \&\& !found/!found \&\& 0/'
	# The start line looked for at the end of a pipe (pipefail's trap).
	plant locktorture-verdict-detects scripts/check/verdict.sh 's/if ! grep -a -q -F "\$type-torture:--- Start of test" "\$@" 2>\/dev\/null; then/if ! cat "$@" | grep -a -q -F "$type-torture:--- Start of test"; then/'
	# ping_bench_verdict that takes any summary for an exact counter, or
	# no longer checks the uncontended runs.
	plant ping-bench-verdict-detects scripts/check/verdict.sh 's/if (b\[1\] == b\[3\]) ok = 1/ok = 1/'
	plant ping-bench-verdict-detects scripts/check/verdict.sh 's/if (rc != "0") why = /if (0) why = /'
	plant ping-bench-verdict-detects scripts/check/verdict.sh 's/ && !nosys) why/ \&\& 0) why/'
	plant lava-verdict-detects scripts/check/verdict.sh 's/for (c in want) if (!(c in seen))/for (c in want) if (0)/'
	plant lava-verdict-detects scripts/check/verdict.sh 's/else if (\$4 != "skip" || !(\$3 in allowed))/else if ($4 != "skip")/'
	plant verdict-detects scripts/check/verdict.sh 's/} else if (m == "ok" \&\& (desc in inner)) {/} else if (0) {/'
	plant lava-verdict-detects scripts/check/verdict.sh 's/if (p\[2\] == "-") want\[lava(p\[1\])\] = 1/if (p[2] == "-") continue/'
	plant futex-lava-detects lava/futex-lava.sh 's/ || (d in inner)//'
	plant futex-lava-detects lava/kernel-log-badness 's/^WARNING|WARNING:|/WARNING|/'
	plant futex-lava-detects lava/futex-lava.sh 's/ grep -v -E "\${ignore:-^\\\$}" / cat /'
	# An allowed skip taken for any reason the test gives; a LAVA result
	# outside the expected list, or an allowed skip's reason, not judged.
	plant verdict-detects scripts/check/verdict.sh 's/else if (why\[c\] !~ ("^(" said\[k\] ")\$"))/else if (0)/'
	plant lava-verdict-detects scripts/check/verdict.sh 's/if (!(\$3 in known)) printf/if (0) printf/'
	plant lava-verdict-detects scripts/check/verdict.sh 's/else if (reason\[kcase\[\$3\]\] !~/else if (0 ~/'
	# bench-table.sh leaves out a run that has no value.
	plant bench-table-drops-nothing scripts/bench/bench-table.sh 's/^\t\t\t\t\tunparsed+=(.*/\t\t\t\t\ttrue/'
	# bench-ablation-table.sh compares a setting with itself, not with
	# default; or takes a line it cannot parse.
	plant ablation-table scripts/bench/bench-ablation-table.sh \
		's|<"\$d")$|<"$f")|; s|verdict "\$d" "\$f"|verdict "$f" "$f"|'
	plant ablation-table scripts/bench/bench-ablation-table.sh 's/^\$1 == "ab" { print.*/$1 == "ab" { next }/'
	# KERNEL_SRC ignored once work/linux exists; make check deleting
	# work/check before a bad KERNEL_SRC is refused.
	plant pathlen-table-drops-nothing scripts/bench/bench-pathlen-table.sh 's/^\t\t\t\tunparsed+=(.*/\t\t\t\ttrue/'
	plant pathlen-table-drops-nothing scripts/bench/bench-pathlen-table.sh 's/^\tprintf .ERROR: %s values in.*/\texit 0/'
	plant bad-input-is-refused scripts/queue/queue.sh 's/^elif \[ -n "\${KERNEL_SRC:-}" \] \&\& ! base_is_wanted; then$/elif false; then/'
	plant bad-input-is-refused scripts/check/check.sh 's/^check_kernel_src$/true/'
	# The closing count takes a program's exit status for a case.
	plant summary-counts-kinds scripts/check/runner.sh 's/ \&\& !\/^selftest \[^:\]+: (exit status|did not run|not in the test directory)\/ {$/ {/'
	# A message without To: among others with it taken for mailable (the
	# pipefail trap); the count of messages not compared.
	plant mail-verdict-detects scripts/check/steps/static.sh 's/sed -n .1,\/\^\$\/p. "\$f" | grep -c/grep -c/'
	plant mail-verdict-detects scripts/check/steps/static.sh 's/\] || echo "\$f"$/] || true/'
	plant mail-verdict-detects scripts/check/steps/static.sh 's/if \[ "\$m" -ne "\$want" \]; then/if false; then/'
	# Recipients read from the first line of a folded header only; every
	# header taken for a recipient.
	plant mail-verdict-detects scripts/check/steps/static.sh 's/{ if (h != "") print h; h = \$0 }/{ print; h = "" }/'
	plant mail-verdict-detects scripts/check/steps/static.sh "s/grep -i -E '^(To|Cc|Bcc):' |/cat |/"
	# A model check that dies without a verdict goes unseen.
	plant model-tally scripts/check/model.sh 's/^\t0) pass "variant \$name, \$desc.*/\t0) ;;/'
	plant model-tally scripts/check/model.sh 's/^\tnchecks=\$((nchecks + 1))$//'
	# The lock held for as long as something else lives (as when QEMU
	# inherited its descriptor): a run killed with SIGKILL blocks the next.
	plant workbench-lock scripts/lib.sh 's/owner=\$\$ ready got/owner=$PPID ready got/'
	# A run killed while it waits: what waits for it takes the lock later.
	plant workbench-lock scripts/lib.sh 's/^\t\t\t\t\tkill -0 "\$owner" 2>\/dev\/null || exit 1$/\t\t\t\t\ttrue/'
	# vm.sh exits 130 on a Ctrl-C instead of dying by it.
	plant guest-interrupt-stops-qemu scripts/guest/vm.sh 's/^\tkill -s "\$1" "\$\$"$/\texit 130/'
	plant boot-stall-boots-again scripts/guest/vm.sh 's/^for attempt in 1 2; do$/for attempt in 2; do/'
	plant boot-stall-boots-again scripts/guest/vm.sh 's/^\t\[ "\$attempt" -eq 1 \] ||$/\t[ "$attempt" -eq 0 ] ||/'
	plant boot-stall-boots-again scripts/guest/vm.sh 's/^\t: >"\$out"$/\t:/'
	plant boot-stall-boots-again scripts/guest/vm.sh 's/^\tstop_guest$/\t:/'
	plant knobs-patch-must-apply scripts/check/steps/static.sh 's/apply --cached --check "\$p"/apply --cached --check --exclude="*" "$p"/'
	plant command-failure-is-shown scripts/guest/vm.sh 's/| tail -n 20 | sed .s\/^\/    \/. >&2$/>\/dev\/null/'
	# The host's verdict misses an RCU stall that a CPU saw itself, a
	# lone "kernel BUG at", a KCSAN report, a stack dump without a header.
	plant verdict-detects lava/kernel-log-badness 's/|self-detected stall on CPU//'
	plant verdict-detects lava/kernel-log-badness 's/|kernel BUG at//'
	plant verdict-detects lava/kernel-log-badness '/^KCSAN|/d'
	plant verdict-detects lava/kernel-log-badness '/^other|/d'
	plant futex-lava-detects lava/futex-lava.sh 's/^\t\t4) report "$(name "$t")" skip ;;$//'
	# ping-locks.awk (guest-peers.sh, bench/peers.sh) counts locks of a
	# library that fell back to glibc.
	plant peers-fallback-fails pingmutex/ping-locks.awk 's/if (index($0, mode " mutexes on PING; locks: ") == 0)/if (0)/'
	# make bench's peers rows taken without asking the library's counters.
	plant peers-fallback-fails bench/peers.sh 's/\[ "\${n:-0}" -gt 0 \] \&\& return 0/return 0/'
	# A KCSAN report whose line is not known taken for one elsewhere.
	plant kcsan-verdict-detects scripts/check/kcsan-verdict.sh 's/^\t\t\tunknown=1$/\t\t\tunknown=0/'
	# Fault injection judged by the programs' exit alone: no fault
	# injected, or a leak, taken for a pass.
	plant failfutex-verdict-detects scripts/check/verdict.sh 's/if \[ -n "\$n" \] \&\& \[ "\$n" -gt 0 \]; then/if true; then/'
	plant failfutex-verdict-detects scripts/check/verdict.sh 's/pass\\t. "\$tsv" \&\& \[ -f "\$leak" \] \&\& \[ ! -s "\$leak" \]; then/pass\\t" "$tsv"; then/'
	plant stale-worktree-is-repaired scripts/queue/queue.sh 's/^if is_our_worktree; then$/if [ -e "$dir\/.git" ]; then/'
	# A series applied in one git am, its failure blamed on its first patch.
	plant broken-patch-fails scripts/lib.sh 's/^\t\tshift "\$applied"$/\t\t:/'
	# A failed git am of a series that took back the patches before it.
	plant broken-patch-fails scripts/lib.sh 's/^\t\tgit -C "\$tree" am --quit /\t\tgit -C "$tree" am --abort /'
	# Verdicts reused after a change of a file's content, or of a
	# setting; a run that recorded a FAIL or a SKIP kept; CHECK_REUSE=0
	# not heard; the verdicts of a step beside it kept.
	plant verdicts-reused-exactly scripts/check/steps/selfcheck.sh 's/xargs -d .\\n. sha256sum --/xargs -d "\\n" ls --/'
	plant verdicts-reused-exactly scripts/check/steps/selfcheck.sh '/^\t\tenv | grep -E /,/^\t\t\tgrep -v .^CHECK_REUSE=. | sort || true$/d'
	plant verdicts-reused-exactly scripts/check/steps/selfcheck.sh "s/ \&\& ! grep -q -v '^PASS ' \"\$t\"; then\$/ \&\& ! grep -q '^FAIL ' \"\$t\"; then/"
	plant verdicts-reused-exactly scripts/check/steps/selfcheck.sh 's/"\${CHECK_REUSE:-1}" != 0/1 != 0/'
	plant verdicts-reused-exactly scripts/check/steps/selfcheck.sh 's/^\t\tset -e$/\t\tset +e/'
	plant verdicts-reused-exactly scripts/check/steps/selfcheck.sh 's/^\t\ttally=\$t "\$fn"$/\t\t"$fn"; cp "$tally" "$t"/'
	plants_judged
}

run run-fails-on-any-step t_run_fails_on_any_step
run shellcheck t_shellcheck
run export-round-trip t_export_round_trip
run export-versions t_export_versions
run posted-on-newer t_posted_on_newer
run tree-refuses-unexported-work t_tree_refuses_unexported
run broken-patch-fails t_broken_patch
run corrupt-download-fails t_corrupt_download
run missing-download-fails t_missing_download
run build-failure-fails t_build_failure
run bad-input-is-refused t_bad_input
run workbench-lock t_lock
run stale-worktree-is-repaired t_stale_worktree
run guest-interrupt-stops-qemu t_guest_interrupt
run run-interrupt-stops-everything t_run_interrupt
run boot-stall-boots-again t_boot_stall
run command-failure-is-shown t_command_failure
run verdict-detects t_verdict
run locktorture-verdict-detects t_locktorture_verdict
run ping-bench-verdict-detects t_ping_bench_verdict
run lava-verdict-detects t_lava_verdict
run fuzz-verdict-detects t_fuzz_verdict
run failfutex-verdict-detects t_failfutex_verdict
run kcsan-verdict-detects t_kcsan_verdict
run model-tally t_model
run summary-counts-kinds t_counted
run knobs-patch-must-apply t_knobs_apply
run verdicts-reused-exactly t_reuse
run mail-verdict-detects t_mail_verdict
run bench-table-drops-nothing t_bench_table
run pathlen-table-drops-nothing t_pathlen_table
run ablation-table t_ablation_table
run futex-lava-detects t_futex_lava
run peers-fallback-fails t_peers_fallback
run kernel-unchanged-is-exact t_kernel_unchanged
run build-each-counts-builds t_build_each
run compile-targets t_compile_targets
run check-modes-are-checked t_check_modes
run mode-summary-says-what-is-left t_mode_summary
run steps-table-is-documented t_steps_doc
run lava-hang-is-named t_lava_hang
run planted-bugs-are-caught t_planted
# Where the time went, for whoever makes make check faster.
printf 'slowest:'
printf '%s\n' "${times[@]}" | sort -rn | head -n 5 | awk '{ printf " %s %ss", $2, $1 }'
printf '\n'
if [ -s "$T/plant-times" ]; then
	printf 'slowest plants:'
	sort -rn "$T/plant-times" | head -n 5 | awk '{ printf " %s %ss", $2, $1 }'
	printf '\n'
fi
printf 'workbench: %d passed, %d failed\n' "$pass" "$fail"
if [ $((pass + fail)) -eq 0 ]; then
	printf 'workbench: no test named%s\n' "${only% }" >&2
	exit 2
fi
[ "$fail" -eq 0 ]
