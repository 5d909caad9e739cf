#!/bin/sh
# t0602-bisect.sh - the four-commit fixture series on v7.3.4
# (tests/qemu/000*.patch): 1 does not build, 2 fixes it, 3 adds
# WARN_ON(args->nr_local == 0) in rds_rdma_extra_size(), 4 a comment.
# kmig boot of 3 exits 1 with a WARNING in net/rds/rdma.c, of 1 exits
# 125; kmig bisect names 3 and skips 1.  Incremental builds only, after
# t0601 built v7.3.4.
. "$(dirname "$0")/../e2e-lib.sh"
e2e_use_fixture

t_ok "fixture commits" e2e_fixture

t_exit "kmig boot of the WARN_ON commit fails" 1 "$KMIG" boot "$C3"
cp "$TRASH/.stdout" "$TRASH/c3.out"
t_ok "WARNING finding naming net/rds/rdma.c" \
	grep -q '^finding: WARNING: .* at net/rds/rdma.c:[0-9]* rds_rdma_extra_size' "$TRASH/c3.out"
t_ok "boot status fail" grep -q '^boot fail ' "$TRASH/c3.out"
t_ok "console log kept" test -s "$(sed -n 's/^console: //p' "$TRASH/c3.out")"
t_is "boot recorded fail with the finding" "fail|1" \
	"$(db "SELECT status, findings LIKE 'WARNING:%net/rds/rdma.c:%' FROM boots ORDER BY id DESC LIMIT 1")"

t_exit "kmig boot of the commit that does not build exits 125" 125 "$KMIG" boot "$C1"
t_ok "build failed printed with the compiler error" \
	grep -q "^finding: .*net/rds/rdma.c:.*error: .*nr_local.* undeclared" "$TRASH/.stdout"
t_is "build recorded failed" "failed|$C1" \
	"$(db "SELECT status, commit_id FROM builds ORDER BY id DESC LIMIT 1")"

t_exit "kmig bisect $E2E_BASE..4 finds it" 0 "$KMIG" bisect $E2E_BASE "$C4"
cp "$TRASH/.stdout" "$TRASH/bisect1.out"
t_is "first bad commit is 3" \
	"first bad commit: $C3 rds: rdma: warn when an RDMA request has no local vectors" \
	"$(grep '^first bad commit:' "$TRASH/bisect1.out")"
t_ok "with its WARNING finding" \
	grep -q '^finding: WARNING: .* at net/rds/rdma.c:' "$TRASH/bisect1.out"

t_exit "kmig bisect $E2E_BASE..3 skips the broken commit" 0 "$KMIG" bisect $E2E_BASE "$C3"
cp "$TRASH/.stdout" "$TRASH/bisect2.out"
t_ok "1 was skipped" grep -q "^step [0-9]*: skip $C1 " "$TRASH/bisect2.out"
t_ok "2 was good" grep -q "^step [0-9]*: good $C2 " "$TRASH/bisect2.out"
t_is "first bad commit is 3 again" "first bad commit: $C3" \
	"$(grep -o '^first bad commit: [0-9a-f]*' "$TRASH/bisect2.out")"
t_is "bisections recorded" "found|$C3
found|$C3" "$(db "SELECT status, first_bad FROM bisects ORDER BY id")"
t_is "steps recorded, the skip too" "bad skip good" \
	"$(db "SELECT verdict FROM bisect_steps WHERE bisect_id = 2 ORDER BY seq" | tr '\n' ' ' | sed 's/ $//')"

t_exit "bisect with a passing BAD is an error" 2 "$KMIG" bisect $E2E_BASE "$C2"
t_exit "bisect needs two revisions" 2 "$KMIG" bisect $E2E_BASE
t_ok "bisect --help" "$KMIG" bisect --help
t_is "no QEMU process left" "" "$(qemu_left)"

t_done
