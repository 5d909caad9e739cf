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

# a reused image warns of the fragment options its build lacked, as the
# boot that built it did (IMAGE.missing beside it)
for img in "$KMIG_HOME"/work/*/images/"$C5"-*.bzImage; do
	printf 'CONFIG_RDS CONFIG_KALLSYMS' > "$img.missing"
done
t_exit "boot of a reused image whose build lacked options" 1 "$KMIG" --repo "$R" --db "$D" boot master
t_ok "... says which" grep -q "^kmig: warning: config options not set as qemu/kmig.config asks: CONFIG_RDS CONFIG_KALLSYMS$" \
	"$TRASH/.stderr"
rm -f "$KMIG_HOME"/work/*/images/"$C5"-*.bzImage.missing
t_exit "... and without the file" 1 "$KMIG" --repo "$R" --db "$D" boot master
t_ok "... no warning" sh -c "! grep -q 'warning: config options' '$TRASH/.stderr'"

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
for job; do :; done
# $STUB_INFRA_COMMIT: that commit's jobs end in an infrastructure error
if [ -n "$STUB_INFRA_COMMIT" ] && grep -q "kmig.commit: \"$STUB_INFRA_COMMIT\"" "$job"; then
	exit 3
fi
rec() { printf '{"dt": "2026-12-03T20:14:26.5", "lvl": "%s", "msg": %s}\n' "$1" "$2"; }
rec target '"Linux version 0.0 (stub)"'
rec target '"KMIG-START"'
# $STUB_PASS_FROM: the jobs from that one on pass; $STUB_PASS_COMMIT:
# that commit's jobs pass
for job; do :; done
if [ "$(wc -l < "$STUB_COUNT")" -ge "${STUB_PASS_FROM:-999}" ] ||
   { [ -n "$STUB_PASS_COMMIT" ] && grep -q "kmig.commit: \"$STUB_PASS_COMMIT\"" "$job"; }; then
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
t_ok "... two jobs for BAD, two for the verify run (on LAVA too)" \
	test "$(wc -l < "$STUB_COUNT")" -eq 4
t_ok "... the verify run failed the same way" \
	grep -q "^verify 1/1: bad KMIG-TEST boot FAIL the stub failed it" "$TRASH/.stdout"

# the report of a bisect on LAVA: BAD with c2 reverted (the commit the
# first run made; its image planted, its LAVA jobs pass) passes the check
t_exit "bisect v1.0 master --runner lava: c2, the revert does not build" 1 \
	lava bisect v1.0 master --runner lava --verify 1 --retries 0
REV=$(sqlite3 "$D" "SELECT commit_id FROM builds WHERE status = 'failed' ORDER BY id DESC LIMIT 1")
t_ok "... the revert was built" sh -c "test -n '$REV' && ! git -C '$R' cat-file -e '$REV'"
for dir in "$KMIG_HOME"/work/*/images; do
	cp "$(ls "$dir"/*.bzImage | head -1)" "$dir/$REV-$(sqlite3 "$D" \
		"SELECT substr(config_hash, 1, 12) FROM builds LIMIT 1").bzImage"
done
rm -f "$STUB_COUNT"
t_exit "bisect --runner lava --retries 2 --report: found" 0 \
	env STUB_PASS_COMMIT="$REV" PATH="$TRASH/bin:$PATH" "$KMIG" --repo "$R" --db "$D" \
	bisect v1.0 master --runner lava --verify 1 --retries 2 --report "$TRASH/report.txt"
t_ok "... first bad commit c2" grep -q "^first bad commit: .* c2$" "$TRASH/.stdout"
t_ok "... the revert booted on LAVA" grep -q "^revert 1/1: pass $REV" "$TRASH/.stdout"
t_ok "... the report says LAVA and the accelerator used" \
	grep -q "^LAVA: a lava-run job here, QEMU -accel tcg, kernel command line" "$TRASH/report.txt"
t_ok "... not the built-in runner's QEMU line" sh -c "! grep -q '^QEMU:' '$TRASH/report.txt'"
t_ok "... its boot command has --retries and --runner" \
	grep -q "^  kmig --repo .* boot $(git -C "$R" rev-parse master~3) --test boot --test rds --retries 2 --runner lava$" \
	"$TRASH/report.txt"
t_ok "... and so has its bisect command" \
	grep -q "^  kmig --repo .* bisect .* --test boot --test rds --retries 2 --runner lava --verify 1$" \
	"$TRASH/report.txt"
# the revert's check boot hits an infrastructure error: an error (exit 2,
# as the README says), with the steps printed as they ran
rm -f "$STUB_COUNT"
t_exit "bisect --runner lava: the revert's job an infrastructure error" 2 \
	env STUB_INFRA_COMMIT="$REV" PATH="$TRASH/bin:$PATH" "$KMIG" --repo "$R" --db "$D" \
	bisect v1.0 master --runner lava --verify 1 --retries 0
t_ok "... the verify run before it printed" grep -q "^verify 1/1: bad " "$TRASH/.stdout"
t_ok "... the error names lava-run" grep -q "lava-run" "$TRASH/.stderr"
# --accel kvm: the stub lava-run boots nothing, but kmig checks /dev/kvm
# up front for a local run
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	t_exit "bisect --runner lava --accel kvm --report: found" 0 \
		env STUB_PASS_COMMIT="$REV" PATH="$TRASH/bin:$PATH" "$KMIG" --repo "$R" --db "$D" \
		bisect v1.0 master --runner lava --accel kvm --verify 1 --report "$TRASH/report.txt"
	t_ok "... the report says -accel kvm" \
		grep -q "^LAVA: a lava-run job here, QEMU -accel kvm," "$TRASH/report.txt"
	t_ok "... its commands too, and no --retries (the default)" \
		grep -q "^  kmig --repo .* bisect .* --test rds --accel kvm --runner lava --verify 1$" \
		"$TRASH/report.txt"
else
	t_skip "no usable /dev/kvm: --accel kvm not checked"
fi

# kmig boot --bases on the chosen runner: the one default line with a tag
git -C "$R" tag v6.1.1 master~2
rm -f "$STUB_COUNT"
t_exit "boot --bases --runner lava: exit 1 (fails, other lines lack tags)" 1 \
	lava boot --bases --runner lava
t_ok "... v6.1.1 booted as a LAVA job" test "$(wc -l < "$STUB_COUNT")" -eq 1
t_ok "... its base line" grep -q "^base v6.1.1 build ok (image reused) boot fail rds PASS stub" \
	"$TRASH/.stdout"
t_is "... no progress line (KMIG_NO_PROGRESS=1)" "" "$(cat "$TRASH/.stderr")"
t_exit "boot --bases, KMIG_PROGRESS=1" 1 env -u KMIG_NO_PROGRESS KMIG_PROGRESS=1 \
	PATH="$TRASH/bin:$PATH" "$KMIG" --repo "$R" --db "$D" boot --bases --runner lava
t_ok "... the progress line" grep -q "^kmig: base v6.1.1 (2 of 5)$" "$TRASH/.stderr"
t_done
