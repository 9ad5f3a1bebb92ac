#!/usr/bin/env bash
# tree.sh: materialize $LINUX (work/linux) as a git repository: the pinned
# base as one tagged commit, then every series under patches/ applied with
# git am, one stacked branch per series (series/NN-topic), whose branch
# description holds the cover letter; the versions posted before, in
# patches/vK/, become the tags series/NN-topic-vK. Refuses to replace a
# tree that holds work not exported to patches/ (FORCE=1 overrides).
#
# KERNEL_SRC=/path/to/linux uses a v7.3-based checkout instead of the
# download: a git repository is cloned (--shared) and its commit KERNEL_REF
# (any ref or commit of KERNEL_SRC; default HEAD) becomes the base; a plain
# directory (an unpacked tarball) is copied. Bad input (KERNEL_SRC not a git
# or kernel tree, not 7.3, KERNEL_REF not a commit of it) fails with one
# ERROR: line and exit status 2 before anything is touched.
#
# The new tree is made next to the old one, which is replaced only once the
# base is in place: a failed download leaves work/linux as it was.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

# Temporary files and directories, removed however the script ends.
tmps=()
trap 'rm -rf "${tmps[@]}"' EXIT

# A fixed identity and date for the base commit keep its id, and so every
# patch's base-commit: line, the same from one materialization to the next.
base_commit_env() {
	export GIT_AUTHOR_NAME="futex workbench" GIT_COMMITTER_NAME="futex workbench"
	export GIT_AUTHOR_EMAIL=workbench@localhost GIT_COMMITTER_EMAIL=workbench@localhost
	export GIT_AUTHOR_DATE="2026-11-15T22:30:00Z" GIT_COMMITTER_DATE="2026-11-15T22:30:00Z"
}

check_unexported() {
	local tmp posted
	[ -d "$LINUX/.git" ] || return 0
	[ "${FORCE:-0}" = 1 ] && return 0
	if [ -n "$(git -C "$LINUX" status --porcelain --untracked-files=no)" ]; then
		git -C "$LINUX" status --short --untracked-files=no | head -n 10 >&2 || true
		die "$LINUX has uncommitted changes; commit and 'make export' them, or FORCE=1 to discard"
	fi
	tmp=$(mktemp -d)
	tmps+=("$tmp")
	posted=$PATCHES
	if ! PATCHES=$tmp/patches POSTED_DIR=$posted "$TOP/scripts/queue/export.sh" >"$tmp/log" 2>&1; then
		cat "$tmp/log" >&2
		die "cannot export $LINUX to compare it with patches/; fix it or FORCE=1 to discard"
	fi
	if ! diff -r -q -x 'v[0-9]*' "$tmp/patches" "$PATCHES" >"$tmp/diff" 2>&1; then
		sed 's/^/  /' "$tmp/diff" | head -n 10 >&2 || true
		die "$LINUX holds work that is not in patches/; run 'make export' first, or FORCE=1 to discard"
	fi
}

# make_base DIR: the base as one tagged commit in the new git tree DIR.
make_base() {
	local dir=$1 n
	if [ -n "$base_rev" ]; then
		git clone -q --shared --no-checkout "$KERNEL_SRC" "$dir"
		git -C "$dir" checkout -q --detach "$base_rev"
		git -C "$dir" tag -f "$BASE_TAG" HEAD >/dev/null
		git -C "$dir" config futex.base "$(base_wanted)"
		# The clone's own branches would clash with series/*.
		git -C "$dir" for-each-ref --format='%(refname:short)' refs/heads |
			xargs -r git -C "$dir" branch -q -D
		return
	fi
	if [ -n "${KERNEL_SRC:-}" ]; then
		mkdir -p "$dir"
		cp -a "$KERNEL_SRC/." "$dir/"
	else
		"$TOP/scripts/setup/fetch-base.sh" "$dir"
		# Debian's packaging appends "/*" to the top-level .gitignore,
		# which would hide every new file from git status and git add.
		n=$(grep -n '^# Debian packaging: ignore everything' "$dir/.gitignore" | cut -d: -f1)
		[ -n "$n" ] && sed -i "$((n - 2)),\$d" "$dir/.gitignore"
	fi
	git -C "$dir" init -q -b base
	# -f: the tarball carries files that the kernel's own .gitignore
	# patterns match; the base must hold all of them.
	git -C "$dir" add -A -f .
	n=$(git -C "$dir" ls-files | wc -l)
	if [ -z "${KERNEL_SRC:-}" ] && [ "$n" -ne "$BASE_FILES" ]; then
		die "base commit would hold $n files, expected $BASE_FILES"
	fi
	(
		base_commit_env
		git -C "$dir" commit -q -m "Linux 7.3.4 ($BASE_PKG $BASE_VER)" \
			-m "Debian's linux-source package: upstream 7.3.4 with Debian's patches.
Debian's top-level '/*' .gitignore rule is dropped."
	)
	git -C "$dir" tag -f "$BASE_TAG" >/dev/null
	git -C "$dir" config futex.base "$(base_wanted)"
}

apply_series() {
	local dir name branch desc ps
	dir=$1
	name=${dir##*/}
	branch=series/$name
	git -C "$LINUX" checkout -q -b "$branch"
	mapfile -t ps < <(series_patches "$dir")
	am_patches "$LINUX" "${ps[@]}"
	if [ -f "$dir/0000-cover-letter.patch" ]; then
		desc=$(cover_description "$dir/0000-cover-letter.patch")
		git -C "$LINUX" config "branch.$branch.description" "$desc"
	fi
	printf '  %s: %s patches\n' "$branch" "$(series_patches "$dir" | wc -l)"
}

# patch_ids REV: the prerequisite-patch-id lines that git format-patch
# --base writes for a series on top of REV, sorted, into ids_of[REV]. Asked
# of git itself (for an empty commit on REV): git's own patch-ids differ
# from those of "git patch-id --stable" for some patches.
declare -A ids_of=()
patch_ids() {
	local top
	[ -z "${ids_of[$1]+set}" ] || return 0
	top=$(git -C "$LINUX" commit-tree -p "$1" -m top "$1^{tree}")
	ids_of[$1]=$(git -C "$LINUX" format-patch --always --stdout \
		--base="$BASE_TAG" "$1..$top" |
		sed -n 's/^prerequisite-patch-id: //p' | sort)
}

# posted_parent DIR PREV: set parent to what the posted series in DIR was
# sent on top of. Its cover letter's prerequisite-patch-id lines name the
# patches between the base and it; where these are a series here (a version
# posted earlier, or the series being worked on: v1 of 04 sits on v2 of
# 01-03), that series. Otherwise (no cover letter, or prerequisites that
# were a draft never kept, as for v1 of 02 and 03) the series before it in
# the same folder, PREV.
posted_parent() {
	local cover=$1/0000-cover-letter.patch want ref refs
	parent=$2
	[ -f "$cover" ] || return 0
	want=$(sed -n 's/^prerequisite-patch-id: //p' "$cover" | sort)
	if [ -z "$want" ]; then
		parent=$BASE_TAG
		return 0
	fi
	mapfile -t refs < <(git -C "$LINUX" for-each-ref --format='%(refname)' \
		'refs/heads/series/' 'refs/tags/series/')
	for ref in "${refs[@]}"; do
		patch_ids "$ref"
		if [ "${ids_of[$ref]}" = "$want" ]; then
			parent=$ref
			return 0
		fi
	done
}

# apply_posted DIR: the series as posted in DIR (patches/vK), each on what
# it was sent on top of, each tip tagged series/NN-topic-vK, for range-diffs
# against the version being worked on (export.sh).
apply_posted() {
	local vdir=$1 v d ps parent prev=$BASE_TAG
	v=${vdir##*/}
	while IFS= read -r d; do
		posted_parent "$d" "$prev"
		git -C "$LINUX" checkout -q --detach "$parent"
		mapfile -t ps < <(series_patches "$d")
		am_patches "$LINUX" "${ps[@]}"
		prev=refs/tags/series/${d##*/}-$v
		git -C "$LINUX" tag -f "series/${d##*/}-$v" >/dev/null
		printf '  series/%s-%s (as posted): %s patches\n' "${d##*/}" "$v" \
			"$(series_patches "$d" | wc -l)"
	done < <(PATCHES=$vdir series_dirs)
}

check_kernel_src
# Input checked (bad input fails at once): wait for any other run on work/.
lock_workbench
check_unexported
new=$LINUX.new
rm -rf "$new"
tmps+=("$new")
make_base "$new"
if [ -e "$LINUX" ]; then
	# Keep a copy of the old tree's branches: a last way back.
	if [ -d "$LINUX/.git" ]; then
		git -C "$LINUX" bundle create -q "$WORK/linux-before-tree.bundle" \
			--all 2>/dev/null || true
	fi
	rm -rf "$LINUX"
fi
mv "$new" "$LINUX"
git -C "$LINUX" checkout -q --detach "$BASE_TAG"
while IFS= read -r d; do
	apply_series "$d"
done < <(series_dirs)
# The versions posted before, after the series they may sit on.
tip=$(git -C "$LINUX" symbolic-ref -q HEAD || git -C "$LINUX" rev-parse HEAD)
for d in "$PATCHES"/v[0-9]*/; do
	[ -d "$d" ] && apply_posted "${d%/}"
done
git -C "$LINUX" checkout -q "${tip#refs/heads/}"
printf '  %s at %s\n' "$LINUX" "$(git -C "$LINUX" describe --tags --always HEAD)"
