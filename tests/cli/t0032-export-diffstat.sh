#!/bin/sh
# kmig branch export (the series and --send, cover letter included)
# writes the diffstat git format-patch writes: names shortened to 72
# columns, the graph scaled, renames as "dir/{old => new}/x.c", binary
# files as "Bin 5 -> 7 bytes", and the summary lines (create/delete mode,
# rename, mode change).  Compared with git format-patch of the same
# commits; apart from the lines kmig writes on purpose (12-digit index
# ids, its signature, [PATCH n/N], To:/Cc:, base-commit: with --send) only
# the binary patches' deflated data and libgit2's similarity of an
# inexact rename differ.  git format-patch runs without --stat=72: that is
# its width for mails anyway, and --stat alone would drop the summary lines.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
D=drivers/gpu/drm/amd/display/dc/dml2/dml21/src/dml2_core
mkdir -p "$W/$D" "$W/drivers/old/sub" "$W/scripts" "$W/fw"
printf 'DRIVERS\nM:\tA <a@example.org>\nF:\tdrivers/\n' > "$W/MAINTAINERS"
seq 1 200 > "$W/$D/dml2_core_dcn4_calcs_long_name.c"
seq 1 30 > "$W/drivers/old/sub/x.c"
seq 1 20 > "$W/drivers/old/sub/same.c"
printf '#!/bin/sh\necho hi\n' > "$W/scripts/x.sh"
seq 1 10 > "$W/gone.c"
printf 'a\0b\0c' > "$W/fw/blob.bin"
git_commit_all "$W" base && git -C "$W" tag v1.0
git -C "$W" checkout -q -b kmig/v1.0
git -C "$W" mv drivers/old drivers/new
sed -i 's/^5$/five/' "$W/drivers/new/sub/x.c"
git -C "$W" mv "$D/dml2_core_dcn4_calcs_long_name.c" "$D/dml2_core_dcn4_calcs_longer_name.c"
git_commit_all "$W" "drivers: renames"
chmod +x "$W/scripts/x.sh"
rm "$W/gone.c"
echo new > "$W/newfile.c"
git_commit_all "$W" "misc: modes"
printf 'a\0b\0c\0d' > "$W/fw/blob.bin"
printf '\0\1\2' > "$W/fw/new.bin"
sed -i 's/^1[0-9]*$/x&/' "$W/$D/dml2_core_dcn4_calcs_longer_name.c"
git_commit_all "$W" "fw: binaries"
git -C "$W" checkout -q master
git -C "$W" -c core.abbrev=12 format-patch -q -o "$TRASH/git" --no-signature \
	--cover-letter v1.0..kmig/v1.0

# the diffstat: from "---" to the first blank line
stat_of() { sed -n '/^---$/,/^$/p' "$1" | sed '1d;$d'; }
# the rest, apart from the lines kmig writes on purpose and the binary data
rest_of() {
	awk '/^GIT binary patch$/ { bin = 1; next }
	     /^diff --git |^-- $/ { bin = 0 }
	     !bin' "$1" |
	sed -e '/^---$/,/^$/d' \
	    -e '/^-- $/,$d' -e '/^Subject: /d' -e '/^To: /d' -e '/^Cc: /d' \
	    -e '/^base-commit: /d' -e 's/ (9[46]%)$/ (NN%)/' \
	    -e 's/^similarity index 9[46]%$/similarity index NN%/'
}

mkdir "$TRASH/s"
t_exit "export" 0 k branch export --base v1.0 --series "$TRASH/s"
t_exit "export --send" 0 k branch export --base v1.0 --send "$TRASH/send"
t_is "a rename: dir/{old => new}/x.c, a long one shortened" \
" ...cn4_calcs_long_name.c => dml2_core_dcn4_calcs_longer_name.c} | 0
 drivers/{old => new}/sub/same.c                                 | 0
 drivers/{old => new}/sub/x.c                                    | 2 +-
 3 files changed, 1 insertion(+), 1 deletion(-)
 rename drivers/gpu/drm/amd/display/dc/dml2/dml21/src/dml2_core/{dml2_core_dcn4_calcs_long_name.c => dml2_core_dcn4_calcs_longer_name.c} (100%)
 rename drivers/{old => new}/sub/same.c (100%)
 rename drivers/{old => new}/sub/x.c (96%)" \
	"$(stat_of "$TRASH/s/0001-drivers-renames.patch")"
for p in 0001-drivers-renames 0002-misc-modes 0003-fw-binaries; do
	for dir in s send; do
		t_is "$dir/$p: the diffstat git format-patch writes" \
			"$(stat_of "$TRASH/git/$p.patch" | sed 's/ (94%)$/ (96%)/')" \
			"$(stat_of "$TRASH/$dir/$p.patch")"
		t_is "$dir/$p: and the rest of its patch" \
			"$(rest_of "$TRASH/git/$p.patch")" "$(rest_of "$TRASH/$dir/$p.patch")"
	done
done
t_is "binary files: Bin, the summary lines" \
" .../dml2_core_dcn4_calcs_longer_name.c        | 222 +++++++++---------
 fw/blob.bin                                   | Bin 5 -> 7 bytes
 fw/new.bin                                    | Bin 0 -> 3 bytes
 3 files changed, 111 insertions(+), 111 deletions(-)
 create mode 100644 fw/new.bin" "$(stat_of "$TRASH/s/0003-fw-binaries.patch")"
t_is "the cover letter's diffstat: git format-patch --cover-letter's" \
	"$(sed -n '/^ .* | /,/^$/p' "$TRASH/git/0000-cover-letter.patch" | sed '$d; s/ (94%)$/ (96%)/')" \
	"$(stat_of "$TRASH/send/0000-cover-letter.patch")"
t_ok "no diffstat graph line over 72 columns" sh -c "! cat '$TRASH'/s/*.patch '$TRASH'/send/*.patch |
	sed -n '/^---$/,/^$/p' | grep ' | ' | grep -q '.\{73\}'"
t_done
