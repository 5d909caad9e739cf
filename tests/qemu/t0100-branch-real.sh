#!/bin/sh
# The conversion branch on the real kernel (Debian v6.1.192 and v6.12.118):
# the committed series applies to v6.1.192 (the RDS fix is already there,
# refactored, so it is superseded, never a conflict), it is upstream or
# superseded on v6.12.118 (strlcpy is gone there), git am takes the
# generated patches too, and kmig convert regenerates them.
#
# The kernel repository is shared between runs (tests/e2e-lib.sh:
# $E2E_LINUX) and is imported ("kmig import 6.1.192 6.12.118") when a tag
# is missing.  The branches made here are named kmig/e2e/<tag>; the
# database is per run.
. "$(dirname "$0")/../e2e-lib.sh"
REPO="$E2E_LINUX"
DB="$TRASH/kmig.db"
# The v6.1.192 part of branch-patches/: the RDS fix and the strlcpy
# conversions (0001-0013); the v7.3.4 conversions after them are t0130's.
SERIES="$TRASH/series-v6.1"
mkdir -p "$SERIES"
sed -n '1,/^0013-/p' "$TOP/branch-patches/series" > "$SERIES/series"
for f in $(grep '^[^#]' "$SERIES/series"); do cp "$TOP/branch-patches/$f" "$SERIES/"; done
RDS=0001-net-rds-remove-user-triggered-WARN_ON-in-rds_sendmsg.patch
k() { "$KMIG" --repo "$REPO" --db "$DB" "$@"; }

# statuses FILE - the status words of an apply output, one line
statuses() { grep -v '^ ' "$1" | sed '$d' | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//'; }

t_ok "the kernel repository has v6.1.192 and v6.12.118" e2e_ensure_history
NPATCH=$(grep -c '^[^#]' "$SERIES/series")
t_ok "the series has the RDS fix and at least 10 generated patches" \
	test "$(sed -n '2p' "$SERIES/series")" = "$RDS" -a "$NPATCH" -ge 11
t_ok "the generated patches cover at least 5 subsystems" sh -c "
	grep -h '^Generated with the Coccinelle' -A2 '$SERIES'/0*.patch |
	grep -o '^\"[^\"]*\"' | sort -u | wc -l | { read n; test \$n -ge 5; }"

t_exit "apply on v6.1.192" 0 k branch apply --base v6.1.192 --series "$SERIES" --name kmig/e2e/v6.1.192
cp "$TRASH/.stdout" "$TRASH/apply61"
t_is "RDS superseded, every strlcpy patch applied" \
	"superseded$(printf ' applied%.0s' $(seq 2 "$NPATCH"))" "$(statuses "$TRASH/apply61")"
t_ok "RDS evidence: the WARN_ON sites it removes are absent from message.c" \
	grep -q 'net/rds/message.c hunk 1/3 @@ -308,16 +308,27 @@: pre-image not found; removes warn-on "WARN_ON(rm->m_used_sgs + nents > rm->m_total_sgs);" (absent), removes warn-on "WARN_ON(!nents);" (absent)' "$TRASH/apply61"
t_ok "RDS evidence summary" grep -q "every tracked use the patch removes (2) is absent from the tree" "$TRASH/apply61"
t_is "one commit per applied patch" "$((NPATCH - 1))" \
	"$(git --git-dir="$REPO" rev-list --count v6.1.192..kmig/e2e/v6.1.192)"
t_is "every commit carries its Kmig-Patch trailer" "$(sed -n '3,$p' "$SERIES/series" | grep -v '^#')" \
	"$(git --git-dir="$REPO" log --reverse --format='%(trailers:key=Kmig-Patch,valueonly)' v6.1.192..kmig/e2e/v6.1.192 | grep -v '^$')"
t_exit "status" 0 k branch status --name kmig/e2e/v6.1.192
t_ok "status summary" grep -q "^$NPATCH patches: $((NPATCH - 1)) applied, 0 upstream, 1 superseded, 0 conflict$" "$TRASH/.stdout"

t_exit "rebase onto v6.12.118" 0 k branch rebase --onto v6.12.118 --series "$SERIES" --name kmig/e2e/v6.12.118
cp "$TRASH/.stdout" "$TRASH/apply612"
t_ok "RDS is upstream or superseded on v6.12.118" sh -c \
	"statuses() { grep -v '^ ' \"\$1\" | sed '\$d' | cut -d' ' -f1; }; statuses '$TRASH/apply612' | head -n 1 | grep -qx 'upstream\|superseded'"
t_is "every patch is upstream or superseded there, none conflicts" "" \
	"$(statuses "$TRASH/apply612" | tr ' ' '\n' | grep -vx 'upstream\|superseded')"
t_ok "the evidence is shown" grep -q "already applied (post-image at line" "$TRASH/apply612"
t_is "nothing to commit on v6.12.118" 0 \
	"$(git --git-dir="$REPO" rev-list --count v6.12.118..kmig/e2e/v6.12.118)"

# git am on a checkout of v6.1.192 (a temporary clone sharing the objects)
t_ok "git am takes the generated series on v6.1.192" sh -c "
	git clone -q --shared --no-checkout '$REPO' '$TRASH/am' && cd '$TRASH/am' &&
	git checkout -q -b am v6.1.192 && git am -q '$SERIES'/00[0-9][0-9]-*.patch 2> /dev/null;
	git am --skip > /dev/null 2>&1 || true
	test \"\$(git rev-list --count v6.1.192..HEAD)\" = $((NPATCH - 1))"
t_is "git am and kmig branch apply give the same tree" \
	"$(git --git-dir="$REPO" rev-parse 'kmig/e2e/v6.1.192^{tree}')" \
	"$(git -C "$TRASH/am" rev-parse 'HEAD^{tree}' 2> /dev/null)"
rm -rf "$TRASH/am"

# kmig convert regenerates the committed patches from a scan of v6.1.192
t_exit "scan v6.1.192" 0 k scan --tags v6.1.192
mkdir "$TRASH/gen"
t_exit "convert two of the series' sections again" 0 \
	k convert strlcpy --base v6.1.192 --series "$TRASH/gen" \
	--subsystem "AACRAID SCSI RAID DRIVER" --subsystem "KEYS/KEYRINGS"
diffpart() { sed -n '/^diff --git/,/^-- $/p' "$1"; }
t_is "the regenerated aacraid patch has the committed diff" \
	"$(diffpart "$SERIES"/0*-scsi-aacraid-Replace-strlcpy-with-strscpy.patch)" \
	"$(diffpart "$TRASH"/gen/0001-scsi-aacraid-Replace-strlcpy-with-strscpy.patch)"
t_is "the regenerated keys patch has the committed diff" \
	"$(diffpart "$SERIES"/0*-security-keys-Replace-strlcpy-with-strscpy.patch)" \
	"$(diffpart "$TRASH"/gen/0002-security-keys-Replace-strlcpy-with-strscpy.patch)"
t_exit "convert over the whole release (dry run)" 0 \
	k convert strlcpy --base v6.1.192 --series "$TRASH/gen" --dry-run
t_ok "reports what it cannot convert" grep -q "^not converted: " "$TRASH/.stdout"
t_ok "at least 10 sections have something to convert" sh -c "
	test \$(grep -c '^would write ' '$TRASH/.stdout') -ge 10"

git --git-dir="$REPO" branch -q -D kmig/e2e/v6.1.192 kmig/e2e/v6.12.118 2> /dev/null
t_done
