#!/usr/bin/env bash
# workbench.sh: the workbench's own tests. Each proves one promise of the
# scripts (round trip, refusals, one-line errors) on small fake inputs, so
# none needs the kernel download. Prints one PASS/FAIL line per test and
# ends with "workbench: N passed, N failed".
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/workbench-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

run() {
	local name=$1
	shift
	if (set -e; "$@") >"$T/$name.log" 2>&1; then
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

# A tiny stand-in for the kernel source, used through KERNEL_SRC.
fake_kernel() {
	local d=$1
	mkdir -p "$d"
	git -C "$d" init -q -b master
	printf 'all:\n\ttrue\n' >"$d/Makefile"
	printf 'int futex(void);\n' >"$d/futex.c"
	git -C "$d" add -A
	git -C "$d" -c user.name=t -c user.email=t@t commit -q -m "v7.3"
}

env_for() { # env_for DIR: an isolated workbench around DIR
	export WORK=$1/work PATCHES=$1/patches FUTEX_CACHE=$1/cache
	export LINUX=$1/work/linux KERNEL_SRC=$1/src
	mkdir -p "$PATCHES"
}

commit() { # commit FILE LINE SUBJECT
	printf '%s\n' "$2" >>"$LINUX/$1"
	git -C "$LINUX" add "$1"
	git -C "$LINUX" commit -q -m "$3" -m "Explain why $3."
}

t_shellcheck() {
	cd "$TOP"
	shellcheck -x scripts/*.sh tests/*.sh .ci/run
}

t_export_round_trip() {
	env_for "$T/rt"
	fake_kernel "$KERNEL_SRC"
	"$TOP/scripts/tree.sh"
	git -C "$LINUX" checkout -q -b series/01-first
	commit futex.c 'int a;' 'futex: Add a'
	commit futex.c 'int b;' 'futex: Add b'
	git -C "$LINUX" config branch.series/01-first.description \
		"$(printf 'futex: First series\n\nIts cover letter.\n\nName (1):\n  not a shortlog')"
	git -C "$LINUX" checkout -q -b series/02-second
	commit other.c 'int c;' 'futex: Add c'
	"$TOP/scripts/export.sh"
	ls "$PATCHES/01-first/0000-cover-letter.patch" "$PATCHES/01-first/0002-futex-Add-b.patch" \
		"$PATCHES/02-second/0001-futex-Add-c.patch"
	grep -q '^Subject: \[PATCH 0/2\] futex: First series' "$PATCHES/01-first/0000-cover-letter.patch"
	grep -q '^base-commit: ' "$PATCHES/02-second/0001-futex-Add-c.patch"
	cp -a "$PATCHES" "$T/rt/first"
	# An unchanged tree exports byte-identical files.
	"$TOP/scripts/export.sh"
	diff -r "$T/rt/first" "$PATCHES"
	# export -> tree -> export is a no-op.
	"$TOP/scripts/tree.sh"
	"$TOP/scripts/export.sh"
	diff -r "$T/rt/first" "$PATCHES"
	git -C "$LINUX" config branch.series/01-first.description | grep -q 'Its cover letter'
}

t_tree_refuses_unexported() {
	env_for "$T/ue"
	fake_kernel "$KERNEL_SRC"
	"$TOP/scripts/tree.sh"
	git -C "$LINUX" checkout -q -b series/01-first
	commit futex.c 'int a;' 'futex: Add a'
	expect_fail "not in patches/" "$TOP/scripts/tree.sh"
	echo 'int dirty;' >>"$LINUX/futex.c"
	expect_fail "uncommitted changes" "$TOP/scripts/tree.sh"
	expect_fail "uncommitted changes" "$TOP/scripts/export.sh"
	git -C "$LINUX" checkout -q -- futex.c
	git -C "$LINUX" checkout -q --detach
	commit futex.c 'int b;' 'futex: Add b'
	expect_fail "on no series" "$TOP/scripts/export.sh"
	# The work is still there after every refusal.
	git -C "$LINUX" log --format=%s | grep -q 'futex: Add b'
}

t_broken_patch() {
	env_for "$T/bp"
	fake_kernel "$KERNEL_SRC"
	mkdir -p "$PATCHES/01-broken"
	cat >"$PATCHES/01-broken/0001-futex-Break.patch" <<-'P'
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
	expect_fail "patch does not apply: .*0001-futex-Break.patch" "$TOP/scripts/tree.sh"
}

# A stand-in apt-get that "downloads" a file with the wrong content, or
# fails, to prove fetch-base.sh refuses both.
fake_apt() {
	mkdir -p "$T/bin"
	cat >"$T/bin/apt-get" <<-'A'
	#!/bin/sh
	for a; do
		[ "$a" = download ] || continue
		[ -n "${FAKE_APT_FAIL:-}" ] && { echo "E: Unable to locate package" >&2; exit 100; }
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
	expect_fail "sha256 .* expected 703e369d" "$TOP/scripts/fetch-base.sh" "$T/cd/out"
	[ ! -e "$T/cd/out" ]
}

t_missing_download() {
	env_for "$T/md"
	fake_apt
	FAKE_APT_FAIL=1 expect_fail "apt-get download linux-source-7.3=7.3.4-1~bpo13\+1 failed" \
		"$TOP/scripts/fetch-base.sh" "$T/md/out"
}

t_build_failure() {
	env_for "$T/bf"
	mkdir -p "$T/bf/src"
	printf 'all tinyconfig olddefconfig bzImage:\n\t@echo "error: broken on purpose" >&2; false\n' \
		>"$T/bf/src/Makefile"
	expect_fail "make tinyconfig failed" "$TOP/scripts/build-kernel.sh" guest "$T/bf/src" "$T/bf/out"
}

run shellcheck t_shellcheck
run export-round-trip t_export_round_trip
run tree-refuses-unexported-work t_tree_refuses_unexported
run broken-patch-fails t_broken_patch
run corrupt-download-fails t_corrupt_download
run missing-download-fails t_missing_download
run build-failure-fails t_build_failure
printf 'workbench: %d passed, %d failed\n' "$pass" "$fail"
[ "$fail" -eq 0 ]
