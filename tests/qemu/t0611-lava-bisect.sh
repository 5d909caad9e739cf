#!/bin/sh
# t0611-lava-bisect.sh - kmig bisect and kmig branch test with
# --runner lava (local lava-run) on the bisect fixture (C1 does not build,
# C2 fixes it, C3 plants a WARN_ON, C4 a comment): the bisection names C3
# with its WARNING as with the built-in runner; a LAVA infrastructure
# error (a stub lava-run on PATH, in front of the real one) skips a step
# and fails a BAD, never judges bad; branch test --jobs 2 on the steps
# C2..C4 gives each step the verdict of a serial run with the built-in
# runner, in order.  Images come from t0602/t0610 when they ran before.
. "$(dirname "$0")/../e2e-lib.sh"
e2e_use_fixture

if ! command -v lava-run > /dev/null || [ "$(id -u)" -ne 0 ]; then
	t_skip "lava-run missing or not root (make deps; it runs as root)"
	t_done
fi

t_ok "fixture commits" e2e_fixture

t_exit "bisect --runner lava finds C3" 0 "$KMIG" bisect "$E2E_BASE" "$C4" --runner lava
cp "$TRASH/.stdout" "$TRASH/bisect.out"
cat "$TRASH/.stderr" >&2
t_is "first bad commit is C3" \
	"first bad commit: $C3 rds: rdma: warn when an RDMA request has no local vectors" \
	"$(grep '^first bad commit:' "$TRASH/bisect.out")"
t_ok "with its WARNING finding" \
	grep -q '^finding: WARNING: .*net/rds/rdma.c:' "$TRASH/bisect.out"

# A stub lava-run: the real one, except for the jobs of the commit in
# $TRASH/broken, which end as a lab whose QEMU cannot start would.
mkdir -p "$TRASH/bin"
real=$(command -v lava-run)
cat > "$TRASH/bin/lava-run" <<EOF
#!/bin/sh
for last; do :; done
if [ -s "$TRASH/broken" ] && grep -q "kmig.commit: \"\$(cat "$TRASH/broken")\"" "\$last"; then
	echo '{"dt": "2026-12-03T20:00:00.0", "lvl": "error", "msg": "InfrastructureError: qemu-system-x86_64 not found"}'
	echo '{"dt": "2026-12-03T20:00:00.1", "lvl": "results", "msg": {"case": "job", "definition": "lava", "error_msg": "qemu-system-x86_64 not found", "error_type": "Infrastructure", "result": "fail"}}'
	exit 1
fi
exec "$real" "\$@"
EOF
chmod +x "$TRASH/bin/lava-run"

echo "$C4" > "$TRASH/broken"
t_exit "an infrastructure error on BAD is an error" 2 \
	env PATH="$TRASH/bin:$PATH" "$KMIG" bisect "$E2E_BASE" "$C4" --runner lava
t_ok "the error says what LAVA said" grep -q 'Infrastructure error: qemu-system-x86_64 not found' "$TRASH/.stderr"
t_is "nothing judged bad" "" \
	"$(db "SELECT verdict FROM bisect_steps WHERE bisect_id = 2")"

echo "$C2" > "$TRASH/broken"
t_exit "an infrastructure error on C2: C2 skipped, the answer ambiguous" 1 \
	env PATH="$TRASH/bin:$PATH" "$KMIG" bisect "$E2E_BASE" "$C4" --runner lava
cp "$TRASH/.stdout" "$TRASH/bisect3.out"
t_ok "C2 skipped" grep -q "^step [0-9]*: skip $C2 " "$TRASH/bisect3.out"
t_ok "C3 still bad" grep -q "^step [0-9]*: bad $C3 " "$TRASH/bisect3.out"
t_ok "C2 among the candidates" grep -q "^$C2 " "$TRASH/bisect3.out"
t_is "C2 recorded skip, not bad" "skip" \
	"$(db "SELECT verdict FROM bisect_steps WHERE bisect_id = 3 AND commit_id = '$C2'")"

# branch test: the steps C2..C4 recorded as an applied branch.
now=$(date +%s)
db "INSERT INTO branch_steps (branch, base, position, patch, subject, status, commit_id, updated_at) VALUES
	('lava-test', '$E2E_BASE', 1, '0002.patch', 'fix the build', 'applied', '$C2', $now),
	('lava-test', '$E2E_BASE', 2, '0003.patch', 'plant the WARN_ON', 'applied', '$C3', $now),
	('lava-test', '$E2E_BASE', 3, '0004.patch', 'a comment', 'applied', '$C4', $now)"
verdicts() {
	sed -n 's/^\(000[0-9] [a-z-]*\) .*/\1/p' "$1"
}
t_exit "branch test, built-in runner, serial" 1 \
	"$KMIG" branch test --name lava-test --no-compile-check
verdicts "$TRASH/.stdout" > "$TRASH/serial.v"
t_is "serial: C2 passes, C3 and C4 fail to boot" "0001 pass
0002 boot-fail
0003 boot-fail" "$(cat "$TRASH/serial.v")"
t_exit "branch test --jobs 2 --runner lava" 1 \
	"$KMIG" branch test --name lava-test --no-compile-check --jobs 2 --runner lava
cp "$TRASH/.stdout" "$TRASH/lava2.out"
t_is "lava, 2 in flight: the same verdicts, in order" "$(cat "$TRASH/serial.v")" \
	"$(verdicts "$TRASH/lava2.out")"
t_ok "lava: C3's WARNING is its detail" \
	grep -q '^0002 boot-fail .*WARNING: .*net/rds/rdma.c:' "$TRASH/lava2.out"
t_is "lava: the summary" "lava-test: 3 steps tested, 1 passed, 2 failed, 0 untested, 0 not applied" \
	"$(tail -1 "$TRASH/lava2.out")"
t_exit "branch test --jobs 3, built-in runner" 1 \
	"$KMIG" branch test --name lava-test --no-compile-check --jobs 3
t_is "kmig, 3 in flight: the same verdicts, in order" "$(cat "$TRASH/serial.v")" \
	"$(verdicts "$TRASH/.stdout")"
t_is "each boot recorded" "pass fail fail" \
	"$(db "SELECT b.status FROM boots b JOIN builds u ON u.id = b.build_id ORDER BY b.id DESC LIMIT 3" | tac | tr '\n' ' ' | sed 's/ $//')"
t_is "the background boots' directories are gone" "" \
	"$(find "$KMIG_HOME"/work/*/boots -mindepth 1 2>/dev/null)"
t_exit "--jobs 0 is a usage error" 2 "$KMIG" branch test --name lava-test --jobs 0

t_is "no QEMU process left" "" "$(qemu_left)"
t_is "no QEMU of lava-run left" "" \
	"$(ps -eo args= | grep '^qemu-system-x86_64 .*/var/lib/lava/dispatcher/' | grep -v grep)"
t_done
