#!/bin/sh
# run-tests.sh DIR: the tests of libpingmutex, on a kernel with
# FUTEX_*_PING: DIR holds libpingmutex.so and pingmutex_test (make O=DIR).
# Runs the tests with the library preloaded, for the mutexes that ask for
# priority inheritance (the default) and for every mutex (PINGMUTEX=all),
# each with its counters printed (PINGMUTEX_STATS=1). KTAP; exit status 0
# only if both runs passed.
dir=${1:?usage: run-tests.sh DIR}
rc=0
echo "TAP version 13"
echo "1..2"
n=0
for mode in pi all; do
	n=$((n + 1))
	echo "# PINGMUTEX=$mode"
	out=$(PINGMUTEX=$mode PINGMUTEX_STATS=1 LD_PRELOAD="$dir/libpingmutex.so" \
		"$dir/pingmutex_test" 2>&1)
	st=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	if [ "$st" = 0 ]; then
		echo "ok $n pingmutex_test.$mode"
	else
		echo "not ok $n pingmutex_test.$mode"
		rc=1
	fi
done
exit $rc
