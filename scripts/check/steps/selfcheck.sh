# shellcheck shell=bash
# selfcheck.sh: the workbench's own tests (tests/workbench.sh) and the
# SPIN model of the PING word protocol (scripts/check/model.sh), each a step in
# the background from the start of make check: they need no kernel tree.
# shellcheck disable=SC2154 # out, tally, src, tools...: set by scripts/check/check.sh

# Verdicts reused, as ccache reuses objects. The workbench tests and the
# model are functions of their inputs alone: files of this repository
# (the workbench tests: every one but patches/; the model: models/ and
# its script), the settings in the environment and the host's packages.
# A run that passed is kept under a hash of those inputs, and a run with
# the same hash prints that log instead of running again: a first run on
# a machine, or one after any input changed, runs them.
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
# reuse_or_run NAME KEY LOG CMD...: CMD's output into LOG, or the log of a
# passing run of NAME with the same KEY. Only a run that exits 0 and
# prints no FAIL line is kept. CHECK_REUSE=0 runs CMD always.
reuse_or_run() {
	local name=$1 key=$2 log=$3 rc=0 kept
	shift 3
	kept=$CACHE/verdicts/$name-$key.log
	if [ "${CHECK_REUSE:-1}" != 0 ] && [ -n "$key" ] && [ -s "$kept" ]; then
		cp "$kept" "$log"
		printf '  reused: the log of a passing run on the same inputs (%s, %s)\n' \
			"${kept#"$CACHE"/}" "$(date -r "$kept" '+%F %R')"
		printf '%s: reused the log of a passing run on the same inputs, from %s (CHECK_REUSE=0 runs it)\n' \
			"$name" "$(date -r "$kept" '+%F %R')" >>"$out/notes"
		return 0
	fi
	"$@" >"$log" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ] && [ -n "$key" ] && ! grep -q '^FAIL ' "$log"; then
		mkdir -p "$CACHE/verdicts"
		find "$CACHE/verdicts" -name '*.log' -mtime +30 -delete 2>/dev/null || true
		cp "$log" "$kept.$$" && mv "$kept.$$" "$kept"
	fi
	return "$rc"
}

workbench() {
	local rc=0
	reuse_or_run workbench "$(inputs_key . ':!patches')" "$out/workbench.log" \
		"$TOP/tests/workbench.sh" || rc=$?
	grep -E '^(PASS|FAIL) ' "$out/workbench.log" | sed 's/^\(PASS\|FAIL\) /\1 workbench: /' |
		record_lines ""
	grep -A15 '^FAIL' "$out/workbench.log" | grep -v '^PASS' | head -n 40 >&2 || true
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out/workbench.log"; then
		record FAIL "workbench tests" "exit status $rc, log: $out/workbench.log"
	fi
}
model() {
	local rc=0
	reuse_or_run model "$(inputs_key models scripts/check/model.sh scripts/lib.sh)" "$out/model.log" \
		"$TOP/scripts/check/model.sh" || rc=$?
	grep -E '^(PASS|FAIL) ' "$out/model.log" | record_lines ""
	grep -A10 '^FAIL' "$out/model.log" | head -n 30 >&2 || true
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out/model.log"; then
		record FAIL "model" "exit status $rc, log: $out/model.log"
	fi
}
