# shellcheck shell=bash
# table.sh: the steps of make check, in the order they run; scripts/check/check.sh
# runs them (run_steps, scripts/check/runner.sh), and docs/check.md lists
# them (the workbench's steps-table-is-documented holds the two together).
# Each step's function is in scripts/check/steps/.
#
# row HOW MODES FUNCTION IF FATAL LEFT_OUT NAME
#   HOW       fg            in the foreground; a failure is also "FAIL step: NAME"
#             fg-untallied  in the foreground, its failure not in the tally (FATAL says it)
#             bg            started in the background (nice 0); a "wait" row waits for it
#             bg-low        started in the background at nice 19, so that it runs behind
#                           the debug kernel's build and the guests (nice orders the
#                           processes of one run); its "wait" row is at the end
#             wait          waits for the background step NAME
#             pair          a guest boot, side by side with the "beside" row after it
#             beside        the other boot of the pair: started in the background before
#                           it with CHECK_GUESTS=2 or 3 (the default), after it with =1
#             third         a guest boot beside the pair after it: started in the
#                           background with CHECK_GUESTS=3 (the default), in the
#                           foreground otherwise; a "wait" row after the pair waits for it
#             sh            runs in the runner's own shell, without a line of its own:
#                           what the steps after it read, or a check
#   MODES     the modes that run it: all, or some of full planted arm64 kcsan bisect
#   IF        a function that must succeed for the step to run, or -
#   FATAL     the run ends at once with "ERROR: FATAL" if the step fails, or -
#   LEFT_OUT  what make check and make check-planted say they left out, for a
#             step they do not run (one SKIP line for the rows that share it), or -
# shellcheck disable=SC2154 # tdir, tdir32: scripts/check/check.sh's

# The LEFT_OUT lines.
skip_bisect="every patch built (the bisect kernel, selftests, perf, ping_bench)"
skip_arm64="arm64: the kernel and selftests built, booted, futex selftests run"
skip_kcsan="KCSAN: the kernel built with the data-race detector, futex selftests and ping_fuzz run"
skip_static="workbench tests, model, checkpatch, mailable, LAVA schema, knobs patches"
skip_boots="futex selftests, pingmutex, locktorture, 17 vCPUs, fault injection"

# The workbench's own tests and the model need no kernel tree: they start
# at once, beside the patches' application (one CPU's work for minutes).
# The model, checkpatch and b4 (CPU time without a clock: nothing in them
# can time out) run at nice 19, behind the debug kernel's build, which
# everything after it waits for, and behind the guests, whose idle time
# they use; they are waited for at the end. The workbench tests stay at
# nice 0: some of them bound a step in seconds of wall time.
row fg-untallied all            host_setup        -                 "host set-up failed"                          -              "host set-up"
row bg           full           workbench         outside_workbench -                                             "$skip_static" "workbench tests"
row bg-low       full           model             has_model         -                                             "$skip_static" "model of the PING word protocol"
row fg-untallied all            apply_queue       -                 "patches/ do not apply on $BASE_TAG"          -              "apply patches/ on the base"
row sh           all            read_queue        -                 -                                             -              "the queue's commits"

# With empty caches, the per-patch build and the arm64 build beside the
# debug kernel and the boots took make check past an hour on two CPUs
# (docs/timings.md): they are make check-bisect's and make check-arm64's.
row fg           bisect         build_every_patch -                 -                                             "$skip_bisect" "build every patch (the whole bisect kernel)"
row fg           arm64          arm64_tests       -                 -                                             "$skip_arm64"  "arm64: cross-build, emulated guest, futex selftests"
row fg           kcsan          kcsan_build       -                 "the KCSAN kernel or the tools did not build" "$skip_kcsan"  "KCSAN kernel and the tools built"
row pair         kcsan          kcsan_pe1         -                 -                                             "$skip_kcsan"  "KCSAN, sched_proxy_exec=1: futex selftests and ping_fuzz"
row beside       kcsan          kcsan_pe0         -                 -                                             "$skip_kcsan"  "KCSAN, sched_proxy_exec=0: ping_fuzz"

# While the debug kernel builds: the checks that need no guest, and the
# programs the guests run. b4 (get_maintainer.pl for every patch, in
# Python) takes about as long as the workbench tests spend waiting for
# their time-outs.
row bg           "full planted" build_tip         -                 -                                             -              "build the debug kernel"
row bg-low       full           b4_mailable       has_commits       -                                             "$skip_static" "series mailable (b4)"
row bg-low       full           checkpatch        has_commits       -                                             "$skip_static" "checkpatch --strict"
row fg           full           mailable          has_commits       -                                             "$skip_static" "series mailable (git send-email)"
row fg           full           lava_schema       -                 -                                             "$skip_static" "LAVA jobs against the schema"
row fg           full           knobs_apply       -                 -                                             "$skip_static" "make bench's knobs patches apply to their series"
row fg-untallied "full planted" build_tools       -                 "the futex selftests do not build"            -              "build the futex selftests (x86_64, i386, static), ping_bench and pingmutex"
row wait         full           -                 -                 -                                             -              "workbench tests"
row wait         "full planted" -                 -                 "the debug kernel does not build"             -              "build the debug kernel"
row sh           "full planted" has_selftests     -                 "no futex selftests in $tdir"                 -              "the futex selftests built"
row sh           "full planted" has_selftests32   -                 "no i386 futex selftests in $tdir32"          -              "the i386 futex selftests built"

# The detectors are trusted only once seen to fire (make check-planted
# runs only these boots).
row pair         "full planted" hung_then_oops    -                 -                                             -              "guest failure detection: a hung guest, then planted oopses"
row beside       "full planted" planted           -                 -                                             -              "detectors fire on planted faults, and on a panic"

# Three guests at a time: the LAVA jobs one after the other (one lava-run
# at a time), beside the selftests with Proxy Execution, about as long,
# and, for the first part, pingmutex and ping_fuzz without it. The three
# keep the two CPUs busy, so this gained only about 40 s over two pairs
# (fc10, docs/timings.md): the boots are CPU-bound.
row third        full           peers_pe0         -                 -                                             "$skip_boots"  "pingmutex and ping_fuzz, sched_proxy_exec=0"
row pair         full           selftests_pe1     -                 -                                             "$skip_boots"  "futex selftests, sched_proxy_exec=1 (and ping_bench, i386, pingmutex, ping_fuzz)"
row beside       full           lava_jobs         -                 -                                             "$skip_boots"  "the LAVA jobs: futex selftests with sched_proxy_exec=0, locktorture mutex_lock and ww_mutex_lock, futex_priv_hash with 17 vCPUs, futex stress under fault injection"
row wait         full           -                 -                 -                                             -              "pingmutex and ping_fuzz, sched_proxy_exec=0"

# The steps that ran behind the guests at nice 19.
row wait         full           -                 -                 -                                             -              "checkpatch --strict"
row wait         full           -                 -                 -                                             -              "series mailable (b4)"
row wait         full           -                 -                 -                                             -              "model of the PING word protocol"
