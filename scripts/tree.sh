#!/usr/bin/env bash
# tree.sh: materialize $LINUX (work/linux) as a git repository: the pinned
# base as one tagged commit, then every series under patches/ applied with
# git am, one stacked branch per series (series/NN-topic), whose branch
# description holds the cover letter. Refuses to replace a tree that holds
# work not exported to patches/ (FORCE=1 overrides).
#
# KERNEL_SRC=/path/to/linux uses a v7.3-based checkout instead of the
# download: a git repository is cloned (--shared) at KERNEL_REF (default
# HEAD), a plain directory is copied.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# A fixed identity and date for the base commit keep its id, and so every
# patch's base-commit: line, the same from one materialization to the next.
base_commit_env() {
	export GIT_AUTHOR_NAME="futex workbench" GIT_COMMITTER_NAME="futex workbench"
	export GIT_AUTHOR_EMAIL=workbench@localhost GIT_COMMITTER_EMAIL=workbench@localhost
	export GIT_AUTHOR_DATE="2026-11-15T22:30:00Z" GIT_COMMITTER_DATE="2026-11-15T22:30:00Z"
}

check_unexported() {
	local tmp
	[ -d "$LINUX/.git" ] || return 0
	[ "${FORCE:-0}" = 1 ] && return 0
	if [ -n "$(git -C "$LINUX" status --porcelain --untracked-files=no)" ]; then
		git -C "$LINUX" status --short --untracked-files=no | head -n 10 >&2
		die "$LINUX has uncommitted changes; commit and 'make export' them, or FORCE=1 to discard"
	fi
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" RETURN
	if ! PATCHES=$tmp/patches "$TOP/scripts/export.sh" >"$tmp/log" 2>&1; then
		cat "$tmp/log" >&2
		die "cannot export $LINUX to compare it with patches/; fix it or FORCE=1 to discard"
	fi
	if ! diff -r -q "$tmp/patches" "$PATCHES" >"$tmp/diff" 2>&1; then
		sed 's/^/  /' "$tmp/diff" | head -n 10 >&2
		die "$LINUX holds work that is not in patches/; run 'make export' first, or FORCE=1 to discard"
	fi
}

make_base() {
	local n
	if [ -n "${KERNEL_SRC:-}" ]; then
		[ -f "$KERNEL_SRC/Makefile" ] || die "KERNEL_SRC=$KERNEL_SRC is not a kernel tree"
		if git -C "$KERNEL_SRC" rev-parse --git-dir >/dev/null 2>&1; then
			git clone -q --shared --no-checkout "$KERNEL_SRC" "$LINUX"
			git -C "$LINUX" checkout -q --detach "${KERNEL_REF:-HEAD}"
			git -C "$LINUX" tag -f "$BASE_TAG" HEAD >/dev/null
			# The clone's own branches would clash with series/*.
			git -C "$LINUX" for-each-ref --format='%(refname:short)' refs/heads |
				xargs -r git -C "$LINUX" branch -q -D
			return
		fi
		mkdir -p "$LINUX"
		cp -a "$KERNEL_SRC/." "$LINUX/"
	else
		"$TOP/scripts/fetch-base.sh" "$LINUX"
		# Debian's packaging appends "/*" to the top-level .gitignore,
		# which would hide every new file from git status and git add.
		n=$(grep -n '^# Debian packaging: ignore everything' "$LINUX/.gitignore" | cut -d: -f1)
		[ -n "$n" ] && sed -i "$((n - 2)),\$d" "$LINUX/.gitignore"
	fi
	git -C "$LINUX" init -q -b base
	# -f: the tarball carries files that the kernel's own .gitignore
	# patterns match; the base must hold all of them.
	git -C "$LINUX" add -A -f .
	n=$(git -C "$LINUX" ls-files | wc -l)
	if [ -z "${KERNEL_SRC:-}" ] && [ "$n" -ne "$BASE_FILES" ]; then
		die "base commit would hold $n files, expected $BASE_FILES"
	fi
	(
		base_commit_env
		git -C "$LINUX" commit -q -m "Linux 7.3.4 ($BASE_PKG $BASE_VER)" \
			-m "Debian's linux-source package: upstream 7.3.4 with Debian's patches.
Debian's top-level '/*' .gitignore rule is dropped."
	)
	git -C "$LINUX" tag -f "$BASE_TAG" >/dev/null
}

# cover_description COVER: the cover letter's subject (without the
# [PATCH 0/N] prefix) and blurb, as a branch description for
# git format-patch --cover-from-description=subject.
cover_description() {
	awk '
	BEGIN { hdr = 1 }
	hdr && /^Subject: / { subj = $0; sub(/^Subject: (\[[^]]*\] )?/, "", subj); insubj = 1; next }
	hdr && insubj && /^[ \t]/ { s = $0; sub(/^[ \t]+/, " ", s); subj = subj s; next }
	hdr && /^$/ { hdr = 0; insubj = 0; next }
	hdr { insubj = 0; next }
	{ body[n++] = $0 }
	END {
		# The blurb ends where git appends the shortlog: a line
		# "Name (N):" after an empty line, followed by "  subject".
		end = n
		for (i = 1; i < n - 1; i++)
			if (body[i - 1] == "" && body[i] ~ /^[^ ].* \([0-9]+\):$/ &&
			    body[i + 1] ~ /^  /) { end = i; break }
		while (end > 0 && body[end - 1] == "") end--
		print subj
		if (end > 0) print ""
		for (i = 0; i < end; i++) print body[i]
	}' "$1"
}

apply_series() {
	local dir name branch desc p
	dir=$1
	name=${dir##*/}
	branch=series/$name
	git -C "$LINUX" checkout -q -b "$branch"
	while IFS= read -r p; do
		am_patch "$LINUX" "$p"
	done < <(series_patches "$dir")
	if [ -f "$dir/0000-cover-letter.patch" ]; then
		desc=$(cover_description "$dir/0000-cover-letter.patch")
		git -C "$LINUX" config "branch.$branch.description" "$desc"
	fi
	printf '  %s: %s patches\n' "$branch" "$(series_patches "$dir" | wc -l)"
}

check_unexported
if [ -e "$LINUX" ]; then
	# Keep a copy of the old tree's branches: a last way back.
	if [ -d "$LINUX/.git" ]; then
		git -C "$LINUX" bundle create -q "$WORK/linux-before-tree.bundle" \
			--all 2>/dev/null || true
	fi
	rm -rf "$LINUX"
fi
make_base
while IFS= read -r d; do
	apply_series "$d"
done < <(series_dirs)
printf '  %s at %s\n' "$LINUX" "$(git -C "$LINUX" describe --tags --always HEAD)"
