# The futex patch queue workbench. "make check" tests the queue, "make
# bench" measures it; the other targets are the steps they are made of.
.PHONY: check bench setup tree export shellcheck

check:
	@scripts/check.sh

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
