#!/usr/bin/env bash
# queue.sh DIR [N]: make DIR a detached worktree of $LINUX holding the base
# plus the first N series of patches/ (all when N is omitted), applied with
# git am exactly as they are in patches/. Builds and tests use such trees,
# so they test the exported queue, not unexported work in $LINUX.
# Prints "<commit> <series>/<patch file>" per applied patch.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	usage_error "usage: queue.sh DIR [N]"
fi
dir=$1
want=${2:-all}
case $want in all | [0-9] | [0-9][0-9]) ;; *) usage_error "queue.sh: N must be a number, not '$want'" ;; esac
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
check_kernel_src
lock_workbench
if [ ! -d "$LINUX/.git" ]; then
	"$TOP/scripts/queue/tree.sh" >&2
elif [ -n "${KERNEL_SRC:-}" ] && ! base_is_wanted; then
	# KERNEL_SRC names another base than the tree's: make the tree again
	# (tree.sh refuses if that would lose work not in patches/).
	printf '  %s was made from %s; KERNEL_SRC asks for %s: making it again\n' "$LINUX" \
		"$(git -C "$LINUX" config futex.base || echo "the download")" "$(base_wanted)" >&2
	"$TOP/scripts/queue/tree.sh" >&2
fi

# is_our_worktree: DIR is a worktree of $LINUX as it is now. A DIR deleted
# by hand, or a work/linux re-created by tree.sh, leaves DIR/.git pointing
# at metadata that is gone or belongs to another tree (or a copy of DIR
# shares the metadata of the original); git then fails in ways that would
# read as "patches do not apply".
is_our_worktree() {
	local gd
	[ -f "$dir/.git" ] || return 1
	gd=$(git -C "$dir" rev-parse --path-format=absolute --git-dir 2>/dev/null) || return 1
	[ "$(git -C "$dir" rev-parse --path-format=absolute --git-common-dir)" -ef "$LINUX/.git" ] &&
		[ "$(cat "$gd/gitdir" 2>/dev/null)" -ef "$dir/.git" ]
}

if is_our_worktree; then
	git -C "$dir" am --abort >/dev/null 2>&1 || true
	git -C "$dir" checkout -q -f --detach "$BASE_TAG"
else
	rm -rf "$dir"
	git -C "$LINUX" worktree prune
	git -C "$LINUX" worktree add -q --detach "$dir" "$BASE_TAG" >&2
fi

n=0
while IFS= read -r s; do
	[ "$want" = all ] || [ "$n" -lt "$want" ] || break
	n=$((n + 1))
	mapfile -t ps < <(series_patches "$s")
	before=$(git -C "$dir" rev-parse HEAD)
	am_patches "$dir" "${ps[@]}"
	# One commit per patch, in order (am_patches died otherwise).
	mapfile -t cs < <(git -C "$dir" rev-list --reverse "$before..HEAD")
	[ "${#cs[@]}" -eq "${#ps[@]}" ] || die "${s##*/}: ${#ps[@]} patches gave ${#cs[@]} commits"
	for i in "${!ps[@]}"; do
		printf '%s %s\n' "${cs[$i]}" "${s##*/}/${ps[$i]##*/}"
	done
done < <(series_dirs)
