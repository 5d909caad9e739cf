#!/bin/sh
# demo.sh - the main job on the embedded default, the Debian kernel history:
# import the newest version of each default kernel line (5.10, 6.1, 6.12,
# 7.2, 7.3), scan every release and print
# the per-release report.  Later stages append themselves below.
set -e
cd "$(dirname "$0")/.."
KMIG=./kmig
echo "== kmig import (Debian linux-source packages)" >&2
$KMIG import
echo "== kmig scan" >&2
$KMIG scan
for tag in $($KMIG report --trend --format csv | sed '1d; s/,.*//'); do
	echo
	$KMIG report "$tag"
done
echo
echo "== trend"
$KMIG report --trend
echo
$KMIG report --by subsystem --top 15

# The conversion branch: branch-patches/ applied to v6.1.192 (exit 1 only
# means a patch conflicts, which the status shows), then replayed on v6.12.118.
echo
echo "== kmig branch apply --base v6.1.192" >&2
$KMIG branch apply --base v6.1.192 > /dev/null || [ $? -eq 1 ]
$KMIG branch status --base v6.1.192
echo
echo "== kmig branch rebase --onto v6.12.118" >&2
$KMIG branch rebase --onto v6.12.118 > /dev/null || [ $? -eq 1 ]
$KMIG branch status --base v6.12.118

# QEMU: boot the newest release (the live kernel) with the guest tests
# (boot, rds), then build, boot and compile-check every applied step of
# the v6.1.192 branch.  All five bases: kmig boot --bases (long).
newest=$($KMIG report --trend --format csv | sed '1d; s/,.*//' | tail -n 1)
echo
echo "== kmig boot $newest" >&2
$KMIG boot "$newest"
echo
echo "== kmig branch test --base v6.1.192" >&2
$KMIG branch test --base v6.1.192 || [ $? -eq 1 ]
$KMIG branch status --base v6.1.192

# The dashboard, last so that it shows everything above: a static site
# written from the database; its index.html is the last line printed.
echo
echo "== kmig web" >&2
$KMIG web
