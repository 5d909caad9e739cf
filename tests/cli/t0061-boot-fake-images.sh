#!/bin/sh
# t0061-boot-fake-images.sh - kmig boot and kmig bisect end to end without
# a kernel build: the fixture's commits have fake images (boot_fixture in
# lib.sh) that QEMU refuses at once, so every boot is a fast "boot fail".
# Run under the ASan build too (make asan).
. "$(dirname "$0")/../lib.sh"
export KMIG_NO_PROGRESS=1

R="$TRASH/repo" D="$TRASH/kmig.db"
t_ok "fixture: five commits with fake images" boot_fixture "$R" "$D"
C4=$(git -C "$R" rev-parse master~1) C5=$(git -C "$R" rev-parse master)

# GOOD's child is the first bad commit: the bisect range closes at once
# (next_step() read the candidate before the first, an ASan
# heap-buffer-overflow)
t_exit "bisect master~1 master: a candidate, checks fail (unreliable)" 1 \
	"$KMIG" --repo "$R" --db "$D" bisect master~1 master --verify 1
t_ok "... step 1 is BAD, bad" grep -q "^step 1: bad $C5 c5" "$TRASH/.stdout"
t_ok "... the candidate is BAD" grep -q "^candidate: $C5 c5" "$TRASH/.stdout"
t_ok "... one step only" test "$(grep -c '^step ' "$TRASH/.stdout")" -eq 1
t_ok "... no sanitizer report" sh -c "! grep -q 'Sanitizer' '$TRASH/.stderr'"
t_exit "bisect v1.0 master: every commit bad" 1 \
	"$KMIG" --repo "$R" --db "$D" bisect v1.0 master --verify 1
t_ok "... the candidate is c2, GOOD's child" grep -q "^candidate: .* c2$" "$TRASH/.stdout"
t_ok "... no sanitizer report" sh -c "! grep -q 'Sanitizer' '$TRASH/.stderr'"

# --runner lava against a stub lava-run first on PATH: each job's log says
# the guest's boot test failed (a verdict, no infrastructure error)
mkdir -p "$TRASH/bin"
cat > "$TRASH/bin/lava-run" <<'STUB'
#!/bin/sh
echo run >> "$STUB_COUNT"
rec() { printf '{"dt": "2026-12-03T20:14:26.5", "lvl": "%s", "msg": %s}\n' "$1" "$2"; }
rec target '"Linux version 0.0 (stub)"'
rec target '"KMIG-START"'
# $STUB_PASS_FROM: the jobs from that one on pass
if [ "$(wc -l < "$STUB_COUNT")" -ge "${STUB_PASS_FROM:-999}" ]; then
	rec target '"KMIG-TEST boot PASS user space reached"'
	rec results '{"case": "boot", "definition": "kmig", "result": "pass"}'
else
	rec target '"KMIG-TEST boot FAIL the stub failed it"'
	rec results '{"case": "boot", "definition": "kmig", "result": "fail"}'
fi
rec target '"KMIG-TEST rds PASS stub"'
rec results '{"case": "rds", "definition": "kmig", "result": "pass"}'
rec target '"KMIG-DONE tests=2"'
rec results '{"case": "job", "definition": "lava", "result": "pass"}'
STUB
chmod +x "$TRASH/bin/lava-run"
export STUB_COUNT="$TRASH/lava-runs"
lava() { env PATH="$TRASH/bin:$PATH" "$KMIG" --repo "$R" --db "$D" "$@"; }

rm -f "$STUB_COUNT"
n0=$(sqlite3 "$D" "SELECT max(id) FROM boots")
t_exit "boot --runner lava --retries 2: boot fail" 1 lava boot HEAD --runner lava --retries 2
t_ok "... three LAVA jobs" test "$(wc -l < "$STUB_COUNT")" -eq 3
t_ok "... said so" grep -q "^boot fail .*(3 attempts)" "$TRASH/.stdout"
t_ok "... the finding is the guest's" grep -q "^finding: KMIG-TEST boot FAIL the stub failed it" "$TRASH/.stdout"
t_is "... three attempts recorded" "1 2 3" \
	"$(sqlite3 "$D" "SELECT group_concat(attempt, ' ') FROM boots WHERE id > $n0")"
rm -f "$STUB_COUNT"
t_exit "boot --runner lava --retries 3, passing on attempt 2: flaky" 0 \
	env STUB_PASS_FROM=2 PATH="$TRASH/bin:$PATH" "$KMIG" --repo "$R" --db "$D" \
	boot HEAD --runner lava --retries 3
t_ok "... two LAVA jobs" test "$(wc -l < "$STUB_COUNT")" -eq 2
t_ok "... said so" grep -q "^boot flaky .*(passed on attempt 2; attempt 1: KMIG-TEST boot FAIL the stub failed it)" \
	"$TRASH/.stdout"
t_is "... the passing attempt recorded as flaky" "flaky" \
	"$(sqlite3 "$D" "SELECT status FROM boots ORDER BY id DESC LIMIT 1")"
rm -f "$STUB_COUNT"
t_exit "boot --runner lava (no retries): one job" 1 lava boot HEAD --runner lava
t_ok "... one LAVA job" test "$(wc -l < "$STUB_COUNT")" -eq 1
t_ok "... no attempt count" grep -q "^boot fail [0-9.]*s$" "$TRASH/.stdout"
rm -f "$STUB_COUNT"
t_exit "bisect --runner lava: every boot retried once by default" 1 \
	lava bisect master~1 master --runner lava --verify 1
t_ok "... BAD bad" grep -q "^step 1: bad $C5 c5" "$TRASH/.stdout"
t_ok "... two jobs for BAD" test "$(grep -c . "$STUB_COUNT")" -ge 2
t_done
