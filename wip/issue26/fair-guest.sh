#!/bin/bash
# The RFC's fair workload (ping_bench -a -w 50000 -s 1000 -t 16 -n N) for
# PING (n), PI (p) and pthread_mutex_t (m), kinds rotated from round to
# round, ROUNDS rounds in one boot, on any kernel: fair-knobs-guest.sh
# with those three settings. One row per run, every thread's waits:
#   row ROUND KIND SAMPLES MEAN MEDIAN P99 MAX   (ns)
# Usage: fair-guest.sh PING_BENCH ROUNDS [N]
FAIR_SETTINGS="n p m" exec "$(dirname "$0")/fair-knobs-guest.sh" "$@"
