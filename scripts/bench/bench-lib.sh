# shellcheck shell=bash
# Helpers of the benchmark tables (bench-table.sh, bench-pathlen-table.sh):
# medians, spreads and ministat's verdict. Sourced after lib.sh.

# median: the median of the numbers on stdin, one a line; "-" for none.
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "-"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# spread: (max - min) / median of the numbers on stdin, in %, with three
# decimals; "-" for none or a median of 0.
spread() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "-"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		if (m == 0) { print "-"; exit }
		d = (v[NR] - v[1]) / m * 100; if (d < 0) d = -d
		printf "%.3f%%\n", d }'
}

# verdict A B DIGITS [FULL]: ministat's verdict on the values in files A
# (parent) and B (patched) at 95% confidence, for a table column: "no
# difference proven", or the difference of B from A in % with its
# confidence interval ("+80.2% +/- 23.3%", DIGITS decimals); ministat wants
# 3 values a side ("n < 3: no test"). FULL, if given, gets ministat's whole
# output appended.
verdict() {
	local a=$1 b=$2 digits=$3 full=${4:-} out
	if [ "$(grep -c . "$a")" -lt 3 ] || [ "$(grep -c . "$b")" -lt 3 ]; then
		echo "n < 3: no test"
		[ -z "$full" ] || printf 'fewer than 3 values a side: no test\n' >>"$full"
		return 0
	fi
	if ! command -v ministat >/dev/null; then
		echo "no ministat"
		return 0
	fi
	out=$(ministat -A "$a" "$b" 2>&1) || true
	[ -z "$full" ] || printf '%s\n' "$out" >>"$full"
	case $out in
	*"No difference proven"*) echo "no difference proven" ;;
	*"Difference at"*)
		printf '%s\n' "$out" | awk -v d="$digits" '/^[[:space:]].*%.*%/ {
			gsub(/%/, ""); printf "%+.*f%% +/- %.*f%%\n", d, $1, d, $3; exit }'
		;;
	*) echo "ministat: ?" ;;
	esac
}
