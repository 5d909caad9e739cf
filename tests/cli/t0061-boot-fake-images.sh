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
t_done
