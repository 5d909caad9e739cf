#!/bin/sh
# kmig branch apply on series files as maintainers have them: a From:
# header with an address alone, a patch sent by another than its author
# (an in-body From:), CR LF line ends, a Date: without seconds; a series
# entry holding two messages is an error that changes nothing.  Each is
# what git am makes of the same file.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
S="$TRASH/series"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }
author() { git -C "$W" log -1 --format='%an <%ae>' "$1"; }

git init -q "$W"
mkdir -p "$W/a" "$W/b" "$S"
printf 'int a(char *d, const char *s)\n{\n\tstrcpy(d, s);\n\treturn 0;\n}\n' > "$W/a/a.c"
printf 'int b(void)\n{\n\treturn 1;\n}\n' > "$W/b/b.c"
printf 'int c(void)\n{\n\treturn 2;\n}\n' > "$W/b/c.c"
git_commit_all "$W" "init" && git -C "$W" tag v1.0
git -C "$W" checkout -q -b side
sed -i 's/return 1;/return 10;/' "$W/b/b.c"
GIT_AUTHOR_NAME='Jörg Müller' GIT_AUTHOR_EMAIL='jm@example.org' \
	git -C "$W" commit -q -a -m "b: ten"
sed -i 's/return 2;/return 20;/' "$W/b/c.c"
git -C "$W" commit -q -a -m "c: twenty"
git -C "$W" format-patch -q -2 -o "$S" --from='Sender <s@example.org>'
mkdir "$TRASH/plain"
git -C "$W" format-patch -q -1 -o "$TRASH/plain"
git -C "$W" checkout -q master
git -C "$W" branch -q -D side
(cd "$S" && ls ./*.patch | sed 's|^\./||' > series)
t_ok "the first patch has an in-body From:" grep -q '^From: Jörg Müller <jm@example.org>$' "$S/0001-b-ten.patch"

t_exit "a series sent by another" 0 k branch apply --base v1.0 --series "$S" --name t/inbody
t_is "the in-body From: is the author" "Jörg Müller <jm@example.org>" "$(author t/inbody~1)"
t_ok "and not in the message" sh -c "! git -C '$W' log -1 --format=%B t/inbody~1 | grep -q '^From:'"

# an address alone
sed -i 's/^From: .*$/From: s@example.org/' "$TRASH/plain/0001-c-twenty.patch"
printf '0001-c-twenty.patch\n' > "$TRASH/plain/series"
t_exit "From: with an address alone" 0 k branch apply --base v1.0 --series "$TRASH/plain" --name t/addr
t_is "the address is the name too" "s@example.org <s@example.org>" "$(author t/addr)"

# a Date: without seconds
sed -i 's/^\(Date: .* [0-9][0-9]:[0-9][0-9]\):[0-9][0-9] /\1 /' "$S/0002-c-twenty.patch"
t_ok "a date without seconds" grep -Eq '^Date: .* [0-9]{2}:[0-9]{2} [+-][0-9]{4}$' "$S/0002-c-twenty.patch"
t_exit "Date: without seconds" 0 k branch apply --base v1.0 --series "$S" --name t/date

# CR LF line ends
sed -i 's/$/\r/' "$S/0001-b-ten.patch"
t_exit "a patch with CR LF line ends" 0 k branch apply --base v1.0 --series "$S" --name t/crlf
t_ok "applied, not a conflict" grep -q '^applied .* 0001-b-ten.patch$' "$TRASH/.stdout"
t_is "the same tree as without the CRs" "$(git -C "$W" rev-parse t/date^{tree})" \
	"$(git -C "$W" rev-parse t/crlf^{tree})"

# two messages in one entry: an error, the branch as it was
tip=$(git -C "$W" rev-parse t/crlf)
cat "$S/0001-b-ten.patch" "$S/0002-c-twenty.patch" > "$S/two.mbox"
printf 'two.mbox\n' > "$S/series"
t_exit "an entry of two messages" 2 k branch apply --base v1.0 --series "$S" --name t/crlf
t_is "said, one line" "kmig: patch 'two.mbox' holds 2 messages: list each in the series as a file of its own" \
	"$(cat "$TRASH/.stderr")"
t_is "the branch as it was" "$tip" "$(git -C "$W" rev-parse t/crlf)"

# export: an entry in a subdirectory keeps its place and name
S2="$TRASH/s2"
mkdir -p "$S2/sub"
cp "$TRASH/plain/0001-c-twenty.patch" "$S2/0001-c-twenty.patch"
git -C "$W" checkout -q -b side2 v1.0
sed -i 's/return 1;/return 11;/' "$W/b/b.c"
git -C "$W" commit -q -a -m "b: eleven"
git -C "$W" format-patch -q -1 --stdout > "$S2/sub/0002-b-eleven.patch"
git -C "$W" checkout -q master
printf '0001-c-twenty.patch\nsub/0002-b-eleven.patch\n' > "$S2/series"
t_exit "a series with an entry in a subdirectory" 0 k branch apply --base v1.0 --series "$S2" --name t/sub
t_exit "export it" 0 k branch export --name t/sub --series "$S2"
t_ok "nothing dropped" sh -c "! grep -q dropped '$TRASH/.stdout'"
t_is "the series as it was" "0001-c-twenty.patch
sub/0002-b-eleven.patch" "$(cat "$S2/series")"
t_ok "no new file" test ! -e "$S2/0003-b-eleven.patch"

# export: a commit split in two, both with the trailer (git commit -C)
git -C "$W" worktree add -q "$TRASH/wt2" t/sub
printf 'int d(void)\n{\n\treturn 4;\n}\n' > "$TRASH/wt2/b/d.c"
git -C "$TRASH/wt2" add b/d.c
git -C "$TRASH/wt2" commit -q -C HEAD
git -C "$W" worktree remove "$TRASH/wt2"
t_exit "export a branch with two commits of one trailer" 0 k branch export --name t/sub --series "$S2"
t_is "three files written, each once" 3 "$(grep -c '^wrote ' "$TRASH/.stdout")"
t_is "three distinct" 3 "$(grep '^wrote ' "$TRASH/.stdout" | sort -u | wc -l)"
t_exit "the export applies again" 0 k branch apply --base v1.0 --series "$S2" --name t/again
t_is "to the same tree" "$(git -C "$W" rev-parse t/sub^{tree})" "$(git -C "$W" rev-parse t/again^{tree})"

# a binary file (git format-patch --binary, its default), with a text file
S3="$TRASH/s3"
mkdir -p "$S3"
git -C "$W" checkout -q -b bin v1.0
printf '\000\001\002\377 not text\000\n' > "$W/b/blob.bin"
printf 'int e(void)\n{\n\treturn 5;\n}\n' > "$W/b/e.c"
git_commit_all "$W" "b: a binary and a text file"
git -C "$W" format-patch -q -1 -o "$S3"
git -C "$W" checkout -q master
(cd "$S3" && ls ./*.patch | sed 's|^\./||' > series)
t_ok "a GIT binary patch" grep -q '^GIT binary patch$' "$S3"/0001-*.patch
t_exit "a patch with a binary file" 0 k branch apply --base v1.0 --series "$S3" --name t/bin
t_ok "applied" grep -q '^applied ' "$TRASH/.stdout"
t_is "the commit's tree" "$(git -C "$W" rev-parse bin^{tree})" "$(git -C "$W" rev-parse t/bin^{tree})"
t_exit "exported" 0 k branch export --name t/bin --series "$TRASH/s3x"
t_exit "and applied again" 0 k branch apply --base v1.0 --series "$TRASH/s3x" --name t/bin2
t_is "the same tree" "$(git -C "$W" rev-parse bin^{tree})" "$(git -C "$W" rev-parse t/bin2^{tree})"

# a patch listed twice, an empty series: errors, the branch as it was
tip=$(git -C "$W" rev-parse t/bin)
cp "$S3/series" "$S3/series.one"
cat "$S3/series.one" "$S3/series.one" > "$S3/series"
t_exit "a patch listed twice" 2 k branch apply --base v1.0 --series "$S3" --name t/bin
t_is "said" "kmig: patch '$(cat "$S3/series.one")' is listed twice in the series" "$(cat "$TRASH/.stderr")"
printf '# nothing yet\n' > "$S3/series"
t_exit "an empty series" 2 k branch apply --base v1.0 --series "$S3" --name t/bin
t_is "said" "kmig: the series in '$S3' lists no patch" "$(cat "$TRASH/.stderr")"
t_is "the branch as it was" "$tip" "$(git -C "$W" rev-parse t/bin)"

t_done
