# shellcheck shell=bash
# Common helpers for the workbench scripts: paths, pinned versions, step
# announcements with elapsed time, and one-line fatal errors.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${WORK:-$TOP/work}
# Downloads and the private apt state outlive a clone, so a fresh clone on
# the same machine (CI) does not fetch the base again.
CACHE=${FUTEX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/futex-workbench}
PATCHES=${PATCHES:-$TOP/patches}
RESULTS=${RESULTS:-$TOP/results}
LINUX=${LINUX:-$WORK/linux}
export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ccache}

# The pinned base: Debian's linux-source-7.3 from trixie-backports.
# shellcheck disable=SC2034 # used by the scripts that source this file
{
BASE_PKG=linux-source-7.3
BASE_VER=7.3.4-1~bpo13+1
BASE_SHA256=703e369ddd4cce971452f5a593ee55df3a5c10c83caf0fa0df039633ed181ee3
BASE_TAG=base-7.3.4
BASE_FILES=96057
}

mkdir -p "$WORK" "$CACHE"

die() {
	printf 'ERROR: %s\n' "$*" >&2
	exit 1
}

warn() {
	printf 'warning: %s\n' "$*" >&2
}

# step NAME CMD...: announce a long step, run CMD, report elapsed time.
# CMD runs in a subshell with errexit on, so that any failing command in a
# function run through step fails the step. Bash ignores errexit in every
# command whose status is tested (if, while, &&, ||, !), subshells
# included, so step must not be called in such a context: it always
# returns 0 and leaves CMD's status in STEP_RC; test it with step_failed.
STEP_RC=0
step() {
	local name=$1 t0 cpu hz ticks
	shift
	t0=$(date +%s)
	# Written by the step's subshell only once its processes are done, so
	# that an interrupted step leaves no file behind.
	ticks=$WORK/.step-cpu.$BASHPID.$RANDOM$RANDOM
	printf '==> %s\n' "$name"
	set +e
	(
		(
			set -e
			"$@"
		)
		rc=$?
		# The CPU time of the step's processes, all waited for by
		# now: counted in a subshell of the step's own, because the
		# caller's shell also reaps background steps that end
		# meanwhile, and would count theirs.
		children_ticks
		mkdir -p "$WORK" 2>/dev/null || true
		echo "$CHILDREN_TICKS" >"$ticks" 2>/dev/null || true
		exit "$rc"
	)
	STEP_RC=$?
	set -e
	hz=$(getconf CLK_TCK)
	cpu=$(($(cat "$ticks" 2>/dev/null || echo 0) + hz / 2))
	cpu=$((cpu / hz))
	rm -f "$ticks"
	if [ "$STEP_RC" -ne 0 ]; then
		printf '<== %s FAILED after %ss (%ss of CPU)\n' "$name" "$(($(date +%s) - t0))" "$cpu" >&2
	else
		printf '<== %s done in %ss (%ss of CPU)\n' "$name" "$(($(date +%s) - t0))" "$cpu"
	fi
	return 0
}

# children_ticks: CHILDREN_TICKS, the CPU time (user and system, in clock
# ticks) of this shell's children that have ended and been waited for.
# Read from /proc/$BASHPID/stat by the shell itself, not in a command
# substitution, which is a child with no children of its own.
children_ticks() {
	local proc
	read -r -a proc </proc/"$BASHPID"/stat
	# pid (comm) state ... cutime cstime: fields 16 and 17; comm is bash.
	CHILDREN_TICKS=$((proc[15] + proc[16]))
}

step_failed() {
	[ "$STEP_RC" -ne 0 ]
}

# logged LOG CMD...: run CMD with its output in LOG; on failure print the
# lines that explain it.
logged() {
	local log=$1
	shift
	mkdir -p "$(dirname "$log")"
	if ! "$@" >"$log" 2>&1; then
		printf -- '--- last lines of %s ---\n' "$log" >&2
		grep -E -i -B2 -A3 'error|fatal|failed|undefined' "$log" | tail -n 40 >&2 ||
			tail -n 40 "$log" >&2
		return 1
	fi
}

# Series folders in application order.
series_dirs() {
	local d
	for d in "$PATCHES"/[0-9][0-9]-*/; do
		[ -d "$d" ] && printf '%s\n' "${d%/}"
	done
	return 0
}

# Patch files of one series, cover letter excluded, in order.
series_patches() {
	local f
	for f in "$1"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -f "$f" ] || continue
		case ${f##*/} in 0000-cover-letter.patch) continue ;; esac
		printf '%s\n' "$f"
	done
	return 0
}

# am_patches TREE PATCH...: git am the patches in one run, each with its
# author date as the committer date so that an unchanged queue gives the
# same commit ids; on failure, keep the patches that applied, drop the
# failed git am and die naming the patch that did not apply. One git am
# for a series, not one per patch: each run of git am compares the whole
# index with the work tree first, about 2 s in a kernel tree, which made
# 138 runs most of make check's "apply" step.
am_patches() {
	local tree=$1 log start applied
	shift
	[ $# -gt 0 ] || return 0
	log=$(mktemp)
	start=$(git -C "$tree" rev-parse HEAD)
	if ! git -C "$tree" am -q --committer-date-is-author-date "$@" >"$log" 2>&1; then
		# The commits git am made before it stopped: the next patch failed.
		# They stay, as when each patch had a git am of its own.
		applied=$(git -C "$tree" rev-list --count "$start..HEAD" 2>/dev/null || echo 0)
		git -C "$tree" am --quit >/dev/null 2>&1 || true
		git -C "$tree" reset -q --hard >/dev/null 2>&1 || true
		# The error is at the end, after any warnings of the patches
		# that applied.
		grep -v -e '^hint: ' -e '^When you have resolved' -e '^If you prefer to skip' \
			-e '^To restore the original branch' "$log" | tail -n 15 | sed 's/^/  /' >&2 || true
		rm -f "$log"
		[ "$applied" -lt "$#" ] || die "git am failed after applying all $# patches (${1#"$TOP"/}...)"
		shift "$applied"
		die "patch does not apply: ${1#"$TOP"/}"
	fi
	rm -f "$log"
}

jobs_n() {
	nproc
}

# is_git_top DIR: DIR is the top of a git work tree or a git directory, not
# a folder somewhere inside one.
is_git_top() {
	local cdup
	cdup=$(git -C "$1" rev-parse --show-cdup 2>/dev/null) || return 1
	[ -z "$cdup" ]
}

# check_kernel_src: refuse a KERNEL_SRC or KERNEL_REF that cannot give the
# 7.3 base (usage_error, exit status 2), before anything else runs. Sets
# base_rev, the commit of KERNEL_SRC to use.
base_rev=
check_kernel_src() {
	local want=${BASE_PKG#linux-source-} ref=${KERNEL_REF:-HEAD} makefile v
	if [ -z "${KERNEL_SRC:-}" ]; then
		[ -z "${KERNEL_REF:-}" ] || usage_error "KERNEL_REF=$KERNEL_REF needs KERNEL_SRC (the tree it names a commit of)"
		return 0
	fi
	[ -d "$KERNEL_SRC" ] || usage_error "KERNEL_SRC=$KERNEL_SRC is not a directory"
	if is_git_top "$KERNEL_SRC"; then
		base_rev=$(git -C "$KERNEL_SRC" rev-parse --verify -q "$ref^{commit}") ||
			usage_error "KERNEL_REF=$ref is not a commit of KERNEL_SRC=$KERNEL_SRC"
		makefile=$(git -C "$KERNEL_SRC" show "$base_rev:Makefile" 2>/dev/null) ||
			usage_error "KERNEL_SRC=$KERNEL_SRC has no top Makefile at $ref: not a kernel tree"
	elif [ -f "$KERNEL_SRC/Makefile" ]; then
		[ -z "${KERNEL_REF:-}" ] || usage_error "KERNEL_REF=$KERNEL_REF needs a git tree; KERNEL_SRC=$KERNEL_SRC is a plain directory"
		makefile=$(cat "$KERNEL_SRC/Makefile")
	else
		usage_error "KERNEL_SRC=$KERNEL_SRC is not a git tree (nor a kernel source directory: no Makefile)"
	fi
	# The top Makefile says "VERSION = 7" and "PATCHLEVEL = 3".
	v=$(awk -F ' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		END { print v "." p }' <<<"$makefile")
	[ "$v" = "$want" ] ||
		usage_error "KERNEL_SRC=$KERNEL_SRC${KERNEL_REF:+ at $KERNEL_REF} is not a $want tree (its Makefile says ${v:-no version})"
}

# base_wanted: what the base is made from, as tree.sh records it in
# $LINUX (git config futex.base): the commit of a KERNEL_SRC git tree, a
# KERNEL_SRC directory, or the Debian package. After check_kernel_src.
base_wanted() {
	if [ -n "$base_rev" ]; then
		printf 'git %s\n' "$base_rev"
	elif [ -n "${KERNEL_SRC:-}" ]; then
		printf 'directory %s\n' "$(cd "$KERNEL_SRC" && pwd -P)"
	else
		printf 'package %s %s\n' "$BASE_PKG" "$BASE_VER"
	fi
}

# base_is_wanted: $LINUX holds the base that KERNEL_SRC (or its absence)
# asks for. A tree from before the record counts as the download's.
base_is_wanted() {
	local have
	have=$(git -C "$LINUX" config futex.base 2>/dev/null) ||
		have="package $BASE_PKG $BASE_VER"
	[ "$have" = "$(base_wanted)" ]
}

# cover_description COVER: the cover letter's subject (without the
# [PATCH 0/N] prefix) and blurb, as a branch description for
# git format-patch --cover-from-description=subject.
cover_description() {
	awk '
	BEGIN { hdr = 1 }
	hdr && /^Subject: / {
		subj = $0
		if (match(subj, /0\/[0-9]+\]/)) total = substr(subj, RSTART + 2, RLENGTH - 3) + 0
		sub(/^Subject: (\[[^]]*\] )?/, "", subj); insubj = 1; next
	}
	hdr && insubj && /^[ \t]/ { s = $0; sub(/^[ \t]+/, " ", s); subj = subj s; next }
	hdr && /^$/ { hdr = 0; insubj = 0; next }
	hdr { insubj = 0; next }
	{ body[n++] = $0 }
	END {
		# The blurb ends where git appended the shortlog, which the
		# diffstat follows: groups of a line "Name (K):" and K lines
		# "  subject" (wrapped ones indented more), an empty line
		# after each, whose Ks add up to the N of [PATCH 0/N]. It is
		# found from the diffstat backwards, so that a blurb that
		# looks like a shortlog stays whole.
		end = -1
		for (i = n - 1; i >= 0; i--)
			if (body[i] ~ /^ [0-9]+ files? changed/) break
		while (i > 0 && body[i - 1] ~ /^ /) i--
		got = 0
		for (j = i - 1; j > 0 && body[j] == "" && got < total; j = k - 1) {
			for (k = j - 1; k >= 0 && body[k] ~ /^  /; k--) ;
			if (k < 0 || body[k] !~ /^[^ ].* \([0-9]+\):$/) break
			c = body[k]; sub(/.*\(/, "", c); got += c + 0
		}
		if (got == total && total > 0) end = j + 1
		# Otherwise (not a cover letter git wrote): the first thing
		# that looks like a shortlog.
		for (i = 1; end < 0 && i < n - 1; i++)
			if (body[i - 1] == "" && body[i] ~ /^[^ ].* \([0-9]+\):$/ &&
			    body[i + 1] ~ /^  /) end = i
		if (end < 0) end = n
		while (end > 0 && body[end - 1] == "") end--
		print subj
		if (end > 0) print ""
		for (i = 0; i < end; i++) print body[i]
	}' "$1"
}

# usage_error MESSAGE: bad input (arguments, KERNEL_SRC, KERNEL_REF): one
# ERROR: line and exit status 2, so that callers and CI can tell it from a
# failure (1). Call it before anything is deleted or written.
usage_error() {
	printf 'ERROR: %s\n' "$*" >&2
	exit 2
}

# need_disk GIB WHAT DIR...: fail at once, with one ERROR: line that says
# what to free, unless the file system of $WORK has room for WHAT, which
# grows to about GIB GiB there (docs/timings.md says how that was
# measured; the caches are counted in it as if they lived there too).
# What the DIRs under $WORK already hold counts toward it: a second run
# reuses them. Other directories of $WORK (make bench's) do not count.
# Without this, a full disk shows up minutes later as "patches/ do not
# apply" (tar: No space left on device), the first step that writes much.
need_disk() {
	local gib=$1 what=$2 have used=0 need d n
	shift 2
	have=$(df -Pk "$WORK" | awk 'NR == 2 { print $4 }')
	for d; do
		[ -d "$WORK/$d" ] || continue
		n=$(du -sk "$WORK/$d" 2>/dev/null | cut -f1) || true
		used=$((used + ${n:-0}))
	done
	need=$((gib * 1024 * 1024 - used))
	[ "$need" -gt 0 ] || return 0
	[ "$have" -lt "$need" ] || return 0
	die "$what needs about $((need / 1048576 + 1)) GiB free on the file system of $WORK, which has $((have / 1048576)) GiB (df -h $WORK): free some, or point WORK at a larger one"
}

# lock_workbench: wait until no other workbench run uses this $WORK or this
# $CACHE, then hold both until the script ends (lock_file). Call it at the
# top level of a script (in a subshell or $(...) the locks would end with
# it). A script started by one that holds the locks for the same $WORK and
# $CACHE skips them (FUTEX_WORKBENCH_LOCKED): taking them again would wait
# for its own parent forever.
lock_workbench() {
	local held="$WORK/.lock $CACHE/.lock"
	[ "${FUTEX_WORKBENCH_LOCKED:-}" != "$held" ] || return 0
	lock_file "$WORK/.lock"
	# One file for both (FUTEX_CACHE=$WORK) must not be locked twice.
	[ "$CACHE/.lock" -ef "$WORK/.lock" ] || lock_file "$CACHE/.lock"
	export FUTEX_WORKBENCH_LOCKED=$held
}

# lock_file FILE: flock FILE in a holder process of its own, which keeps
# it until this script's process is gone, and returns once it holds it.
# Only the holder has the lock's descriptor: a QEMU or a compiler started
# here does not inherit it, so a run killed with SIGKILL frees the lock
# within a fifth of a second, whatever it left running. The holder's pid and command
# line are in FILE, for whoever waits.
lock_file() {
	local file=$1 owner=$$ ready got
	ready=$(mktemp -u "${TMPDIR:-/tmp}/workbench-lock.XXXXXX")
	mkfifo "$ready"
	# tell WORD: the answer to the run, through the fifo opened for
	# reading and writing, which does not wait for a reader that may be
	# gone; kept open until the run has read it and removed the fifo, or
	# is gone itself.
	tell() {
		local w
		exec {w}<>"$ready"
		echo "$1" >&"$w"
		while [ -p "$ready" ] && kill -0 "$owner" 2>/dev/null; do
			sleep 0.05
		done
		exec {w}>&-
		rm -f "$ready"
	}
	{
		(
			exec {fd}>>"$file" </dev/null >/dev/null
			# A second's grace: the holder of a run that has just
			# ended notices within a fifth of one.
			if ! flock -w 1 "$fd"; then
				printf 'waiting for another workbench run (pid %s) holding %s: %s\n' \
					"$(sed -n 1p "$file" 2>/dev/null)" "$file" "$(sed -n 2p "$file" 2>/dev/null)" >&2
				# A run killed while it waits must not take
				# the lock later, for nobody.
				until flock -w 1 "$fd"; do
					kill -0 "$owner" 2>/dev/null || exit 1
				done
			fi
			printf '%s\n%s\n' "$owner" "$(tr '\0' ' ' </proc/"$owner"/cmdline 2>/dev/null)" >"$file"
			tell locked
			# Hold no pipe of the run's open: a $(...) around it ends
			# when the run does.
			exec 2>/dev/null
			while kill -0 "$owner" 2>/dev/null; do
				sleep 0.2
			done
		) || tell failed
	} &
	disown
	read -r got <"$ready"
	rm -f "$ready"
	[ "$got" = locked ] || die "cannot lock $file"
}

# tree_pids PID: PID and its descendants, parents first.
tree_pids() {
	local c
	printf '%s\n' "$1"
	for c in $(pgrep -P "$1"); do
		tree_pids "$c"
	done
}

# running PID...: one of them has not ended (a zombie has).
running() {
	local p s
	for p; do
		s=$(cat "/proc/$p/stat" 2>/dev/null) || continue
		s=${s##*) }
		[ "${s%% *}" = Z ] || return 0
	done
	return 1
}

# kernel_unchanged < FILES: true when none of the files named on stdin
# (one per line, as git diff --name-only prints them) is read by a kernel
# build: selftests, perf, Documentation/ and MAINTAINERS. The rest of
# tools/ holds objtool and the headers it is built with, and
# Documentation/Kconfig is part of the configuration. No file at all
# counts as a change.
kernel_unchanged() {
	local f n=0
	while IFS= read -r f; do
		[ -n "$f" ] || continue
		case $f in
		Documentation/Kconfig) return 1 ;;
		tools/testing/* | tools/perf/* | Documentation/* | MAINTAINERS) ;;
		*) return 1 ;;
		esac
		n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}

# compile_targets TREE < FILES: the make targets that compile the kernel
# code among FILES (paths in TREE, as git diff --name-only prints them),
# and kernel/futex/: the directory of a changed .c or .h file, or the
# object of a .c file in a directory with subdirectories (kernel/fork.o,
# not all of kernel/). Headers under include/ have no target of their
# own: the .c files of the same patch are their users here.
compile_targets() {
	local tree=$1 f d
	{
		echo kernel/futex/
		while IFS= read -r f; do
			case $f in
			include/* | tools/* | scripts/* | Documentation/* | usr/*) continue ;;
			*.c | *.h) ;;
			*) continue ;;
			esac
			d=${f%/*}
			[ -f "$tree/$d/Makefile" ] || continue
			if [ -n "$(find "$tree/$d" -mindepth 2 -maxdepth 2 -name Makefile -print -quit)" ]; then
				case $f in *.c) echo "${f%.c}.o" ;; esac
			else
				echo "$d/"
			fi
		done
	} | sort -u | tr '\n' ' ' | sed 's/ $//'
}
