#!/usr/bin/env bash
# bench.sh: "make bench". For every series NN-topic of patches/ that has a
# bench/NN-topic.rows file, compares the parent kernel (the series before
# it applied) with the patched one (the series applied): same config
# (bench flavour), same guest, same perf binary (built from the whole
# queue), RUNS (default 5) interleaved boots of each kernel, medians, and
# ratios from one run. bench/base.rows runs on the base kernel alone.
# bench/NN-topic.sh, where present, adds a job of its own for the series
# (a thread sweep, say). Tables go to the terminal and results/, the raw
# perf output to results/NN-topic/raw/. SERIES="NN-topic ..." limits the
# run to some series (the base rows always run).
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-5}
t_start=$(date +%s)
src=$WORK/src-bench
tools=$WORK/tools-bench
perf=$tools/perf/perf

step "host set-up" "$TOP/scripts/setup.sh"

mapfile -t series < <(series_dirs)
names=(base)
for s in "${series[@]}"; do
	names+=("${s##*/}")
done

# Which kernels are needed: k0 is the base, kN the base plus N series.
declare -A need=([0]=1)
jobs=()
for i in "${!series[@]}"; do
	n=${names[$((i + 1))]}
	# SERIES="01-topic ..." limits the run to those series.
	case " ${SERIES:-$n} " in *" $n "*) ;; *) continue ;; esac
	if [ -f "$TOP/bench/$n.rows" ] || [ -x "$TOP/bench/$n.sh" ]; then
		need[$i]=1
		need[$((i + 1))]=1
		jobs+=("$((i + 1))")
	fi
done

# perf has a worktree of its own, so that the kernel trees do not switch
# back and forth between the queue's tip and their prefix.
build_perf() {
	"$TOP/scripts/queue.sh" "$WORK/src-tools" >/dev/null &&
		"$TOP/scripts/build-tools.sh" "$WORK/src-tools" "$tools" perf
}
step "perf from the whole queue" build_perf || die "cannot build perf"

build_k() {
	local k=$1
	"$TOP/scripts/queue.sh" "$src" "$k" >/dev/null &&
		"$TOP/scripts/build-kernel.sh" bench "$src" "$WORK/build-bench-$k" >/dev/null
}
for k in $(printf '%s\n' "${!need[@]}" | sort -n); do
	step "bench kernel $k: ${names[$k]}" build_k "$k" ||
		die "bench kernel $k (${names[$k]}) does not build"
done

machine() {
	printf 'host: %s, %s CPUs, %s RAM; guest: 2 vCPUs, %s, %s\n' \
		"$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)" "$(nproc)" \
		"$(free -g | awk '/^Mem:/ {print $2 "G"}')" "${VM_MEMORY:-4G}" \
		"$(tail -n 1 "$CACHE/kvm-probe" 2>/dev/null | cut -d' ' -f1 | tr '[:lower:]' '[:upper:]')"
}

# role K J: what kernel K is to series J: patched, parent, or nothing.
role() {
	if [ "$1" -eq "$2" ]; then echo patched; elif [ "$1" -eq $(($2 - 1)) ]; then echo parent; fi
}

guest_run() { # guest_run K RUN
	local k=$1 r=$2 j n as log cmd=()
	log=$WORK/bench-logs/k$k.run$r.log
	mkdir -p "$WORK/bench-logs"
	if [ "$k" -eq 0 ] && [ -f "$TOP/bench/base.rows" ]; then
		mkdir -p "$RESULTS/base/raw"
		cmd+=("$TOP/tests/guest-bench.sh" "$perf" "$TOP/bench/base.rows"
			"$RESULTS/base/raw" "base.$r" "&&")
	fi
	for j in "${jobs[@]}"; do
		n=${names[$j]}
		as=$(role "$k" "$j")
		[ -n "$as" ] || continue
		mkdir -p "$RESULTS/$n/raw"
		[ -f "$TOP/bench/$n.rows" ] && cmd+=("$TOP/tests/guest-bench.sh" "$perf"
			"$TOP/bench/$n.rows" "$RESULTS/$n/raw" "$as.$r" "&&")
		[ -x "$TOP/bench/$n.sh" ] && cmd+=("$TOP/bench/$n.sh" "$perf"
			"$RESULTS/$n/raw" "$as.$r" "&&")
	done
	[ ${#cmd[@]} -gt 0 ] || return 0
	"$TOP/scripts/vm.sh" -t "${BENCH_TIMEOUT:-1800}" "$WORK/build-bench-$k/arch/x86/boot/bzImage" \
		"$log" -- bash -c "${cmd[*]} true"
}

rm -rf "${RESULTS:?}/base/raw"
for j in "${jobs[@]}"; do
	rm -rf "${RESULTS:?}/${names[$j]}/raw"
done
for r in $(seq 1 "$RUNS"); do
	for k in $(printf '%s\n' "${!need[@]}" | sort -n); do
		step "run $r/$RUNS on kernel $k (${names[$k]})" guest_run "$k" "$r" ||
			die "benchmark run failed on kernel $k (log: $WORK/bench-logs/k$k.run$r.log)"
	done
done

desc=$(machine)
for n in base $(for j in "${jobs[@]}"; do echo "${names[$j]}"; done); do
	[ -f "$TOP/bench/$n.rows" ] || [ -x "$TOP/bench/$n.sh" ] || continue
	[ -d "$RESULTS/$n/raw" ] || continue
	{
		printf '%s: %s runs each, interleaved boots; %s\n' "$n" "$RUNS" "$desc"
		"$TOP/scripts/bench-table.sh" "$n"
		"$TOP/scripts/bench-lock-table.sh" "$n"
	} >"$RESULTS/$n/table.txt"
	printf '\n'
	cat "$RESULTS/$n/table.txt"
done
printf '\nmake bench: %ss\n' "$(($(date +%s) - t_start))"
