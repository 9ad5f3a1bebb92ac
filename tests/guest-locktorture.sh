#!/bin/bash
# guest-locktorture.sh SECONDS OUT_DIR: runs inside the guest. The kernel
# has locktorture built in and was booted with locktorture.torture_type=
# and locktorture.stat_interval=; the torture starts at boot and runs
# beside whatever the boot runs before this script. Waits until it has
# run SECONDS (from its "Start of test" line in the kernel log), then
# keeps the kernel log in OUT_DIR/torture-dmesg.txt and writes
# OUT_DIR/torture-done last. The host judges the log
# (scripts/check/verdict.sh, locktorture_verdict).
set -u
secs=${1:?usage: guest-locktorture.sh SECONDS OUT_DIR}
out=${2:?}
mkdir -p "$out"
rm -f "$out/torture-done"
printf 'kernel: %s, cmdline: %s\n' "$(uname -r)" "$(cat /proc/cmdline)"
# The time stamp of the start line, in seconds since boot (0 if there is
# none: the verdict then says that the torture did not start).
start=$(dmesg | sed -n -E 's/^\[ *([0-9]+)\.[0-9]+\] .*-torture:--- Start of test.*/\1/p' | head -n 1)
now=$(cut -d. -f1 /proc/uptime)
left=$((${start:-0} + secs - now))
if [ "$left" -gt 0 ]; then
	printf 'locktorture: %ss more\n' "$left"
	sleep "$left"
fi
dmesg >"$out/torture-dmesg.txt" 2>&1
echo ok >"$out/torture-done"
