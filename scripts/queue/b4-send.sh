#!/usr/bin/env bash
# b4-send.sh NN-topic|all [b4 send options]: send series of patches/ with
# b4 instead of git send-email (scripts/queue/send.sh). A scratch clone of the
# base (work/b4/repo) gets every series applied with git am from patches/,
# so that b4 sends exactly what is exported: each series on a branch
# b4/NN-topic whose b4 base is the series before it, its cover letter as
# the branch description (b4's branch-description cover strategy, as make
# tree keeps it), the version from the cover letter's subject, To and Cc
# from get_maintainer.pl (b4 prep --auto-to-cc). Then "b4 send" with the
# options given: --dry-run; -o DIR to write the messages to DIR (with
# "all", to DIR/NN-topic); nothing, to send them with your b4 or git
# send-email configuration. --no-sign skips patatt's signature.
# QUEUE=FILE: the series are already applied in a tree of work/linux's
# (FILE: queue.sh's output, "<commit> <series>/<patch>" per patch, as
# make check keeps it): their commits are used instead of applying again.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -ge 1 ] || usage_error "usage: b4-send.sh NN-topic|all [b4 send options]"
name=$1
shift
mapfile -t all < <(series_dirs)
case " all ${all[*]##*/} " in
*" $name "*) ;;
*) usage_error "b4-send.sh: no series '$name' in patches/; the series are: $(printf '%s ' "${all[@]##*/}")" ;;
esac
command -v b4 >/dev/null || die "b4 is not installed (make setup installs it)"
[ -d "$LINUX/.git" ] || die "no $LINUX: run 'make tree' first"

lock_workbench
repo=$WORK/b4/repo
rm -rf "$repo"
mkdir -p "$WORK/b4"
git clone -q --shared --no-checkout "$LINUX" "$repo"
g() { git -C "$repo" "$@"; }
g config b4.prep-cover-strategy branch-description
g checkout -q --detach "$BASE_TAG"
g branch -f b4/base HEAD
prev=b4/base
for d in "${all[@]}"; do
	n=${d##*/}
	cover=$d/0000-cover-letter.patch
	[ -f "$cover" ] || die "$d has no cover letter"
	if [ -n "${QUEUE:-}" ]; then
		tip=$(awk -v s="$n" 'index($2, s "/") == 1 { c = $1 } END { print c }' "$QUEUE")
		[ -n "$tip" ] || die "$QUEUE has no commit of $n"
		g checkout -q -b "b4/$n" "$tip"
	else
		g checkout -q -b "b4/$n"
		mapfile -t ps < <(series_patches "$d")
		am_patches "$repo" "${ps[@]}"
	fi
	# The version, from "[PATCH vK 0/N]"; b4 numbers the series with it.
	version=$(sed -n 's/^Subject: \[PATCH v\([0-9]*\) .*/\1/p' "$cover")
	g config "branch.b4/$n.description" "$(cover_description "$cover")"
	g config "branch.b4/$n.b4-tracking" \
		"{\"series\": {\"revision\": ${version:-1}, \"change-id\": \"futex-$n\", \"base-branch\": \"$prev\", \"prefixes\": []}}"
	prev=b4/$n
done

# send NN-topic OPTIONS...: b4 prep --auto-to-cc and b4 send on its branch.
send() {
	local n=$1
	shift
	g checkout -q "b4/$n"
	(cd "$repo" && b4 prep --auto-to-cc) >"$WORK/b4/$n.prep.log" 2>&1 ||
		die "b4 prep --auto-to-cc failed for $n (log: $WORK/b4/$n.prep.log)"
	(cd "$repo" && b4 send "$@")
}

opts=("$@")
for d in "${all[@]}"; do
	n=${d##*/}
	[ "$name" = all ] || [ "$name" = "$n" ] || continue
	args=("${opts[@]}")
	if [ "$name" = all ]; then
		for i in "${!args[@]}"; do
			[ "${args[$i]}" != -o ] || args[i + 1]=${args[i + 1]}/$n
		done
	fi
	send "$n" "${args[@]}"
done
