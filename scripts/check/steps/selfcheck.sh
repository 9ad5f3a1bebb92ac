# shellcheck shell=bash
# selfcheck.sh: the workbench's own tests (tests/workbench.sh) and the
# SPIN model of the PING word protocol (scripts/check/model.sh), each a step in
# the background from the start of make check: they need no kernel tree.
# shellcheck disable=SC2154 # out, tally, src, tools...: set by scripts/check/check.sh

workbench() {
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
	local rc=0
	"$TOP/scripts/check/model.sh" >"$out/model.log" 2>&1 || rc=$?
	grep -E '^(PASS|FAIL) ' "$out/model.log" | record_lines ""
	grep -A10 '^FAIL' "$out/model.log" | head -n 30 >&2 || true
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out/model.log"; then
		record FAIL "model" "exit status $rc, log: $out/model.log"
	fi
}
