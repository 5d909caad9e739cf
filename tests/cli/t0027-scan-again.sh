#!/bin/sh
# kmig scan of releases it scanned before: at another --reach-depth (the
# graph again, which moves WARN sites between warn-on and warn-on-user);
# a tag moved to another commit with the same tree (counts kept, the new
# commit's date and date trailers recorded with its id); a tag deleted
# (a warning, then --prune removes its release, the point release that
# shared its file rows keeping every file).
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

# my_sendmsg -> f1 -> f2 -> f3 -> f4, whose WARN_ON is 4 calls away
git init -q "$W"
mkdir -p "$W/net"
cat > "$W/net/s.c" <<'EOF'
static void f4(int x) { WARN_ON(x); }
static void f3(int x) { f4(x); }
static void f2(int x) { f3(x); }
static void f1(int x) { f2(x); }
static int my_sendmsg(struct socket *sock) { f1(1); return 0; }
static const struct proto_ops ops = { .sendmsg = my_sendmsg };
EOF
git_commit_all "$W" one && git -C "$W" tag v1.0

warns() { k report v1.0 --by rule --format csv | grep ',warn-on' | tr '\n' ' '; }

t_exit "scan at the default depth" 0 k scan
t_is "depth 3: a plain warn-on" "v1.0,warn-on,1 v1.0,warn-on-user,0 " "$(warns)"
t_exit "scan --reach-depth 4" 0 k scan --reach-depth 4
t_is "the line gives the counts that changed, not 'counts kept'" \
	"v1.0: call graph again (reach depth 4), counted again: 1 warn-on-user, 0 warn-on" \
	"$(cat "$TRASH/.stdout")"
t_is "depth 4: the WARN is reached" "v1.0,warn-on,0 v1.0,warn-on-user,1 " "$(warns)"
t_exit "scan --reach-depth 3 again" 0 k scan --reach-depth 3
t_is "and back" \
	"v1.0: call graph again (reach depth 3), counted again: 0 warn-on-user, 1 warn-on" \
	"$(cat "$TRASH/.stdout")"

# v1.0 again at a commit of the same tree, with another date and kmig
# import's date trailers
GIT_COMMITTER_DATE='2024-06-01T00:00:00Z' git -C "$W" commit -q --amend -m 'one again

Date-Source: debian-changelog
Line-Date: 1700000000'
git -C "$W" tag -f v1.0 > /dev/null
t_exit "scan of the moved tag" 0 k scan
t_is "same tree: counts kept" "v1.0: same tree at a new commit, counts kept" \
	"$(cat "$TRASH/.stdout")"
t_is "the new commit with its date, date source and line date" \
	"$(git -C "$W" rev-parse v1.0)|1717200000|debian-changelog|1700000000" \
	"$(sqlite3 "$DB" "SELECT commit_id, date, date_source, line_date FROM releases WHERE tag = 'v1.0'")"
k report v1.0 --format json > "$TRASH/json"
t_ok "report: the new commit's date" \
	grep -q '"date": "2024-06-01T00:00:00+00:00", .*"date_source": "debian-changelog"' "$TRASH/json"

# v1.1 adds seven files; v1.1.1 changes one of them and shares v1.1's
# file rows; then v1.1's tag is deleted
for i in 1 2 3 4 5 6 7; do
	printf 'int a%s(int x) { return x; }\n' $i > "$W/net/a$i.c"
done
printf 'NETWORKING\nF:\tnet/\n' > "$W/MAINTAINERS"	# the same in both
git_commit_all "$W" two && git -C "$W" tag v1.1
printf 'int a1(char *d) { strcpy(d, "x"); return 0; }\n' > "$W/net/a1.c"
git_commit_all "$W" three && git -C "$W" tag v1.1.1
t_exit "scan of the point release" 0 k scan
t_is "v1.1.1 shares v1.1's file rows" "v1.1" \
	"$(sqlite3 "$DB" "SELECT b.tag FROM releases r JOIN releases b ON b.id = r.files_base WHERE r.tag = 'v1.1.1'")"
files() {
	sqlite3 "$DB" "SELECT f.path, f.oid FROM release_files f
		JOIN releases r ON r.id = f.release_id WHERE r.tag = 'v1.1.1' ORDER BY 1"
}
files > "$TRASH/files.before"
k report v1.1.1 --by file --format csv | cut -d, -f1-4 > "$TRASH/counts.before"
t_is "eight files" 8 "$(wc -l < "$TRASH/files.before")"
t_ok "... and the strcpy" grep -qx 'v1.1.1,net/a1.c,strcpy,1' "$TRASH/counts.before"
git -C "$W" tag -d v1.1 > /dev/null
t_exit "scan without the tag" 0 k scan
t_ok "a warning names the release" grep -qx \
	"kmig: warning: v1.1 is no longer a tag of the repository: 'kmig scan --prune' removes it from the database" \
	"$TRASH/.stderr"
t_is "... which stays" "v1.0 v1.1 v1.1.1" \
	"$(sqlite3 "$DB" "SELECT group_concat(tag, ' ') FROM (SELECT tag FROM releases ORDER BY sort_key)")"
t_exit "scan --prune" 0 k scan --prune
t_is "the release is pruned" "v1.1: pruned (no longer a tag)" \
	"$(grep pruned "$TRASH/.stdout")"
t_is "v1.0 and v1.1.1 left" "v1.0 v1.1.1" \
	"$(sqlite3 "$DB" "SELECT group_concat(tag, ' ') FROM (SELECT tag FROM releases ORDER BY sort_key)")"
t_is "... v1.1.1 with every file as its own" "$(cat "$TRASH/files.before")" "$(files)"
t_is "... no release shares rows" "0" \
	"$(sqlite3 "$DB" "SELECT count(files_base) FROM releases")"
t_is "... no rows of a release gone" "0|0|0" \
	"$(sqlite3 "$DB" "SELECT (SELECT count(*) FROM counts WHERE release_id NOT IN (SELECT id FROM releases)),
		(SELECT count(*) FROM file_counts WHERE release_id NOT IN (SELECT id FROM releases)),
		(SELECT count(*) FROM release_file_rows WHERE release_id NOT IN (SELECT id FROM releases))")"
k report v1.1.1 --by file --format csv | cut -d, -f1-4 > "$TRASH/counts.after"
t_ok "... and the same counts" cmp "$TRASH/counts.before" "$TRASH/counts.after"
t_exit "report of the pruned release" 2 k report v1.1
t_exit "scan --prune again: nothing to prune" 0 k scan --prune
t_ok "... no line says pruned" sh -c "! grep -q pruned '$TRASH/.stdout'"
# no release tag left at all: --prune prunes, a plain scan is an error
git -C "$W" tag -d v1.0 v1.1.1 > /dev/null
t_exit "scan with no tag left" 2 k scan
t_is "... said" "kmig: no release tags to scan in '$W'" "$(cat "$TRASH/.stderr")"
t_exit "scan --prune with no tag left" 0 k scan --prune
t_is "... both pruned" "v1.0: pruned (no longer a tag)
v1.1.1: pruned (no longer a tag)" "$(cat "$TRASH/.stdout")"
t_is "... no release left" 0 "$(sqlite3 "$DB" "SELECT count(*) FROM releases")"

# a database from a kmig that read MAINTAINERS otherwise (N: with POSIX's
# "[^\d]", where Perl's is no digit): counted again, the file moves
M="$TRASH/maint"
git init -q "$M"
mkdir -p "$M/lib"
printf 'MXC\nN:\t\\bmxc[^\\d]\n' > "$M/MAINTAINERS"
printf 'void m(char *d) { strcpy(d, "x"); }\n' > "$M/lib/mxc2.c"
git_commit_all "$M" one && git -C "$M" tag v1.0
km() { "$KMIG" --repo "$M" --db "$TRASH/maint.db" "$@"; }
t_exit "scan: lib/mxc2.c in no section" 0 km scan
t_is "... (none)" "v1.0,(none),strcpy,1," \
	"$(km report --format csv --by subsystem | grep strcpy)"
sqlite3 "$TRASH/maint.db" "INSERT OR IGNORE INTO subsystems(name) VALUES ('MXC');
	UPDATE release_file_rows SET subsystem_id = (SELECT id FROM subsystems WHERE name = 'MXC');
	UPDATE counts SET subsystem_id = (SELECT id FROM subsystems WHERE name = 'MXC');
	UPDATE releases SET counted_by = 'an older kmig'"
t_is "as an older kmig left it: MXC" "v1.0,MXC,strcpy,1," \
	"$(km report --format csv --by subsystem | grep strcpy)"
t_exit "scan with this kmig" 0 km scan
t_is "counted again, the file in its section" \
	"v1.0: counted again from its cached blobs (kmig's counting changed), 1 file in another MAINTAINERS section" \
	"$(cat "$TRASH/.stdout")"
t_is "... (none) again" "v1.0,(none),strcpy,1," \
	"$(km report --format csv --by subsystem | grep strcpy)"

t_done
