#!/bin/sh
# t0130-branch-live.sh - the conversion branch on the live kernel: kmig
# convert generates strcpy -> strscpy patches on v7.3.4 (its files only,
# one MAINTAINERS section at a time), each passes kmig check (0 new uses,
# at least one removed); the series exported for sending has the To:/Cc:
# the release's own scripts/get_maintainer.pl --no-git gives, checked on
# five patches; two steps are applied and tested (build, boot, compile
# check; x86_64 allmodconfig only here, to keep the test short).
. "$(dirname "$0")/../e2e-lib.sh"
e2e_use_fixture

LIVE=${E2E_LIVE:-v7.3.4}
S="$TRASH/series"
SECTIONS="ACPI
ATHEROS ATH5K WIRELESS DRIVER
BLOCK LAYER
CAN NETWORK DRIVERS
COMMON CLK FRAMEWORK"

t_ok "fixture repository" e2e_fixture
t_ok "$LIVE imported" e2e_import "$LIVE"
t_exit "scan $LIVE" 0 "$KMIG" scan --tags "$LIVE"
mkdir -p "$S"
set --
while read -r sec; do set -- "$@" --subsystem "$sec"; done <<EOF
$SECTIONS
EOF
t_exit "convert strcpy on five sections" 0 "$KMIG" convert strcpy --base "$LIVE" --series "$S" "$@"
t_is "five patches" 5 "$(grep -c '^wrote ' "$TRASH/.stdout")"
t_ok "spatch ran on those sections only" sh -c "! grep '^not converted: ' '$TRASH/.stdout' | grep -v ' drivers/acpi/\| drivers/net/wireless/ath/ath5k/\| block/\| drivers/block/\| drivers/net/can/\| drivers/clk/\| include/'"
for p in "$S"/0*.patch; do
	"$KMIG" check --format json --patch "$p" --base "$LIVE" > "$TRASH/check.json" 2> /dev/null
	t_is "kmig check of $(basename "$p"): 0 new, >= 1 removed" "0 yes" \
		"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["new"]), "yes" if d["removed"] else "no")' "$TRASH/check.json")"
done

t_exit "apply the five" 0 "$KMIG" branch apply --base "$LIVE" --series "$S" --name test/live5
t_exit "export them for sending" 0 "$KMIG" branch export --name test/live5 --base "$LIVE" --send "$TRASH/send"
mkdir -p "$TRASH/gm"
git --git-dir="$E2E_REPO" show "$LIVE:scripts/get_maintainer.pl" > "$TRASH/gm/get_maintainer.pl"
git --git-dir="$E2E_REPO" show "$LIVE:MAINTAINERS" > "$TRASH/gm/MAINTAINERS"
gm() { (cd "$TRASH/gm" && perl get_maintainer.pl --no-tree --nogit --nogit-fallback \
	--nogit-chief-penguins --norolestats "$@") | sed ':a;N;$!ba;s/\n/, /g'; }
n=0
for p in "$TRASH/send"/000[1-9]-*.patch; do
	n=$((n + 1))
	# the script on the patch as it was before the headers were added (its
	# K: keywords would match the addresses themselves)
	grep -v '^To: \|^Cc: ' "$p" > "$TRASH/bare.patch"
	t_is "To: of $(basename "$p") is get_maintainer.pl's M:/R:" "$(gm --nol "$TRASH/bare.patch")" \
		"$(sed -n 's/^To: //p' "$p")"
	t_is "Cc: of $(basename "$p") is get_maintainer.pl's L:" "$(gm --nom --nor "$TRASH/bare.patch")" \
		"$(sed -n 's/^Cc: //p' "$p")"
done
t_is "checked on five patches" 5 "$n"
t_ok "a cover letter" grep -q "^Subject: \[PATCH 0/5\] Deprecated API conversions on $LIVE$" "$TRASH/send/0000-cover-letter.patch"

# two steps: a file the QEMU kernel builds (block) and a driver it does not
printf '%s\n' "$(cd "$S" && ls 0*-block-*.patch)" "$(cd "$S" && ls 0*-ath5k-*.patch)" > "$TRASH/two"
mkdir -p "$TRASH/s2"
while read -r f; do cp "$S/$f" "$TRASH/s2/"; done < "$TRASH/two"
cp "$TRASH/two" "$TRASH/s2/series"
t_exit "apply two steps" 0 "$KMIG" branch apply --base "$LIVE" --series "$TRASH/s2" --name test/live2
t_exit "branch test: build, boot, compile check" 0 \
	"$KMIG" branch test --name test/live2 --test boot --compile-config x86_64
cp "$TRASH/.stdout" "$TRASH/test.out"
cat "$TRASH/.stderr" >&2
t_ok "both pass, a file compiled each" sh -c "
	grep -q '^0001 pass .*1 of 1 file compiled (W=1, allmodconfig: x86_64)$' '$TRASH/test.out' &&
	grep -q '^0002 pass .*1 of 1 file compiled (W=1, allmodconfig: x86_64)$' '$TRASH/test.out'"
t_exit "apply again: same commits" 0 "$KMIG" branch apply --base "$LIVE" --series "$TRASH/s2" --name test/live2
t_is "the test results are kept" "pass pass" \
	"$(db "SELECT test_status FROM branch_steps WHERE branch = 'test/live2' ORDER BY position" | tr '\n' ' ' | sed 's/ $//')"
t_is "no QEMU process left" "" "$(qemu_left)"
t_done
