# shellcheck shell=bash
# selfcheck.sh: the workbench's own tests (tests/workbench.sh) and the
# SPIN model of the PING word protocol (scripts/check/model.sh), each a step in
# the background from the start of make check: they need no kernel tree.
# shellcheck disable=SC2154 # out, tally, src, tools...: set by scripts/check/check.sh

# Verdicts reused, as ccache reuses objects. The workbench tests, the
# model and the static checks of the queue are functions of their inputs
# alone: files of this repository (the workbench tests: every one but
# patches/, wip/ and the prose; the model: models/ and its script;
# checkpatch and the mail checks: patches/ and scripts/, which name the
# base), the settings in the environment and the host's packages. A run
# whose every verdict passed is kept under a hash of those inputs, and a
# run with the same hash replays it (what it printed, its verdicts, its
# log) instead of running again: a first run on a machine, or one after
# any input changed, runs them.
# inputs_key PATHSPEC...: that hash, or nothing (and status 1) outside a
# git checkout.
inputs_key() {
	local files
	files=$(git -C "$TOP" ls-files --cached --others --exclude-standard -- "$@" 2>/dev/null) &&
		[ -n "$files" ] || return 1
	{
		# A file deleted from the work tree is left out (sha256sum
		# complains and goes on): its absence changes the hash.
		(cd "$TOP" && printf '%s\n' "$files" | xargs -d '\n' sha256sum -- 2>/dev/null) || true
		env | grep -E '^((CHECK|FUZZ|FAILFUTEX|KCSAN|SELFTEST|TEST|VM|KERNEL|LAVA|MODEL|BENCH|SOAK)_[A-Z_]*|RUNS|SERIES|DURATION)=' |
			grep -v '^CHECK_REUSE=' | sort || true
		dpkg-query -W 2>/dev/null || true
		uname -m
	} | sha256sum | cut -c 1-16
}
# reuse_step NAME KEY FN: run the step function FN, or replay a run of
# NAME with the same KEY whose verdicts all passed. FN's verdicts go to a
# tally of its own first, so that those of steps running beside it stay
# out of what is kept. CHECK_REUSE=0 runs FN always.
reuse_step() {
	local name=$1 key=$2 fn=$3 kept rc=0 t=$out/$1.tally o=$out/$1.out
	kept=$CACHE/verdicts/$name-$key
	if [ "${CHECK_REUSE:-1}" != 0 ] && [ -n "$key" ] && [ -s "$kept.tally" ]; then
		cat "$kept.out"
		cat "$kept.tally" >>"$tally"
		[ ! -f "$kept.log" ] || cp "$kept.log" "$out/$name.log"
		printf '  reused: a run on the same inputs whose verdicts all passed (%s, %s)\n' \
			"${kept#"$CACHE"/}" "$(date -r "$kept.tally" '+%F %R')"
		printf '%s: reused a run on the same inputs whose verdicts all passed, from %s (CHECK_REUSE=0 runs it)\n' \
			"$name" "$(date -r "$kept.tally" '+%F %R')" >>"$out/notes"
		return 0
	fi
	: >"$t"
	# With errexit as in any step (scripts/lib.sh's step): a command
	# that fails inside FN ends it, which "FN || rc=$?" would not.
	local e=${-//[^e]/}
	set +e
	(
		set -e
		tally=$t "$fn"
	) >"$o"
	rc=$?
	[ -z "$e" ] || set -e
	cat "$o"
	cat "$t" >>"$tally"
	if [ "$rc" -eq 0 ] && [ -n "$key" ] && [ -s "$t" ] && ! grep -q -v '^PASS ' "$t"; then
		mkdir -p "$CACHE/verdicts"
		find "$CACHE/verdicts" -type f -mtime +30 -delete 2>/dev/null || true
		cp "$o" "$kept.out"
		rm -f "$kept.log"
		[ ! -f "$out/$name.log" ] || cp "$out/$name.log" "$kept.log"
		# The tally last: it marks the entry whole.
		cp "$t" "$kept.tally.$$" && mv "$kept.tally.$$" "$kept.tally"
	fi
	return "$rc"
}

workbench() {
	# Not their input: the queue, the drafts and the prose (of docs/,
	# the tests read check.md alone).
	reuse_step workbench "$(inputs_key . ':!patches' ':!wip' ':!README.md' ':!docs/timings.md' \
		':!docs/sending.md' ':!docs/ping-fuzz.md' ':!docs/dl_flip.c')" workbench_run
}
workbench_run() {
	local rc=0
	"$TOP/tests/workbench.sh" >"$out/workbench.log" 2>&1 || rc=$?
	grep -E '^(PASS|FAIL) ' "$out/workbench.log" | sed 's/^\(PASS\|FAIL\) /\1 workbench: /' |
		record_lines ""
	grep -A15 '^FAIL' "$out/workbench.log" | grep -v '^PASS' | head -n 40 >&2 || true
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out/workbench.log"; then
		record FAIL "workbench tests" "exit status $rc, log: $out/workbench.log"
	fi
}
model() {
	reuse_step model "$(inputs_key models scripts/check/model.sh scripts/lib.sh)" model_run
}
model_run() {
	local rc=0
	"$TOP/scripts/check/model.sh" >"$out/model.log" 2>&1 || rc=$?
	grep -E '^(PASS|FAIL) ' "$out/model.log" | record_lines ""
	grep -A10 '^FAIL' "$out/model.log" | head -n 30 >&2 || true
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out/model.log"; then
		record FAIL "model" "exit status $rc, log: $out/model.log"
	fi
}
