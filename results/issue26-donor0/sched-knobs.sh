#!/bin/bash
# in the guest: the idle trace of ping (8 threads) under scheduler knobs
set -u
perf=$1 out=$2
D=/sys/kernel/debug
[ -d $D/sched ] || mount -t debugfs none $D
cat $D/sched/features; echo
echo "migration_cost_ns: $(cat $D/sched/migration_cost_ns 2>/dev/null)"
mc=$(cat $D/sched/migration_cost_ns)
set_knobs() {
	echo SIS_UTIL > $D/sched/features; echo "$mc" > $D/sched/migration_cost_ns
	case $1 in
	nosis) echo NO_SIS_UTIL > $D/sched/features ;;
	mc0) echo 0 > $D/sched/migration_cost_ns ;;
	both) echo NO_SIS_UTIL > $D/sched/features; echo 0 > $D/sched/migration_cost_ns ;;
	esac
}
for round in 1 2; do
	for k in default nosis mc0 both; do
		set_knobs $k
		/work/main/results/issue26-donor0/idle-guest.sh "$perf" "$out" "ping.$k.r$round" ping
	done
done
set_knobs default
