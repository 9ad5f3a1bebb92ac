#!/bin/bash
/work/x/futex_ping4 -r inversion.same_cpu.boost -r inversion.other_cpu.boost 2>&1 | grep -E "^(ok|not ok)|slept|asked"
