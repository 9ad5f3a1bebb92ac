#!/bin/bash
# Build A (series 06 tip), B (lever 1 + knob) in the bench config, and perf.
set -eu
export XDG_CACHE_HOME=/work/x26-cache
mkdir -p $XDG_CACHE_HOME
cd /work/main
for k in A B; do
	case $k in A) c=dc2c0c1df ;; B) c=c92718924 ;; esac
	if [ ! -d /work/x26/src-$k ]; then
		mkdir -p /work/x26/src-$k
		git -C /work/l26 archive "$c" | tar -x -C /work/x26/src-$k
	fi
done
s=$(date +%s)
scripts/build/build-kernel.sh bench /work/x26/src-A /work/x26/build-A
echo "A built in $(($(date +%s) - s)) s"
s=$(date +%s)
scripts/build/build-kernel.sh bench /work/x26/src-B /work/x26/build-B
echo "B built in $(($(date +%s) - s)) s"
s=$(date +%s)
scripts/build/build-tools.sh /work/x26/src-A /work/x26/tools perf
echo "perf built in $(($(date +%s) - s)) s"
