#!/bin/sh
# run.sh - run every test suite; the summary line is printed last.
#   unit:  build/tests/test-*   (cmocka, TAP output)
#   cli:   tests/cli/t*.sh      (TAP shell tests on fixture repositories)
#   qemu:  tests/qemu/t*.sh     (real kernel; skipped with KMIG_TEST_QUICK=1)
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
: "${KMIG_BIN:=$top/kmig}"
: "${KMIG_UNIT_DIR:=build/tests}"
export KMIG_BIN
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0 skip=0 failed_suites=

run_suite() {
	name=$1; shift
	echo "# --- $name"
	"$@" > "$out/log" 2>&1
	rc=$?
	cat "$out/log"
	# cmocka reports a skipped test as "not ok ... # SKIP"
	p=$(grep -c '^ok ' "$out/log")
	s=$(grep -c '^\(not \)\{0,1\}ok .*# *[Ss][Kk][Ii][Pp]' "$out/log")
	ps=$(grep -c '^ok .*# *[Ss][Kk][Ii][Pp]' "$out/log")
	f=$(grep -c '^not ok ' "$out/log")
	f=$((f - (s - ps)))
	p=$((p + s - ps))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited with status $rc"
	fi
	pass=$((pass + p - s)) skip=$((skip + s)) fail=$((fail + f))
	[ "$f" -gt 0 ] && failed_suites="$failed_suites $name"
}

export CMOCKA_MESSAGE_OUTPUT=TAP
for t in "$KMIG_UNIT_DIR"/test-*; do
	[ -x "$t" ] || continue
	run_suite "unit/$(basename "$t")" "$t"
done
for t in tests/cli/t*.sh; do
	[ -f "$t" ] || continue
	run_suite "cli/$(basename "$t")" sh "$t"
done
if [ -z "$KMIG_TEST_QUICK" ]; then
	for t in tests/qemu/t*.sh; do
		[ -f "$t" ] || continue
		run_suite "e2e/$(basename "$t")" sh "$t"
	done
fi
[ -n "$failed_suites" ] && echo "# failed suites:$failed_suites"
echo "kmig tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
