#!/bin/sh
# kmig import --tarball: tags, commit order, tree contents, ignored files,
# packed objects, and the database schema.
. "$(dirname "$0")/../lib.sh"

REPO="$TRASH/linux"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$REPO" --db "$DB" "$@"; }

mk_tree() {	# mk_tree DIR VERSION
	mkdir -p "$1/linux-src/net/rds" "$1/linux-src/scripts" "$1/linux-src/empty"
	cd "$1/linux-src" || exit 1
	printf '/*\n!.gitignore\n' > .gitignore	# like the Debian tree: ignores everything
	printf 'VERSION = %s\n' "$2" > Makefile
	printf 'int rds_sendmsg(void) { return 0; }\n' > net/rds/send.c
	printf '#!/bin/sh\necho hi\n' > scripts/run.sh
	chmod +x scripts/run.sh
	ln -s net/rds/send.c link.c
	printf 'object\n' > net/rds/send.o	# an ignored build product is kept too
	cd - > /dev/null || exit 1
}

mk_tree "$TRASH/t1" 1
tar -C "$TRASH/t1" -cJf "$TRASH/linux-1.0.tar.xz" linux-src
mk_tree "$TRASH/t2" 2
printf 'int rds_recvmsg(void) { return 1; }\n' > "$TRASH/t2/linux-src/net/rds/recv.c"
rm "$TRASH/t2/linux-src/scripts/run.sh"
tar -C "$TRASH/t2" -czf "$TRASH/linux-1.1.tar.gz" linux-src

t_exit "import v1.0 from a tarball" 0 k import --tarball "$TRASH/linux-1.0.tar.xz" --tag v1.0
t_ok "repository created" git -C "$REPO" rev-parse --git-dir
t_is "tag is annotated" tag "$(git -C "$REPO" cat-file -t v1.0)"
t_ok "tag message names the tarball" sh -c "git -C '$REPO' cat-file tag v1.0 | grep -q 'linux-1.0.tar.xz'"
t_exit "import v1.1" 0 k import --tarball "$TRASH/linux-1.1.tar.gz" --tag v1.1
t_is "v1.1's parent is v1.0" "$(git -C "$REPO" rev-parse 'v1.0^{commit}')" \
	"$(git -C "$REPO" rev-parse 'v1.1^{commit}^')"
t_is "linear history of two commits" 2 "$(git -C "$REPO" rev-list --count HEAD)"
t_is "HEAD is the newest import" "$(git -C "$REPO" rev-parse 'v1.1^{commit}')" \
	"$(git -C "$REPO" rev-parse HEAD)"

git -C "$REPO" ls-tree -r --name-only v1.0 > "$TRASH/actual"
printf '%s\n' .gitignore Makefile link.c net/rds/send.c net/rds/send.o scripts/run.sh > "$TRASH/expect"
t_ok "v1.0 tree holds every file, ignored ones too, top directory stripped" \
	cmp "$TRASH/expect" "$TRASH/actual"
t_is "file content" 'VERSION = 1' "$(git -C "$REPO" show v1.0:Makefile)"
t_is "executable mode kept" 100755 "$(git -C "$REPO" ls-tree v1.0 scripts/run.sh | cut -c1-6)"
t_is "symlink kept" 120000 "$(git -C "$REPO" ls-tree v1.0 link.c | cut -c1-6)"
t_is "symlink target" net/rds/send.c "$(git -C "$REPO" cat-file -p v1.0:link.c)"
t_is "v1.1 adds recv.c, drops run.sh, changes Makefile" "A	net/rds/recv.c
D	scripts/run.sh
M	Makefile" "$(git -C "$REPO" diff --name-status v1.0 v1.1 | sort)"
t_is "no loose objects (packed)" 0 "$(git -C "$REPO" count-objects -v | sed -n 's/^count: //p')"
t_ok "git fsck is clean" git -C "$REPO" fsck --no-progress
t_is "database has the schema" "$(sed -n 's/^-- migration: //p' "$TOP/db/schema.sql" | tail -n 1)" "$(sqlite3 "$DB" 'PRAGMA user_version')"
t_ok "database has the releases table" sqlite3 "$DB" 'SELECT count(*) FROM releases'

t_exit "re-import of an existing tag is skipped" 0 k import --tarball "$TRASH/linux-1.0.tar.xz" --tag v1.0
t_ok "skip is reported" grep -q '^v1.0 already imported, skipped$' "$TRASH/.stdout"

# An older version after newer ones: inserted first; v1.0 and v1.1 are
# re-created on it with their trees, their tags move; counts are kept and
# a scan lexes only v0.9's new blobs.
for v in 0 1; do
	printf 'void f(char *b) { strcpy(b, "%s"); }\n' "$v" > "$TRASH/t$((v + 1))/linux-src/net/rds/str.c"
done
cp "$TRASH/t2/linux-src/net/rds/str.c" "$TRASH/t2/linux-src/net/rds/str2.c"
rm -rf "$REPO" "$DB"
tar -C "$TRASH/t1" -cJf "$TRASH/linux-1.0.tar.xz" linux-src
tar -C "$TRASH/t2" -czf "$TRASH/linux-1.1.tar.gz" linux-src
mk_tree "$TRASH/t0" 0
printf 'void g(char *b) { strcpy(b, "old"); strcpy(b, "older"); }\n' > "$TRASH/t0/linux-src/net/rds/str.c"
tar -C "$TRASH/t0" -cJf "$TRASH/linux-0.9.tar.xz" linux-src
t_exit "import v1.0 again" 0 k import --tarball "$TRASH/linux-1.0.tar.xz" --tag v1.0
t_exit "import v1.1 again" 0 k import --tarball "$TRASH/linux-1.1.tar.gz" --tag v1.1
t_exit "scan v1.0 and v1.1" 0 k scan --jobs 1
counts() { sqlite3 "$DB" "SELECT r.tag, c.rule, sum(c.count) FROM counts c JOIN releases r ON r.id = c.release_id WHERE r.tag != 'v0.9' GROUP BY r.tag, c.rule ORDER BY r.tag, c.rule"; }
trees() { for t in v1.0 v1.1; do git -C "$REPO" rev-parse "$t^{tree}"; done; }
counts > "$TRASH/counts.before"
trees > "$TRASH/trees.before"
t_ok "the scan counted uses" grep -q '^v1.1|strcpy|2$' "$TRASH/counts.before"
cp "$DB" "$TRASH/stale.db"
old10=$(git -C "$REPO" rev-parse 'v1.0^{commit}')
t_exit "an older version after newer ones is imported" 0 k import --tarball "$TRASH/linux-0.9.tar.xz" --tag v0.9
t_ok "v1.0 is reported re-created" grep -q '^v1.0 re-created as' "$TRASH/.stdout"
t_is "linear history of three commits" 3 "$(git -C "$REPO" rev-list --count HEAD)"
t_is "the history is in version order" "Linux 1.1
Linux 1.0
Linux 0.9" "$(git -C "$REPO" log --format=%s HEAD)"
t_is "v0.9 is the root" "" "$(git -C "$REPO" rev-parse --verify -q 'v0.9^{commit}^')"
t_is "v1.0's parent is v0.9" "$(git -C "$REPO" rev-parse 'v0.9^{commit}')" \
	"$(git -C "$REPO" rev-parse 'v1.0^{commit}^')"
t_is "v1.1's parent is the new v1.0" "$(git -C "$REPO" rev-parse 'v1.0^{commit}')" \
	"$(git -C "$REPO" rev-parse 'v1.1^{commit}^')"
t_is "HEAD is v1.1" "$(git -C "$REPO" rev-parse 'v1.1^{commit}')" "$(git -C "$REPO" rev-parse HEAD)"
trees > "$TRASH/trees.after"
t_ok "v1.0 and v1.1 keep their trees" cmp "$TRASH/trees.before" "$TRASH/trees.after"
t_ok "v1.0 is a new commit" test "$old10" != "$(git -C "$REPO" rev-parse 'v1.0^{commit}')"
t_is "moved tag is annotated" tag "$(git -C "$REPO" cat-file -t v1.0)"
t_ok "moved tag keeps its message" sh -c "git -C '$REPO' cat-file tag v1.0 | grep -q 'linux-1.0.tar.xz'"
t_is "no journal left" "" "$(ls "$REPO"/kmig-import.journal* 2> /dev/null)"
t_ok "git fsck is clean after the rebuild" git -C "$REPO" fsck --no-progress
t_is "the import moved the releases' commit ids" \
	"$(git -C "$REPO" rev-parse 'v1.0^{commit}' 'v1.1^{commit}')" \
	"$(sqlite3 "$DB" "SELECT commit_id FROM releases ORDER BY sort_key")"
t_exit "scan after the older import" 0 k scan --jobs 1
t_ok "v0.9 lexes only its new blob" grep -q '^v0.9: .*, 1 blobs lexed, 2 uses$' "$TRASH/.stdout"
t_ok "v1.0 is not scanned again" grep -q '^v1.0: up to date$' "$TRASH/.stdout"
t_ok "v1.1 is not scanned again" grep -q '^v1.1: up to date$' "$TRASH/.stdout"
counts > "$TRASH/counts.after"
t_ok "v1.0 and v1.1 keep their counts" cmp "$TRASH/counts.before" "$TRASH/counts.after"
t_exit "report v1.0 as JSON" 0 k report v1.0 --format json
t_ok "v1.0's previous release is now v0.9" grep -q '"previous": "v0.9"' "$TRASH/.stdout"
t_exit "trend" 0 k report --trend --format csv
t_is "the trend is in version order" "v0.9 v1.0 v1.1" \
	"$(grep -o '^v[0-9.]*' "$TRASH/.stdout" | uniq | tr '\n' ' ' | sed 's/ $//')"
t_exit "a database scanned before the rebuild" 0 \
	"$KMIG" --repo "$REPO" --db "$TRASH/stale.db" scan --jobs 1
t_ok "... lexes no blob of v1.0 and v1.1 again" \
	sh -c "! grep -E '^v1\.[01]: .*, [1-9][0-9]* blobs lexed' '$TRASH/.stdout'"
t_is "... and keeps their counts" "$(cat "$TRASH/counts.before")" \
	"$(sqlite3 "$TRASH/stale.db" "SELECT r.tag, c.rule, sum(c.count) FROM counts c JOIN releases r ON r.id = c.release_id WHERE r.tag != 'v0.9' GROUP BY r.tag, c.rule ORDER BY r.tag, c.rule")"

# Bad archives: one line naming the file, exit 2, nothing imported.
head -c $(( $(wc -c < "$TRASH/linux-1.0.tar.xz") / 2 )) "$TRASH/linux-1.0.tar.xz" > "$TRASH/cut.tar.xz"
t_exit "a truncated tarball" 2 k import --tarball "$TRASH/cut.tar.xz" --tag v2.0
t_is "truncated tarball: one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_ok "truncated tarball is named" grep -q "cut.tar.xz" "$TRASH/.stderr"
t_is "a truncated tarball leaves no tag" "" "$(git -C "$REPO" tag -l v2.0)"
printf 'not a tarball\n' > "$TRASH/junk.tar.gz"
t_exit "not a tarball" 2 k import --tarball "$TRASH/junk.tar.gz" --tag v2.0
t_ok "junk tarball is named" grep -q "junk.tar.gz" "$TRASH/.stderr"
# into a new repository and database: the run that imports nothing leaves
# neither behind (an empty repository would make the next import's
# "already imported" checks and a scan find nothing)
t_exit "not a tarball, new repository" 2 "$KMIG" --repo "$TRASH/new.git" --db "$TRASH/new.db" \
	import --tarball "$TRASH/junk.tar.gz" --tag v2.0
t_ok "... no repository left" test ! -e "$TRASH/new.git"
t_ok "... no database left" test ! -e "$TRASH/new.db" -a ! -e "$TRASH/new.db-wal"
t_ok "... an existing repository and database are kept" test -d "$REPO" -a -f "$TRASH/kmig.db"

# Hostile entries: "../", an absolute name, a symlink pointing out and a
# file written through it.  Nothing lands outside, nothing is imported.
mkdir -p "$TRASH/h/src" "$TRASH/victim"
printf 'ok\n' > "$TRASH/h/src/Makefile"
python3 - "$TRASH" <<'PY'
import io, sys, tarfile
t = sys.argv[1]
def add(tf, name, data=b"x\n", **kw):
    ti = tarfile.TarInfo(name)
    for k, v in kw.items():
        setattr(ti, k, v)
    ti.size = 0 if ti.type != tarfile.REGTYPE else len(data)
    tf.addfile(ti, io.BytesIO(data) if ti.type == tarfile.REGTYPE else None)
with tarfile.open(t + "/dotdot.tar", "w") as tf:
    add(tf, "src/Makefile")
    add(tf, "src/../../victim/dotdot")
    add(tf, "../victim/dotdot2")
with tarfile.open(t + "/abs.tar", "w") as tf:
    add(tf, "src/Makefile")
    add(tf, t + "/victim/abs")
with tarfile.open(t + "/link.tar", "w") as tf:
    add(tf, "src/Makefile")
    add(tf, "src/out", type=tarfile.SYMTYPE, linkname=t + "/victim")
    add(tf, "src/out/through")
with tarfile.open(t + "/rellink.tar", "w") as tf:
    add(tf, "src/Makefile")
    add(tf, "src/up", type=tarfile.SYMTYPE, linkname="../..")
PY
for h in dotdot abs link rellink; do
	t_exit "hostile tarball $h" 2 k import --tarball "$TRASH/$h.tar" --tag v3.0
	t_is "hostile tarball $h: one line" 1 "$(wc -l < "$TRASH/.stderr")"
	t_ok "hostile tarball $h is named" grep -q "$h.tar" "$TRASH/.stderr"
done
t_is "nothing written outside the repository" "" "$(ls -A "$TRASH/victim")"
t_is "a hostile tarball leaves no tag" "" "$(git -C "$REPO" tag -l v3.0)"
t_ok "git fsck is clean after the bad archives" git -C "$REPO" fsck --no-progress
t_exit "missing tarball" 2 k import --tarball "$TRASH/nope.tar.xz" --tag v2.0
t_is "missing tarball: one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_ok "missing tarball is named" grep -q "nope.tar.xz" "$TRASH/.stderr"
t_is "a failed import leaves no tag" "" "$(git -C "$REPO" tag -l v2.0)"
t_exit "--tarball without --tag" 2 k import --tarball "$TRASH/linux-1.0.tar.xz"
t_exit "not a version" 2 k import not-a-version
t_ok "bad version is named" grep -q "'not-a-version' is not a kernel version" "$TRASH/.stderr"
# A release dated from its Debian changelog (kmig import's Date-Source
# trailer) is labelled so in the report and on the dashboard; the others
# keep an unlabelled date.
D="$TRASH/dated"
git init -q "$D"
printf 'void f(char *b) { strcpy(b, "x"); }\n' > "$D/a.c"
git -C "$D" add a.c
GIT_AUTHOR_DATE='2026-11-15T22:30:52Z' GIT_COMMITTER_DATE='2026-11-15T22:30:52Z' \
	git -C "$D" commit -q -m 'Linux 7.3.4

Debian package linux-source-7.3 version 7.3.4-1~bpo13+1

Date-Source: debian-changelog'
git -C "$D" tag v7.3.4
printf 'void g(char *b) { strcpy(b, "y"); }\n' > "$D/b.c"
git -C "$D" add b.c
git -C "$D" commit -q -m 'Linux 7.3.5'
git -C "$D" tag v7.3.5
t_exit "scan releases with and without a Debian date" 0 \
	"$KMIG" --repo "$D" --db "$TRASH/dated.db" scan --jobs 1
t_is "the database records the date's source" "v7.3.4|debian-changelog
v7.3.5|" "$(sqlite3 "$TRASH/dated.db" 'SELECT tag, date_source FROM releases ORDER BY sort_key')"
t_exit "report of the Debian-dated release" 0 "$KMIG" --db "$TRASH/dated.db" report v7.3.4
t_ok "the header names the Debian date" grep -q '^release v7.3.4, Debian date 2026-11-15$' "$TRASH/.stdout"
t_exit "JSON report of it" 0 "$KMIG" --db "$TRASH/dated.db" report v7.3.4 --format json
t_is "JSON: date and its source" "2026-11-15T22:30:52+00:00 debian-changelog" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["date"], d["date_source"])' "$TRASH/.stdout")"
t_exit "report of the other" 0 "$KMIG" --db "$TRASH/dated.db" report v7.3.5
t_ok "... has no Debian date" sh -c "! grep -q 'Debian date' '$TRASH/.stdout'"
t_exit "JSON report of the other" 0 "$KMIG" --db "$TRASH/dated.db" report v7.3.5 --format json
t_is "JSON: the commit time" commit \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["date_source"])' "$TRASH/.stdout")"
t_exit "dashboard" 0 "$KMIG" --db "$TRASH/dated.db" web --out "$TRASH/site"
t_ok "the release page names the Debian date" \
	sh -c "grep -rq 'Debian date 2026-11-15' '$TRASH/site'"
t_ok "the release table marks it" sh -c "grep -rq '2026-11-15 (Debian)' '$TRASH/site'"
t_done
