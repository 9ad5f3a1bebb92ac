#!/usr/bin/env bash
# soak.sh (make soak): ping_fuzz for a long time on the debug kernel and
# the tools that make check built last (work/build-debug,
# work/tools-debug/ping_fuzz), one 2-vCPU guest per proxy setting, side
# by side. Every run has a new seed; every seed, its result and the
# guests' kernel logs go to results/soak/DATE-COMMIT/.
#
#   DURATION=3600      seconds per proxy setting
#   SOAK_PROXY="1 0"   the sched_proxy_exec= settings
#   SOAK_RUN=300       seconds of one ping_fuzz run (a new seed each)
#   SOAK_FUZZ_ARGS="-x 512"  ping_fuzz's arguments, as make check's: no
#                      SCHED_DEADLINE, whose stuck task is the scheduler's
#                      (docs/ping-fuzz.md); SOAK_FUZZ_ARGS= puts it back
#
# Fails if a run failed, a guest did not finish, or a kernel log has a
# report (scripts/check/verdict.sh's splat_scan).
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/check/verdict.sh
. "$TOP/scripts/check/verdict.sh"

dur=${DURATION:-3600}
run=${SOAK_RUN:-300}
proxy=${SOAK_PROXY:-1 0}
fuzz_arg_line=${SOAK_FUZZ_ARGS--x 512}
read -r -a fuzz_args <<<"$fuzz_arg_line"
kernel=$WORK/build-debug/arch/x86/boot/bzImage
fuzz=$WORK/tools-debug/ping_fuzz
if [ ! -f "$kernel" ] || [ ! -x "$fuzz" ]; then
	die "no debug kernel or ping_fuzz ($kernel, $fuzz): run make check first"
fi
for v in "$dur" "$run"; do
	case $v in '' | *[!0-9]* | 0) usage_error "DURATION=$dur SOAK_RUN=$run: seconds above 0" ;; esac
done
# One soak at a time, and none while make check rebuilds what it boots:
# both use work/guest/soak-pe*.
lock_workbench

queue=$(git -C "$WORK/src-check" log -1 --format='%h %s' 2>/dev/null || echo unknown)
res=$RESULTS/soak/$(date -u +%Y%m%dT%H%M)-$(git -C "$TOP" rev-parse --short HEAD)
mkdir -p "$res"
{
	printf 'make soak, %s\n' "$(date -u '+%F %T UTC')"
	printf 'workbench: %s\n' "$(git -C "$TOP" log -1 --format='%h %s')"
	printf 'queue tip (work/src-check, built by make check): %s\n' "$queue"
	printf 'DURATION=%s SOAK_RUN=%s SOAK_PROXY="%s" SOAK_FUZZ_ARGS="%s"\n' "$dur" "$run" "$proxy" \
		"$fuzz_arg_line"
	printf 'host: %s, %s CPUs; guests: 2 vCPUs each, side by side\n' \
		"$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)" "$(nproc)"
} >"$res/README"

# shellcheck disable=SC2317 # called from soak_all
soak_one() { # soak_one PE
	local pe=$1 g=$WORK/guest/soak-pe$1
	rm -rf "$g"
	"$TOP/scripts/guest/vm.sh" -t $((dur + 900)) -a sched_proxy_exec="$pe" -a panic_on_warn=1 \
		-a kmemleak=off "$kernel" "$res/console-pe$pe.log" -- \
		"$TOP/tests/guest-soak.sh" "$fuzz" "$g" "$dur" "$run" "${fuzz_args[@]}" >"$res/vm-pe$pe.out" 2>&1
}

# shellcheck disable=SC2317 # run through step
soak_all() {
	local pids=() p pe
	for pe in $proxy; do
		soak_one "$pe" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || true
	done
}
t0=$(date +%s)
step "ping_fuzz soak: ${dur}s per setting (sched_proxy_exec=${proxy// /, =}), runs of ${run}s" soak_all

fail=0
printf '%-18s %5s %6s %6s %8s  %s\n' setting runs passed failed seconds "kernel log" | tee "$res/table.txt"
for pe in $proxy; do
	g=$WORK/guest/soak-pe$pe d=$res/pe$pe
	mkdir -p "$d"
	printf 'run\tseed\tstatus\tseconds\tlast line\n' >"$d/runs.tsv"
	n=0 ok=0 bad=0 s=0
	for r in $(find "$g" -mindepth 1 -maxdepth 1 -name "[0-9]*" -printf "%f\n" 2>/dev/null | sort -n); do
		read -r _ rc secs <"$g/$r/status.tsv" 2>/dev/null || rc=missing secs=0
		seed=$(sed -n 's/^ping_fuzz: seed \([0-9]*\),.*/\1/p' "$g/$r/ping_fuzz.log" | head -n 1)
		printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$seed" "$rc" "$secs" "$(tail -n 1 "$g/$r/ping_fuzz.log")" >>"$d/runs.tsv"
		n=$((n + 1)) s=$((s + ${secs:-0}))
		if [ "$rc" = 0 ]; then
			ok=$((ok + 1))
		else
			bad=$((bad + 1))
			cp "$g/$r/ping_fuzz.log" "$d/run-$r-ping_fuzz.log"
		fi
	done
	# A setting with no run, or whose guest did not finish, fails.
	[ "$n" -gt 0 ] && [ -f "$g/done" ] || bad=$((bad + 1))
	gzip -c "$g/dmesg.txt" >"$d/dmesg.txt.gz" 2>/dev/null || true
	k=$(splat_scan "soak, sched_proxy_exec=$pe" "$g/dmesg.txt")
	case $k in PASS*) kl=clean ;; *) kl=${k#FAIL kernel log clean } bad=$((bad + 1)) ;; esac
	[ "$bad" -eq 0 ] || fail=1
	printf '%-18s %5s %6s %6s %8s  %s%s\n' "sched_proxy_exec=$pe" "$n" "$ok" "$((n - ok))" "$s" "$kl" \
		"$([ -f "$g/done" ] || echo ', guest did not finish')" | tee -a "$res/table.txt"
done
printf 'results: %s (%ss)\n' "$res" "$(($(date +%s) - t0))"
exit "$fail"
