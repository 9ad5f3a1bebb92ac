#!/bin/bash
# guest-selftests.sh KSELFTEST_DIR OUT_DIR: runs inside the guest. Runs every
# futex selftest program in KSELFTEST_DIR/futex/functional, each with a time
# limit, one line per program (PASS, FAIL, SKIP), its TAP output in
# OUT_DIR/NAME.log, and the guest kernel log in OUT_DIR/dmesg.txt.
# The list is every program built, so tests that functional/run.sh does not
# call (robust_list, futex_numa) run too.
set -u
out=${2:?}
limit=${TEST_TIMEOUT:-300}
mkdir -p "$out"
# Some tests create files in their working directory: run a copy in /tmp,
# which vng makes writable, as the root file system is read-only.
dir=$(mktemp -d /tmp/futex-selftests.XXXXXX)
cp -a "${1:?}/futex/functional/." "$dir/" || exit 2
cd "$dir" || exit 2

printf 'kernel: %s, cmdline: %s\n' "$(uname -r)" "$(cat /proc/cmdline)"
pass=0 fail=0 skip=0
for t in *; do
	if [ ! -f "$t" ] || [ ! -x "$t" ]; then
		continue
	fi
	case $t in *.sh) continue ;; esac
	t0=$(date +%s)
	timeout -k 5 "$limit" "./$t" >"$out/$t.log" 2>&1
	rc=$?
	dt=$(($(date +%s) - t0))
	case $rc in
	0) res=PASS pass=$((pass + 1)) ;;
	4) res=SKIP skip=$((skip + 1)) ;;
	124 | 137) res=FAIL fail=$((fail + 1)) rc="timeout after ${limit}s" ;;
	*) res=FAIL fail=$((fail + 1)) ;;
	esac
	printf '%-4s %-36s %4ss\n' "$res" "$t" "$dt"
	if [ "$res" = FAIL ]; then
		printf '     exit: %s\n' "$rc"
		grep -E '^(not ok|# .*(FAIL|fail|Expected|error))' "$out/$t.log" | head -n 10 | sed 's/^/     /'
	fi
done
dmesg >"$out/dmesg.txt" 2>&1
printf 'guest: %d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skip"
[ "$fail" -eq 0 ]
