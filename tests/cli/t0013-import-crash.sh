#!/bin/sh
# Crash safety of kmig import: fixture tarballs imported newest first (so
# every later import inserts an older version and re-creates the commits
# after it), each import killed with SIGKILL at random moments and
# restarted.  After every kill the repository passes git fsck and the
# database SQLite's integrity check; the runs that complete end with
# exactly the refs of an uninterrupted sequence, and the database's
# commit ids follow the moved tags.
. "$(dirname "$0")/../lib.sh"

SRC="$TRASH/src"
REF="$TRASH/ref.git"
REPO="$TRASH/linux.git"
DB="$TRASH/kmig.db"

# 5 releases of 600 files, as tarballs with a top directory.
git init -q "$SRC"
python3 "$TOP/tests/mkhistory.py" "$SRC" 5 600 13 v1.
for i in 0 1 2 3 4; do
	git -C "$SRC" archive --prefix=linux-1.$i/ -o "$TRASH/linux-1.$i.tar.gz" "v1.$i"
done
order="4 3 1 0 2"	# newest first: each import after the first inserts

now_ms() { date +%s%3N; }
for i in $order; do
	t0=$(now_ms)
	"$KMIG" --repo "$REF" --db "$TRASH/ref.db" import --jobs 2 \
		--tarball "$TRASH/linux-1.$i.tar.gz" --tag "v1.$i" > /dev/null 2>&1 ||
		echo "reference import of v1.$i failed" >> "$TRASH/ref.err"
	echo "$i $(( $(now_ms) - t0 ))" >> "$TRASH/durations"
done
touch "$TRASH/ref.err"
t_is "uninterrupted reference imports" "" "$(cat "$TRASH/ref.err")"
t_is "reference history in version order" "v1.4 v1.3 v1.2 v1.1 v1.0" \
	"$(git -C "$REF" log --format=%s HEAD | sed 's/Linux /v/' | tr '\n' ' ' | sed 's/ $//')"

seed=${KMIG_CRASH_SEED:-$$}
echo "# seed $seed, uninterrupted imports (version ms): $(tr '\n' ' ' < "$TRASH/durations")"
fsck=ok integrity=ok kills=0
for i in $order; do
	k=0
	while [ $k -lt 4 ]; do
		k=$((k + 1))
		# uniform over the uninterrupted import's time: each kill lands in work
		dur=$(awk -v i="$i" '$1 == i { print $2 }' "$TRASH/durations")
		ms=$(awk -v s="$seed" -v i="$i" -v k="$k" -v d="$dur" \
			'BEGIN { srand(s * 100 + i * 10 + k); printf "%d", rand() * d * 0.7 }')
		"$KMIG" --repo "$REPO" --db "$DB" import --jobs 2 \
			--tarball "$TRASH/linux-1.$i.tar.gz" --tag "v1.$i" > /dev/null 2>&1 &
		pid=$!
		sleep "$(awk -v ms="$ms" 'BEGIN { printf "%.3f", ms / 1000 }')"
		kill -KILL "$pid" 2> /dev/null && kills=$((kills + 1))
		wait "$pid" 2> /dev/null
		echo "# v1.$i kill $k after ${ms} ms"
		if [ -d "$REPO" ] && ! git -C "$REPO" fsck --no-progress > "$TRASH/fsck" 2>&1; then
			fsck="v1.$i kill $k: $(head -3 "$TRASH/fsck")"
		fi
		if [ -f "$DB" ]; then
			got=$(sqlite3 "$DB" 'PRAGMA integrity_check' 2>&1)
			[ "$got" = ok ] || integrity="v1.$i kill $k: $got"
		fi
	done
	"$KMIG" --repo "$REPO" --db "$DB" import --jobs 2 \
		--tarball "$TRASH/linux-1.$i.tar.gz" --tag "v1.$i" > "$TRASH/.stdout" 2>&1 ||
		integrity="v1.$i: the run after the kills failed: $(cat "$TRASH/.stdout")"
	# the database must follow the moved tags: scan after each step
	if [ "$i" = 4 ] || [ "$i" = 1 ]; then
		"$KMIG" --repo "$REPO" --db "$DB" scan --jobs 2 > /dev/null 2>&1 ||
			integrity="scan after v1.$i failed"
	fi
done
echo "# $kills kills landed"
t_is "git fsck passes after every kill" ok "$fsck"
t_is "integrity_check ok after every kill, every run completes" ok "$integrity"
t_ok "git fsck at the end" git -C "$REPO" fsck --no-progress
# commit times of a tarball without a top Makefile are the import's
# clock: compare the history's trees and subjects, and where the refs point
hist() {
	git -C "$1" log --format='%T %s' HEAD
	for t in $(git -C "$1" tag | sort); do
		echo "$t $(git -C "$1" cat-file -t "$t") $(git -C "$1" rev-parse "$t^{tree}")" \
			"$(git -C "$1" log -1 --format=%s "$t")" \
			"$(git -C "$1" rev-list --count "$t")"
	done
	git -C "$1" for-each-ref --format='%(refname)' | sort
}
hist "$REF" > "$TRASH/ref.hist"
hist "$REPO" > "$TRASH/hist"
t_ok "history, tags and refs as in the uninterrupted imports" cmp "$TRASH/ref.hist" "$TRASH/hist"
t_is "every tag on the branch" "" \
	"$(for t in $(git -C "$REPO" tag); do git -C "$REPO" merge-base --is-ancestor "$t" HEAD || echo "$t"; done)"
t_is "no journal left" "" "$(ls "$REPO"/kmig-import.journal* 2> /dev/null)"
t_is "no unpack directory left" "" "$(ls -A "$KMIG_HOME/tmp" 2> /dev/null)"
t_is "the database's commits are the tags' commits" \
	"$(for t in v1.1 v1.3 v1.4; do git -C "$REPO" rev-parse "$t^{commit}"; done)" \
	"$(sqlite3 "$DB" "SELECT commit_id FROM releases ORDER BY sort_key")"
t_exit "a scan after the kills" 0 "$KMIG" --repo "$REPO" --db "$DB" scan --jobs 2
t_is "only v1.0 and v1.2 are new to the scan" "v1.1: up to date
v1.3: up to date
v1.4: up to date" "$(grep -v '^v1.[02]:' "$TRASH/.stdout")"

# Each step of the commit, killed deterministically (KMIG_TEST_KILL_AT):
# after the objects, after the journal, after the refs, after the
# database.  Each time the next run (or scan) ends in the same state.
R2="$TRASH/steps.git" D2="$TRASH/steps.db"
k2() { "$KMIG" --repo "$R2" --db "$D2" "$@"; }
k2 import --tarball "$TRASH/linux-1.4.tar.gz" --tag v1.4 > /dev/null 2>&1
k2 import --tarball "$TRASH/linux-1.3.tar.gz" --tag v1.3 > /dev/null 2>&1
k2 scan --jobs 2 > /dev/null 2>&1
n=0
for point in objects journal refs database; do
	n=$((n + 1))
	v=$((3 - n))	# v1.2, v1.1, v1.0, then v1.-1 is not a version: reuse v0.N
	[ $v -ge 0 ] && tag=v1.$v tb=linux-1.$v.tar.gz || { tag=v0.9; tb=linux-1.2.tar.gz; }
	KMIG_TEST_KILL_AT=$point k2 import --tarball "$TRASH/$tb" --tag $tag > /dev/null 2>&1
	t_is "killed after the $point" 137 "$?"
	t_ok "git fsck after the kill after the $point" git -C "$R2" fsck --no-progress
	t_is "integrity_check after the kill after the $point" ok "$(sqlite3 "$D2" 'PRAGMA integrity_check')"
	t_exit "the next run after the kill after the $point" 0 \
		k2 import --tarball "$TRASH/$tb" --tag $tag
	case $point in
	objects) t_ok "... imports it again" grep -q "^$tag [0-9a-f]* [0-9]* files" "$TRASH/.stdout" ;;
	database) t_ok "... finds it imported" grep -q "^$tag already imported, skipped" "$TRASH/.stdout" ;;
	*) t_ok "... completes the interrupted import" grep -q '^completed an interrupted import$' "$TRASH/.stdout" ;;
	esac
	t_is "... no journal left" "" "$(ls "$R2"/kmig-import.journal* 2> /dev/null)"
	t_is "... the database's commits are the tags' commits after the $point" \
		"$(for t in v1.3 v1.4; do git -C "$R2" rev-parse "$t^{commit}"; done)" \
		"$(sqlite3 "$D2" "SELECT commit_id FROM releases WHERE tag IN ('v1.3', 'v1.4') ORDER BY sort_key")"
	t_is "... history in version order after the $point" \
		"$(git -C "$R2" tag | sort -V | tac | tr '\n' ' ')" \
		"$(git -C "$R2" log --format=%s HEAD | sed 's/Linux /v/' | tr '\n' ' ')"
done
t_exit "a scan after the step kills" 0 k2 scan --jobs 2
t_ok "v1.3 and v1.4 kept their counts" sh -c "grep -q '^v1.3: up to date' '$TRASH/.stdout' && grep -q '^v1.4: up to date' '$TRASH/.stdout'"
t_done
