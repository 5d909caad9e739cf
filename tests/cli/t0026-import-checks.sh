#!/bin/sh
# kmig import refuses what it cannot do before it changes anything: a tag
# that is no kernel release tag (and a journal an older kmig left with
# one), usage errors before apt runs, a VERSION that is none, a --repo
# that is not bare, and a rewrite of history kmig import did not write.
. "$(dirname "$0")/../lib.sh"

REPO="$TRASH/linux.git"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$REPO" --db "$DB" "$@"; }

# one_line "desc" STATUS command... - exits STATUS with exactly one line on
# stderr and nothing on stdout
one_line() {
	_ol_desc=$1; shift
	t_exit "$_ol_desc" "$@"
	t_is "$_ol_desc: one line on stderr" 1 "$(wc -l < "$TRASH/.stderr")"
	t_is "$_ol_desc: nothing on stdout" "" "$(cat "$TRASH/.stdout")"
}

# mk_tarball NAME VERSION - $TRASH/NAME, a tree whose Makefile says VERSION
mk_tarball() {
	mkdir -p "$TRASH/src-$2/linux"
	printf 'VERSION = %s\n' "$2" > "$TRASH/src-$2/linux/Makefile"
	printf 'int f(void) { return %s; }\n' "${2%%.*}" > "$TRASH/src-$2/linux/a.c"
	tar -C "$TRASH/src-$2" -czf "$TRASH/$1" linux
}
mk_tarball t1.tgz 1.0
mk_tarball t2.tgz 2.0

# --tag: a kernel release tag, checked before anything is written
for tag in 'v2..0' 'v1 2' v1.lock 'v1~' v1:2 v vx v-1 v1/2 v1 v1. v.1 \
	v1.02 v1.0-rc v1.0-rc0 v1.0-1 1.0 "v$(printf '1.%.0s' $(seq 150))0"; do
	one_line "--tag '$(printf %.20s "$tag")' is refused" 2 \
		k import --tarball "$TRASH/t1.tgz" --tag "$tag"
	t_ok "... the line names the tag" grep -qF "tag '$(printf %.20s "$tag")" "$TRASH/.stderr"
done
t_ok "no repository made by a refused --tag" test ! -e "$REPO"
t_exit "a good import" 0 k import --tarball "$TRASH/t1.tgz" --tag v1.0
one_line "a bad --tag into the repository" 2 \
	k import --tarball "$TRASH/t2.tgz" --tag 'v2..0'
t_is "... leaves no journal" "" "$(ls "$REPO"/kmig-import.journal* 2> /dev/null)"
t_exit "... nor blocks the next import" 0 k import --tarball "$TRASH/t2.tgz" --tag v2.0-rc1
t_is "the -rc tag is made" "v1.0 v2.0-rc1" "$(git -C "$REPO" tag | tr '\n' ' ' | sed 's/ $//')"

# A journal that cannot be applied (an older kmig journalled any --tag):
# one line naming it and how to recover; nothing of it applied.
head=$(git -C "$REPO" rev-parse HEAD)
printf 'ref refs/tags/v2..0 %s\nref refs/heads/master %s\n' \
	"$(git -C "$REPO" rev-parse v1.0)" "$(git -C "$REPO" rev-parse 'v1.0^{commit}')" \
	> "$REPO/kmig-import.journal"
one_line "an old journal with an invalid ref" 2 \
	k import --tarball "$TRASH/t2.tgz" --tag v2.0
t_ok "... names the journal and says to remove it" \
	grep -q "^kmig: '$REPO/*kmig-import.journal' cannot be applied (line 'ref refs/tags/v2\.\.0 .*'): remove that file" \
	"$TRASH/.stderr"
t_is "... applies none of it" "$head" "$(git -C "$REPO" rev-parse HEAD)"
rm "$REPO/kmig-import.journal"
t_exit "removed, the next import works" 0 k import --tarball "$TRASH/t2.tgz" --tag v2.0
t_ok "git fsck is clean" git -C "$REPO" fsck --no-progress

# Usage is checked before apt runs: no suites data read, no apt-get, and
# --update does not go with --tarball (which reads no package list).
export KMIG_DEBIAN_DIR="$TRASH/nonexistent"
# no_apt - one_line, keeping every stderr in usage.err
no_apt() {
	one_line "$@"
	cat "$TRASH/.stderr" >> "$TRASH/usage.err"
}
no_apt "--update with --tarball" 2 k import --update --tarball "$TRASH/t2.tgz" --tag v3.0
t_is "... is a usage error" \
	"kmig import: --update does not go with --tarball (no package list is read) (see 'kmig help import')" \
	"$(cat "$TRASH/.stderr")"
no_apt "--update, --tarball without --tag" 2 k import --update --tarball "$TRASH/t2.tgz"
t_ok "... says they go together" grep -q -- "--tarball and --tag go together" "$TRASH/.stderr"
no_apt "--update, --tag without --tarball" 2 k import --update --tag v3.0
t_ok "... says they go together" grep -q -- "--tarball and --tag go together" "$TRASH/.stderr"
no_apt "--update --tarball with a VERSION" 2 k import --update --tarball "$TRASH/t2.tgz" --tag v3.0 6.1.1
no_apt "--update --list with a VERSION" 2 k import --update --list 6.1.1
# --list: options it does not use are refused, and so is a --repo that is
# no repository (before apt runs; the path's absence is no error: nothing
# is imported there yet)
no_apt "--list --jobs 2" 2 k import --list --jobs 2
t_is "... is a usage error" \
	"kmig import: --list takes no VERSION, --tarball, --tag nor --jobs (see 'kmig help import')" \
	"$(cat "$TRASH/.stderr")"
no_apt "--list --repo FILE" 2 "$KMIG" --repo /etc/passwd import --list
t_is "... names it" "kmig: '/etc/passwd' is not a git repository" "$(cat "$TRASH/.stderr")"
no_apt "--update --list --repo DIR" 2 "$KMIG" --repo "$TRASH/src-1.0" import --update --list
t_is "... names it" "kmig: '$TRASH/src-1.0' is not a git repository" "$(cat "$TRASH/.stderr")"
# VERSION: "v"?X.Y[.Z...] then nothing or a Debian revision, checked before
# apt; two that import the same tag are an error naming both
for v in 6. .1 6..1 6.1. 6 v 06.1 6.01 6.1.192- 6.1.x 6.1.192-1@ '6.1 2' 6.1:2; do
	no_apt "VERSION '$v'" 2 k import --update "$v"
	t_is "... is not a kernel version" \
		"kmig: '$v' is not a kernel version (like 6.1.192 or 6.1.192-3)" \
		"$(cat "$TRASH/.stderr")"
done
no_apt "a bad VERSION after good ones" 2 k import 6.1.1 6.2.1-1 6..1
t_ok "... is named" grep -q "^kmig: '6\.\.1' is not a kernel version" "$TRASH/.stderr"
no_apt "two VERSIONs of one tag" 2 k import 6.1.192 6.2.1 6.1.192-2
t_is "... names both" \
	"kmig import: '6.1.192' and '6.1.192-2' both import v6.1.192: give one of them (see 'kmig help import')" \
	"$(cat "$TRASH/.stderr")"
no_apt "two Debian revisions of one version" 2 k import --update 6.1.192-1 6.1.192-2
t_ok "... names both" grep -q "'6.1.192-1' and '6.1.192-2' both import v6.1.192" "$TRASH/.stderr"
no_apt "a version twice" 2 k import v6.1.192 6.1.192
t_ok "... names both" grep -q "'v6.1.192' and '6.1.192' both import v6.1.192" "$TRASH/.stderr"
t_is "none of them read the suites data" "" "$(grep nonexistent "$TRASH/usage.err")"
t_ok "... nor made kmig's apt directory" test ! -e "$KMIG_HOME/apt"
t_exit "a tarball import needs no apt" 0 k import --tarball "$TRASH/t2.tgz" --tag v3.0
unset KMIG_DEBIAN_DIR

# A repository that is not bare: refused before any change, with or
# without history, by its top or its .git.
U="$TRASH/user"
u_git() { GIT_COMMITTER_NAME=User GIT_COMMITTER_EMAIL=user@kmig.invalid git "$@"; }
git init -q "$U"
printf 'one\n' > "$U/Makefile"
u_git -C "$U" add Makefile
u_git -C "$U" commit -q -m 'Linux 1.0'
u_git -C "$U" tag -a v1.0 -m 'Linux 1.0'
printf 'two\n' > "$U/Makefile"
u_git -C "$U" commit -q -a -m 'Linux 1.1'
u_git -C "$U" tag -a v1.1 -m 'Linux 1.1'
refs() { git -C "$1" for-each-ref --format='%(objectname) %(refname)'; git -C "$1" symbolic-ref HEAD; }
refs "$U" > "$TRASH/user.refs"
for r in "$U" "$U/.git"; do
	one_line "a non-bare repository ($(basename "$r"))" 2 \
		"$KMIG" --repo "$r" --db "$TRASH/u.db" import --tarball "$TRASH/t1.tgz" --tag v0.9
	t_is "... is named" \
		"kmig: '$r' is not a bare repository: kmig import writes only into a bare repository (--repo; a new path is made bare)" \
		"$(cat "$TRASH/.stderr")"
done
one_line "a non-bare repository, newer version" 2 \
	"$KMIG" --repo "$U" --db "$TRASH/u.db" import --tarball "$TRASH/t1.tgz" --tag v2.0
one_line "a non-bare repository, Debian VERSION (before apt)" 2 \
	env KMIG_DEBIAN_DIR="$TRASH/nonexistent" "$KMIG" --repo "$U" --db "$TRASH/u.db" import 6.1.1
t_ok "... is named" grep -q "is not a bare repository" "$TRASH/.stderr"
one_line "a non-bare repository, --update (before apt)" 2 \
	env KMIG_DEBIAN_DIR="$TRASH/nonexistent" "$KMIG" --repo "$U" --db "$TRASH/u.db" import --update 6.1.1
t_ok "... is named" grep -q "is not a bare repository" "$TRASH/.stderr"
git init -q "$TRASH/empty"
one_line "an empty non-bare repository" 2 \
	"$KMIG" --repo "$TRASH/empty" --db "$TRASH/u.db" import --tarball "$TRASH/t1.tgz" --tag v1.0
refs "$U" > "$TRASH/user.refs2"
t_ok "the refs are unchanged" cmp "$TRASH/user.refs" "$TRASH/user.refs2"
t_is "no kmig file in it" "" "$(ls "$U/.git" | grep kmig)"
t_is "no database made" "" "$(ls "$TRASH"/u.db* 2> /dev/null)"

# History kmig import did not write is never rewritten: not its commits,
# nor annotated tags on kmig's commits.  A version newer than all is
# appended: nothing rewritten.
B="$TRASH/user.git"
git clone -q --bare "$U" "$B"
refs "$B" > "$TRASH/bare.refs"
one_line "an older version into foreign history" 2 \
	"$KMIG" --repo "$B" --db "$TRASH/u.db" import --tarball "$TRASH/t1.tgz" --tag v0.9
t_is "... names the first commit it would re-create" \
	"kmig: v0.9 would go before commit $(git -C "$B" rev-parse --short=12 'v1.0^{commit}') (\"Linux 1.0\", committed by <user@kmig.invalid>), which kmig import did not write: it re-creates only its own commits (import into a repository of its own)" \
	"$(cat "$TRASH/.stderr")"
refs "$B" > "$TRASH/bare.refs2"
t_ok "... the refs are unchanged" cmp "$TRASH/bare.refs" "$TRASH/bare.refs2"
t_is "... no journal" "" "$(ls "$B"/kmig-import.journal* 2> /dev/null)"
t_exit "a newer version on foreign history" 0 \
	"$KMIG" --repo "$B" --db "$TRASH/u.db" import --tarball "$TRASH/t2.tgz" --tag v2.0
t_is "... is appended to it" "$(git -C "$B" rev-parse 'v1.1^{commit}')" \
	"$(git -C "$B" rev-parse 'v2.0^{commit}^')"
t_is "... and rewrites nothing" "$(grep -v ' refs/heads/master$' "$TRASH/bare.refs")" \
	"$(refs "$B" | grep -v ' refs/tags/v2.0$' | grep -v ' refs/heads/master$')"

K2="$TRASH/kmig2.git"
k2() { "$KMIG" --repo "$K2" --db "$TRASH/k2.db" "$@"; }
t_exit "kmig's own history" 0 k2 import --tarball "$TRASH/t2.tgz" --tag v2.0
u_git -C "$K2" tag -a v2.0.1 -m 'my tag' 'v2.0^{commit}'
one_line "an older version before a user's annotated tag" 2 \
	k2 import --tarball "$TRASH/t1.tgz" --tag v1.0
t_is "... names the tag" \
	"kmig: v1.0 would go before tag v2.0.1, which kmig import did not make: it re-makes only its own tags (import into a repository of its own)" \
	"$(cat "$TRASH/.stderr")"
git -C "$K2" tag -d v2.0.1 > /dev/null
u_git -C "$K2" tag v2.0.1 'v2.0^{commit}'
t_exit "a user's lightweight tag moves with the commit" 0 \
	k2 import --tarball "$TRASH/t1.tgz" --tag v1.0
t_is "... to the re-created commit" "$(git -C "$K2" rev-parse 'v2.0^{commit}')" \
	"$(git -C "$K2" rev-parse v2.0.1)"
fix=$(u_git -C "$K2" commit-tree -p HEAD -m 'a fix of mine' 'HEAD^{tree}')
git -C "$K2" update-ref "$(git -C "$K2" symbolic-ref HEAD)" "$fix"
refs "$K2" > "$TRASH/k2.refs"
one_line "an older version before a user's commit on kmig's history" 2 \
	k2 import --tarball "$TRASH/t1.tgz" --tag v0.9
t_ok "... names the commit" grep -q "before commit $(printf %.12s "$fix") (\"a fix of mine\"" "$TRASH/.stderr"
refs "$K2" > "$TRASH/k2.refs2"
t_ok "... the refs are unchanged" cmp "$TRASH/k2.refs" "$TRASH/k2.refs2"
t_ok "git fsck is clean" git -C "$K2" fsck --no-progress
t_done
