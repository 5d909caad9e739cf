#!/bin/sh
# t0602-bisect.sh - the four-commit fixture series on v7.3.4
# (tests/qemu/000*.patch): 1 does not build, 2 fixes it, 3 adds
# WARN_ON(args->nr_local == 0) in rds_rdma_extra_size(), 4 a comment.
# kmig boot of 3 exits 1 with a WARNING in net/rds/rdma.c, of 1 exits
# 125; kmig bisect names 3 and skips 1, checks it (verify PASS: it fails
# the same way twice more; revert PASS: 4 with 3 reverted boots cleanly),
# names its recipients (the author, the trailers of 3, the RDS section of
# v7.3.4's MAINTAINERS) and writes the report; a revert that fails
# (the KMIG_DEBUG_FAIL_BOOTS hook) makes the result unreliable.
# Incremental builds only, after t0601 built v7.3.4.
. "$(dirname "$0")/../e2e-lib.sh"
e2e_use_fixture

t_ok "fixture commits" e2e_fixture

t_exit "kmig boot of the WARN_ON commit fails" 1 "$KMIG" boot "$C3"
cp "$TRASH/.stdout" "$TRASH/c3.out"
t_ok "WARNING finding naming net/rds/rdma.c" \
	grep -q '^finding: WARNING: .*net/rds/rdma.c:[0-9]* .*rds_rdma_extra_size' "$TRASH/c3.out"
t_ok "boot status fail" grep -q '^boot fail ' "$TRASH/c3.out"
t_ok "console log kept" test -s "$(sed -n 's/^console: //p' "$TRASH/c3.out")"
t_is "boot recorded fail with the finding" "fail|1" \
	"$(db "SELECT status, findings LIKE 'WARNING:%net/rds/rdma.c:%' FROM boots ORDER BY id DESC LIMIT 1")"

t_exit "kmig boot of the commit that does not build exits 125" 125 "$KMIG" boot "$C1"
t_ok "build failed printed with the compiler error" \
	grep -q "^finding: .*net/rds/rdma.c:.*error: .*nr_local.* undeclared" "$TRASH/.stdout"
t_is "build recorded failed" "failed|$C1" \
	"$(db "SELECT status, commit_id FROM builds ORDER BY id DESC LIMIT 1")"

t_exit "kmig bisect $E2E_BASE..4 finds it" 0 "$KMIG" bisect $E2E_BASE "$C4" --report "$TRASH/report.txt"
cp "$TRASH/.stdout" "$TRASH/bisect1.out"
t_is "first bad commit is 3" \
	"first bad commit: $C3 rds: rdma: warn when an RDMA request has no local vectors" \
	"$(grep '^first bad commit:' "$TRASH/bisect1.out")"
t_ok "with its WARNING finding" \
	grep -q '^finding: WARNING: .*net/rds/rdma.c:' "$TRASH/bisect1.out"
t_is "verified: it failed the same way twice more" "2" \
	"$(grep -c '^verify [12]/2: bad WARNING: .*net/rds/rdma.c:' "$TRASH/bisect1.out")"
t_is "reverted on 4, it passed twice" "2" \
	"$(grep -c '^revert [12]/2: pass [0-9a-f]\{40\}$' "$TRASH/bisect1.out")"
t_is "checks printed" "checks: verify PASS, revert PASS" \
	"$(grep '^checks:' "$TRASH/bisect1.out")"
t_is "checks recorded" "found|verify PASS, revert PASS" \
	"$(db "SELECT status, checks FROM bisects ORDER BY id DESC LIMIT 1")"
t_is "the revert commit is not in the repository" "" \
	"$(git --git-dir="$E2E_REPO" cat-file -t "$(sed -n 's|^revert 1/2: pass ||p' "$TRASH/bisect1.out")" 2> /dev/null)"

# Recipients: the author and the RDS section's M: in To:, the trailers
# of 3 (Signed-off-by is the author: once) and the section's L: in Cc:.
git --git-dir="$E2E_REPO" show "$E2E_BASE:MAINTAINERS" |
	awk '/^RDS - RELIABLE DATAGRAM SOCKETS$/ { s = 1; next } s && /^$/ { exit }
	     s && /^[MRL]:/ { sub(/^[MRL]:[ \t]*/, "& "); print }' > "$TRASH/rds-section"
maint=$(sed -n 's/^M:[ \t]* //p' "$TRASH/rds-section" | paste -sd'|')
lists=$(sed -n 's/^L:[ \t]* \([^ ]*\).*/\1/p' "$TRASH/rds-section" | paste -sd'|')
t_ok "the RDS section has a maintainer and lists" test -n "$maint" -a -n "$lists"
t_is "to: the author, then the RDS maintainers" "Kmig Fixture <fixture@kmig.invalid>|$maint" \
	"$(sed -n 's/^to: //p' "$TRASH/bisect1.out" | paste -sd'|')"
t_is "cc: the trailer people, then the RDS lists" \
	"Rob Reviewer <rob@reviewer.invalid>|Ada Acker <ada@acker.invalid>|Tess Tester <tess@tester.invalid>|Rita Reporter <rita@reporter.invalid>|$lists" \
	"$(sed -n 's/^cc: //p' "$TRASH/bisect1.out" | paste -sd'|')"

# The report: headers, then the body.
t_ok "report written" grep -q "^report: $TRASH/report.txt$" "$TRASH/bisect1.out"
t_is "report To: as printed" \
	"To: $(sed -n 's/^to: //p' "$TRASH/bisect1.out" | paste -sd'|' | sed 's/|/, /g')" \
	"$(sed -n 1p "$TRASH/report.txt")"
t_is "report Cc: as printed" \
	"Cc: $(sed -n 's/^cc: //p' "$TRASH/bisect1.out" | paste -sd'|' | sed 's/|/, /g')" \
	"$(sed -n 2p "$TRASH/report.txt")"
t_is "report Subject: the commit and the finding's class" \
	"Subject: [kmig bisect] $(echo "$C3" | cut -c1-12): WARNING in net/rds/rdma.c (\"rds: rdma: warn when an RDMA request has no local vectors\")" \
	"$(sed -n 3p "$TRASH/report.txt")"
t_is "report: a blank line after the headers" "" "$(sed -n 4p "$TRASH/report.txt")"
t_ok "report names the commit" \
	grep -q "^commit: $C3 (\"rds: rdma: warn when an RDMA request has no local vectors\")$" "$TRASH/report.txt"
t_ok "report gives the checks" grep -q '^checks: verify PASS, revert PASS$' "$TRASH/report.txt"
# (panic_on_warn: the panic follows the trace, no "---[ end trace"; the
# frame-pointer unwinder: rds_sendmsg is a frame, not a "?" guess)
t_ok "report quotes the console around the finding, with its trace" sh -c "
	grep -q '^  .*WARNING: .*net/rds/rdma.c:' '$TRASH/report.txt' &&
	grep -q '^  Call Trace:' '$TRASH/report.txt' &&
	grep -q '^   rds_sendmsg+' '$TRASH/report.txt' &&
	grep -q '^  Kernel panic - not syncing' '$TRASH/report.txt'"
t_ok "report: how to reproduce, the exact commands" sh -c "
	grep -qxF '  kmig --repo $E2E_REPO boot $C3 --test boot --test rds --retries 1' '$TRASH/report.txt' &&
	grep -qxF '  kmig --repo $E2E_REPO bisect $(git --git-dir="$E2E_REPO" rev-parse "$E2E_BASE^{commit}") $C4 --test boot --test rds --verify 2' '$TRASH/report.txt'"

t_exit "kmig bisect $E2E_BASE..3 skips the broken commit" 0 "$KMIG" bisect $E2E_BASE "$C3"
cp "$TRASH/.stdout" "$TRASH/bisect2.out"
t_ok "1 was skipped" grep -q "^step [0-9]*: skip $C1 " "$TRASH/bisect2.out"
t_ok "2 was good" grep -q "^step [0-9]*: good $C2 " "$TRASH/bisect2.out"
t_is "first bad commit is 3 again" "first bad commit: $C3" \
	"$(grep -o '^first bad commit: [0-9a-f]*' "$TRASH/bisect2.out")"
t_is "bisections recorded" "found|$C3|verify PASS, revert PASS
found|$C3|verify PASS, revert PASS" "$(db "SELECT status, first_bad, checks FROM bisects ORDER BY id")"
t_is "steps recorded, the skip too" "bad skip good" \
	"$(db "SELECT verdict FROM bisect_steps WHERE bisect_id = 2 ORDER BY seq" | tr '\n' ' ' | sed 's/ $//')"

# A revert that does not pass: the result is unreliable, not named.
# Three boots (C3, one verify run, one revert run; no retries) fail
# their boot test on purpose: C3 still fails with its WARNING, the
# revert fails.
echo 3 > "$TRASH/fail"
t_exit "bisect with a failing revert: unreliable, exit 1" 1 \
	env KMIG_DEBUG_FAIL_BOOTS="$TRASH/fail" "$KMIG" bisect "$C2" "$C3" --verify 1 --retries 0 --report "$TRASH/no-report.txt"
cp "$TRASH/.stdout" "$TRASH/bisect3.out"
t_ok "verify passed" grep -q '^verify 1/1: bad WARNING: ' "$TRASH/bisect3.out"
t_ok "the revert run failed" grep -q '^revert 1/1: fail ' "$TRASH/bisect3.out"
t_ok "unreliable, with what failed" \
	grep -q "^unreliable: $(echo "$C3" | cut -c1-12) failed its checks (verify PASS, revert FAIL): revert run 1 " "$TRASH/bisect3.out"
t_ok "not presented as the first bad commit" sh -c "! grep -q '^first bad commit' '$TRASH/bisect3.out'"
t_ok "no report written" test ! -e "$TRASH/no-report.txt"
t_is "the counter is used up" 0 "$(cat "$TRASH/fail")"
t_is "recorded unreliable with its checks" "unreliable|verify PASS, revert FAIL" \
	"$(db "SELECT status, checks FROM bisects ORDER BY id DESC LIMIT 1")"

t_exit "bisect with a passing BAD is an error" 2 "$KMIG" bisect $E2E_BASE "$C2"
t_exit "bisect needs two revisions" 2 "$KMIG" bisect $E2E_BASE
t_ok "bisect --help" "$KMIG" bisect --help
t_is "no QEMU process left" "" "$(qemu_left)"

t_done
