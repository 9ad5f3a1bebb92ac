# shellcheck shell=bash
# static.sh: the checks that need no guest, run while the debug kernel
# builds: checkpatch, every series mailed to a stand-in (git send-email
# and b4), every LAVA job against the schema.
# shellcheck disable=SC2154 # out, tally, src, tools...: set by scripts/check/check.sh

# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") fires for every new
# file; instead, every file a patch adds must have a maintainer entry.
# UNKNOWN_COMMIT_ID (a Fixes: tag naming a commit the tree lacks) can only
# be checked in a tree with upstream history: on the Debian import, a
# single commit, it is skipped; with KERNEL_SRC=upstream tree it runs.
# Like the mail checks below, reused (selfcheck.sh) where patches/,
# scripts/ and the base commit are what they were in a run that passed.
static_key() {
	local k b
	k=$(inputs_key patches scripts) && b=$(git -C "$src" rev-parse --short=12 "$BASE_TAG" 2>/dev/null) ||
		return 0
	printf '%s-%s\n' "$k" "$b"
}
checkpatch() {
	reuse_step checkpatch "$(static_key)" checkpatch_run
}
checkpatch_run() {
	local c p r f m ignore=FILE_PATH_CHANGES
	if [ "$(git -C "$src" rev-list --count "$BASE_TAG")" = 1 ]; then
		ignore=$ignore,UNKNOWN_COMMIT_ID
	fi
	for c in "${commits[@]}"; do
		p=$PATCHES/${c#* }
		# /usr/bin first: spdxcheck.py needs python3-ply from Debian.
		r=$(cd "$src" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --terse --no-summary \
			--ignore "$ignore" "$p" 2>&1) || true
		for f in $(git -C "$src" diff --name-only --diff-filter=A "${c%% *}^" "${c%% *}"); do
			m=$(cd "$src" && ./scripts/get_maintainer.pl --no-git --no-git-fallback -f "$f" 2>&1) || true
			case $m in
			*"(maintainer:"*) ;;
			*) r="$r${r:+
}$f: no MAINTAINERS entry covers this new file" ;;
			esac
		done
		if [ -z "$r" ]; then
			record PASS "checkpatch --strict: ${c#* }"
		else
			record FAIL "checkpatch --strict: ${c#* }"
			printf '%s\n' "$r" | head -n 10 | sed 's/^/       /' || true
		fi
	done
}

# mail_verdict LABEL MAILDIR SERIESDIR LOG [FOLD]: the messages in MAILDIR
# of the series in SERIESDIR: one per file of it, each with a To:, none to
# the workbench's identity. FOLD=1 (b4): a series of one patch and its
# cover letter is one message, b4 putting the cover letter below the
# patch's "---".
mail_verdict() {
	local label=$1 dir=$2 sdir=$3 log=$4 fold=${5:-0} m want bad noto f
	m=$(find "$dir" -name '*.eml' 2>/dev/null | wc -l)
	want=$(find "$sdir" -name '*.patch' | wc -l)
	if [ "$fold" = 1 ] && [ "$want" -eq 2 ]; then
		want=1
	fi
	# The recipients: To, Cc and Bcc, continuation lines unfolded.
	bad=$(for f in "$dir"/*.eml; do
		[ -f "$f" ] || continue
		awk 'NR == 1, /^$/' "$f" |
			awk '/^[ \t]/ { h = h $0; next } { if (h != "") print h; h = $0 } END { print h }' |
			grep -i -E '^(To|Cc|Bcc):' |
			grep -i -o -E '[^ <,]*(a-seed-|workbench@localhost)[^ >,]*' || true
	done | sort -u | tr '\n' ' ')
	# To: in the header, counted: grep -q at the end of a pipe would end it
	# early, and pipefail would take that for a failure.
	noto=$(for f in "$dir"/*.eml; do
		[ -f "$f" ] || continue
		[ "$(sed -n '1,/^$/p' "$f" | grep -c '^To: ' || true)" -gt 0 ] || echo "$f"
	done)
	if [ "$m" -ne "$want" ]; then
		record FAIL "$label" "$m messages for $want files, log: $log"
	elif [ -n "$bad" ]; then
		record FAIL "$label" "addressed to $bad"
	elif [ -n "$noto" ]; then
		record FAIL "$label" "a message without To: $(head -n 1 <<<"$noto")"
	else
		record PASS "$label ($m messages)"
	fi
}

# Every series can be mailed: scripts/queue/send.sh sends it through a sendmail
# stand-in that keeps the messages. One message per file of the series,
# each To someone MAINTAINERS names, none to the workbench's own identity
# (the patches' author) or to the committer of the base import.
mailable() {
	reuse_step mailable "$(static_key)" mailable_run
}
mailable_run() {
	local d n stub=$out/sendmail
	# shellcheck disable=SC2016 # expanded by the stand-in
	printf '#!/bin/sh\n# make check: keep the message, send nothing.\ncat >"$MAILDIR/$(date +%%s%%N).eml"\n' >"$stub"
	chmod +x "$stub"
	while IFS= read -r d; do
		n=${d##*/}
		rm -rf "$out/mail/$n"
		mkdir -p "$out/mail/$n"
		if ! MAILDIR=$out/mail/$n SEND=1 SENDMAIL=$stub KERNEL_TREE=$src "$TOP/scripts/queue/send.sh" "$n" \
			--from="make check <make-check@localhost.invalid>" >"$out/mail/$n.log" 2>&1; then
			record FAIL "mailable: $n" "send.sh failed, log: $out/mail/$n.log"
			tail -n 5 "$out/mail/$n.log" | sed 's/^/       /'
			continue
		fi
		mail_verdict "mailable: $n" "$out/mail/$n" "$d" "$out/mail/$n.log"
	done < <(series_dirs)
}

# LAVA: every job of lava/ (debug and bench, x86_64 and arm64, QEMU and
# boards) checked offline against lava-common's job schema, which must
# also reject a job with a planted error.
lava_schema() {
	local v bad=$out/lava/planted-invalid.yaml
	mkdir -p "$out/lava"
	"$TOP/scripts/lab/lava.sh" validate | record_lines ""
	sed 's/^    method: qemu$/    method: qemu-typo/' "$WORK/lava/validate/futex-debug-x86_64.yaml" >"$bad"
	v=$(/usr/bin/python3 "$TOP/scripts/lab/lava-validate.py" "$bad" || true)
	if grep -q '^FAIL lava job planted-invalid.yaml' <<<"$v"; then
		record PASS "detector fires: an invalid LAVA job"
	else
		record FAIL "detector fires: an invalid LAVA job" "$v"
	fi
}

# knobs_apply: each ablation patch of make bench (bench/NN-topic.knobs.patch)
# applies to its series' tip, as make bench applies it: a change of the
# series that breaks it would otherwise show only in a make bench run.
# git apply --cached on an index of the tip, read into a file of its own:
# the tree's checkout is left alone.
knobs_apply() {
	local p name idx=$out/knobs.index v
	for p in "$TOP"/bench/*.knobs.patch; do
		[ -f "$p" ] || continue
		name=${p##*/}
		name=${name%.knobs.patch}
		rm -f "$idx"
		if v=$(GIT_INDEX_FILE=$idx git -C "$src" read-tree "series/$name" 2>&1 &&
			GIT_INDEX_FILE=$idx git -C "$src" apply --cached --check "$p" 2>&1); then
			record PASS "bench knobs: bench/$name.knobs.patch applies to series/$name"
		else
			record FAIL "bench knobs: bench/$name.knobs.patch applies to series/$name" "$(head -n 3 <<<"$v" | tr '\n' ' ')"
		fi
	done
	rm -f "$idx"
}

# b4_mailable: every series as b4 would send it (scripts/queue/b4-send.sh, b4
# send -o: written, not sent): one message per patch and the cover letter,
# each with a To:, none to the workbench's identity.
b4_mailable() {
	reuse_step b4_mailable "$(static_key)" b4_mailable_run
}
b4_mailable_run() {
	local d n
	rm -rf "$out/b4"
	# sendemail.smtpServer set: b4 would otherwise pick its web endpoint,
	# which -o never reaches but which wants a signature. b4 copies the
	# patches' Signed-off-by addresses, the workbench's identity until
	# the sender re-signs them as themselves (docs/sending.md): here the
	# sender is that identity, and --not-me-too leaves it out, as it
	# leaves out a real sender's own address.
	local me
	me=$(awk '/^From: / { f = 1; l = $0; next } f && /^[ \t]/ { l = l $0; next } f { print l; exit }' \
		"$(series_patches "$(series_dirs | head -n 1)" | head -n 1)" | sed 's/.*<\(.*\)>.*/\1/')
	if ! GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=sendemail.smtpserver GIT_CONFIG_VALUE_0=/bin/false \
		GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1="$me" \
		QUEUE=$out/queue.txt "$TOP/scripts/queue/b4-send.sh" all --no-sign --not-me-too -o "$out/b4" \
		>"$out/b4.log" 2>&1; then
		record FAIL "mailable (b4)" "b4-send.sh failed, log: $out/b4.log"
		tail -n 5 "$out/b4.log" | sed 's/^/       /'
		return 0
	fi
	while IFS= read -r d; do
		n=${d##*/}
		mail_verdict "mailable (b4): $n" "$out/b4/$n" "$d" "$out/b4.log" 1
	done < <(series_dirs)
}

