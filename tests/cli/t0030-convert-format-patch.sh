#!/bin/sh
# The patch kmig convert writes is the one git format-patch makes of the
# same commit (git am of it): headers, message, diff, and the diffstat at
# format-patch's 72 columns, a long path shortened to ".../name.c" and the
# graph of a file of many changed lines scaled to fit; only the commit id
# of the "From " line (none yet) and the signature differ.
. "$(dirname "$0")/../lib.sh"

t_need_spatch

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { SOURCE_DATE_EPOCH=1700000000 "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
D="$W/drivers/gpu/drm/amd/display/dc/dml2/dml21/src/dml2_core"
mkdir -p "$D"
printf 'AMD DISPLAY\nM:\tA <a@example.org>\nF:\tdrivers/gpu/drm/amd/\n' > "$W/MAINTAINERS"
{ echo 'void g(char *a, char *b)'; echo '{'
  seq 1 150 | sed 's/.*/\tstrlcpy(a, b, &);/'; echo '}'; } > "$D/dml2_core_dcn4_calcs_long_name.c"
printf 'void h(char *a, char *b)\n{\n\tstrlcpy(a, b, 3);\n}\n' > "$W/drivers/gpu/drm/amd/x.c"
{ echo 'void i(char *a, char *b)'; echo '{'
  seq 1 40 | sed 's/.*/\tstrlcpy(a, b, &);/'; echo '}'; } > "$W/drivers/gpu/drm/amd/y.c"
git_commit_all "$W" one && git -C "$W" tag v1.0
t_exit "scan" 0 k scan
t_exit "convert" 0 k convert strlcpy --series "$TRASH/s" --jobs 1
P="$TRASH/s/0001-drm-amd-Replace-strlcpy-with-strscpy.patch"
t_ok "git am takes it" sh -c "git clone -q '$W' '$TRASH/am' && cd '$TRASH/am' &&
	git checkout -q v1.0 && git am -q '$P'"
git -C "$TRASH/am" -c core.abbrev=12 format-patch -1 --stdout > "$TRASH/git.patch"
t_is "the diffstat git format-patch writes" \
" .../dml2_core_dcn4_calcs_long_name.c          | 300 +++++++++---------
 drivers/gpu/drm/amd/x.c                       |   2 +-
 drivers/gpu/drm/amd/y.c                       |  80 ++---
 3 files changed, 191 insertions(+), 191 deletions(-)" \
	"$(sed -n '/^---$/,/^$/p' "$P" | sed '1d;$d')"
t_is "and the rest of git format-patch's patch" "" \
	"$(diff "$P" "$TRASH/git.patch" | grep '^[<>]' | grep -v '^[<>] From [0-9a-f]* Mon Sep 17' |
	   grep -v '^< kmig 0.1.0$' | grep -v '^> [0-9.]*$')"
t_done
