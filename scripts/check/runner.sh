# shellcheck shell=bash
# runner.sh: make check's runner, sourced by scripts/check/check.sh. It reads
# the table of steps (scripts/check/table.sh) and runs each step as the
# table says: in the foreground, in the background, as a pair of guest
# boots side by side, or waits for a background step; it prints a SKIP
# line for the steps the mode leaves out, and the summary. Signals are
# handled here alone (bg_start, finish, kill_tree; check.sh sets the
# trap): a step's body (scripts/check/steps/) prints verdict lines
# through record or record_lines and returns non-zero when it crashed.
# shellcheck disable=SC2154 # mode, out, tally, t_start, expected: check.sh's

record() { # record PASS|FAIL|SKIP NAME [DETAIL]
	printf '%s %s\n' "$1" "$2" >>"$tally"
	printf '  %-4s %s%s\n' "$1" "$2" "${3:+ ($3)}"
}

# record_lines SUFFIX: record the verdict lines on stdin, each name with
# SUFFIX; print the failures and skips, and the passes as one count.
record_lines() {
	local r rest n=0
	while read -r r rest; do
		case $r in PASS | FAIL | SKIP) ;; *) continue ;; esac
		printf '%s %s%s\n' "$r" "$rest" "$1" >>"$tally"
		if [ "$r" = PASS ]; then
			n=$((n + 1))
		else
			printf '  %-4s %s%s\n' "$r" "$rest" "$1"
		fi
	done
	printf '  PASS %d more%s\n' "$n" "$1"
}

# in_mode MODES: this run's mode is one of MODES (words, or all).
in_mode() {
	case " $* " in *" $mode "* | *" all "*) return 0 ;; esac
	return 1
}

# left_out NAME WHY: a step this mode does not run; said now and in the
# summary.
left_out() {
	printf '==> %s\n  SKIP (%s)\n' "$1" "$2"
	printf '%s (%s)\n' "$1" "$2" >>"$out/left-out"
}

# mode_finish: the end of make check-arm64, -kcsan or -bisect, which run
# their own steps alone: the summary says what they left to make check.
mode_finish() {
	left_out "make check's steps: checkpatch, mail, workbench tests, model, the x86_64 debug kernel's boots" "make check"
	finish
}

# Background steps: bg_start NAME NICE CMD... runs "check_step NAME
# CMD..." in the background at nice NICE, its output kept; bg_wait NAME
# waits for it and prints that output. Both are stopped, with everything
# they started, by finish on an interrupt.
# A background step ignores SIGINT, with all it runs, so that a Ctrl-C
# (SIGINT to the whole process group) leaves it to finish, which stops
# its whole tree. Bash ignores SIGINT in an asynchronous subshell only
# until that runs a command: the step's command died of the Ctrl-C and
# left its own asynchronous children (which do ignore SIGINT) to init,
# out of kill_tree's reach (seen in the workbench's
# run-interrupt-stops-everything). An ignore set by trap is inherited.
declare -A bg_pid=() bg_log=()
bg_n=0
bg_start() {
	local name=$1 nice=$2
	shift 2
	bg_n=$((bg_n + 1))
	bg_log[$name]=$out/bg-$bg_n.out
	printf '==> %s: in the background\n' "$name"
	(
		trap '' INT
		renice -n "$nice" -p "$BASHPID" >/dev/null
		check_step "$name" "$@"
		# check_step records a failure; the status is for bg_wait.
		! step_failed
	) >"${bg_log[$name]}" 2>&1 &
	bg_pid[$name]=$!
}
bg_wait() {
	local name=$1 rc=0
	[ -n "${bg_pid[$name]:-}" ] || return 0
	printf '==> waiting for: %s\n' "$name"
	wait "${bg_pid[$name]}" || rc=$?
	unset "bg_pid[$name]"
	sed 's/^/  /' "${bg_log[$name]}"
	return "$rc"
}

finish() {
	local p f s n running
	if [ "${1:-}" = interrupted ]; then
		# Only steps still running: the pid of one that ended (bash
		# reaps it at once) may belong to another process by now.
		running=" $(jobs -rp | tr '\n' ' ') "
		for n in "${!bg_pid[@]}"; do
			case $running in *" ${bg_pid[$n]} "*) kill_tree "${bg_pid[$n]}" ;; esac
		done
	fi
	for n in "${!bg_pid[@]}"; do
		bg_wait "$n" || true
	done
	p=$(grep -c '^PASS ' "$tally" 2>/dev/null || true)
	f=$(grep -c '^FAIL ' "$tally" 2>/dev/null || true)
	s=$(grep -c '^SKIP ' "$tally" 2>/dev/null || true)
	if [ -n "${1:-}" ]; then
		f=$((f + 1))
		printf 'ERROR: %s\n' "$1" >&2
	fi
	printf '\nmake check (mode: %s): %ss (results: %s)\n' "$mode" "$(($(date +%s) - t_start))" "$tally"
	if [ -s "$out/left-out" ]; then
		printf 'not run in this mode:\n'
		sed 's/^/  /' "$out/left-out"
	fi
	if [ -s "$out/notes" ]; then
		printf 'notes (not failures):\n'
		sed 's/^/  /' "$out/notes"
	fi
	if [ "$s" -gt 0 ]; then
		printf 'allowed skips:\n'
		grep '^SKIP ' "$tally" | sed 's/^SKIP /  /' | sort -u
	fi
	if [ "$f" -gt 0 ]; then
		printf 'failures:\n'
		grep '^FAIL ' "$tally" 2>/dev/null | sed 's/^FAIL /  /' || true
	fi
	counted
	printf '%d passed, %d failed, %d skipped\n' "$p" "$f" "$s"
	[ "$f" -eq 0 ]
	exit
}

# counted: what the tally's verdicts are, by kind: a selftest case in one
# configuration (the host's boots name it "selftest PROGRAM: CASE", the
# LAVA jobs "lava PROGRAM_CASE", each with its configuration in
# parentheses at the end), a program as a whole, a build, a static check,
# a check of the workbench's own detectors, a kernel log.
counted() {
	awk -v expfile="$expected" '
	function lava(s) { gsub(/[^-_a-zA-Z0-9]/, "_", s); return s }
	BEGIN {
		while ((getline l < expfile) > 0) {
			if (l ~ /^[ \t]*(#|$)/) continue
			split(l, p, " ")
			prog[lava(p[1])] = 1
			if (p[2] != "-") lcase[lava(p[1] "_" p[2])] = p[1] ": " p[2]
		}
	}
	{
		sub(/^(PASS|FAIL|SKIP) /, "")
		cfg = ""
		if (match($0, / \([^()]*\)$/)) cfg = substr($0, RSTART + 1)
	}
	/^selftest [^:]+: / && !/^selftest [^:]+: (exit status|did not run|not in the test directory)/ {
		split(substr($0, 10), q, ": ")
		k = q[1] ": " q[2]; sub(/ \(.*$/, "", k)
		n["case"]++; distinct[k] = 1; config[cfg] = 1; next
	}
	/^lava / {
		name = $2; sub(/:$/, "", name)
		if (name in lcase) { n["case"]++; distinct[lcase[name]] = 1; config[cfg] = 1 }
		else if (name in prog) n["program"]++
		else if (name == "kernel_log_clean") n["log"]++
		else if (name == "job") n["static"]++
		else n["other"]++
		next
	}
	/^selftest / { n["program"]++; next }
	/^build/ { n["build"]++; next }
	/^nothing to build/ { n["nobuild"]++; next }
	/^(checkpatch|mailable|bench knobs)/ { n["static"]++; next }
	/^(detector|workbench|model)/ { n["detector"]++; next }
	/^kernel log/ { n["log"]++; next }
	{ n["other"]++ }
	END {
		for (c in distinct) nd++
		for (c in config) nc++
		printf "counted: %d selftest case verdicts (%d distinct cases in %d configurations), %d programs as a whole,\n", n["case"], nd, nc, n["program"]
		printf "  %d builds (%d patches with nothing to build), %d static checks (checkpatch, mail, LAVA job schema, knobs patches),\n", n["build"], n["nobuild"], n["static"]
		printf "  %d checks of the detectors", n["detector"]
		printf " (workbench, model, planted faults), %d kernel logs scanned, %d other runs\n", n["log"], n["other"]
		printf "  (guests, locktorture, ping_bench, ping_fuzz, fault injection)\n"
	}' "$tally"
}
# kill_tree PID: PID and every process below it (a background step: its
# make and compilers ignore the SIGINT of a Ctrl-C, as any asynchronous
# command of a script does).
# Each process is stopped before its children are listed, so that none
# escapes by being forked, or by being reparented when its parent dies.
kill_tree() {
	local c
	kill -STOP "$1" 2>/dev/null || return 0
	for c in $(pgrep -P "$1"); do
		kill_tree "$c"
	done
	kill -TERM "$1" 2>/dev/null || true
	kill -CONT "$1" 2>/dev/null || true
}

# check_step NAME CMD...: step, and a step that fails is a failure in the
# tally even where CMD recorded nothing (it died half-way).
check_step() {
	step "$@"
	if step_failed; then
		record FAIL "step: $1" "exit status $STEP_RC"
	fi
}

# guests NAME1 FUNC1 NAME2 FUNC2: two boot steps, side by side with
# CHECK_GUESTS=2 or 3 (the default: a TCG guest leaves part of the two
# CPUs idle, docs/timings.md), one after the other with CHECK_GUESTS=1.
# The second one's output follows the first's.
guests() {
	case ${CHECK_GUESTS:-3} in
	1)
		check_step "$1" "$2"
		check_step "$3" "$4"
		;;
	*)
		bg_start "$3" 0 "$4"
		check_step "$1" "$2"
		bg_wait "$3" || true
		;;
	esac
}

# The table (scripts/check/table.sh): row HOW MODES FUNCTION IF FATAL
# LEFT_OUT NAME adds a step to it.
step_how=() step_modes=() step_fn=() step_if=() step_fatal=() step_skip=() step_name=()
row() {
	step_how+=("$1") step_modes+=("$2") step_fn+=("$3") step_if+=("$4")
	step_fatal+=("$5") step_skip+=("$6") step_name+=("$7")
}

# The table's IF functions: a step runs only where its IF succeeds.
# The workbench's own tests need no kernel tree: they start at once,
# beside the patches' application. Not inside a workbench test
# (FUTEX_WORKBENCH_TEST, set by tests/workbench.sh): a planted check.sh
# that gets this far would run the workbench's tests, and with them the
# plant, again, without end.
outside_workbench() {
	[ -n "${FUTEX_WORKBENCH_TEST:-}" ] || return 0
	left_out "workbench tests, model" "inside the workbench's own tests"
	return 1
}
has_model() {
	[ -z "${FUTEX_WORKBENCH_TEST:-}" ] || return 1
	[ ! -x "$TOP/scripts/check/model.sh" ] || return 0
	left_out "model of the PING word protocol" "no scripts/check/model.sh"
	return 1
}
has_commits() {
	[ ${#commits[@]} -gt 0 ]
}

# leave_out I: row I is not run in this mode. make check and make
# check-planted say so with a SKIP line, one for the rows that share
# their LEFT_OUT, at the last of them; why: the mode, for a step of make
# check, or the target that runs it (make check-bisect). make
# check-arm64, -kcsan and -bisect run their own steps alone, and say in
# one line what they leave to make check (mode_finish).
leave_out() {
	local i=$1 j
	in_mode full planted || return 0
	[ "${step_skip[i]}" != - ] || return 0
	for ((j = i + 1; j < ${#step_skip[@]}; j++)); do
		[ "${step_skip[j]}" != "${step_skip[i]}" ] || return 0
	done
	case " ${step_modes[i]} " in
	*" full "*) left_out "${step_skip[i]}" "mode $mode" ;;
	*) left_out "${step_skip[i]}" "make check-${step_modes[i]}" ;;
	esac
}

# run_steps: every row of the table, in order, as its HOW says; then the
# summary (finish). make check-arm64, -kcsan and -bisect end by saying
# what they left to make check (mode_finish).
run_steps() {
	local i how fn name fatal pair=
	for ((i = 0; i < ${#step_name[@]}; i++)); do
		how=${step_how[i]} fn=${step_fn[i]} name=${step_name[i]} fatal=${step_fatal[i]}
		if ! in_mode "${step_modes[i]}"; then
			leave_out "$i"
			continue
		fi
		[ "${step_if[i]}" = - ] || "${step_if[i]}" || continue
		case $how in
		fg) check_step "$name" "$fn" ;;
		fg-untallied) step "$name" "$fn" ;;
		bg) bg_start "$name" 0 "$fn" ;;
		bg-low) bg_start "$name" 19 "$fn" ;;
		wait)
			bg_wait "$name" || [ "$fatal" = - ] || finish "$fatal"
			continue
			;;
		sh)
			if ! "$fn"; then
				[ "$fatal" != - ] || return 1
				finish "$fatal"
			fi
			continue
			;;
		pair)
			pair=$i
			continue
			;;
		beside)
			guests "${step_name[pair]}" "${step_fn[pair]}" "$name" "$fn"
			continue
			;;
		third)
			case ${CHECK_GUESTS:-3} in
			3) bg_start "$name" 0 "$fn" ;;
			*) check_step "$name" "$fn" ;;
			esac
			;;
		*) die "scripts/check/table.sh: $name: no such HOW: $how" ;;
		esac
		[ "$fatal" = - ] || ! step_failed || finish "$fatal"
	done
	in_mode full planted || mode_finish
	finish
}
