# shellcheck shell=bash
# verdict.sh: how make check judges a guest run. Sourced by check.sh.
# Each function prints verdict lines, "PASS|FAIL|SKIP NAME[: DETAIL]", one
# per test case or finding, and nothing else on stdout, so that the same
# functions judge the real runs and the planted-failure run.

# The allow-lists' line, "PROGRAM CASE | SAID | WHY", for both verdicts'
# awk programs: skipline(LINE) splits it into f[1..3]; SAID may hold "|"
# (a regular expression), WHY may not.
awk_skipline='
function skipline(l,    n, rest) {
	n = index(l, "|")
	rest = substr(l, n + 1)
	if (!n || !match(rest, /\|[^|]*$/)) return 0
	f[1] = substr(l, 1, n - 1)
	f[2] = substr(rest, 1, RSTART - 1)
	f[3] = substr(rest, RSTART + 1)
	return 1
}'

# selftest_verdict RESDIR EXPECTED SKIPS: judge the KTAP output that
# tests/guest-selftests.sh left in RESDIR against EXPECTED ("PROGRAM CASE"
# lines: every case that must run) and SKIPS ("PROGRAM CASE | SAID | WHY":
# the skips that are allowed, for the reason the test gives matching SAID,
# an extended regular expression, and why). A case that is missing,
# failed, or skipped without an entry in SKIPS or for another reason than
# SAID fails; so does a case that EXPECTED
# does not list, a program that did not run or whose exit status is not
# its tests' (0 all passed, 4 all skipped), a plan ("1..N") that does not
# match the results, and a run that did not complete.
selftest_verdict() {
	local res=$1 expected skips=$3
	# Read once: EXPECTED may be a pipe (<(grep ...)), and it is read
	# twice below.
	expected=$(cat "$2")
	if [ ! -f "$res/done" ]; then
		printf 'FAIL selftest run: did not complete (no %s)\n' "$res/done"
	fi
	awk -v res="$res" -v skipfile="$skips" "$awk_skipline"'
	function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
	BEGIN {
		while ((getline l < skipfile) > 0) {
			if (l ~ /^[ \t]*(#|$)/) continue
			if (!skipline(l)) {
				printf "FAIL selftest skips: not PROGRAM CASE | SAID | WHY: %s\n", l
				continue
			}
			k = trim(f[1])
			said[k] = trim(f[2])
			allowed[k] = trim(f[3])
		}
		st = res "/status.tsv"
		while ((getline l < st) > 0) {
			split(l, f, " ")
			rc[f[1]] = f[2]
		}
	}
	/^[ \t]*(#|$)/ { next }
	{
		prog = $1; c = $2
		if (!(prog in seen)) {
			seen[prog] = 1
			order[++nprog] = prog
		}
		want[prog, c] = 1
		cases[prog] = cases[prog] SUBSEP c
	}
	END {
		for (i = 1; i <= nprog; i++)
			judge(order[i])
	}
	function judge(prog,    lf, l, plan, nres, m, desc, dir, reason, k, nc, cl, j, c, r, cur) {
		if (!(prog in rc)) {
			printf "FAIL selftest %s: did not run\n", prog
			return
		}
		if (rc[prog] == "missing") {
			printf "FAIL selftest %s: not in the test directory\n", prog
			return
		}
		# "PROGRAM -": a program without KTAP output (futex_numa),
		# judged by its exit status alone.
		if (cases[prog] == SUBSEP "-") {
			r = rc[prog]
			if (r == 0)
				printf "PASS selftest %s\n", prog
			else if (r == 4 && (prog " -") in allowed)
				printf "SKIP selftest %s: exit status 4 (allowed: %s)\n", prog, allowed[prog " -"]
			else
				printf "FAIL selftest %s: exit status %s\n", prog, r
			return
		}
		lf = res "/" prog ".log"
		plan = -1; nres = 0
		delete got; delete why
		cur = ""
		delete inner
		while ((getline l < lf) > 0) {
			sub(/\r$/, "", l)
			if (l ~ /^1\.\.[0-9]+/) { plan = substr(l, 4) + 0; continue }
			# kselftest_harness.h announces each case ("#  RUN NAME
			# ..."); a nameless "ok N # SKIP why" printed inside it
			# (robust_list skips from a fixture set-up that way) makes
			# the case a skip, whatever result the harness gives it.
			if (l ~ /^#  RUN /) {
				cur = l
				sub(/^#  RUN +/, "", cur)
				sub(/ \.\.\.$/, "", cur)
				continue
			}
			if (l !~ /^(not )?ok [0-9]+/) continue
			m = (l ~ /^ok/) ? "ok" : "not ok"
			desc = l
			sub(/^(not )?ok [0-9]+ */, "", desc)
			dir = ""
			k = index(desc, "# ")
			if (k) {
				dir = substr(desc, k + 2)
				desc = substr(desc, 1, k - 1)
			}
			desc = trim(desc)
			# A nameless result is a fixture set-up talking, not a
			# test case of the plan.
			if (desc == "") {
				if (cur != "" && dir ~ /^(SKIP|skip)/)
					inner[cur] = trim(substr(dir, 5))
				continue
			}
			nres++
			if (m == "ok" && dir ~ /^(SKIP|skip)/) {
				got[desc] = "SKIP"
				why[desc] = trim(substr(dir, 5))
			} else if (m == "ok" && (desc in inner)) {
				got[desc] = "SKIP"
				why[desc] = inner[desc]
			} else if (m == "ok") {
				got[desc] = "PASS"
			} else {
				got[desc] = "FAIL"
			}
		}
		close(lf)
		nc = split(substr(cases[prog], 2), cl, SUBSEP)
		for (j = 1; j <= nc; j++) {
			c = cl[j]
			if (!(c in got)) {
				printf "FAIL selftest %s: %s: did not run\n", prog, c
			} else if (got[c] == "SKIP") {
				k = prog " " c
				if (!(k in allowed))
					printf "FAIL selftest %s: %s: skipped (%s), not an allowed skip\n", prog, c, why[c]
				else if (why[c] !~ ("^(" said[k] ")$"))
					printf "FAIL selftest %s: %s: skipped (%s), allowed only as (%s)\n", prog, c, why[c], said[k]
				else
					printf "SKIP selftest %s: %s: %s (allowed: %s)\n", prog, c, why[c], allowed[k]
			} else {
				printf "%s selftest %s: %s\n", got[c], prog, c
			}
		}
		for (c in got)
			if (!((prog, c) in want))
				printf "FAIL selftest %s: %s: not in the expected list\n", prog, c
		r = rc[prog]
		if (r == 124 || r == 137)
			printf "FAIL selftest %s: timed out\n", prog
		else if (r != 0 && r != 4)
			printf "FAIL selftest %s: exit status %s\n", prog, r
		if (plan >= 0 && plan != nres)
			printf "FAIL selftest %s: planned %d results, reported %d\n", prog, plan, nres
		if (plan < 0)
			printf "FAIL selftest %s: no KTAP plan line\n", prog
	}' <<<"$expected"
	# A program in RESDIR that the expected list does not name.
	if [ -f "$res/status.tsv" ]; then
		awk '{print $1}' "$res/status.tsv" | while read -r p; do
			grep -q -E "^$p " <<<"$expected" ||
				printf 'FAIL selftest %s: not in the expected list\n' "$p"
		done
	fi
	return 0
}

# The kernel log must hold no warning, bug, lockdep, KASAN or kmemleak
# report, no lockup or stall: the classes of lava/kernel-log-badness, which
# the LAVA guest's script reads too. Each finding is classified, so that a
# planted lockdep report is known to be seen as one and not merely as
# "some WARNING".
badness_file=$(dirname "${BASH_SOURCE[0]}")/../../lava/kernel-log-badness
mapfile -t splat_classes < <(grep -v -e '^#' -e '^$' -e '^ignore|' "$badness_file")
splat_ignore=$(sed -n 's/^ignore|//p' "$badness_file")
# What the specific classes match: WARNING and BUG are named only for
# lines none of them took.
splat_specific=$(printf '%s\n' "${splat_classes[@]}" |
	grep -v -E '^(WARNING|BUG|oops|panic|other)\|' | sed 's/^[^|]*|//' | paste -s -d '|')

# splat_scan LABEL FILE...: one FAIL line per class of report found in
# the FILEs, with its first line; a PASS line when there is none. A FILE
# that is missing or empty is a FAIL: a log that was not written cannot
# be clean.
splat_scan() {
	local label=$1 c name re hit found=0 f log
	shift
	for f; do
		if [ ! -s "$f" ]; then
			printf 'FAIL kernel log clean (%s): no log: %s is missing or empty\n' "$label" "$f"
			return
		fi
	done
	log=$(cat "$@" | tr -d '\r' | grep -a -v -E "$splat_ignore" || true)
	for c in "${splat_classes[@]}"; do
		name=${c%%|*} re=${c#*|}
		case $name in
		WARNING | BUG)
			# The report's own line, rather than the "cut here" before it.
			hit=$(grep -a -E "$re" <<<"$log" | grep -a -v -E "$splat_specific" |
				awk '!/cut here/ { print; done = 1; exit } !first { first = $0 }
					END { if (!done && first != "") print first }' || true) ;;
		other)
			[ "$found" = 0 ] || continue
			hit=$(grep -a -m 1 -E "$re" <<<"$log" || true) ;;
		*)
			hit=$(grep -a -m 1 -E "$re" <<<"$log" || true) ;;
		esac
		[ -n "$hit" ] || continue
		# Without the time stamp, cut to one line's width.
		hit=${hit#\[*\] }
		printf 'FAIL kernel log clean (%s): %s: %s\n' "$label" "$name" "${hit:0:120}"
		found=1
	done
	if [ "$found" = 0 ]; then
		printf 'PASS kernel log clean (%s)\n' "$label"
	fi
}

# locktorture_verdict TYPE FILE...: judge the built-in locktorture of
# TYPE from the kernel log in the FILEs: it must have started, its
# statistics lines ("Writes:  Total: N ... Fail: F") must be at least two,
# all with Fail: 0, and the write total must grow.
locktorture_verdict() {
	local type=$1 stats n first last bad
	shift
	# grep on the files, not at the end of a pipe: grep -q would end
	# the pipe early, and pipefail would take that for "not found".
	if ! grep -a -q -F "$type-torture:--- Start of test" "$@" 2>/dev/null; then
		printf 'FAIL locktorture %s: did not start (no "%s-torture:--- Start of test" in the kernel log)\n' "$type" "$type"
		return
	fi
	# awk reads every line: no reader in these pipes stops early.
	stats=$(cat "$@" 2>/dev/null | tr -d '\r' | awk '/Writes: +Total: /')
	n=$(awk '/Total: / { n++ } END { print n + 0 }' <<<"$stats")
	if [ "$n" -lt 2 ]; then
		printf 'FAIL locktorture %s: %s statistics lines\n' "$type" "$n"
		return
	fi
	bad=$(awk '!/Fail: 0( |$)/ && !found { found = 1; print }' <<<"$stats")
	if [ -n "$bad" ]; then
		printf 'FAIL locktorture %s: mutual exclusion broken: %s\n' "$type" "Writes:${bad#*Writes:}"
	else
		printf 'PASS locktorture %s: no mutual exclusion failure in %s statistics lines\n' "$type" "$n"
	fi
	first=$(awk 'NR == 1 { sub(/.*Total: +/, ""); sub(/[^0-9].*/, ""); print }' <<<"$stats")
	last=$(awk '{ l = $0 } END { sub(/.*Total: +/, "", l); sub(/[^0-9].*/, "", l); print l }' <<<"$stats")
	if [ "${last:-0}" -gt "${first:-0}" ]; then
		printf 'PASS locktorture %s: writes went on (%s -> %s)\n' "$type" "$first" "$last"
	else
		printf 'FAIL locktorture %s: writes stopped at %s\n' "$type" "${last:-none}"
	fi
}

# ping_bench_verdict LOG: the smoke runs of tests/guest-ping-bench.sh. A
# run passes if ping_bench exited 0 and its summary says the protected
# counter is exact ("counter N of N: ok"); an uncontended run (-t 1) of a
# kind with the owner's TID in the word must also have made no call into
# the kernel ("0 in the kernel; unlocks in the kernel: 0").
ping_bench_verdict() {
	local log=$1
	if [ ! -s "$log" ]; then
		printf 'FAIL ping_bench smoke: no log %s\n' "$log"
		return
	fi
	awk '
	function judge() {
		if (args == "") return
		why = ""
		if (rc != "0") why = "exit status " (rc == "" ? "missing" : rc)
		else if (!ok) why = "counter not exact or no summary"
		else if (args ~ /-t 1 / && args ~ /-f [nNp] / && !nosys) why = "calls into the kernel uncontended"
		shown = args; sub(/ $/, "", shown)
		if (why == "") printf "PASS ping_bench %s\n", shown
		else printf "FAIL ping_bench %s: %s\n", shown, why
		runs++
	}
	/^== / { judge(); args = substr($0, 4) " "; rc = ""; ok = 0; nosys = 0; next }
	/^exit / { rc = $2 }
	/^ping_bench: kind .*, counter [0-9]+ of [0-9]+: ok$/ {
		split($0, a, "counter "); split(a[2], b, "[ :]+"); if (b[1] == b[3]) ok = 1
	}
	/ 0 in the kernel; unlocks in the kernel: 0$/ { nosys = 1 }
	END { judge(); if (!runs) print "FAIL ping_bench smoke: no runs in the log" }' "$log"
}

# fuzz_verdict DIR: judge a run of ping_fuzz by tests/guest-fuzz.sh in
# DIR: it must have run to its end with exit status 0; a failure names
# the seed and the first error (the log's last line says both).
fuzz_verdict() {
	local d=$1 rc secs last
	last=$(tail -n 1 "$d/ping_fuzz.log" 2>/dev/null) || true
	if [ ! -f "$d/done" ] || ! read -r _ rc secs <"$d/status.tsv" 2>/dev/null; then
		printf 'FAIL ping_fuzz: did not run to its end (%s)\n' "$d"
	elif [ "$rc" != 0 ]; then
		printf 'FAIL ping_fuzz: exit status %s after %ss: %s (log: %s)\n' "$rc" "$secs" "$last" "$d/ping_fuzz.log"
	else
		printf 'PASS ping_fuzz: %s\n' "$(sed -n 's/^ping_fuzz: \(seed [0-9]*\), .*/\1/p' "$d/ping_fuzz.log" | head -n 1), ${secs}s"
	fi
}

# failfutex_verdict RESULTS_DIR: judge the fault-injection job of lava/
# (futex-lava.sh failfutex) from scripts/lab/lava-results.py's RESULTS_DIR:
# faults must have been injected (failfutex_injected, a count above 0),
# kmemleak must have reported nothing (kmemleak_clean, and its report,
# raw/job.kmemleak.txt, empty), and no other result may fail (a stress
# program that is missing, kernel_log_clean). A result that is not there
# fails.
failfutex_verdict() {
	local d=$1 tsv=$1/results.tsv leak=$1/raw/job.kmemleak.txt n
	if [ ! -s "$tsv" ]; then
		printf 'FAIL fault injection: no results (%s)\n' "$tsv"
		return
	fi
	n=$(awk -F '\t' '$3 == "failfutex_injected" && $4 == "pass" { sub(/\..*/, "", $5); print $5 }' "$tsv")
	if [ -n "$n" ] && [ "$n" -gt 0 ]; then
		printf 'PASS fault injection: %s faults injected\n' "$n"
	else
		printf 'FAIL fault injection: faults injected: %s (%s)\n' \
			"$(awk -F '\t' '$3 == "failfutex_injected" { print $5 " (" $4 ")"; f = 1 } END { if (!f) print "no result" }' "$tsv")" "$tsv"
	fi
	if ! grep -q -P '\tkmemleak_clean\t' "$tsv"; then
		printf 'FAIL fault injection: no kmemleak report: no result (%s)\n' "$tsv"
	elif grep -q -P '\tkmemleak_clean\tpass\t' "$tsv" && [ -f "$leak" ] && [ ! -s "$leak" ]; then
		printf 'PASS fault injection: no kmemleak report\n'
	else
		if [ -f "$leak" ]; then
			n="$(grep -c '^unreferenced object' "$leak" || true) objects"
		else
			n="no report file"
		fi
		printf 'FAIL fault injection: no kmemleak report: %s (%s)\n' "$n" "$leak"
	fi
	awk -F '\t' -v tsv="$tsv" 'NR > 1 && $4 == "fail" && $3 != "failfutex_injected" && $3 != "kmemleak_clean" {
		printf "FAIL fault injection: %s failed (%s)\n", $3, tsv }' "$tsv"
}

# lava_verdict RESULTS_TSV JOB_LOG EXPECTED SKIPS CONSOLE: judge a LAVA
# job of lava/ (scripts/lab/lava-results.py's results.tsv of it, its log, and
# the guest's console): the job must have completed, every case of
# EXPECTED must be a result (named as lava/futex-lava.sh names it:
# PROGRAM_CASE, every character outside [-_a-zA-Z0-9] an underscore), and
# no other case may be one, none may fail, a skip only if SKIPS allows it
# for the reason the console shows the test giving, and the kernel log
# must be clean (kernel_log_clean).
lava_verdict() {
	local tsv=$1 log=$2
	if ! grep -q '"case": "job", "definition": "lava", "result": "pass"' "$log" 2>/dev/null; then
		printf 'FAIL lava job: did not complete (log: %s)\n' "$log"
	fi
	if [ ! -s "$tsv" ]; then
		printf 'FAIL lava job: no results (%s)\n' "$tsv"
		return
	fi
	awk -F '\t' -v expfile="$3" -v skipfile="$4" -v console="$5" "$awk_skipline"'
	function lava(s) { gsub(/[^-_a-zA-Z0-9]/, "_", s); return s }
	function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
	BEGIN {
		while ((getline l < skipfile) > 0) {
			if (l ~ /^[ \t]*(#|$)/) continue
			if (!skipline(l)) {
				printf "FAIL lava skips: not PROGRAM CASE | SAID | WHY: %s\n", l
				continue
			}
			split(trim(f[1]), p, " ")
			k = lava(p[1] "_" p[2])
			kcase[k] = p[2]
			said[k] = trim(f[2])
			allowed[k] = trim(f[3])
		}
		while ((getline l < expfile) > 0) {
			if (l ~ /^[ \t]*(#|$)/) continue
			split(l, p, " ")
			# "PROGRAM -": the case of the program itself (its exit
			# status), which futex-lava.sh reports for every program.
			known[lava(p[1])] = 1
			if (p[2] == "-") want[lava(p[1])] = 1
			else want[lava(p[1] "_" p[2])] = known[lava(p[1] "_" p[2])] = 1
		}
		known["kernel_log_clean"] = 1
		# The reasons of named skips, as the KTAP lines on the console
		# give them.
		while (console != "" && (getline l < console) > 0) {
			sub(/\r$/, "", l)
			if (match(l, /ok [0-9]+ [^ ]+ # SKIP /)) {
				split(substr(l, RSTART), p, " ")
				reason[p[3]] = substr(l, RSTART + RLENGTH)
			}
		}
	}
	NR == 1 { next }
	{
		seen[$3] = 1
		if (!($3 in known)) printf "FAIL lava %s: not in the expected list\n", $3
		else if ($4 == "pass") printf "PASS lava %s\n", $3
		else if ($4 != "skip" || !($3 in allowed)) printf "FAIL lava %s: %s\n", $3, $4
		else if (!(kcase[$3] in reason))
			printf "FAIL lava %s: skipped, no reason on the console\n", $3
		else if (reason[kcase[$3]] !~ ("^(" said[$3] ")$"))
			printf "FAIL lava %s: skipped (%s), allowed only as (%s)\n", $3, reason[kcase[$3]], said[$3]
		else printf "SKIP lava %s: %s (allowed: %s)\n", $3, reason[kcase[$3]], allowed[$3]
	}
	END {
		for (c in want) if (!(c in seen)) printf "FAIL lava %s: no result\n", c
		if (!("kernel_log_clean" in seen)) print "FAIL lava kernel_log_clean: no result"
	}' "$tsv"
}
