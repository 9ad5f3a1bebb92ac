# shellcheck shell=bash
# bisect.sh: make check-bisect's step.
# shellcheck disable=SC2154 # out, tally, src, tools...: set by scripts/check/check.sh

# Bisectability (make check-bisect): every patch builds, and so do the
# selftests, ping_bench and perf at the patches that change them, warnings
# as errors. The kernel of this step is the bisect flavour
# (configs/bisect.config: every futex path and lock debugging on
# tinyconfig), in a tree and build directory of its own, built whole at
# each patch (build_each 1), which catches a header change that breaks a
# file the patch does not touch; build_each 0 compiles only what each
# patch changes (compile_targets) and kernel/futex/. A patch that changes
# nothing the kernel build reads (kernel_unchanged) keeps the build of the
# patch before it. A failing command here fails the step (step runs it
# with errexit), so a failed checkout cannot pass as the previous build.
build_each() {
	local whole=$1 c name files built='' note bcommits targets made
	"$TOP/scripts/queue/queue.sh" "$bisect_src" >"$out/queue-bisect.txt"
	mapfile -t bcommits <"$out/queue-bisect.txt"
	for c in "${bcommits[@]}"; do
		name=${c#* }
		git -C "$bisect_src" checkout -q --detach "${c%% *}"
		files=$(git -C "$bisect_src" diff --name-only "${c%% *}^" "${c%% *}")
		note=''
		targets=''
		made=''
		[ "$whole" = 1 ] || targets=$(compile_targets "$bisect_src" <<<"$files")
		if [ -n "$built" ] && kernel_unchanged <<<"$files"; then
			note="kernel unchanged"
		elif ! BUILD_TARGETS=$targets "$TOP/scripts/build/build-kernel.sh" bisect "$bisect_src" "$bisect" >/dev/null; then
			record FAIL "build: $name" "kernel${targets:+ ($targets)}, log: $bisect/build.log"
			return 1
		else
			note=${targets:+compiled: $targets}
			made=1
		fi
		built=1
		if grep -q '^tools/testing/selftests/futex/' <<<"$files" &&
			! "$TOP/scripts/build/build-tools.sh" "$bisect_src" "$bisect_tools" selftests; then
			record FAIL "build: $name" "selftests"
			return 1
		fi
		grep -q '^tools/testing/selftests/futex/' <<<"$files" && made=1
		if grep -q '^tools/testing/futex/' <<<"$files" &&
			! "$TOP/scripts/build/build-tools.sh" "$bisect_src" "$bisect_tools" ping_bench; then
			record FAIL "build: $name" "ping_bench"
			return 1
		fi
		grep -q '^tools/testing/futex/' <<<"$files" && made=1
		if grep -q -E '^tools/(perf|include)/' <<<"$files" &&
			! "$TOP/scripts/build/build-tools.sh" "$bisect_src" "$bisect_tools" perf; then
			record FAIL "build: $name" "perf"
			return 1
		fi
		grep -q -E '^tools/(perf|include)/' <<<"$files" && made=1
		# A patch of documentation alone is no build (it was counted
		# as one).
		if [ -z "$made" ]; then
			record SKIP "nothing to build: $name" "it changes no file a build reads"
			continue
		fi
		record PASS "build: $name" "$note"
	done
}

build_every_patch() {
	build_each 1
}
