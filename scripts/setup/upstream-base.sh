#!/usr/bin/env bash
# upstream-base.sh UPSTREAM [REF]: show that the workbench's base (Debian's
# linux-source-7.3, tag base-7.3.4 of work/linux) and upstream REF (default
# v7.3.4) hold the same version of every file that the series in patches/
# change, so that the series apply to upstream as they are and their
# base-commit: can be stated as REF. UPSTREAM is a git tree with REF in it
# (a clone of the stable tree, say). Prints one line per file and exits 1
# if any differs, 2 on bad input.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

case $# in 1 | 2) ;; *) usage_error "usage: upstream-base.sh UPSTREAM [REF]" ;; esac
up=$1 ref=${2:-v7.3.4}
git -C "$up" rev-parse -q --verify "$ref^{commit}" >/dev/null 2>&1 ||
	usage_error "$up: no commit $ref (a git tree with upstream's tags is needed)"
[ -d "$LINUX/.git" ] || die "$LINUX is not a git tree; run 'make tree' first"

# Files the patches change, not the ones they create.
# shellcheck disable=SC2016 # awk's own $3
mapfile -t files < <(
	while IFS= read -r d; do
		series_patches "$d" | xargs -r awk '
			/^diff --git / { f = substr($3, 3); next }
			/^new file mode/ { new[f] = 1 }
			/^index / && !(f in new) { print f }'
	done < <(series_dirs) | sort -u
)
[ "${#files[@]}" -gt 0 ] || die "no patches under ${PATCHES#"$TOP"/}"

differ=0
for f in "${files[@]}"; do
	a=$(git -C "$LINUX" rev-parse -q --verify "$BASE_TAG:$f" 2>/dev/null || echo missing)
	b=$(git -C "$up" rev-parse -q --verify "$ref:$f" 2>/dev/null || echo missing)
	if [ "$a" = "$b" ]; then
		printf '  same     %s\n' "$f"
	else
		printf '  DIFFERS  %s (%s: %.12s, %s: %.12s)\n' "$f" "$BASE_TAG" "$a" "$ref" "$b"
		differ=$((differ + 1))
	fi
done
if [ "$differ" -gt 0 ]; then
	printf '%d of %d files differ between %s and %s: the series may not apply to %s as they are\n' \
		"$differ" "${#files[@]}" "$BASE_TAG" "$ref" "$ref" >&2
	exit 1
fi
printf 'all %d files the series change are the same in %s and %s\n' "${#files[@]}" "$BASE_TAG" "$ref"
