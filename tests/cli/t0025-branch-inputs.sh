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
t_is "the split commit's second half right after its first" "0001-c-twenty.patch
sub/0002-b-eleven.patch
0002-b-eleven.patch" "$(cat "$S2/series")"
t_exit "the export applies again" 0 k branch apply --base v1.0 --series "$S2" --name t/again
t_is "to the same tree" "$(git -C "$W" rev-parse t/sub^{tree})" "$(git -C "$W" rev-parse t/again^{tree})"

# export: a new first commit's patch goes first
git -C "$W" worktree add -q -b rebuild "$TRASH/wt4" v1.0
printf 'int p(void)\n{\n\treturn 0;\n}\n' > "$TRASH/wt4/b/p.c"
git -C "$TRASH/wt4" add b/p.c
git -C "$TRASH/wt4" commit -q -m "b: a prep file"
git -C "$TRASH/wt4" cherry-pick v1.0..t/again > /dev/null
git -C "$W" worktree remove "$TRASH/wt4"
git -C "$W" branch -q -f t/again rebuild
t_exit "export a branch with a new first commit" 0 k branch export --name t/again --series "$S2"
t_is "its patch first" "0003-b-a-prep-file.patch" "$(head -n 1 "$S2/series")"
t_exit "that export applies again" 0 k branch apply --base v1.0 --series "$S2" --name t/again2
t_is "to the same tree" "$(git -C "$W" rev-parse t/again^{tree})" "$(git -C "$W" rev-parse t/again2^{tree})"

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
sed 's|^|./|' "$S3/series.one" > "$S3/series.dot"
cat "$S3/series.one" "$S3/series.dot" > "$S3/series"
t_exit "a patch listed twice, once as ./NAME" 2 k branch apply --base v1.0 --series "$S3" --name t/bin
t_is "said" "kmig: patch '$(cat "$S3/series.dot")' is listed twice in the series" "$(cat "$TRASH/.stderr")"
printf '# nothing yet\n' > "$S3/series"
t_exit "an empty series" 2 k branch apply --base v1.0 --series "$S3" --name t/bin
t_is "said" "kmig: the series in '$S3' lists no patch" "$(cat "$TRASH/.stderr")"
t_is "the branch as it was" "$tip" "$(git -C "$W" rev-parse t/bin)"

# From: forms git am takes: "<addr>", "addr (Name)"; a message whose body
# starts with prose "From: ..." keeps it
S4="$TRASH/s4"
mkdir -p "$S4"
git -C "$W" checkout -q -b forms v1.0
sed -i 's/return 1;/return 12;/' "$W/b/b.c"
git -C "$W" commit -q -a -m "b: twelve" -m "From: the datasheet, rev 2: the value is 12."
git -C "$W" format-patch -q -1 -o "$S4"
git -C "$W" checkout -q master
(cd "$S4" && ls ./*.patch | sed 's|^\./||' > series)
t_exit "a body starting with a prose From:" 0 k branch apply --base v1.0 --series "$S4" --name t/prose
t_ok "the line stays in the message" sh -c "git -C '$W' log -1 --format=%B t/prose | grep -qx 'From: the datasheet, rev 2: the value is 12.'"
sed -i 's/^From: .* <.*>$/From: <s@example.org>/' "$S4"/0001-*.patch
t_exit "From: <addr>" 0 k branch apply --base v1.0 --series "$S4" --name t/angle
t_is "the address is the name" "s@example.org <s@example.org>" "$(author t/angle)"
sed -i 's/^From: <s@example.org>$/From: s@example.org (Sam Sender)/' "$S4"/0001-*.patch
t_exit "From: addr (Name)" 0 k branch apply --base v1.0 --series "$S4" --name t/comment
t_is "the comment is the name" "Sam Sender <s@example.org>" "$(author t/comment)"
sed -i 's/^From: s@example.org (Sam Sender)$/From: (Sam Sender) s@example.org/' "$S4"/0001-*.patch
t_exit "From: (Name) addr" 0 k branch apply --base v1.0 --series "$S4" --name t/comment2
t_is "the comment first" "Sam Sender <s@example.org>" "$(author t/comment2)"
sed -i 's/^From: (Sam Sender) s@example.org$/From: Sam <Sender <s@example.org>>/' "$S4"/0001-*.patch
t_exit "From: nested angle brackets" 0 k branch apply --base v1.0 --series "$S4" --name t/nested
t_is "the innermost is the address" "Sam <s@example.org>" "$(author t/nested)"
# an RFC 2047 in-body From:, decoded as git am decodes it
sed -i 's/^From: Sam <Sender <s@example.org>>$/From: A <a@x>/; /^Subject: /{n;s/^$/\nFrom: =?UTF-8?q?J=C3=B6rg?= <j@example.org>/}' "$S4"/0001-*.patch
t_ok "an encoded in-body From:" grep -q '^From: =?UTF-8?q?J=C3=B6rg?= <j@example.org>$' "$S4"/0001-*.patch
t_exit "an encoded in-body From:" 0 k branch apply --base v1.0 --series "$S4" --name t/encoded
t_is "decoded" "Jörg <j@example.org>" "$(author t/encoded)"

# a Kmig-Patch trailer naming a hidden path (.git/config) is no file name:
# export writes the patch under a name of its own
git -C "$W" worktree add -q "$TRASH/wt3" t/prose
git -C "$TRASH/wt3" commit -q --amend -m "b: twelve

Kmig-Patch: .git/config"
git -C "$W" worktree remove "$TRASH/wt3"
git init -q "$S4"
t_exit "export a trailer naming .git/config" 0 k branch export --name t/prose --series "$S4"
t_ok "not written there" sh -c "! grep -q '^From ' '$S4/.git/config'"
t_ok "written under a name of its own" grep -q "^wrote $S4/0002-b-twelve.patch$" "$TRASH/.stdout"

# a binary file and a text hunk that needs an offset (a rebase onto a
# newer release): the binary data goes with the relocated patch
S5="$TRASH/s5"
mkdir -p "$S5"
git -C "$W" checkout -q -b binoff v1.0
seq 1 30 > "$W/b/t.txt"
git_commit_all "$W" "b: a text file" && git -C "$W" tag v1.1
sed -i 's/^20$/twenty/' "$W/b/t.txt"
printf '\000binary\000' > "$W/b/o.bin"
git_commit_all "$W" "b: twenty, and a binary file"
git -C "$W" format-patch -q -1 -o "$S5"
git -C "$W" checkout -q v1.1
sed -i '1i a\nb\nc' "$W/b/t.txt"
git_commit_all "$W" "b: three lines first" && git -C "$W" tag v1.2
git -C "$W" checkout -q master
(cd "$S5" && ls ./*.patch | sed 's|^\./||' > series)
t_exit "binary and an offset hunk" 0 k branch apply --base v1.2 --series "$S5" --name t/binoff
t_ok "applied" grep -q '^applied ' "$TRASH/.stdout"
t_is "the binary file's content" "$(printf '\000binary\000' | git hash-object --stdin)" \
	"$(git -C "$W" rev-parse t/binoff:b/o.bin)"

# a commit made on the branch with git is not dropped by the next apply
S5="$TRASH/s5"
mkdir -p "$S5"
cp "$TRASH/plain/0001-c-twenty.patch" "$S5/"
printf '0001-c-twenty.patch\n' > "$S5/series"
hand_commit() {
	git -C "$W" checkout -q t/edit &&
	sed -i "s/return [0-9]*;/return $1;/" "$W/b/c.c" &&
	git -C "$W" commit -q -a -m "c: $1, by hand" &&
	git -C "$W" checkout -q master
}
t_exit "apply a one-patch series" 0 k branch apply --base v1.0 --series "$S5" --name t/edit
hand_commit 21
edited=$(git -C "$W" rev-parse t/edit)
t_exit "apply again over the hand-made commit" 2 k branch apply --base v1.0 --series "$S5" --name t/edit
t_ok "said, one line" sh -c "[ \$(wc -l < '$TRASH/.stderr') -eq 1 ] &&
	grep -q \"^kmig: 't/edit' has commits kmig did not make (tip \$(echo $edited | cut -c1-12), .*; --force re-creates it anyway\$\" '$TRASH/.stderr'"
t_is "the branch as it was" "$edited" "$(git -C "$W" rev-parse t/edit)"
t_exit "rebase onto it too" 2 k branch rebase --onto v1.0 --series "$S5" --name t/edit
t_exit "export it to the series" 0 k branch export --name t/edit --series "$S5"
t_exit "then apply takes it" 0 k branch apply --base v1.0 --series "$S5" --name t/edit
t_is "... with the hand-made change" "$(git -C "$W" show "$edited:b/c.c")" \
	"$(git -C "$W" show t/edit:b/c.c)"
hand_commit 22
edited=$(git -C "$W" rev-parse t/edit)
t_exit "--force re-creates it" 0 k branch apply --base v1.0 --series "$S5" --name t/edit --force
t_ok "... from the series, without the new hand-made commit" \
	test "$(git -C "$W" rev-parse t/edit)" != "$edited"
t_ok "the hand-made commit is in the reflog" sh -c "git -C '$W' reflog t/edit | grep -q '$(echo "$edited" | cut -c1-7)'"
t_exit "and apply goes on without --force" 0 k branch apply --base v1.0 --series "$S5" --name t/edit
# after an export the branch is in the series: re-making it on another
# base (rebase --onto --name) needs no --force; an edit not exported does
hand_commit 23
t_exit "rebase onto another base over an edit not exported" 2 \
	k branch rebase --onto v1.1 --series "$S5" --name t/edit
t_exit "export the edit" 0 k branch export --name t/edit --series "$S5"
t_exit "then rebase --onto another base, no --force" 0 \
	k branch rebase --onto v1.1 --series "$S5" --name t/edit
t_is "... on it, with the edit" "$(git -C "$W" rev-parse v1.1) return 23;" \
	"$(git -C "$W" merge-base v1.1 t/edit) $(git -C "$W" show t/edit:b/c.c | grep -o 'return [0-9]*;')"
hand_commit 24
t_exit "an edit made since on the new base still needs an export" 2 \
	k branch rebase --onto v1.2 --series "$S5" --name t/edit
t_ok "... said" grep -q "^kmig: 't/edit' has commits kmig did not make" "$TRASH/.stderr"
# a message amended on the branch (a Reviewed-by added, the same tree) is
# an edit too: neither another base nor the same one drops it unexported
t_exit "fixture: the branch re-made on v1.1" 0 \
	k branch rebase --onto v1.1 --series "$S5" --name t/edit --force
git -C "$W" checkout -q t/edit
git -C "$W" commit -q --amend -m "$(git -C "$W" log -1 --format=%B)

Reviewed-by: Important Person <ip@example.com>"
git -C "$W" checkout -q -
amended=$(git -C "$W" rev-parse t/edit)
t_exit "rebase onto another base over an amended message" 2 \
	k branch rebase --onto v1.2 --series "$S5" --name t/edit
t_exit "apply on the same base over it" 2 \
	k branch apply --base v1.1 --series "$S5" --name t/edit
t_is "the branch as it was" "$amended" "$(git -C "$W" rev-parse t/edit)"
t_exit "export the amended message" 0 k branch export --name t/edit --series "$S5"
t_exit "then rebase --onto another base takes it" 0 \
	k branch rebase --onto v1.2 --series "$S5" --name t/edit
t_ok "... with the Reviewed-by" sh -c "git -C '$W' log -1 --format=%B t/edit | grep -q '^Reviewed-by: Important Person'"
t_ok "--force in the help" sh -c "'$KMIG' help branch | grep -q 're-creates it anyway (the old tip stays in its reflog)'"

# a branch whose apply applied nothing (every patch upstream) is its base;
# the base tag moved on since: its old commit is in the new base, no edit
S6="$TRASH/s6"
mkdir -p "$S6"
cp "$TRASH/plain/0001-c-twenty.patch" "$S6/"
printf '0001-c-twenty.patch\n' > "$S6/series"
git -C "$W" checkout -q -b up master
sed -i 's/return 2;/return 20;/' "$W/b/c.c"
git -C "$W" commit -q -a -m "c: twenty, upstream"
git -C "$W" tag v1.up
t_exit "apply a series that is upstream" 0 k branch apply --base v1.up --series "$S6" --name t/up
t_ok "upstream, nothing applied" grep -q '^upstream ' "$TRASH/.stdout"
echo 'int e;' > "$W/b/e.c"
git -C "$W" add b/e.c && git -C "$W" commit -q -m "e: new"
git -C "$W" tag -f v1.up > /dev/null
git -C "$W" checkout -q master
t_exit "the base tag moved on: apply again" 0 k branch apply --base v1.up --series "$S6" --name t/up
t_is "on the new base" "$(git -C "$W" rev-parse v1.up)" "$(git -C "$W" rev-parse t/up)"

# export of a branch that does not exist: an error, and no directory made
t_exit "export --name of no branch" 2 k branch export --name t/nosuch --series "$TRASH/s-none"
t_is "said, one line" "kmig: no branch 't/nosuch' in '$W' (run 'kmig branch apply')" \
	"$(cat "$TRASH/.stderr")"
t_ok "no series directory left" test ! -e "$TRASH/s-none"

# export is all or nothing: a file it cannot write (a directory where the
# new commit's patch goes) leaves every patch and the series as they were
S7="$TRASH/s7"
mkdir -p "$S7"
cp "$TRASH/plain/0001-c-twenty.patch" "$S7/"
printf '0001-c-twenty.patch\n' > "$S7/series"
t_exit "apply a series to export" 0 k branch apply --base v1.0 --series "$S7" --name t/atomic
git -C "$W" worktree add -q "$TRASH/wt7" t/atomic
sed -i 's/return 20;/return 30;/' "$TRASH/wt7/b/c.c"
git -C "$TRASH/wt7" commit -q -a --amend --no-edit
sed -i 's/return 1;/return 40;/' "$TRASH/wt7/b/b.c"
git -C "$TRASH/wt7" commit -q -a -m "b: forty"
git -C "$W" worktree remove "$TRASH/wt7"
mkdir "$S7/0002-b-forty.patch"
s7sum=$(cat "$S7/0001-c-twenty.patch" "$S7/series" | md5sum)
t_exit "export with a directory where a patch goes" 2 k branch export --name t/atomic --series "$S7"
t_is "one line naming it" "kmig: cannot write '$S7/0002-b-forty.patch': Is a directory" \
	"$(cat "$TRASH/.stderr")"
t_is "the first patch and the series as they were" "$s7sum" \
	"$(cat "$S7/0001-c-twenty.patch" "$S7/series" | md5sum)"
t_is "nothing said written, no file left" "|0001-c-twenty.patch 0002-b-forty.patch series" \
	"$(cat "$TRASH/.stdout")|$(ls -A "$S7" | tr '\n' ' ' | sed 's/ $//')"
rmdir "$S7/0002-b-forty.patch"
t_exit "export once it is gone" 0 k branch export --name t/atomic --series "$S7"
t_ok "both written" sh -c "grep -q '^+	return 30;' '$S7/0001-c-twenty.patch' &&
	grep -q '^+	return 40;' '$S7/0002-b-forty.patch'"

# export --send writes each patch once, whole: the base's
# scripts/get_maintainer.pl reads it in the work area, and a run that
# fails leaves no patch in the directory
G="$TRASH/gm"
git init -q "$G"
mkdir -p "$G/scripts" "$G/b" "$TRASH/gser" "$TRASH/send"
printf 'BEE\nM:\tBee <bee@example.org>\nF:\tb/\n' > "$G/MAINTAINERS"
{
	echo '# a stand-in: logs how many patches the send directory holds as it runs'
	echo "exit 1 if -e '$TRASH/gm.fail';"
	echo "my \$n = () = glob('$TRASH/send/*.patch');"
	echo "open(my \$l, '>>', '$TRASH/gm.log') or die;"
	echo 'print $l "$n\n";'
	echo 'print "Bee <bee\@example.org>\n";'
} > "$G/scripts/get_maintainer.pl"
printf 'int b(void)\n{\n\treturn 1;\n}\n' > "$G/b/b.c"
git_commit_all "$G" init && git -C "$G" tag v1.0
sed -i 's/return 1;/return 2;/' "$G/b/b.c"
git -C "$G" commit -q -a -m "b: two"
sed -i 's/return 2;/return 3;/' "$G/b/b.c"
git -C "$G" commit -q -a -m "b: three"
git -C "$G" format-patch -q -2 -o "$TRASH/gser"
git -C "$G" reset -q --hard v1.0
(cd "$TRASH/gser" && ls -- *.patch > series)
g() { "$KMIG" --repo "$G" --db "$TRASH/g.db" "$@"; }
t_exit "apply on a tree with get_maintainer.pl" 0 g branch apply --base v1.0 --series "$TRASH/gser"
t_exit "export --send" 0 g branch export --base v1.0 --send "$TRASH/send"
t_is "get_maintainer.pl ran twice a patch, none in the directory yet" "0 0 0 0" \
	"$(tr '\n' ' ' < "$TRASH/gm.log" | sed 's/ $//')"
t_is "each patch said written once" 3 "$(grep -c '^wrote ' "$TRASH/.stdout")"
t_ok "with its To:" grep -q '^To: Bee <bee@example.org>$' "$TRASH/send/0002-b-three.patch"
touch "$TRASH/gm.fail"
t_exit "export --send where get_maintainer.pl fails" 2 g branch export --base v1.0 --send "$TRASH/send2"
t_is "said, one line" "kmig: scripts/get_maintainer.pl failed on '0001-b-two.patch'" "$(cat "$TRASH/.stderr")"
t_ok "no directory made" test ! -e "$TRASH/send2"

t_done
