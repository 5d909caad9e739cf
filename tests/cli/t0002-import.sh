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
t_is "database has the schema" 4 "$(sqlite3 "$DB" 'PRAGMA user_version')"
t_ok "database has the releases table" sqlite3 "$DB" 'SELECT count(*) FROM releases'

t_exit "re-import of an existing tag is skipped" 0 k import --tarball "$TRASH/linux-1.0.tar.xz" --tag v1.0
t_ok "skip is reported" grep -q '^v1.0 already imported, skipped$' "$TRASH/.stdout"
t_exit "an older version after a newer one is refused" 2 k import --tarball "$TRASH/linux-1.0.tar.xz" --tag v0.9
t_ok "order error is clear" grep -q 'history is in version order' "$TRASH/.stderr"
t_exit "missing tarball" 2 k import --tarball "$TRASH/nope.tar.xz" --tag v2.0
t_is "missing tarball: one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_ok "missing tarball is named" grep -q "nope.tar.xz" "$TRASH/.stderr"
t_is "a failed import leaves no tag" "" "$(git -C "$REPO" tag -l v2.0)"
t_exit "--tarball without --tag" 2 k import --tarball "$TRASH/linux-1.0.tar.xz"
t_exit "not a version" 2 k import not-a-version
t_ok "bad version is named" grep -q "'not-a-version' is not a kernel version" "$TRASH/.stderr"
t_done
