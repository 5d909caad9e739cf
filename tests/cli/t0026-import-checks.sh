#!/bin/sh
# kmig import refuses what it cannot do before it changes anything: a tag
# that is no kernel release tag (and a journal an older kmig left with
# one).
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
t_done
