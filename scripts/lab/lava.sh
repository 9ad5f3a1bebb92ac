#!/usr/bin/env bash
# lava.sh [jobs|validate|run|check KERNEL TOOLS OUT]: the queue as LAVA
# jobs (lava/).
#
#   jobs (make lava): build the tip of the queue as the debug and the bench
#       kernel for x86_64 and arm64, the statically linked selftests,
#       ping_bench and perf, and each architecture's busybox ramdisk
#       (scripts/lab/lava-ramdisk.sh); copy them to work/lava/artifacts/; render
#       the four jobs (futex-{debug,bench}-{x86_64,arm64}-tip.yaml) into
#       work/lava/jobs/ and check each against lava-common's job schema.
#       LAVA_SERIES=N builds the kernels of the base plus the first N
#       series instead (0: the base, jobs named ...-base.yaml), for a
#       parent against patched comparison of the bench jobs; the tools
#       in the ramdisk come from the whole queue either way, as in make
#       bench (one perf and one ping_bench for both kernels).
#       LAVA_ARCHES (default "x86_64 arm64") limits the architectures,
#       e.g. to the one of a lab's board type.
#       The jobs name their kernel and ramdisk by LAVA_ARTIFACTS_URL, where
#       a lab's workers download them (default: file://work/lava/artifacts,
#       for lava-run on this machine). LAVA_DEVICE_TYPE (default qemu)
#       renders them for a lab's boards instead, booted with
#       LAVA_BOOT_METHOD (u-boot, grub, ipxe; default u-boot) from TFTP.
#   validate (make check): render the jobs of every architecture, flavour
#       and device kind with placeholder addresses, and check them; no
#       build.
#   check KERNEL TOOLS OUT (make check): the x86_64 debug job on make
#       check's kernel and static selftests, under lava-run;
#       LAVA_PROXY_EXEC=0 boots it with sched_proxy_exec=0, LAVA_CPUS=N
#       with N CPUs, LAVA_PROGRAMS="P..." runs only those selftests;
#       LAVA_TORTURE=TYPE makes it the torture job of TYPE instead
#       (locktorture, LAVA_TORTURE_SECONDS, default 60); LAVA_FAILFUTEX=S
#       the fault-injection job (the stress programs, or LAVA_PROGRAMS,
#       each bounded by S seconds, with kmemleak).
#   run (make lava-run): run the x86_64 debug job here under lava-run
#       (Debian's lava-dispatcher) on a local QEMU device (lava-server's
#       qemu device type, fetched from Debian), then turn its log into
#       results/lava/ with scripts/lab/lava-results.py.
# lava-run is Debian's /usr/bin/lava-run, or LAVA_RUN (a stand-in, for
# the workbench's tests); LAVA_RUN_TIMEOUT (default 3600 s) bounds it.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

mode=${1:-jobs}
desc=tip
# One lava-run at a time: its downloads are under
# /var/lib/lava/dispatcher/tmp/JOB_ID.
lock_workbench
lavadir=$WORK/lava
jobs=$lavadir/jobs
artifacts=$lavadir/artifacts
template=$TOP/lava/futex-job.yaml.jinja2
py=/usr/bin/python3 # Debian's: jinja2, yaml, lava_common

# render OUT ARCH FLAVOUR KERNEL_URL RAMDISK_URL [DEVICE_TYPE [BOOT_METHOD [VAR=VALUE...]]]
render() {
	local ktype=''
	[ "$2" != arm64 ] || ktype=image
	"$py" "$TOP/scripts/lab/lava-render.py" "$template" "$1" arch="$2" flavour="$3" \
		kernel_desc="${desc:-tip}" kernel_url="$4" ramdisk_url="$5" \
		device_type="${6:-qemu}" boot_method="${7:-u-boot}" kernel_type="$ktype" "${@:8}"
}

image_of() { # image_of ARCH: the kernel image, in an O= build directory
	case $1 in x86_64) echo arch/x86/boot/bzImage ;; arm64) echo arch/arm64/boot/Image ;; esac
}

validate() {
	local d=$lavadir/validate a f kind
	rm -rf "$d"
	mkdir -p "$d"
	for a in x86_64 arm64; do
		for f in debug torture failfutex bench; do
			render "$d/futex-$f-$a.yaml" "$a" "$f" "https://lab.invalid/$a/$f/$(basename "$(image_of "$a")")" \
				"https://lab.invalid/$a/ramdisk.cpio.gz"
			kind=u-boot
			[ "$a" = arm64 ] || kind=grub
			render "$d/futex-$f-$a-$kind.yaml" "$a" "$f" "https://lab.invalid/$a/$f/$(basename "$(image_of "$a")")" \
				"https://lab.invalid/$a/ramdisk.cpio.gz" board "$kind"
		done
	done
	"$py" "$TOP/scripts/lab/lava-validate.py" "$d"/*.yaml
}

apply_queue() { # apply_queue DIR N LIST: queue.sh, its list of commits in LIST
	"$TOP/scripts/queue/queue.sh" "$1" "$2" >"$3"
}

jobs() {
	local a f src=$WORK/lava-src tsrc=$WORK/lava-src-tools kb url base n=${LAVA_SERIES:-all} art
	case $n in
	all) desc=tip ;;
	0) desc=base ;;
	[0-9] | [0-9][0-9]) desc=base+$n ;;
	*) usage_error "LAVA_SERIES=$n: a number of series, or all" ;;
	esac
	mkdir -p "$lavadir"
	step "apply patches/ on the base ($desc)" apply_queue "$src" "$n" "$lavadir/queue.txt"
	! step_failed || die "patches/ do not apply"
	if [ "$n" = all ]; then
		tsrc=$src
	else
		step "apply patches/ on the base (all, for the tools)" apply_queue "$tsrc" all \
			"$lavadir/queue-tools.txt"
		! step_failed || die "patches/ do not apply"
	fi
	base=${LAVA_ARTIFACTS_URL:-file://$artifacts}/$desc
	art=$artifacts/$desc
	mkdir -p "$jobs"
	for a in ${LAVA_ARCHES:-x86_64 arm64}; do
		case $a in x86_64 | arm64) ;; *) usage_error "LAVA_ARCHES: x86_64 and/or arm64, not $a" ;; esac
		rm -f "$jobs"/futex-*-"$a"-"$desc".yaml
		for f in debug bench; do
			kb=$lavadir/build-$f-$a
			step "build the $f kernel ($a, $desc)" env ARCH="$a" "$TOP/scripts/build/build-kernel.sh" "$f" "$src" "$kb"
			! step_failed || die "the $a $f kernel does not build (log: $kb/build.log)"
			mkdir -p "$art/$a/$f"
			cp "$kb/$(image_of "$a")" "$art/$a/$f/"
		done
		step "build the static selftests, ping_bench and perf ($a)" \
			env ARCH="$a" STATIC=1 "$TOP/scripts/build/build-tools.sh" "$tsrc" "$lavadir/tools-$a" \
			selftests ping_bench perf
		! step_failed || die "the $a tools do not build"
		step "ramdisk ($a)" "$TOP/scripts/lab/lava-ramdisk.sh" "$a" "$lavadir/tools-$a" "$art/$a/ramdisk.cpio.gz"
		! step_failed || die "the $a ramdisk failed"
		for f in debug bench; do
			url=$base/$a/$f/$(basename "$(image_of "$a")")
			render "$jobs/futex-$f-$a-$desc.yaml" "$a" "$f" "$url" "$base/$a/ramdisk.cpio.gz" \
				"${LAVA_DEVICE_TYPE:-qemu}" "${LAVA_BOOT_METHOD:-u-boot}"
		done
	done
	"$py" "$TOP/scripts/lab/lava-validate.py" "$jobs"/*-"$desc".yaml || die "a job does not validate"
	printf '\njobs: %s\nartifacts: %s (the jobs download them from %s)\n' "$jobs" "$art" "$base"
}

# The device-type templates of lava-server 2023.01 (Debian 12's, the
# version of its lava-dispatcher), from the package, not installed.
device_types() {
	local d=$CACHE/lava-server
	if [ ! -f "$d/usr/share/lava-server/device-types/qemu.jinja2" ]; then
		mkdir -p "$d"
		(cd "$d" && rm -f lava-server_*.deb && apt-get download lava-server) >"$WORK/lava-server.log" 2>&1 ||
			die "apt-get download lava-server failed (log: $WORK/lava-server.log)"
		dpkg-deb --fsys-tarfile "$d"/lava-server_*.deb | tar -x -C "$d" ./usr/share/lava-server/device-types/ ||
			die "unpacking lava-server's device types failed"
	fi
	printf '%s\n' "$d/usr/share/lava-server/device-types"
}

# lava_run JOB OUT [CPUS]: run JOB here under lava-run on the local QEMU
# device (CPUS of them, default 2); its log is OUT/job.log. Returns
# lava-run's exit status.
lava_run() {
	local job=$1 out=$2 cpus=${3:-2} dev rc=0 t0 types
	local lava_run=${LAVA_RUN:-/usr/bin/lava-run}
	[ -x "$lava_run" ] || die "lava-run is not installed (make setup)"
	rm -rf "$out"
	mkdir -p "$out/tmp"
	dev=$out/device.yaml
	types=$(device_types) || exit 1
	LAVA_DEVICE_TYPES=$types "$py" "$TOP/scripts/lab/lava-render.py" --lax \
		"$TOP/lava/devices/qemu-local.jinja2" "$dev" arch=amd64 no_kvm=True memory=4096 \
		"extra_options=[\"-smp $cpus\"]"
	printf '  lava-run %s (log: %s)\n' "${job##*/}" "$out/job.log"
	t0=$(date +%s)
	# --foreground: a Ctrl-C reaches lava-run, which stops its QEMU.
	timeout --foreground -k 10 "${LAVA_RUN_TIMEOUT:-3600}" "$lava_run" --job-id "$$" \
		--output-dir "$out/tmp" --device "$dev" "$job" >"$out/job.log" 2>&1 || rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		# Killed at our bound: name the action that was running (the
		# first one to end once the job is canceled) and the guest's
		# last console line before that.
		printf '  lava-run: killed after %ss (LAVA_RUN_TIMEOUT): the job hung in %s; the guest'"'"'s last line: %s\n' \
			"$(($(date +%s) - t0))" \
			"$(awk 'c && /"msg": "end: / { sub(/.*"msg": "end: /, ""); sub(/ \(duration.*/, ""); print; exit }
				/"lvl": "exception"/ { c = 1 }' "$out/job.log")" \
			"$(awk '/"lvl": "exception"/ { exit } /"lvl": "target"/ { t = $0 }
				END { sub(/.*"msg": "/, "", t); sub(/"}$/, "", t); print t }' "$out/job.log" | cut -c1-160)"
	elif [ "$rc" != 0 ]; then
		# Failed on its own: LAVA's reason (the job result's error
		# type and message), the first action that failed and the
		# guest's last console line.
		printf '  lava-run: %ss, exit status %s: %s in %s; the guest'"'"'s last line: %s\n' \
			"$(($(date +%s) - t0))" "$rc" \
			"$(sed -n 's/.*"case": "job", .*"error_msg": "\([^"]*\)", "error_type": "\([^"]*\)".*/\2 error: \1/p' "$out/job.log" | head -n 1)" \
			"$(sed -n 's/.*"lvl": "results", "msg": {"case": "\([^"]*\)".*"result": "fail".*/\1/p' "$out/job.log" | head -n 1)" \
			"$(awk '/"lvl": "target"/ { t = $0 }
				END { sub(/.*"msg": "/, "", t); sub(/"}$/, "", t); print t }' "$out/job.log" | cut -c1-160)"
	else
		printf '  lava-run: %ss, exit status %s\n' "$(($(date +%s) - t0))" "$rc"
	fi
	return "$rc"
}

run() {
	local job=$jobs/futex-debug-x86_64-tip.yaml out=$lavadir/run rc=0
	[ -f "$job" ] || die "no $job: run make lava first"
	grep -q 'url: file://' "$job" || die "$job names remote artifacts; make lava without LAVA_ARTIFACTS_URL"
	lava_run "$job" "$out" || rc=$?
	cp "$out/job.log" "$out/futex-debug-x86_64-tip.log"
	"$py" "$TOP/scripts/lab/lava-results.py" "$RESULTS/lava/futex-debug-x86_64" "$out/futex-debug-x86_64-tip.log" || rc=1
	return "$rc"
}

# check KERNEL TOOLS OUT (make check): the x86_64 debug job on KERNEL (a
# bzImage) with a ramdisk of TOOLS (static selftests), under lava-run;
# the log is OUT/job.log, the results OUT/results.
check() {
	local kernel=$1 tools=$2 out=$3 rc=0 cpus=${LAVA_CPUS:-2} f=debug
	local -a vars=(proxy_exec="${LAVA_PROXY_EXEC:-1}" cpus="$cpus" programs="${LAVA_PROGRAMS:-}")
	if [ -n "${LAVA_TORTURE:-}" ]; then
		f=torture
		vars+=(torture="$LAVA_TORTURE" seconds="${LAVA_TORTURE_SECONDS:-60}")
	elif [ -n "${LAVA_FAILFUTEX:-}" ]; then
		f=failfutex
		vars+=(seconds="$LAVA_FAILFUTEX")
	fi
	mkdir -p "$out"
	"$TOP/scripts/lab/lava-ramdisk.sh" x86_64 "$tools" "$out/ramdisk.cpio.gz"
	render "$out/futex-$f-x86_64.yaml" x86_64 "$f" "file://$kernel" "file://$out/ramdisk.cpio.gz" \
		qemu u-boot "${vars[@]}"
	lava_run "$out/futex-$f-x86_64.yaml" "$out/run" "$cpus" || rc=$?
	"$py" "$TOP/scripts/lab/lava-results.py" "$out/results" "$out/run/job.log" || true
	return "$rc"
}

case $mode in
jobs) jobs ;;
validate) validate ;;
run) run ;;
check) check "${2:?}" "${3:?}" "${4:?}" ;;
*) usage_error "usage: lava.sh [jobs|validate|run|check KERNEL TOOLS OUT]" ;;
esac
