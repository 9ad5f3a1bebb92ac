# shellcheck shell=bash
# prepare.sh: make check's first steps, for every mode: the host set up
# (scripts/setup/setup.sh), patches/ applied on the base in a worktree of its
# own (work/src-check), and the queue's commits read for the steps after
# it.
# shellcheck disable=SC2154 # out, tally, src, tools...: set by scripts/check/check.sh

host_setup() {
	"$TOP/scripts/setup/setup.sh"
}

apply_queue() {
	"$TOP/scripts/queue/queue.sh" "$src" >"$out/queue.txt"
}

# read_queue: in the runner's shell (the table's "sh"): the commits of
# the queue, for checkpatch and the steps that mail the series.
read_queue() {
	mapfile -t commits <"$out/queue.txt"
	printf '  %d patches\n' "${#commits[@]}"
}
