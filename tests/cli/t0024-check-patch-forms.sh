#!/bin/sh
# kmig check --patch on the forms patches arrive in beyond git
# format-patch: a classic "diff -up file.orig file", a CRLF mail, an mbox
# from lore or b4 ("From mboxrd@z ..." separators), git diff --no-prefix
# creating files in a new directory, a cover letter in a file of its own;
# and the offset notes name the file as the report does (a rename, a
# C-quoted name).  Each gives what "kmig check" of the same commit gives.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }
uses() { grep '^>>' "$TRASH/.stdout"; }

git init -q "$W"
mkdir -p "$W/drivers" "$W/net"
cat > "$W/drivers/a.c" <<'EOC'
#include <linux/string.h>

static int init(int x)
{
	BUG_ON(x > 100);
	return 0;
}
EOC
cat > "$W/net/b.c" <<'EOC'
int net_init(int y)
{
	if (y)
		return 1;
	return 0;
}
EOC
git_commit_all "$W" "base" && git -C "$W" tag v1.0

# diff -up: "--- drivers/a.c.orig" "+++ drivers/a.c", -p0 by the new name
cp "$W/drivers/a.c" "$W/drivers/a.c.orig"
sed -i 's/^\tBUG_ON(x > 100);$/&\n\tBUG_ON(x < 0);/' "$W/drivers/a.c"
(cd "$W" && diff -up drivers/a.c.orig drivers/a.c) > "$TRASH/orig.diff"
rm "$W/drivers/a.c.orig"
git_commit_all "$W" "drivers: a second BUG_ON" && git -C "$W" tag orig
t_ok "a diff of a .orig copy" grep -q '^--- drivers/a.c.orig' "$TRASH/orig.diff"
t_exit "check of the commit" 1 k check orig
uses > "$TRASH/orig.want"
t_exit "diff -up file.orig file: -p0 by the new name" 1 \
	k check --base v1.0 --patch "$TRASH/orig.diff"
t_is "diff -up: the same use" "$(cat "$TRASH/orig.want")" "$(uses)"

# a mail with CR LF line ends: git am reads it without the CRs
git -C "$W" checkout -q -b b-crlf v1.0
sed -i 's/^\tif (y)$/\tstrcpy(buf, "x");\n&/' "$W/net/b.c"
git_commit_all "$W" "net: a strcpy" && git -C "$W" tag crlf
git -C "$W" format-patch -q -1 --stdout crlf | sed 's/$/\r/' > "$TRASH/crlf.patch"
t_ok "every line ends in CR LF" sh -c "! grep -qv \"\$(printf '\\r')\$\" '$TRASH/crlf.patch'"
t_exit "check of the CR LF commit" 1 k check crlf
uses > "$TRASH/crlf.want"
t_exit "a CR LF mail" 1 k check --base v1.0 --patch "$TRASH/crlf.patch"
t_is "CR LF: the same use" "$(cat "$TRASH/crlf.want")" "$(uses)"
t_is "CR LF: the subject without its CR" \
	"kmig check: $TRASH/crlf.patch (\"net: a strcpy\") on v1.0" "$(head -n 1 "$TRASH/.stdout")"

# a mail whose body is quoted-printable or base64: git am decodes it
git -C "$W" checkout -q -b b-qp v1.0
sed -i 's/^\tif (y)$/\tstrcpy(buf, "x"); y = 2;\n&/' "$W/net/b.c"
git_commit_all "$W" "net: a strcpy and an =" && git -C "$W" tag qp
git -C "$W" format-patch -q -1 --stdout qp > "$TRASH/8bit.patch"
# the body with each '=' as =3D and the strcpy() line broken by a soft break
awk 'body { gsub(/=/, "=3D"); sub(/strcpy\(/, "strcpy(=\n") }
     /^Content-Transfer-Encoding:/ && !body { next }
     /^$/ && !body { body = 1; print "Content-Transfer-Encoding: quoted-printable" }
     { print }' "$TRASH/8bit.patch" > "$TRASH/qp.patch"
t_ok "a soft line break in the quoted-printable body" grep -qx '+	strcpy(=' "$TRASH/qp.patch"
{
	sed -n '/^$/q; /^Content-Transfer-Encoding:/d; p' "$TRASH/8bit.patch"
	printf 'Content-Transfer-Encoding: base64\n\n'
	sed '1,/^$/d' "$TRASH/8bit.patch" | base64
} > "$TRASH/b64.patch"
for f in qp b64; do
	git -C "$W" checkout -q -b "b-am-$f" v1.0
	t_ok "git am takes the $f mail" git -C "$W" am -q "$TRASH/$f.patch"
	t_is "... to the commit's tree" "$(git -C "$W" rev-parse qp^{tree})" \
		"$(git -C "$W" rev-parse HEAD^{tree})"
done
t_exit "check of the commit" 1 k check qp
uses > "$TRASH/qp.want"
t_ok "... its use has the whole line" grep -qF 'strcpy(buf, "x"); y = 2;' "$TRASH/.stdout"
t_exit "a quoted-printable mail" 1 k check --base v1.0 --patch "$TRASH/qp.patch"
t_is "quoted-printable: the same use" "$(cat "$TRASH/qp.want")" "$(uses)"
t_ok "quoted-printable: the decoded text" grep -qF 'strcpy(buf, "x"); y = 2;' "$TRASH/.stdout"
t_exit "a base64 mail" 1 k check --base v1.0 --patch "$TRASH/b64.patch"
t_is "base64: the same use" "$(cat "$TRASH/qp.want")" "$(uses)"
t_ok "base64: the decoded text" grep -qF 'strcpy(buf, "x"); y = 2;' "$TRASH/.stdout"
# base64 a line at a time, each line padded: git am decodes it too
{
	sed -n '/^$/q; /^Content-Transfer-Encoding:/d; p' "$TRASH/8bit.patch"
	printf 'Content-Transfer-Encoding: base64\n\n'
	sed '1,/^$/d' "$TRASH/8bit.patch" |
		while IFS= read -r l; do printf '%s\n' "$l" | base64 -w0; echo; done
} > "$TRASH/b64l.patch"
t_ok "a padded line inside the base64 body" grep -q '=.' "$TRASH/b64l.patch"
git -C "$W" checkout -q -b b-am-b64l v1.0
t_ok "git am takes the mail base64-encoded line by line" git -C "$W" am -q "$TRASH/b64l.patch"
t_exit "a mail base64-encoded line by line" 1 k check --base v1.0 --patch "$TRASH/b64l.patch"
t_is "base64 line by line: the same use" "$(cat "$TRASH/qp.want")" "$(uses)"
# a MIME multipart mail: the message as text and HTML, the patch attached
# base64-encoded under a type that is no text; git am takes the patch
{
	sed -n '/^$/q; /^Content-Transfer-Encoding:/d; /^Content-Type:/d; /^MIME-Version:/d; p' \
		"$TRASH/8bit.patch"
	printf 'MIME-Version: 1.0\nContent-Type: multipart/mixed;\n boundary="=-kmig-1"\n\n'
	printf 'This is a multi-part message in MIME format.\n--=-kmig-1\n'
	printf 'Content-Type: multipart/alternative; boundary=alt\n\n--alt\n'
	printf 'Content-Type: text/plain; charset=us-ascii\n\nA strcpy, attached.\n--alt\n'
	printf 'Content-Type: text/html\n\n<p>A strcpy, attached.</p>\n--alt--\n\n'
	printf -- '--=-kmig-1\nContent-Type: application/octet-stream; name="0001-a.patch"\n'
	printf 'Content-Transfer-Encoding: base64\n'
	printf 'Content-Disposition: attachment; filename="0001-a.patch"\n\n'
	sed '1,/^---$/d' "$TRASH/8bit.patch" | base64
	printf -- '--=-kmig-1--\n'
} > "$TRASH/mime.patch"
t_ok "the attachment is encoded" grep -q '^--=-kmig-1--$' "$TRASH/mime.patch"
git -C "$W" checkout -q -b b-am-mime v1.0
t_ok "git am takes the multipart mail" git -C "$W" am -q "$TRASH/mime.patch"
t_is "... to the commit's tree" "$(git -C "$W" rev-parse qp^{tree})" \
	"$(git -C "$W" rev-parse HEAD^{tree})"
t_exit "a multipart mail with the patch attached" 1 k check --base v1.0 --patch "$TRASH/mime.patch"
t_is "multipart: the same use" "$(cat "$TRASH/qp.want")" "$(uses)"
t_ok "multipart: the decoded text" grep -qF 'strcpy(buf, "x"); y = 2;' "$TRASH/.stdout"
t_ok "multipart: the mail's subject" grep -qF '("net: a strcpy and an =")' "$TRASH/.stdout"

# an mbox from lore or b4: other "From " separators, a series of two
git -C "$W" checkout -q -b b-lore v1.0
printf 'void h(char *d)\n{\n}\n' > "$W/drivers/h.c"
git_commit_all "$W" "drivers: add h.c"
sed -i 's/^{$/{\n\tstrcpy(d, "x");/' "$W/drivers/h.c"
git_commit_all "$W" "drivers: h: copy" && git -C "$W" tag lore
git -C "$W" format-patch -q --stdout v1.0..lore |
	sed -E 's/^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$/From mboxrd@z Thu Jan  1 00:00:00 1970/' \
	> "$TRASH/lore.mbox"
t_is "two lore separators" 2 "$(grep -c '^From mboxrd@z ' "$TRASH/lore.mbox")"
t_exit "a lore mbox" 1 k check --base v1.0 --patch "$TRASH/lore.mbox"
t_ok "lore: a series of 2" grep -q "series of 2 patches" "$TRASH/.stdout"
t_ok "lore: the use, in the second patch" grep -q "in \[PATCH 2/2\] drivers: h: copy" "$TRASH/.stdout"
sed -i 's/^From mboxrd@z Thu Jan  1 00:00:00 1970$/From git@z Thu Jan 1 00:00:00 1970 +0000/' "$TRASH/lore.mbox"
t_exit "separators with a zone" 1 k check --base v1.0 --patch "$TRASH/lore.mbox"
t_ok "with a zone: a series of 2" grep -q "series of 2 patches" "$TRASH/.stdout"

# git diff --no-prefix that only creates files in a new directory
git -C "$W" checkout -q -b b-noprefix v1.0
mkdir -p "$W/drivers/newdrv"
printf 'void g(char *d)\n{\n\tstrcpy(d, "a");\n}\n' > "$W/drivers/newdrv/n.c"
git -C "$W" add -A
git -C "$W" diff --cached --no-prefix > "$TRASH/np.diff"
git -C "$W" commit -q -m "drivers: newdrv" && git -C "$W" tag noprefix
t_exit "check of the --no-prefix commit" 1 k check noprefix
uses > "$TRASH/np.want"
t_exit "--no-prefix creating a new directory" 1 k check --base v1.0 --patch "$TRASH/np.diff"
t_is "--no-prefix: the file's whole path" "$(cat "$TRASH/np.want")" "$(uses)"
printf 'drivers/newdrv/ strcpy  # a new driver\n' > "$TRASH/allow"
t_exit "--no-prefix: a directory entry allows it" 0 \
	k check --allow "$TRASH/allow" --base v1.0 --patch "$TRASH/np.diff"

# git diff with other prefixes (diff.mnemonicPrefix: "i/", "w/") creating
# files in a new directory stays -p1
git -C "$W" checkout -q -b b-mnemonic v1.0
mkdir -p "$W/net/newdir"
printf 'static int f(int x)\n{\n\tBUG_ON(x);\n\treturn 0;\n}\n' > "$W/net/newdir/m.c"
git -C "$W" add -A
git -C "$W" -c diff.mnemonicPrefix=true diff --cached > "$TRASH/mnem.diff"
git -C "$W" commit -q -m "net: newdir" && git -C "$W" tag mnemonic
t_ok "a diff with the i/ prefix" grep -q '^+++ i/net/newdir/m.c' "$TRASH/mnem.diff"
t_exit "the i/ prefix creating a new directory" 1 k check --base v1.0 --patch "$TRASH/mnem.diff"
t_ok "i/ prefix: -p1" grep -q '^>> net/newdir/m.c:3: bug-on' "$TRASH/.stdout"

# a cover letter in a file of its own, before the patches
rm -rf "$TRASH/series"
git -C "$W" format-patch -q --cover-letter -o "$TRASH/series" v1.0..lore
t_exit "a cover letter file, then the patches" 1 k check --base v1.0 \
	--patch "$TRASH/series/0000-cover-letter.patch" \
	--patch "$TRASH/series/0001-drivers-add-h.c.patch" \
	--patch "$TRASH/series/0002-drivers-h-copy.patch"
t_ok "cover file: its subject names the series" grep -q '\*\*\* SUBJECT HERE \*\*\*' "$TRASH/.stdout"
t_ok "cover file: the use" grep -q "drivers/h.c:3: strcpy" "$TRASH/.stdout"
t_exit "a cover letter alone" 2 k check --base v1.0 --patch "$TRASH/series/0000-cover-letter.patch"
t_is "cover alone: said" "kmig: patch '$TRASH/series/0000-cover-letter.patch' contains no diff" \
	"$(cat "$TRASH/.stderr")"

# offset notes name the file as the report does: a rename, a quoted name
git -C "$W" checkout -q -b b-offs v1.0
f="drivers/café.c"
printf '/* 1 */\nvoid q(char *d)\n{\n\tstrcpy(d, "x");\n}\n' > "$W/$f"
git_commit_all "$W" "drivers: café" && git -C "$W" tag offs0
git -C "$W" mv drivers/a.c drivers/a_new.c
sed -i 's/^\tBUG_ON(x > 100);$/&\n\tBUG_ON(x < 0);/' "$W/drivers/a_new.c"
sed -i 's/^\tstrcpy(d, "x");$/&\n\tstrcpy(d, "y");/' "$W/$f"
git_commit_all "$W" "rename and edit" && git -C "$W" tag offs1
git -C "$W" format-patch -q -M -1 --stdout offs1 > "$TRASH/offs.patch"
git -C "$W" checkout -q offs0
sed -i '1i /* one */\n/* two */\n/* three */' "$W/drivers/a.c" "$W/$f"
git_commit_all "$W" "shift" && git -C "$W" tag offs2
t_exit "offsets: a rename and a quoted name" 1 k check --base offs2 --patch "$TRASH/offs.patch"
t_ok "offsets: the renamed file's new name" \
	grep -qx "note: drivers/a_new.c: hunk #1 applied at line 6 (offset +3 lines)" "$TRASH/.stdout"
t_ok "offsets: the quoted name decoded" \
	grep -qx "note: drivers/café.c: hunk #1 applied at line 5 (offset +3 lines)" "$TRASH/.stdout"
# a file whose name holds " => ", not renamed, keeps its whole name
git -C "$W" checkout -q offs0
printf '/* 1 */\nvoid r(char *d)\n{\n\tstrcpy(d, "x");\n}\n' > "$W/drivers/x => y.c"
git_commit_all "$W" "an arrow" && git -C "$W" tag arrow0
sed -i 's/^\tstrcpy(d, "x");$/&\n\tstrcpy(d, "z");/' "$W/drivers/x => y.c"
git_commit_all "$W" "another strcpy" && git -C "$W" tag arrow1
git -C "$W" format-patch -q -1 --stdout arrow1 > "$TRASH/arrow.patch"
git -C "$W" checkout -q arrow0
sed -i '1i /* one */\n/* two */' "$W/drivers/x => y.c"
git_commit_all "$W" "shift" && git -C "$W" tag arrow2
t_exit "offsets: a name with an arrow" 1 k check --base arrow2 --patch "$TRASH/arrow.patch"
t_ok "offsets: the arrow's whole name" \
	grep -qx "note: drivers/x => y.c: hunk #1 applied at line 4 (offset +2 lines)" "$TRASH/.stdout"
t_exit "offsets: json" 1 k check --format json --base offs2 --patch "$TRASH/offs.patch"
t_ok "json: the offsets' paths are the uses' paths" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
offs = sorted(o["path"] for o in d["change"]["offsets"])
new = sorted(set(n["path"] for n in d["new"]))
assert offs == new == ["drivers/a_new.c", "drivers/café.c"], (offs, new)
' "$TRASH/.stdout"

# git diff --no-prefix (diff.noprefix) of files it gives no "---" line: a
# mode change, a binary file changed; -p0 found from their "diff --git"
# line, as from any other's
git -C "$W" checkout -q -b b-np v1.0
printf 'fw\0\1' > "$W/drivers/fw.bin"
git_commit_all "$W" "firmware" && git -C "$W" tag np0
chmod +x "$W/net/b.c"
printf 'fw\0\2' > "$W/drivers/fw.bin"
git_commit_all "$W" "net: mode; new firmware" && git -C "$W" tag np1
git -C "$W" diff --no-prefix --binary np0 np1 > "$TRASH/np-mode.diff"
t_ok "no-prefix: a mode change and a binary file, no '---' line" \
	sh -c "! grep -q '^--- ' '$TRASH/np-mode.diff'"
t_exit "no-prefix: a mode change and a binary change" 0 \
	k check --base np0 --patch "$TRASH/np-mode.diff"
t_is "no-prefix: applied, stderr silent" "" "$(cat "$TRASH/.stderr")"
t_is "no-prefix: nothing added" "0 new deprecated uses (0 allowed)" \
	"$(tail -n 1 "$TRASH/.stdout")"
git -C "$W" diff --no-prefix np0 np1 -- net/b.c > "$TRASH/np-mode-only.diff"
t_exit "no-prefix: a mode change alone" 0 \
	k check --base np0 --patch "$TRASH/np-mode-only.diff"
t_is "no-prefix: a mode change alone, stderr silent" "" "$(cat "$TRASH/.stderr")"

# git diff without --binary ("git diff HEAD | kmig check --patch -" over
# a changed firmware file): "Binary files ... differ" has no data git
# apply could use; out of scope, it is left out and the rest checked
printf 'fw\0\3' > "$W/drivers/fw.bin"
sed -i 's/^\tif (y)$/\tBUG_ON(!y);\n&/' "$W/net/b.c"
git_commit_all "$W" "net: a BUG_ON; newer firmware" && git -C "$W" tag np2
git -C "$W" diff np1 np2 > "$TRASH/nodata.diff"
t_ok "a binary file without its data" grep -q '^Binary files a/drivers/fw.bin and b/drivers/fw.bin differ$' "$TRASH/nodata.diff"
t_exit "check of the commit" 1 k check np2
uses > "$TRASH/nodata.want"
t_exit "a binary file without its data, out of scope" 1 \
	k check --base np1 --patch "$TRASH/nodata.diff"
t_is "no data: the same use" "$(cat "$TRASH/nodata.want")" "$(uses)"
t_is "no data: stderr silent" "" "$(cat "$TRASH/.stderr")"
git -C "$W" diff np1 np2 -- drivers/fw.bin > "$TRASH/nodata-only.diff"
t_exit "a binary file without its data alone" 0 \
	k check --base np1 --patch "$TRASH/nodata-only.diff"

t_done
