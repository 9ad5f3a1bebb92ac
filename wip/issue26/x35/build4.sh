#!/bin/bash
# Build C (lever 1 + levers 3+5 + both knobs) incrementally in A's tree.
set -eu
export XDG_CACHE_HOME=/work/x26-cache
cd /work/main
s=$(date +%s)
scripts/build/build-kernel.sh bench /work/x26/src-A /work/x26/build-A
cp /work/x26/build-A/arch/x86/boot/bzImage /work/x26/bzImage-D
echo "D built in $(($(date +%s) - s)) s"
