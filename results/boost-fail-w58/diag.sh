#!/bin/bash
for i in 1 2 3; do /work/x/futex_ping4 -r inversion.same_cpu.boost -r inversion.other_cpu.boost 2>&1 | grep -E "^(ok|not ok)|slept|asked"; done
echo "== planted"
/work/x/futex_ping_plant -r inversion.other_cpu.boost 2>&1 | grep -E "^(ok|not ok)|slept|asked|no boost"
