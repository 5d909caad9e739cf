#!/bin/sh
# t0601-boot.sh - kmig boot on the real v7.3.4: it builds (a fresh
# machine: about 4 minutes with -j2, then cached), passes boot and rds;
# a guest that never finishes ends as timeout and leaves no QEMU behind,
# also when kmig itself is killed; a boot that fails only once (the
# KMIG_DEBUG_FAIL_BOOTS hook: the guest fails its first test while a
# counter file under the trash directory says so) is flaky with
# --retries, a failure without.
. "$(dirname "$0")/../e2e-lib.sh"
e2e_use_fixture

t_ok "fixture repository on $E2E_BASE" e2e_fixture

t_exit "kmig boot $E2E_BASE passes" 0 "$KMIG" boot $E2E_BASE
cp "$TRASH/.stdout" "$TRASH/base.out"
cat "$TRASH/.stderr" >&2
t_ok "boot test passed" grep -q '^KMIG-TEST boot PASS' "$TRASH/base.out"
t_ok "rds test passed" grep -q '^KMIG-TEST rds PASS' "$TRASH/base.out"
t_ok "boot status pass" grep -q '^boot pass ' "$TRASH/base.out"
t_ok "no finding" sh -c "! grep -q '^finding:' '$TRASH/base.out'"
t_is "build recorded ok" "ok" "$(db "SELECT status FROM builds ORDER BY id DESC LIMIT 1")"
t_is "boot recorded pass with its tests" "pass|boot,rds" \
	"$(db "SELECT status, tests FROM boots ORDER BY id DESC LIMIT 1")"
t_is "build recorded with the $E2E_BASE commit" \
	"$(git --git-dir="$E2E_REPO" rev-parse "$E2E_BASE^{commit}")" \
	"$(db "SELECT commit_id FROM builds ORDER BY id DESC LIMIT 1")"

t_exit "kmig boot $E2E_BASE again: the image is reused" 0 "$KMIG" boot --keep-log $E2E_BASE
t_ok "image reused, not rebuilt" grep -q '^build ok (image reused)$' "$TRASH/.stdout"
# The guest's lines are records of the kernel's log: a kernel message
# printed meanwhile (rds_sendmsg's rdma_op notice) never splits them.
console=$(sed -n 's/^console: //p' "$TRASH/.stdout")
t_ok "--keep-log: the console kept" test -s "$console"
t_ok "the guest's lines went through /dev/kmsg" grep -q '^KMIG-START kmsg' "$console"
t_ok "the rds line whole on the console" sh -c "tr -d '\\r' < '$console' |
	grep -qx 'KMIG-TEST rds PASS loopback payload received, [0-9]* sendmsg errno cases checked'"
t_exit "kmig boot --rebuild $E2E_BASE builds it again" 0 \
	"$KMIG" boot --rebuild $E2E_BASE --test boot
t_ok "rebuilt: a build line with its time and log" \
	grep -q '^build ok [0-9.]*s log ' "$TRASH/.stdout"
t_ok "the rebuilt kernel boots" grep -q '^boot pass ' "$TRASH/.stdout"
t_is "the rebuild recorded as a build of its own" "2" \
	"$(db "SELECT count(*) FROM builds WHERE commit_id = '$(git --git-dir="$E2E_REPO" rev-parse "$E2E_BASE^{commit}")'")"

# A boot that fails only once.
echo 1 > "$TRASH/fail-once"
t_exit "a boot failing once, no retries: exit 1" 1 \
	env KMIG_DEBUG_FAIL_BOOTS="$TRASH/fail-once" "$KMIG" boot $E2E_BASE
t_ok "the guest's first test failed on purpose" \
	grep -q '^KMIG-TEST boot FAIL failed on purpose' "$TRASH/.stdout"
t_ok "... a boot failure" grep -q '^boot fail ' "$TRASH/.stdout"
t_is "the counter is used up" 0 "$(cat "$TRASH/fail-once")"
echo 1 > "$TRASH/fail-once"
t_exit "the same with --retries 1: flaky, exit 0" 0 \
	env KMIG_DEBUG_FAIL_BOOTS="$TRASH/fail-once" "$KMIG" boot $E2E_BASE --retries 1
cp "$TRASH/.stdout" "$TRASH/flaky.out"
t_ok "boot flaky, naming the failed attempt" \
	grep -q '^boot flaky [0-9.]*s (passed on attempt 2; attempt 1: KMIG-TEST boot FAIL failed on purpose' "$TRASH/flaky.out"
t_ok "the failed attempt's console kept" \
	test -s "$(sed -n 's/^console: \(.*\) (the failed attempt)$/\1/p' "$TRASH/flaky.out")"
t_is "both attempts recorded: fail, then flaky" "1|fail
2|flaky" "$(db "SELECT attempt, status FROM boots ORDER BY id DESC LIMIT 2" | sort)"
t_is "the guest's results recorded with the boot" "1" \
	"$(db "SELECT results LIKE '%KMIG-TEST rds PASS%errno cases%' FROM boots ORDER BY id DESC LIMIT 1")"
echo 0 > "$TRASH/fail-once"
t_exit "--retries on a passing boot: one attempt" 0 \
	env KMIG_DEBUG_FAIL_BOOTS="$TRASH/fail-once" "$KMIG" boot $E2E_BASE --retries 2
t_ok "boot pass" grep -q '^boot pass [0-9.]*s$' "$TRASH/.stdout"

t_exit "a guest that never finishes: timeout, exit 1" 1 \
	"$KMIG" boot $E2E_BASE --test hang --timeout 15
t_ok "status timeout printed" grep -q '^boot timeout ' "$TRASH/.stdout"
t_ok "timeout finding" grep -q '^finding: timeout' "$TRASH/.stdout"
t_is "boot recorded timeout" "timeout" \
	"$(db "SELECT status FROM boots ORDER BY id DESC LIMIT 1")"
t_is "no QEMU process left after the timeout" "" "$(qemu_left)"

# kmig killed while QEMU runs: QEMU goes with it.
"$KMIG" boot $E2E_BASE --test hang --timeout 300 > /dev/null 2>&1 &
pid=$!
wait_until 300 qemu_running
t_ok "QEMU started under kmig" test -n "$(qemu_left)"
kill -TERM $pid
wait $pid
t_is "kmig died of SIGTERM" 143 "$?"
wait_until 300 qemu_gone
t_is "no QEMU process left after SIGTERM to kmig" "" "$(qemu_left)"

t_exit "unknown test is a usage error" 2 "$KMIG" boot --test nope
t_exit "unknown revision is an error" 2 "$KMIG" boot no-such-rev
t_ok "boot --help" "$KMIG" boot --help

t_done
