#!/bin/sh
# kmig import through kmig's own apt configuration, on a local file://
# mirror the test builds (no network): the suites data ($KMIG_DEBIAN_DIR),
# --list, the default selection, refreshing stale lists and --update, an
# unknown version or line, an unreachable suite, a bad suites file -- and
# the machine's apt configuration and lists untouched.
. "$(dirname "$0")/../lib.sh"

REPO="$TRASH/linux"
DB="$TRASH/kmig.db"
M="$TRASH/mirror"
DATA="$TRASH/data"
APT="$KMIG_HOME/apt"
ARCH=$(dpkg --print-architecture)
export KMIG_DEBIAN_DIR="$DATA"
k() { "$KMIG" --repo "$REPO" --db "$DB" "$@"; }
# kd DIR ARGS... - k with the suites data of DIR
kd() { _kd=$1; shift; KMIG_DEBIAN_DIR=$_kd k "$@"; }

# the machine's apt: configuration, and the lists (names, sizes, times)
machine_apt() {
	find /etc/apt -type f -exec md5sum {} + 2>/dev/null | sort
	ls -l --time-style=full-iso /var/lib/apt/lists 2>/dev/null
}
machine_apt > "$TRASH/apt-before"

# mk_deb SUITE LINE DEBVER - a linux-source-LINE package of version DEBVER
# in SUITE's pool, holding /usr/src/linux-source-LINE.tar.xz
mk_deb() {
	_d="$TRASH/build/$1-$3"
	_up=${3%%-*}
	mkdir -p "$_d/pkg/DEBIAN" "$_d/pkg/usr/src" "$_d/src/linux-source-$2" "$M/pool/$1"
	printf 'VERSION = %s\n' "$_up" > "$_d/src/linux-source-$2/Makefile"
	printf 'int f(void) { return 0; }\n' > "$_d/src/linux-source-$2/a.c"
	tar -C "$_d/src" -cJf "$_d/pkg/usr/src/linux-source-$2.tar.xz" "linux-source-$2"
	mkdir -p "$_d/pkg/usr/share/doc/linux-source-$2"
	# the version's entry, a release candidate and the line's first release
	printf 'linux (%s) unstable; urgency=medium\n\n  * Test.\n\n -- Kmig Test <test@kmig.invalid>  Sun, 15 Nov 2026 23:30:52 +0100\n\nlinux (%s.1-1) unstable; urgency=medium\n\n  * First.\n\n -- Kmig Test <test@kmig.invalid>  Mon, 02 Jan 2023 09:00:00 +0000\n\nlinux (%s~rc1-1~exp1) experimental; urgency=medium\n\n  * Candidate.\n\n -- Kmig Test <test@kmig.invalid>  Mon, 05 Dec 2022 09:00:00 +0000\n' "$3" "$2" "$2" |
		gzip -n > "$_d/pkg/usr/share/doc/linux-source-$2/changelog.Debian.gz"
	cat > "$_d/pkg/DEBIAN/control" <<EOF
Package: linux-source-$2
Version: $3
Architecture: all
Maintainer: Kmig Test <test@kmig.invalid>
Description: Linux kernel source for version $2 (test)
EOF
	dpkg-deb --build -Zxz "$_d/pkg" "$M/pool/$1/linux-source-${2}_${3}_all.deb" > /dev/null
}

# mk_suite SUITE - the Packages index and Release file of SUITE's pool
mk_suite() {
	_s="$M/dists/$1"
	mkdir -p "$_s/main/binary-$ARCH"
	for _deb in "$M/pool/$1"/*.deb; do
		dpkg-deb -f "$_deb"
		echo "Filename: pool/$1/$(basename "$_deb")"
		echo "Size: $(stat -c %s "$_deb")"
		echo "SHA256: $(sha256sum "$_deb" | cut -d' ' -f1)"
		echo
	done > "$_s/main/binary-$ARCH/Packages"
	_p="main/binary-$ARCH/Packages"
	cat > "$_s/Release" <<EOF
Suite: $1
Codename: $1
Date: $(LC_ALL=C date -u -R)
Architectures: $ARCH all
Components: main
SHA256:
 $(sha256sum "$_s/$_p" | cut -d' ' -f1) $(stat -c %s "$_s/$_p") $_p
EOF
}

mk_deb old 9.1 9.1.2-1
mk_deb old 9.1 9.1.3-1
mk_deb old 9.10 9.10.1-1
mk_deb new 9.1 9.1.4-1~bpo1
mk_deb new 9.2 9.2.1-1
mk_deb new 9.10 9.10.1-1
mk_suite old
mk_suite new

mkdir -p "$DATA"
cat > "$DATA/suites" <<EOF
# the test's mirror
suite	file://$M	old	main	trusted=yes
suite	file://$M/	new	main	trusted=yes	# a trailing slash is the same URI
default	9.1
default	9.10
default	9.2
EOF

t_exit "import --list" 0 k import --list
t_is "--list: line, version, Debian version, suite; newest first per line" \
"line  version  debian        suite
9.1   9.1.4    9.1.4-1~bpo1  new
9.1   9.1.3    9.1.3-1       old
9.1   9.1.2    9.1.2-1       old
9.2   9.2.1    9.2.1-1       new
9.10  9.10.1   9.10.1-1      old,new" "$(cat "$TRASH/.stdout")"
t_is "--list: nothing on stderr" "" "$(cat "$TRASH/.stderr")"
t_is "kmig's sources list, written from the suites data" \
"# written by kmig from its Debian suites data; do not edit
deb [target=Packages trusted=yes] file://$M old main
deb [target=Packages trusted=yes] file://$M/ new main" "$(cat "$APT/sources.list")"
t_ok "lists fetched into \$KMIG_HOME/apt/lists" \
	sh -c "ls '$APT/lists' | grep -q '_new_main_binary-${ARCH}_Packages'"
t_ok "the lists stamp records the sources" cmp "$APT/sources.list" "$APT/lists.stamp"

# The default signer: without signed-by= or trusted=, the archive keyring.
mkdir -p "$TRASH/data2"
printf 'suite file://%s/nope sid main\n' "$TRASH" > "$TRASH/data2/suites"
KMIG_HOME="$TRASH/home2" kd "$TRASH/data2" import --list > /dev/null 2>&1
t_is "a suite without signer is signed by the Debian archive keyring" \
	"deb [target=Packages signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] file://$TRASH/nope sid main" \
	"$(grep -v '^#' "$TRASH/home2/apt/sources.list")"

# Bad input: one line, exit 2.
t_exit "a version Debian does not have" 2 k import 9.1.99
t_is "it names the line's versions" \
	"kmig: no 9.1.99 in Debian; linux-source-9.1 has 9.1.4, 9.1.3, 9.1.2" \
	"$(cat "$TRASH/.stderr")"
t_exit "a Debian version Debian does not have" 2 k import 9.10.1-7
t_is "it names the line's versions too" \
	"kmig: no 9.10.1-7 in Debian; linux-source-9.10 has 9.10.1" \
	"$(cat "$TRASH/.stderr")"
t_exit "a line Debian does not have" 2 k import 9.7.1
t_is "it names the lines" \
	"kmig: no linux-source-9.7 in the Debian suites; the lines are 9.1, 9.2, 9.10" \
	"$(cat "$TRASH/.stderr")"
t_exit "not a version (no package line '9.')" 2 k import 9.
t_is "is named so" "kmig: '9.' is not a kernel version (like 6.1.192 or 6.1.192-3)" \
	"$(cat "$TRASH/.stderr")"
t_exit "a version and one of its Debian revisions" 2 k import 9.1.3 9.1.3-1
t_is "is an error naming both" \
	"kmig import: '9.1.3' and '9.1.3-1' both import v9.1.3: give one of them (see 'kmig help import')" \
	"$(cat "$TRASH/.stderr")"
t_exit "--list with a VERSION" 2 k import --list 9.1.3
t_is "is a usage error" \
	"kmig import: --list takes no VERSION, --tarball, --tag nor --jobs (see 'kmig help import')" \
	"$(cat "$TRASH/.stderr")"
t_ok "no repository made by a refused import" test ! -e "$REPO"

# Without VERSION: the newest of each default line, downloaded and imported.
t_exit "import without VERSION" 0 k import
t_is "the newest version of each default line is tagged" "v9.1.4
v9.10.1
v9.2.1" "$(git -C "$REPO" tag -l | sort)"
t_is "in version order" "Linux 9.10.1
Linux 9.2.1
Linux 9.1.4" "$(git -C "$REPO" log --format=%s HEAD)"
t_is "its tree is the package's" "VERSION = 9.2.1" \
	"$(git -C "$REPO" show v9.2.1:Makefile)"
t_is "dated by the version's changelog entry" "2026-11-15T23:30:52+01:00" \
	"$(git -C "$REPO" log -1 --format=%cI v9.2.1)"
t_ok "the line's first Debian release in the message (not its rc)" \
	grep -qx 'Line-Date: 1672650000' "$(git -C "$REPO" log -1 --format=%B v9.2.1 > "$TRASH/msg"; echo "$TRASH/msg")"
t_is "the packages were downloaded into \$KMIG_HOME/debs" \
"linux-source-9.10_9.10.1-1_all.deb
linux-source-9.1_9.1.4-1~bpo1_all.deb
linux-source-9.2_9.2.1-1_all.deb" "$(ls "$KMIG_HOME/debs" | LC_ALL=C sort)"
t_is "apt's download output is not on stdout" "" \
	"$(grep -v '^v9\.[0-9.]* [0-9a-f]\{40\} ' "$TRASH/.stdout")"
t_exit "scan" 0 k scan
t_is "the scan records the line date" "v9.1.4|1672650000
v9.2.1|1672650000
v9.10.1|1672650000" "$(sqlite3 "$DB" 'SELECT tag, line_date FROM releases ORDER BY sort_key')"
t_exit "an explicit version (into another repository)" 0 \
	"$KMIG" --repo "$TRASH/linux2" --db "$DB" import 9.1.2
t_is "is the one imported" v9.1.2 "$(git -C "$TRASH/linux2" tag -l)"
t_exit "--list marks what the repository has" 0 k import --list
t_is "imported versions are marked" "9.1.4 9.2.1 9.10.1" \
	"$(awk '$5 == "imported" { printf "%s%s", s, $2; s = " " }' "$TRASH/.stdout")"

# A bad .deb in $KMIG_HOME/debs (apt-get download writes straight to the
# final name: a download cut short leaves part of it there) is caught by
# the size and SHA256 of kmig's package lists, deleted and downloaded
# again; a download happens in a directory of its own.
deb="$KMIG_HOME/debs/linux-source-9.1_9.1.3-1_all.deb"
good="$M/pool/old/linux-source-9.1_9.1.3-1_all.deb"
half=$(($(stat -c %s "$good") / 2))
head -c $half "$good" > "$deb"
t_exit "import with a truncated .deb cached" 0 "$KMIG" --repo "$TRASH/linux3" --db "$DB" import 9.1.3
t_is "... says so, naming the file" \
	"kmig: warning: '$deb' is $half bytes, not $(stat -c %s "$good") as the package lists say: deleted and downloaded again" \
	"$(cat "$TRASH/.stderr")"
t_ok "... the cache holds the package now" cmp "$good" "$deb"
t_is "... and is imported" v9.1.3 "$(git -C "$TRASH/linux3" tag -l)"
t_is "... no download directory left" "" "$(ls -A "$KMIG_HOME/debs" | grep '^\.download-')"
printf 'XXXX' | dd of="$deb" bs=1 seek=100 conv=notrunc 2> /dev/null
t_exit "import with a .deb of the right size, other bytes" 0 \
	"$KMIG" --repo "$TRASH/linux4" --db "$DB" import 9.1.3
t_ok "... its SHA256 is not the lists'" \
	grep -q "^kmig: warning: '$deb' has SHA256 [0-9a-f]*\.\.\., not the package lists' [0-9a-f]*\.\.\.: deleted and downloaded again$" \
	"$TRASH/.stderr"
t_ok "... the cache holds the package now" cmp "$good" "$deb"
mkdir -p "$KMIG_HOME/debs/.download-999999999"
t_exit "a cached package that is right" 0 "$KMIG" --repo "$TRASH/linux5" --db "$DB" import 9.1.3
t_is "... is reused without a word" "" "$(cat "$TRASH/.stderr")"
t_ok "... and the download directory a killed kmig left is kept (nothing downloaded)" \
	test -d "$KMIG_HOME/debs/.download-999999999"
rmdir "$KMIG_HOME/debs/.download-999999999"
# Fresh lists are not fetched again; stale ones (24 hours) are, and
# --update fetches them whatever their age.
mk_deb new 9.2 9.2.2-1
mk_suite new
t_exit "--list with fresh lists" 0 k import --list
t_ok "does not fetch (9.2.2 not seen yet)" sh -c "! grep -q '^9.2 *9.2.2 ' '$TRASH/.stdout'"
touch -d '25 hours ago' "$APT/lists.stamp"
t_exit "--list with lists older than 24 hours" 0 k import --list
t_ok "fetches them (9.2.2 seen)" grep -q '^9.2   9.2.2    9.2.2-1       new$' "$TRASH/.stdout"
mk_deb new 9.2 9.2.3-1
mk_suite new
t_exit "--update --list" 0 k import --update --list
t_ok "--update fetches fresh lists (9.2.3 seen)" grep -q '^9.2 *9.2.3 ' "$TRASH/.stdout"

# A version the lists name but the mirror no longer serves: the run fails
# on it before it unpacks any other version (every package comes first).
mv "$M/pool/new/linux-source-9.2_9.2.3-1_all.deb" "$TRASH/gone.deb"
KMIG_PROGRESS=1 t_exit "import of a version the mirror cannot serve, after one it can" 2 \
	"$KMIG" --repo "$TRASH/linux6" --db "$DB" import 9.1.2 9.2.3
t_ok "... names the failed download" \
	grep -q "^kmig: apt-get download linux-source-9.2=9.2.3-1 failed" "$TRASH/.stderr"
t_is "... before importing the other" "" "$(grep -i 'importing' "$TRASH/.stderr")"
t_ok "... and leaves no repository" test ! -e "$TRASH/linux6"
mv "$TRASH/gone.deb" "$M/pool/new/linux-source-9.2_9.2.3-1_all.deb"

# Two kmigs at once: the lock makes them update one after the other.
(k import --update --list > "$TRASH/c1.out" 2>&1; echo $? > "$TRASH/c1.rc") &
(k import --update --list > "$TRASH/c2.out" 2>&1; echo $? > "$TRASH/c2.rc") &
wait
t_is "two concurrent updates both succeed" "0 0" "$(cat "$TRASH/c1.rc") $(cat "$TRASH/c2.rc")"
t_ok "and list the same" cmp "$TRASH/c1.out" "$TRASH/c2.out"

# Unreachable suites: named, one line, exit 2; the lists stay kmig's.
cp "$DATA/suites" "$TRASH/suites.good"
printf 'suite file://%s/nope gone main trusted=yes\n' "$TRASH" >> "$DATA/suites"
t_exit "a suite that cannot be reached" 2 k import --list
t_is "one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_ok "it names the suite and where" \
	grep -q "^kmig: cannot reach the Debian suite gone (file://$TRASH/nope) " "$TRASH/.stderr"
t_ok "nothing on stdout" test ! -s "$TRASH/.stdout"
t_ok "no stamp: the next run tries again" test ! -e "$APT/lists.stamp"
printf 'suite file://%s/nope2 gone2 main trusted=yes\n' "$TRASH" >> "$DATA/suites"
t_exit "two suites that cannot be reached" 2 k import 9.1.3
t_ok "both are named" \
	grep -q "^kmig: cannot reach the Debian suites gone (.*), gone2 (file://$TRASH/nope2) " \
	"$TRASH/.stderr"
cp "$TRASH/suites.good" "$DATA/suites"
t_exit "the suites data fixed: a change of sources fetches again" 0 k import --list
t_ok "the stamp is back" cmp "$APT/sources.list" "$APT/lists.stamp"

# The suites data is checked.
printf 'suite file:///x only-two\n' > "$TRASH/data2/suites"
t_exit "a malformed suites record" 2 kd "$TRASH/data2" import --list
t_is "names the file and line" 1 "$(grep -c "^kmig: $TRASH/data2/suites:1: not 'suite URL" "$TRASH/.stderr")"
printf '# comment\nsuite file:///x s main trusted\n' > "$TRASH/data2/suites"
t_exit "a suites option that is not key=value" 2 kd "$TRASH/data2" import --list
t_is "names the file, line and option" \
	"kmig: $TRASH/data2/suites:2: apt option 'trusted' is not key=value" \
	"$(cat "$TRASH/.stderr")"
printf 'default 9.1\ndefault 9.3\n' >> "$DATA/suites"
t_exit "a default line no suite offers" 2 k import
t_is "is named" \
	"kmig: the Debian suites offer no linux-source-9.3 (a default line of the suites data)" \
	"$(cat "$TRASH/.stderr")"
t_exit "no suites data" 2 kd "$TRASH/none" import --list
t_ok "names the file" grep -q "^kmig: cannot read '$TRASH/none/suites'" "$TRASH/.stderr"

# Release candidates (experimental's linux-source-X.Y, 9.4~rc1-1~exp1) are
# the kernel's vX.Y-rcN, not its release vX.Y: the release, uploaded
# later, is imported under its own tag.
mk_deb exp 9.4 '9.4~rc1-1~exp1'
mk_deb exp 9.4 '9.4~rc2-1~exp1'
mk_suite exp
mkdir -p "$TRASH/data-exp"
printf 'suite file://%s exp main trusted=yes\n' "$M" > "$TRASH/data-exp/suites"
RC="$TRASH/linux-rc"
rc() { KMIG_DEBIAN_DIR="$TRASH/data-exp" "$KMIG" --repo "$RC" --db "$DB" "$@"; }
t_exit "--list of release candidates" 0 rc import --list
t_is "... named as the kernel names them" \
"line  version  debian          suite
9.4   9.4-rc2  9.4~rc2-1~exp1  exp
9.4   9.4-rc1  9.4~rc1-1~exp1  exp" "$(cat "$TRASH/.stdout")"
t_exit "import of a release candidate by its Debian version" 0 rc import '9.4~rc1-1~exp1'
t_is "... is tagged vX.Y-rcN" v9.4-rc1 "$(git -C "$RC" tag -l)"
t_is "... and says so" "Linux 9.4-rc1" "$(git -C "$RC" log -1 --format=%s)"
t_exit "... by the kernel's name" 0 rc import 9.4-rc2
t_is "... is that one" "v9.4-rc1 v9.4-rc2" "$(git -C "$RC" tag -l | tr '\n' ' ' | sed 's/ $//')"
t_exit "the release, not uploaded yet" 2 rc import 9.4
t_is "... is not a release candidate" \
	"kmig: no 9.4 in Debian; linux-source-9.4 has 9.4-rc2, 9.4-rc1" "$(cat "$TRASH/.stderr")"
mk_deb exp 9.4 9.4-1
mk_suite exp
t_exit "the release, uploaded" 0 rc import --update 9.4
t_is "... is tagged vX.Y after its candidates" "Linux 9.4
Linux 9.4-rc2
Linux 9.4-rc1" "$(git -C "$RC" log --format=%s)"
t_exit "a candidate and its kernel name together" 2 rc import 9.4-rc1 '9.4~rc1-1~exp1'
t_ok "... both import v9.4-rc1" grep -q "both import v9.4-rc1:" "$TRASH/.stderr"

# A package the mirror itself serves corrupt (its lists agree): the error
# names the cached file and says what to do
mk_deb bad 9.5 9.5.1-1
head -c $(($(stat -c %s "$M/pool/bad/linux-source-9.5_9.5.1-1_all.deb") / 2)) \
	"$M/pool/bad/linux-source-9.5_9.5.1-1_all.deb" > "$TRASH/cut.deb"
mv "$TRASH/cut.deb" "$M/pool/bad/linux-source-9.5_9.5.1-1_all.deb"
mk_suite bad
mkdir -p "$TRASH/data-bad"
printf 'suite file://%s bad main trusted=yes\n' "$M" > "$TRASH/data-bad/suites"
t_exit "a corrupt package" 2 env KMIG_DEBIAN_DIR="$TRASH/data-bad" \
	"$KMIG" --repo "$TRASH/linux6" --db "$DB" import 9.5.1
t_is "... one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_ok "... naming the cached file and saying to delete it" \
	grep -q "'$KMIG_HOME/debs/linux-source-9.5_9.5.1-1_all.deb' (a corrupt package? delete it and kmig import downloads it again)" \
	"$TRASH/.stderr"

machine_apt > "$TRASH/apt-after"
t_ok "the machine's apt configuration and lists are untouched" \
	cmp "$TRASH/apt-before" "$TRASH/apt-after"
t_done
