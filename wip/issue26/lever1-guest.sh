#!/bin/bash
# Lever-1 check in the guest: futex_ping (the new handoff rule) and the
# other PING tests, KTAP to $1.
out=${1:?}
cd "$(dirname "$2")" || exit 1
timeout 900 "$2" >"$out" 2>&1
rc=$?
echo "exit $rc" >>"$out"
grep -c '^ok ' "$out"; grep '^not ok' "$out"
exit 0
