#!/usr/bin/env bash
# bench.sh: "make bench". For every series NN-topic of patches/ that has a
# bench/NN-topic.rows file, compares the parent kernel (the series before
# it applied) with the patched one (the series applied): same config
# (bench flavour), same guest, same perf binary (built from the whole
# queue), RUNS (default 5) rounds of boots of each kernel, medians, ratios
# and ministat's verdict. bench/base.rows runs on the base kernel alone.
# bench/NN-topic.sh, where present, adds a job of its own for the series
# (a thread sweep, say). bench/NN-topic.boots, where present, names more
# boots of each kernel for that job, one per line: "VARIANT kernel
# arguments" (sched_proxy_exec=0, say); the job runs in them too, with
# BENCH_VARIANT=VARIANT in its environment. bench/NN-topic.knobs.patch
# with bench/NN-topic.knobs.sh, where present, is an ablation: the
# patched kernel is built again with the patch on top (knobs that turn
# the series' mechanisms off, never sent), booted once a round, and runs
# the .knobs.sh job, which sets the knobs in turn in that one boot.
#
# Every round also boots each kernel in a 1-vCPU TCG guest with QEMU's
# -icount shift=0,sleep=off, where guest time counts executed instructions,
# and runs bench/pathlen.c there PATHLEN_K (default 3) times: the
# single-thread cost of a null syscall and of the futex calls the series
# change (the path-length table of every series).
#
# Rows with the metrics hbwait% or hbcont% also run once a round on the
# same kernels built with CONFIG_LOCK_STAT (configs/lockstat.config), to
# show from /proc/lock_stat how much of their time is hb->lock contention.
#
# Method: each round boots the kernels in an order rotated by one from the
# round before, and runs the rows rotated likewise, so that no kernel
# always boots first and no row always runs first.
#
# Tables go to the terminal and results/NN-topic/ (table.txt, values.tsv,
# ministat.txt, pathlen.tsv, pathlen-ministat.txt, provenance.txt), the
# raw output to results/NN-topic/raw/. A run writes its raw output to
# results/NN-topic/raw.new/ and replaces the old results only once every
# boot of every series has completed: a failed or interrupted run leaves
# results/ as it was.
#
# SERIES="NN-topic ..." limits the run to some series (the base rows
# always run); RUNS and PATHLEN_K are positive integers.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

# Input first: nothing is built, booted or deleted for a typo.
RUNS=${RUNS:-5}
PATHLEN_K=${PATHLEN_K:-3}
[[ $RUNS =~ ^[1-9][0-9]*$ ]] ||
	usage_error "RUNS must be a positive integer (the number of boots of each kernel), not '$RUNS'"
[[ $PATHLEN_K =~ ^[1-9][0-9]*$ ]] ||
	usage_error "PATHLEN_K must be a positive integer (pathlen runs per boot), not '$PATHLEN_K'"

mapfile -t series < <(series_dirs)
names=(base)
for s in "${series[@]}"; do
	names+=("${s##*/}")
done
read -r -a want <<<"${SERIES:-}"
for w in "${want[@]}"; do
	case " ${names[*]:1} " in
	*" $w "*) ;;
	*) usage_error "SERIES: no series '$w' in patches/; the series are: ${names[*]:1}" ;;
	esac
done

# Results a cover letter quotes come from a committed queue: what they
# were measured with is a commit, not a working tree nobody can check out.
dirty=$(git -C "$TOP" --no-optional-locks status --porcelain 2>/dev/null | grep -v ' results/' || true)
if [ -n "$dirty" ] && [ "${BENCH_DIRTY:-0}" != 1 ]; then
	printf '%s\n' "$dirty" | head -n 10 >&2
	usage_error "the repository has uncommitted changes (above): commit them first, so that results/ name the commit measured (BENCH_DIRTY=1 runs anyway, for a trial, and says so in provenance.txt)"
fi

# One workbench run at a time on this work/ and cache (make check builds
# and boots too, and would share the CPUs with the measurements); held
# for the whole run, so that the queue.sh calls below do not wait between
# steps.
lock_workbench

t_start=$(date +%s)
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
src=$WORK/src-bench
tools=$WORK/tools-bench
perf=$tools/perf/perf
pathlen=$WORK/bench-bin/pathlen
ping_bench=$tools/ping_bench
icount="-icount shift=0,sleep=off"

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
	elif [ -n "${SERIES:-}" ]; then
		warn "series $n has no benchmark (no bench/$n.rows or bench/$n.sh)"
	fi
done
mapfile -t kernels < <(printf '%s\n' "${!need[@]}" | sort -n)
# wants_lockstat NAME: the rows of series NAME ask for hb->lock statistics.
wants_lockstat() {
	[ -f "$TOP/bench/$1.rows" ] && grep -q -E '^[^#].*\|.*hb(wait|cont)%' "$TOP/bench/$1.rows"
}
# Their parent and patched kernels are also built with CONFIG_LOCK_STAT
# (configs/lockstat.config) and booted once a round for those rows.
declare -A needlock=()
for j in "${jobs[@]}"; do
	if wants_lockstat "${names[$j]}"; then
		needlock[$((j - 1))]=1
		needlock[$j]=1
	fi
done
# Result directories of this run: base, and every series measured.
dirs=()
[ -f "$TOP/bench/base.rows" ] && dirs+=(base)
for j in "${jobs[@]}"; do
	dirs+=("${names[$j]}")
done

# The raw output of this run goes to raw.new, the tables to .new, both
# inside results/NN-topic/; they replace the old results at the end
# (commit_results). Until then an exit for whatever reason removes them.
committed=0
clean_staging() {
	local d
	[ "$committed" = 1 ] && return 0
	for d in "${dirs[@]}"; do
		rm -rf "${RESULTS:?}/$d/raw.new" "${RESULTS:?}/$d/.new"
	done
}
trap clean_staging EXIT

# A boot runs in the background of this shell (bg_step), so that a signal
# is handled at once, not when the guest has finished: the handler stops
# the boot (vm.sh stops its guest on SIGTERM) before the staging
# directories go.
bg=
# stop_bg: SIGTERM to the boot in the background and all it started (vm.sh
# stops QEMU on it), SIGKILL to what is left 10 seconds later.
stop_bg() {
	local pids n=0
	[ -n "$bg" ] || return 0
	pids=$(tree_pids "$bg")
	# shellcheck disable=SC2086 # one pid per word
	kill -TERM $pids 2>/dev/null || true
	wait "$bg" 2>/dev/null || true
	# shellcheck disable=SC2086
	while running $pids && [ "$n" -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	# shellcheck disable=SC2086
	kill -KILL $pids 2>/dev/null || true
}
on_signal() {
	trap '' INT TERM HUP
	printf 'make bench: interrupted; results/ left as it was\n' >&2
	stop_bg
	exit "$1"
}
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
trap 'on_signal 129' HUP

# bg_step NAME CMD...: step NAME CMD... in the background; STEP_RC as step.
bg_step() {
	(
		step "$@"
		exit "$STEP_RC"
	) &
	bg=$!
	STEP_RC=0
	wait "$bg" || STEP_RC=$?
	bg=
}

step "host set-up" "$TOP/scripts/setup/setup.sh"
! step_failed || die "host set-up failed"

# Leftovers of a run killed with SIGKILL (no trap ran).
for d in "${dirs[@]}"; do
	rm -rf "${RESULTS:?}/$d/raw.new" "${RESULTS:?}/$d/.new"
done

# perf has a worktree of its own, so that the kernel trees do not switch
# back and forth between the queue's tip and their prefix.
build_perf() {
	"$TOP/scripts/queue/queue.sh" "$WORK/src-tools" >/dev/null &&
		"$TOP/scripts/build/build-tools.sh" "$WORK/src-tools" "$tools" perf
}
step "perf from the whole queue" build_perf
! step_failed || die "cannot build perf"

# pathlen against the uapi headers of the whole queue (FUTEX_SET_WAIT);
# bench/pathlen.c defines what older headers lack.
build_pathlen() {
	mkdir -p "$(dirname "$pathlen")"
	gcc -O2 -Wall -isystem "$tools/usr/include" -o "$pathlen" "$TOP/bench/pathlen.c"
}
step "pathlen from bench/pathlen.c" build_pathlen
! step_failed || die "cannot build bench/pathlen.c"

# ping_bench, where the queue has it, and pingmutex/ (bench/NN-topic.sh
# finds them beside perf/): against the queue's uapi headers.
step "ping_bench and pingmutex from the whole queue" "$TOP/scripts/build/build-tools.sh" "$WORK/src-tools" "$tools" \
	ping_bench pingmutex
! step_failed || die "cannot build tools/testing/futex/ping_bench or pingmutex/"

build_k() {
	local k=$1
	"$TOP/scripts/queue/queue.sh" "$src" "$k" >/dev/null &&
		"$TOP/scripts/build/build-kernel.sh" bench "$src" "$WORK/build-bench-$k" >/dev/null
}
for k in "${kernels[@]}"; do
	step "bench kernel $k: ${names[$k]}" build_k "$k"
	! step_failed ||
		die "bench kernel $k (${names[$k]}) does not build"
	[ -n "${needlock[$k]:-}" ] || continue
	# $src still holds kernel k.
	step "lock statistics kernel $k: ${names[$k]}" "$TOP/scripts/build/build-kernel.sh" lockstat \
		"$src" "$WORK/build-lockstat-$k"
	! step_failed ||
		die "lock statistics kernel $k (${names[$k]}) does not build"
done

# has_knobs J: series J has an ablation kernel (bench/NN-topic.knobs.patch
# and bench/NN-topic.knobs.sh).
has_knobs() {
	[ -f "$TOP/bench/${names[$1]}.knobs.patch" ] && [ -x "$TOP/bench/${names[$1]}.knobs.sh" ]
}
# build_knobs J: the patched kernel of series J with its knobs patch, in
# build-bench-J-knobs; queue.sh's checkout -f takes the patch out of $src
# again before the next build.
build_knobs() {
	local j=$1
	"$TOP/scripts/queue/queue.sh" "$src" "$j" >/dev/null &&
		git -C "$src" apply "$TOP/bench/${names[$j]}.knobs.patch" &&
		"$TOP/scripts/build/build-kernel.sh" bench "$src" "$WORK/build-bench-$j-knobs" >/dev/null
}
for j in "${jobs[@]}"; do
	has_knobs "$j" || continue
	step "ablation kernel $j: ${names[$j]} + bench/${names[$j]}.knobs.patch" build_knobs "$j"
	! step_failed ||
		die "ablation kernel $j (${names[$j]} with bench/${names[$j]}.knobs.patch) does not build"
done

accel() {
	tail -n 1 "$CACHE/kvm-probe" 2>/dev/null | cut -d' ' -f1 | tr '[:lower:]' '[:upper:]'
}

machine() {
	printf 'host: %s, %s CPUs, %s RAM; guest: 2 vCPUs, %s, %s\n' \
		"$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)" "$(nproc)" \
		"$(free -g | awk '/^Mem:/ {print $2 "G"}')" "${VM_MEMORY:-4G}" "$(accel)"
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
		mkdir -p "$RESULTS/base/raw.new"
		cmd+=("$TOP/tests/guest-bench.sh" "$perf" "$TOP/bench/base.rows"
			"$RESULTS/base/raw.new" "base.$r" "$((r - 1))" "&&")
	fi
	for j in "${jobs[@]}"; do
		n=${names[$j]}
		as=$(role "$k" "$j")
		[ -n "$as" ] || continue
		mkdir -p "$RESULTS/$n/raw.new"
		if [ -f "$TOP/bench/$n.rows" ]; then
			cmd+=("$TOP/tests/guest-bench.sh" "$perf" "$TOP/bench/$n.rows"
				"$RESULTS/$n/raw.new" "$as.$r" "$((r - 1))" "&&")
		fi
		if [ -x "$TOP/bench/$n.sh" ]; then
			cmd+=("$TOP/bench/$n.sh" "$perf" "$RESULTS/$n/raw.new" "$as.$r" "&&")
		fi
	done
	[ ${#cmd[@]} -gt 0 ] || return 0
	"$TOP/scripts/guest/vm.sh" -t "${BENCH_TIMEOUT:-1800}" "$WORK/build-bench-$k/arch/x86/boot/bzImage" \
		"$log" -- bash -c "${cmd[*]} true"
}

# variants: every "VARIANT kernel-arguments" line of the jobs'
# bench/NN-topic.boots files, each variant once.
declare -A variant_args=()
variants=()
for j in "${jobs[@]}"; do
	f=$TOP/bench/${names[$j]}.boots
	[ -f "$f" ] || continue
	while read -r v a; do
		case $v in '#'* | '') continue ;; esac
		if [ -z "${variant_args[$v]+set}" ]; then
			variants+=("$v")
			variant_args[$v]=$a
		fi
	done <"$f"
done

# variant_wanted K VARIANT: kernel K has a job that runs in VARIANT.
variant_wanted() {
	local j n
	for j in "${jobs[@]}"; do
		n=${names[$j]}
		[ -n "$(role "$1" "$j")" ] && [ -x "$TOP/bench/$n.sh" ] &&
			grep -q "^${2}[[:space:]]" "$TOP/bench/$n.boots" 2>/dev/null && return 0
	done
	return 1
}

# variant_run K RUN VARIANT: one boot of kernel K with the kernel
# arguments of VARIANT, running the job of every series that lists it.
variant_run() {
	local k=$1 r=$2 v=$3 j n as log cmd=() vmargs=() a
	log=$WORK/bench-logs/k$k.$v.run$r.log
	mkdir -p "$WORK/bench-logs"
	for j in "${jobs[@]}"; do
		n=${names[$j]}
		as=$(role "$k" "$j")
		[ -n "$as" ] || continue
		if [ ! -x "$TOP/bench/$n.sh" ] || [ ! -f "$TOP/bench/$n.boots" ]; then
			continue
		fi
		grep -q "^${v}[[:space:]]" "$TOP/bench/$n.boots" || continue
		mkdir -p "$RESULTS/$n/raw.new"
		cmd+=("BENCH_VARIANT=$v" "$TOP/bench/$n.sh" "$perf" "$RESULTS/$n/raw.new" "$as.$r" "&&")
	done
	[ ${#cmd[@]} -gt 0 ] || return 0
	for a in ${variant_args[$v]}; do
		vmargs+=(-a "$a")
	done
	"$TOP/scripts/guest/vm.sh" -t "${BENCH_TIMEOUT:-1800}" "${vmargs[@]}" \
		"$WORK/build-bench-$k/arch/x86/boot/bzImage" "$log" -- bash -c "${cmd[*]} true"
}

# knobs_run J RUN: one boot of series J's ablation kernel, running its
# bench/NN-topic.knobs.sh job.
knobs_run() {
	local j=$1 r=$2 n=${names[$1]} log
	log=$WORK/bench-logs/k$j.knobs.run$r.log
	mkdir -p "$WORK/bench-logs" "$RESULTS/$n/raw.new"
	"$TOP/scripts/guest/vm.sh" -t "${BENCH_TIMEOUT:-1800}" "$WORK/build-bench-$j-knobs/arch/x86/boot/bzImage" \
		"$log" -- "$TOP/bench/$n.knobs.sh" "$perf" "$RESULTS/$n/raw.new" "patched.$r"
}

# pathlen_run K RUN: PATHLEN_K runs of pathlen in one boot of kernel K in
# the 1-vCPU instruction-clocked guest, for every series K belongs to.
pathlen_run() {
	local k=$1 r=$2 j as log dests=()
	log=$WORK/bench-logs/k$k.pathlen$r.log
	mkdir -p "$WORK/bench-logs"
	for j in "${jobs[@]}"; do
		as=$(role "$k" "$j")
		[ -n "$as" ] || continue
		mkdir -p "$RESULTS/${names[$j]}/raw.new"
		dests+=("$RESULTS/${names[$j]}/raw.new:$as")
	done
	[ ${#dests[@]} -gt 0 ] || return 0
	"$TOP/scripts/guest/vm.sh" -t "${BENCH_TIMEOUT:-1800}" -p 1 -q "$icount" \
		"$WORK/build-bench-$k/arch/x86/boot/bzImage" "$log" -- \
		"$TOP/tests/guest-pathlen.sh" "$pathlen" "$PATHLEN_K" "$r" "${dests[@]}"
}

# lockstat_run K RUN: the hb->lock statistics rows of every series K is
# the parent or the patched kernel of, in one boot of K built with
# CONFIG_LOCK_STAT.
lockstat_run() {
	local k=$1 r=$2 j n as log cmd=()
	log=$WORK/bench-logs/k$k.lockstat$r.log
	mkdir -p "$WORK/bench-logs"
	for j in "${jobs[@]}"; do
		n=${names[$j]}
		as=$(role "$k" "$j")
		if [ -z "$as" ] || ! wants_lockstat "$n"; then
			continue
		fi
		mkdir -p "$RESULTS/$n/raw.new"
		cmd+=("$TOP/tests/guest-lockstat.sh" "$perf" "$TOP/bench/$n.rows"
			"$RESULTS/$n/raw.new" "$as.$r" "$((r - 1))" "&&")
	done
	[ ${#cmd[@]} -gt 0 ] || return 0
	"$TOP/scripts/guest/vm.sh" -t "${BENCH_TIMEOUT:-1800}" "$WORK/build-lockstat-$k/arch/x86/boot/bzImage" \
		"$log" -- bash -c "${cmd[*]} true"
}

nk=${#kernels[@]}
kvm_warned=0
for r in $(seq 1 "$RUNS"); do
	# Round r boots the kernels rotated by r - 1.
	rot=$(((r - 1) % nk))
	order=("${kernels[@]:rot}" "${kernels[@]:0:rot}")
	printf '=== round %s/%s: boot order %s; rows rotated by %s\n' "$r" "$RUNS" \
		"$(for k in "${order[@]}"; do printf 'k%s(%s) ' "$k" "${names[$k]}"; done)" "$((r - 1))"
	for k in "${order[@]}"; do
		bg_step "run $r/$RUNS on kernel $k (${names[$k]})" guest_run "$k" "$r"
		! step_failed ||
			die "benchmark run failed on kernel $k (log: $WORK/bench-logs/k$k.run$r.log)"
		for v in "${variants[@]}"; do
			variant_wanted "$k" "$v" || continue
			bg_step "run $r/$RUNS on kernel $k (${names[$k]}), $v: ${variant_args[$v]}" \
				variant_run "$k" "$r" "$v"
			! step_failed ||
				die "benchmark run failed on kernel $k, $v (log: $WORK/bench-logs/k$k.$v.run$r.log)"
		done
		if [[ " ${jobs[*]} " == *" $k "* ]] && has_knobs "$k"; then
			bg_step "ablation $r/$RUNS on kernel $k (${names[$k]}) + bench/${names[$k]}.knobs.patch" \
				knobs_run "$k" "$r"
			! step_failed ||
				die "ablation run failed on kernel $k (log: $WORK/bench-logs/k$k.knobs.run$r.log)"
		fi
		# -icount needs TCG: on a host where vm.sh picks KVM there is no
		# instruction-clocked guest.
		if [ "$(accel)" = KVM ]; then
			[ "$kvm_warned" = 1 ] ||
				warn "pathlen rows skipped: vm.sh boots KVM guests here, -icount needs TCG"
			kvm_warned=1
			continue
		fi
		bg_step "pathlen $r/$RUNS on kernel $k (${names[$k]}), 1 vCPU, $icount" pathlen_run "$k" "$r"
		! step_failed ||
			die "pathlen run failed on kernel $k (log: $WORK/bench-logs/k$k.pathlen$r.log)"
		[ -n "${needlock[$k]:-}" ] || continue
		bg_step "lock statistics $r/$RUNS on kernel $k (${names[$k]}), CONFIG_LOCK_STAT" lockstat_run "$k" "$r"
		! step_failed ||
			die "lock statistics run failed on kernel $k (log: $WORK/bench-logs/k$k.lockstat$r.log)"
	done
done
ended=$(date -u +%Y-%m-%dT%H:%M:%SZ)

# provenance NAME: what results/NAME was measured with.
provenance() {
	local n=$1 j jj=0 k kk s
	printf 'make bench: %s to %s (UTC)\n' "$started" "$ended"
	printf 'queue: commit %s%s\n' "$(git -C "$TOP" rev-parse HEAD 2>/dev/null || echo unknown)" \
		"$([ -z "$dirty" ] || echo ', with uncommitted changes (BENCH_DIRTY=1, a trial):')"
	[ -z "$dirty" ] || printf '%s\n' "$dirty" | sed 's/^/    /'
	printf 'base: %s %s, sha256 %s\n' "$BASE_PKG" "$BASE_VER" "$BASE_SHA256"
	printf 'RUNS=%s (rounds; each boots every kernel once for perf, once for pathlen, and once\n' "$RUNS"
	printf '  with lock statistics where the rows ask for hbwait%% or hbcont%%)\n'
	printf 'PATHLEN_K=%s (pathlen runs per boot)\n' "$PATHLEN_K"
	kk=(0)
	for j in "${jobs[@]}"; do
		if [ "${names[$j]}" = "$n" ]; then
			jj=$j
			kk=($((j - 1)) "$j")
		fi
	done
	printf 'kernels (bench flavour, configs/guest.config + configs/guest-x86_64.config + configs/bench.config):\n'
	for k in "${kk[@]}"; do
		if [ "$n" = base ]; then s=base; else s=$(role "$k" "$jj"); fi
		printf '  %-7s k%s = base + %s series (%s): .config sha256 %s, bzImage sha256 %s\n' "$s" "$k" "$k" \
			"${names[$k]}" "$(sha256sum <"$WORK/build-bench-$k/.config" | cut -d' ' -f1)" \
			"$(sha256sum <"$WORK/build-bench-$k/arch/x86/boot/bzImage" | cut -d' ' -f1)"
	done
	if [ "$jj" -gt 0 ] && has_knobs "$jj"; then
		printf 'ablation kernel (the patched kernel and bench/%s.knobs.patch, patch-id %s):\n' "$n" \
			"$(git patch-id --stable <"$TOP/bench/$n.knobs.patch" | cut -d' ' -f1)"
		printf '  knobs   k%s: .config sha256 %s, bzImage sha256 %s\n' "$jj" \
			"$(sha256sum <"$WORK/build-bench-$jj-knobs/.config" | cut -d' ' -f1)" \
			"$(sha256sum <"$WORK/build-bench-$jj-knobs/arch/x86/boot/bzImage" | cut -d' ' -f1)"
	fi
	if wants_lockstat "$n"; then
		printf 'lock statistics kernels (configs/guest.config + configs/guest-x86_64.config + configs/lockstat.config):\n'
		for k in "${kk[@]}"; do
			printf '  %-7s k%s: .config sha256 %s, bzImage sha256 %s\n' "$(role "$k" "$jj")" "$k" \
				"$(sha256sum <"$WORK/build-lockstat-$k/.config" | cut -d' ' -f1)" \
				"$(sha256sum <"$WORK/build-lockstat-$k/arch/x86/boot/bzImage" | cut -d' ' -f1)"
		done
	fi
	printf 'patches (git patch-id --stable; series 1..k in kernel k; perf and pathlen headers from all):\n'
	for s in "${series[@]}"; do
		series_patches "$s" | while IFS= read -r p; do
			printf '  %s %s\n' "$(git patch-id --stable <"$p" | cut -d' ' -f1)" "${p#"$PATCHES"/}"
		done
	done
	printf 'perf: %s, sha256 %s\n' "${perf#"$TOP"/}" "$(sha256sum <"$perf" | cut -d' ' -f1)"
	printf 'pathlen: %s (gcc -O2 of bench/pathlen.c, %s), sha256 %s\n' "${pathlen#"$TOP"/}" \
		"$(gcc --version | head -n 1)" "$(sha256sum <"$pathlen" | cut -d' ' -f1)"
	[ ! -x "$ping_bench" ] ||
		printf 'ping_bench: %s (tools/testing/futex of the whole queue), sha256 %s\n' \
			"${ping_bench#"$TOP"/}" "$(sha256sum <"$ping_bench" | cut -d' ' -f1)"
	[ ! -f "$TOP/bench/$n.boots" ] ||
		printf 'more boots of each kernel (bench/%s.boots):\n%s\n' "$n" \
			"$(grep -v '^#' "$TOP/bench/$n.boots" | sed 's/^/  /')"
	printf 'host: %s, %s CPUs, %s RAM, Linux %s, %s\n' \
		"$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)" "$(nproc)" \
		"$(free -g | awk '/^Mem:/ {print $2 "G"}')" "$(uname -r)" \
		"$(sed -n 's/^PRETTY_NAME="*\([^"]*\)"*$/\1/p' /etc/os-release)"
	printf 'QEMU: %s\n' "$(qemu-system-x86_64 --version | head -n 1)"
	printf 'virtme-ng: %s\n' "$(vng --version 2>&1 | head -n 1)"
	printf 'perf guest: 2 vCPUs, %s, %s (%s)\n' "${VM_MEMORY:-4G}" "$(accel)" \
		"$(tail -n 1 "$CACHE/kvm-probe" 2>/dev/null | cut -d' ' -f2-)"
	printf 'pathlen guest: 1 vCPU, %s, TCG with %s\n' "${VM_MEMORY:-4G}" "$icount"
}

# Tables and provenance of every series into results/NN-topic/.new, from
# raw.new moved to .new/raw; then each .new replaces the old results.
desc=$(machine)
stage() {
	local n=$1 st=$RESULTS/$1/.new
	rm -rf "$st"
	mkdir -p "$st"
	[ ! -d "$RESULTS/$n/raw.new" ] || mv "$RESULTS/$n/raw.new" "$st/raw"
	mkdir -p "$st/raw"
	# Paths relative to the repository and the cache: no machine's paths.
	provenance "$n" | sed -e "s|$TOP/||g" -e "s|$CACHE/|$(basename "$CACHE")/|g" >"$st/provenance.txt"
	{
		printf '%s: %s rounds, kernels booted in rotated order; %s\n' "$n" "$RUNS" "$desc"
		BENCH_RAW=$st/raw BENCH_OUT=$st "$TOP/scripts/bench/bench-table.sh" "$n"
		BENCH_RAW=$st/raw BENCH_OUT=$st "$TOP/scripts/bench/bench-pathlen-table.sh" "$n"
		BENCH_RAW=$st/raw BENCH_OUT=$st "$TOP/scripts/bench/bench-lock-table.sh" "$n"
		BENCH_RAW=$st/raw BENCH_OUT=$st "$TOP/scripts/bench/bench-ping-table.sh" "$n"
		BENCH_RAW=$st/raw BENCH_OUT=$st "$TOP/scripts/bench/bench-peers-table.sh" "$n"
		BENCH_RAW=$st/raw BENCH_OUT=$st "$TOP/scripts/bench/bench-ablation-table.sh" "$n"
	} >"$st/table.txt"
}
for n in "${dirs[@]}"; do
	step "tables of $n" stage "$n"
	! step_failed || die "cannot make the tables of $n; results/ left as it was"
done

# The files a run writes, removed from results/NN-topic before the new
# ones move in (a run without a lock sweep leaves no old lock.png).
managed=(raw table.txt values.tsv ministat.txt pathlen.tsv pathlen-ministat.txt provenance.txt
	lock.png lock-median.dat ping.tsv ping-ministat.txt ping-cdf.png ping-cdf.dat peers.tsv peers-ministat.txt ablation.tsv)
commit_results() {
	local n=$1 f
	for f in "${managed[@]}"; do
		rm -rf "${RESULTS:?}/$n/$f"
	done
	for f in "$RESULTS/$n/.new"/*; do
		mv "$f" "$RESULTS/$n/"
	done
	rmdir "$RESULTS/$n/.new"
}
trap '' INT TERM HUP
for n in "${dirs[@]}"; do
	commit_results "$n"
done
committed=1
trap - INT TERM HUP

for n in "${dirs[@]}"; do
	printf '\n'
	cat "$RESULTS/$n/table.txt"
done
printf '\nresults: %s\n' "$(for n in "${dirs[@]}"; do printf '%s ' "${RESULTS#"$TOP"/}/$n"; done)"
printf 'make bench: %ss\n' "$(($(date +%s) - t_start))"
