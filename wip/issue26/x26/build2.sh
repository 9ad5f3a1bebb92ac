#!/bin/bash
set -eu
export XDG_CACHE_HOME=/work/x26-cache
cd /work/main
s=$(date +%s)
scripts/build/build-kernel.sh bench /work/x26/src-A /work/x26/build-A
cp /work/x26/build-A/arch/x86/boot/bzImage /work/x26/bzImage-B
echo "B built in $(($(date +%s) - s)) s"
s=$(date +%s)
scripts/build/build-tools.sh /work/x26/src-A /work/x26/tools perf
echo "perf built in $(($(date +%s) - s)) s"
