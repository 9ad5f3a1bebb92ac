#!/usr/bin/env bash
# export.sh: regenerate patches/ from $LINUX: one folder per series branch
# (series/NN-topic, stacked on the base tag in name order), each written by
# git format-patch --cover-letter --base. An unchanged tree exports
# byte-identical files.
#
# Versions: the files of a series as posted stay in patches/vK/NN-topic/
# (copy the folder there when you send it), and make tree turns them into
# the tag series/NN-topic-vK, for "git range-diff <base> series/NN-topic-vK
# series/NN-topic" (the cover letter's "Changes in vK+1" says it in words). A series posted as v1 to vK is exported as version K+1, "[PATCH
# vK+1 n/N]". POSTED_DIR (default: $PATCHES) is where the vK folders are
# looked for.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

lock_workbench
[ -d "$LINUX/.git" ] || die "$LINUX is not a git tree; run 'make tree' first"
g() { git -C "$LINUX" "$@"; }

if [ -n "$(g status --porcelain --untracked-files=no)" ]; then
	g status --short --untracked-files=no | head -n 10 >&2 || true
	die "$LINUX has uncommitted changes; commit them before exporting"
fi
untracked=$(g status --porcelain | grep '^??' | head -n 5 || true)
[ -z "$untracked" ] || warn "untracked files in $LINUX are not exported:
$untracked"

mapfile -t branches < <(g for-each-ref --format='%(refname:short)' 'refs/heads/series/' | sort)

# Every commit on HEAD must belong to a series, or it would be lost.
if [ "$(g rev-parse HEAD)" != "$(g rev-parse "$BASE_TAG")" ]; then
	found=0
	for b in "${branches[@]}"; do
		g merge-base --is-ancestor HEAD "$b" && found=1 && break
	done
	[ "$found" = 1 ] || die "HEAD ($(g log -1 --format='%h %s' HEAD)) is on no series/NN-topic branch; create one (git checkout -b series/NN-topic) or move the branch (git branch -f)"
fi

out=$(mktemp -d "$WORK/export.XXXXXX")
# shellcheck disable=SC2064
trap "rm -rf '$out'" EXIT

posted=${POSTED_DIR:-$PATCHES}

# last_posted NAME: K of the newest patches/vK/NAME, or 0.
last_posted() {
	local d k last=0
	for d in "$posted"/v[0-9]*/"$1"/; do
		[ -d "$d" ] || continue
		k=${d%/"$1"/}
		k=${k##*/v}
		case $k in *[!0-9]*) continue ;; esac
		[ "$k" -gt "$last" ] && last=$k
	done
	echo "$last"
}

prev=$BASE_TAG
for b in "${branches[@]}"; do
	name=${b#series/}
	case $name in [0-9][0-9]-*) ;; *) die "branch $b: expected series/NN-topic" ;; esac
	g merge-base --is-ancestor "$prev" "$b" ||
		die "branch $b is not stacked on $prev; rebase it (git rebase --update-refs)"
	n=$(g rev-list --count "$prev..$b")
	[ "$n" -gt 0 ] || die "branch $b has no commits on top of $prev"
	if [ -z "$(g config "branch.$b.description" || true)" ]; then
		warn "branch $b has no description: its cover letter is a template (git branch --edit-description $b)"
	fi
	# Stable output: the Date: of the cover letter is the author date of
	# the series' last commit, and --zero-commit keeps commit ids, which
	# change with every rebase or git am, out of the files; git send-email
	# adds Message-Id and threading when it sends them.
	version=()
	k=$(last_posted "$name")
	if [ "$k" -gt 0 ]; then
		version=(--subject-prefix="PATCH v$((k + 1))")
	fi
	# core.abbrev pinned: git's default length of the index lines grows
	# with the number of objects, so that a fresh tree would export other
	# bytes than an old one.
	GIT_COMMITTER_DATE=$(g log -1 --format=%aI "$b") \
		g -c core.abbrev=9 format-patch -q --cover-letter --cover-from-description=subject \
		--base="$BASE_TAG" --zero-commit --no-signature --no-thread \
		"${version[@]}" -o "$out/$name" "$prev..$b" >/dev/null
	prev=$b
done

mkdir -p "$PATCHES"
# Replace the series folders; anything else under patches/ stays.
for d in "$PATCHES"/[0-9][0-9]-*/; do
	[ -d "$d" ] && rm -rf "$d"
done
for d in "$out"/*/; do
	[ -d "$d" ] && mv "$d" "$PATCHES/"
done
for b in "${branches[@]}"; do
	printf '  %s: %s patches\n' "patches/${b#series/}" \
		"$(series_patches "$PATCHES/${b#series/}" | wc -l)"
done
