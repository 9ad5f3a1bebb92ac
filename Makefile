# The futex patch queue workbench. "make check" tests the queue, "make
# bench" measures it; the other targets are the steps they are made of.
.PHONY: check check-planted model bench setup tree export shellcheck

check:
	@scripts/check.sh

# Only the planted-failure boots of make check, on the tip's debug kernel.
check-planted:
	@CHECK_PLANTED_ONLY=1 scripts/check.sh

# The SPIN model of the PING futex word protocol (models/).
model:
	@scripts/model.sh

bench:
	@scripts/bench.sh

setup:
	@scripts/setup.sh

tree:
	@scripts/tree.sh

export:
	@scripts/export.sh

shellcheck:
	@shellcheck -x scripts/*.sh tests/*.sh .ci/run
