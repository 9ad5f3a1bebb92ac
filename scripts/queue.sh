#!/usr/bin/env bash
# queue.sh DIR [N]: make DIR a detached worktree of $LINUX holding the base
# plus the first N series of patches/ (all when N is omitted), applied with
# git am exactly as they are in patches/. Builds and tests use such trees,
# so they test the exported queue, not unexported work in $LINUX.
# Prints "<commit> <series>/<patch file>" per applied patch.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: queue.sh DIR [N]}
want=${2:-all}
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
[ -d "$LINUX/.git" ] || "$TOP/scripts/tree.sh" >&2

if [ -e "$dir/.git" ]; then
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
	while IFS= read -r p; do
		am_patch "$dir" "$p"
		printf '%s %s\n' "$(git -C "$dir" rev-parse HEAD)" "${s##*/}/${p##*/}"
	done < <(series_patches "$s")
done < <(series_dirs)
