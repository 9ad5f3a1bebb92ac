#!/usr/bin/env bash
# kcsan-verdict.sh LOG VMLINUX SRC BASE TIP: sort the KCSAN reports in the
# kernel log LOG (of VMLINUX, built from SRC at TIP) by where the racing
# accesses are. The first frame under each access line ("read to ... by
# task ...:", "race at unknown origin, with ...") is resolved with the
# kernel's scripts/faddr2line; a report with an access on a line that the
# queue adds or changes (git diff -U0 BASE TIP in SRC) fails:
#   FAIL KCSAN in the queue's code: data-race in A / B (FILE:LINE)
# so does one with an access whose line is not known (faddr2line says
# ??, as for a vmlinux without debug information): it may be the queue's
#   FAIL KCSAN at an unknown line: data-race in A / B (FRAME, ...)
# any other is listed and does not fail:
#   NOTE KCSAN outside the queue's code: data-race in A / B (FILE:LINE, ...)
# and, without a report in the queue's code:
#   PASS KCSAN: no report in the queue's code (N reports elsewhere)
set -euo pipefail
log=${1:?usage: kcsan-verdict.sh LOG VMLINUX SRC BASE TIP}
vmlinux=${2:?}
src=${3:?}
base=${4:?}
tip=${5:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Each report: its title line, then the frames of its accesses.
tr -d '\r' <"$log" | sed 's/^\[ *[0-9.]*\] //' | awk -v dir="$tmp" '
	/^BUG: KCSAN: / { n++; f = dir "/r" n; print > f; want = 0; next }
	!n { next }
	/^[a-z() -]+ to 0x[0-9a-f]+ of [0-9]+ bytes by .* on cpu [0-9]+:$/ ||
	/^race at unknown origin, with / { want = 1; next }
	want && /^ *[A-Za-z_.][A-Za-z0-9_.]*\+0x[0-9a-f]+\/0x[0-9a-f]+/ {
		sub(/^ */, ""); sub(/ .*/, ""); print > (dir "/r" n); want = 0
	}'

# The lines the queue adds or changes, as FILE:FIRST:LAST.
git -C "$src" diff -U0 "$base" "$tip" | awk '
	/^\+\+\+ b\// { file = substr($0, 7); next }
	/^@@ / {
		split($3, a, ","); start = substr(a[1], 2); len = (2 in a) ? a[2] : 1
		if (len > 0) print file ":" start ":" (start + len - 1)
	}' >"$tmp/changed"

ours=0 others=0
for r in "$tmp"/r*; do
	[ -e "$r" ] || break
	title=$(head -n 1 "$r" | sed 's/^BUG: KCSAN: //')
	where=() hit=0 unknown=0
	while IFS= read -r frame; do
		loc=$(cd "$src" && ./scripts/faddr2line "$vmlinux" "$frame" 2>/dev/null |
			sed -n 's/.* at \([^ ?][^ ]*:[0-9][0-9]*\).*/\1/p' | head -n 1)
		loc=${loc#"$src"/}
		where+=("${loc:-$frame}")
		if [ -z "$loc" ]; then
			unknown=1
			continue
		fi
		if awk -F: -v f="${loc%:*}" -v l="${loc##*:}" \
			'$1 == f && l >= $2 && l <= $3 { found = 1 } END { exit !found }' "$tmp/changed"; then
			hit=1
		fi
	done < <(tail -n +2 "$r")
	list=$(IFS=,; echo "${where[*]}")
	if [ "$hit" = 1 ]; then
		ours=$((ours + 1))
		printf "FAIL KCSAN in the queue's code: %s (%s)\n" "$title" "${list//,/, }"
	elif [ "$unknown" = 1 ]; then
		ours=$((ours + 1))
		printf "FAIL KCSAN at an unknown line: %s (%s)\n" "$title" "${list//,/, }"
	else
		others=$((others + 1))
		printf "NOTE KCSAN outside the queue's code: %s (%s)\n" "$title" "${list//,/, }"
	fi
done
[ "$ours" -gt 0 ] || printf "PASS KCSAN: no report in the queue's code (%d elsewhere)\n" "$others"
