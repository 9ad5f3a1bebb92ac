#!/bin/bash
# guest-locktorture.sh SECONDS OUT_DIR: runs inside the guest. The kernel
# has locktorture built in and was booted with locktorture.torture_type=
# and locktorture.stat_interval=; the torture starts at boot. Lets it run
# SECONDS, then keeps the kernel log in OUT_DIR/dmesg.txt and writes
# OUT_DIR/done last. The host judges the log (scripts/verdict.sh,
# locktorture_verdict).
set -u
secs=${1:?usage: guest-locktorture.sh SECONDS OUT_DIR}
out=${2:?}
mkdir -p "$out"
rm -f "$out/done"
printf 'kernel: %s, cmdline: %s\n' "$(uname -r)" "$(cat /proc/cmdline)"
sleep "$secs"
dmesg >"$out/dmesg.txt" 2>&1
echo ok >"$out/done"
