#!/usr/bin/env bash
# send.sh NN-topic [git send-email options]: mail one series of patches/
# with git send-email: the cover letter and every patch, threaded. The
# recipients are those MAINTAINERS names for the series' patches
# (scripts/get_maintainer.pl without git history, whose fallback would add
# the committer of the workbench's base import): people To, lists Cc; and
# the Cc: lines in the patches and the cover letter (linux-api for a new
# ABI). Author and Signed-off-by addresses are not added: until you
# re-sign the patches as yourself they are the workbench's identity.
#
# A dry run (git send-email --dry-run: recipients and headers printed,
# nothing sent) unless SEND=1, which sends with your git send-email
# configuration (sendemail.smtpServer and so on). SENDMAIL=PROGRAM hands
# the messages to PROGRAM, a sendmail-like program, instead of an SMTP
# server (make check uses a stand-in that keeps them). KERNEL_TREE is the
# tree whose MAINTAINERS and get_maintainer.pl are used (default:
# work/linux).
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -ge 1 ] || usage_error "usage: send.sh NN-topic [git send-email options]"
name=$1
shift
mapfile -t all < <(series_dirs)
dir=
for d in "${all[@]}"; do
	[ "${d##*/}" = "$name" ] && dir=$d
done
[ -n "$dir" ] || usage_error "send.sh: no series '$name' in patches/; the series are: $(printf '%s ' "${all[@]##*/}")"
case ${SEND:-} in '' | 0 | 1) ;; *) usage_error "SEND must be 1 (send) or unset (dry run), not '$SEND'" ;; esac
tree=${KERNEL_TREE:-$LINUX}
[ -x "$tree/scripts/get_maintainer.pl" ] ||
	die "no scripts/get_maintainer.pl in $tree: run 'make tree', or set KERNEL_TREE to a kernel tree"
git send-email --help >/dev/null 2>&1 || [ -x "$(git --exec-path)/git-send-email" ] ||
	die "git send-email is not installed (Debian: git-email; make setup installs it)"

mapfile -t parts < <(series_patches "$dir")
[ ${#parts[@]} -gt 0 ] || die "no patches in $dir"
files=("${parts[@]}")
[ ! -f "$dir/0000-cover-letter.patch" ] || files=("$dir/0000-cover-letter.patch" "${parts[@]}")

rec=$(cd "$tree" && ./scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats "${parts[@]}")
[ -n "$rec" ] || die "get_maintainer.pl names nobody for $name"
args=(--confirm=never --8bit-encoding=UTF-8 --thread --no-chain-reply-to
	--suppress-cc=author --suppress-cc=sob --suppress-cc=self --suppress-cc=misc-by)
while IFS= read -r r; do
	case $r in
	*'<'*) args+=(--to="$r") ;;
	*) args+=(--cc="$r") ;;
	esac
done <<<"$rec"
[ -z "${SENDMAIL:-}" ] || args+=(--smtp-server="$SENDMAIL")
[ "${SEND:-}" = 1 ] || args+=(--dry-run)

printf 'send.sh: %s, %d messages (%s)\n' "$name" "${#files[@]}" \
	"$([ "${SEND:-}" = 1 ] && echo "sending${SENDMAIL:+ through $SENDMAIL}" || echo "dry run; SEND=1 sends")"
printf '%s\n' "$rec" | sed 's/^/  recipient: /'
git send-email "${args[@]}" "$@" "${files[@]}" </dev/null
