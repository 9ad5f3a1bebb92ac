# The futex patch queue workbench. "make check" tests the queue, "make
# bench" measures it; the other targets are the steps they are made of.
.PHONY: check check-planted check-arm64 check-bisect check-kcsan lava lava-run model bench soak setup tree export shellcheck

check:
	@scripts/check/check.sh

# Only the planted-failure boots of make check, on the tip's debug kernel.
check-planted:
	@CHECK_PLANTED_ONLY=1 scripts/check/check.sh

# The arm64 boot that make check leaves out: the tip cross-built, booted in an
# emulated arm64 guest, the futex selftests and ping_bench there.
check-arm64:
	@CHECK_ARM64_ONLY=1 scripts/check/check.sh

# Every patch built, the whole bisect kernel and the tools it changes (make
# check builds the tip only). Run it, check-arm64 and check-kcsan, before
# sending.
check-bisect:
	@CHECK_BISECT=1 scripts/check/check.sh

# The tip with KCSAN: the futex selftests and ping_fuzz; a data race in
# the queue's code fails it.
check-kcsan:
	@CHECK_KCSAN=1 scripts/check/check.sh

# The SPIN model of the PING futex word protocol (models/).
model:
	@scripts/check/model.sh

bench:
	@scripts/bench/bench.sh

# ping_fuzz for DURATION seconds (default 3600) per proxy setting on the
# debug kernel make check built; every seed and result in results/soak/.
soak:
	@scripts/bench/soak.sh

# LAVA jobs for labs (lava/): kernels, ramdisks and four job definitions
# in work/lava/, checked against lava-common's schema.
lava:
	@scripts/lab/lava.sh jobs

# The x86_64 debug job of make lava, run here under lava-run.
lava-run:
	@scripts/lab/lava.sh run

setup:
	@scripts/setup/setup.sh

tree:
	@scripts/queue/tree.sh

export:
	@scripts/queue/export.sh

shellcheck:
	@shellcheck -x scripts/*.sh scripts/*/*.sh scripts/check/steps/*.sh tests/*.sh lava/*.sh bench/*.sh .ci/run
