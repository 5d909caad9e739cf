#!/bin/sh
# t0120-branch-test.sh - kmig branch test on the real v7.3.4: a series of
# a real conversion (kernel/printk, built in the QEMU kernel) and a patch
# that breaks a driver the QEMU kernel does not build (fs/vboxsf): the
# first step passes build, boot and the allmodconfig compile check, the
# second boots but fails the compile check; a third (the series' own
# qcom_sysmon conversion) touches a file that allmodconfig cannot compile
# at its parent either: that is not the step's doing, and it passes.
. "$(dirname "$0")/../e2e-lib.sh"
e2e_use_fixture

S="$TRASH/series"
t_ok "fixture repository on $E2E_BASE" e2e_fixture
mkdir -p "$S"
cp "$TOP/branch-patches/0007-kernel-printk-Replace-strlcpy-with-strscpy.patch" \
	"$TOP/branch-patches/0009-remoteproc-qcom_sysmon-Replace-strlcpy-with-strscpy.patch" "$S/"

# A format-patch that adds an #error at the top of fs/vboxsf/super.c, before
# its first three lines (taken from the tree, so the hunk applies).
f=fs/vboxsf/super.c
git --git-dir="$E2E_REPO" show "$E2E_BASE:$f" | sed -n 1,3p > "$TRASH/ctx"
{
	echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
	echo "From: Kmig Test <test@kmig.invalid>"
	echo "Date: Tue, 1 Dec 2026 12:00:00 +0000"
	echo "Subject: [PATCH] vboxsf: break the build on purpose"
	echo
	echo "A compile-check fixture for kmig branch test."
	echo "---"
	echo "diff --git a/$f b/$f"
	echo "--- a/$f"
	echo "+++ b/$f"
	echo "@@ -1,3 +1,4 @@"
	echo "+#error kmig compile-check fixture"
	sed 's/^/ /' "$TRASH/ctx"
	echo "-- "
	echo "2.39.5"
} > "$S/0002-vboxsf-break-the-build-on-purpose.patch"
printf '%s\n' 0007-kernel-printk-Replace-strlcpy-with-strscpy.patch \
	0002-vboxsf-break-the-build-on-purpose.patch \
	0009-remoteproc-qcom_sysmon-Replace-strlcpy-with-strscpy.patch > "$S/series"

t_exit "branch apply of the three patches" 0 "$KMIG" branch apply --base $E2E_BASE --series "$S"
t_exit "branch test: a compile failure is a negative verdict" 1 "$KMIG" branch test --base $E2E_BASE
cp "$TRASH/.stdout" "$TRASH/test.out"
cat "$TRASH/.stderr" >&2
t_ok "the printk conversion passes build, boot and compile check" \
	grep -q '^0001 pass  *kernel: printk: Replace strlcpy() with strscpy(): boot .*1 file compiled' "$TRASH/test.out"
t_ok "the broken driver fails the compile check, naming the #error" \
	grep -q '^0002 compile-fail  *vboxsf: break the build on purpose: .*kmig compile-check fixture' "$TRASH/test.out"
t_ok "a file that fails at its parent too is not the step's failure" \
	grep -q '^0003 pass  *remoteproc: qcom_sysmon: Replace strlcpy() with strscpy(): boot .*, 0 files compiled (W=1, allmodconfig); not compilable at its parent either: drivers/remoteproc/qcom_sysmon.c$' "$TRASH/test.out"
t_ok "summary line" grep -q "^kmig/$E2E_BASE: 3 steps tested, 2 passed, 1 failed, 0 not applied$" "$TRASH/test.out"
"$KMIG" branch status --base $E2E_BASE --format csv > "$TRASH/status.csv"
t_is "test results in branch status" "pass
compile-fail
pass" "$(sed 1d "$TRASH/status.csv" | awk -F, '{print $NF}')"
t_is "three boots recorded, all passed" "3" "$(db "SELECT count(*) FROM boots WHERE status = 'pass'")"
t_is "no QEMU process left" "" "$(qemu_left)"
t_done
