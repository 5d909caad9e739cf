#!/bin/sh
# Giant blobs (4 MB and more, like the amd register headers) are lexed one
# at a time by the scan's workers: a worker that meets one while another
# worker lexes one puts it off to the end of its run.  Whatever order that
# gives, two workers count what one worker counts, whole objects and
# deltas alike (one release's giants are stored as deltas of the other's,
# their size read from the delta's first bytes).
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"

# giant FILE K N - register header K, about 5 MB, with N strcpy uses
giant() {
	awk -v k="$2" -v n="$3" 'BEGIN {
		for (i = 0; i < 100000; i++)
			printf "#define REG%d_BLOCK_FIELD_%d__MASK 0x%08xL\n", k, i, i
		printf "static inline void reg_copy(char *d, const char *s)\n{\n"
		for (i = 0; i < n; i++)
			printf "\tstrcpy(d, s);\n"
		printf "}\n"
	}' > "$1"
}

# counts DB TAG - the release's file counts, by name
counts() {
	sqlite3 "$1" "SELECT c.path, c.rule, c.count FROM file_counts c
		JOIN releases r ON r.id = c.release_id
		WHERE r.tag = '$2' ORDER BY 1, 2"
}

git init -q "$W"
mkdir -p "$W/drivers/gpu/reg"
printf 'GPU\nF:\tdrivers/gpu/\n' > "$W/MAINTAINERS"
for i in 1 2 3 4 5 6; do
	giant "$W/drivers/gpu/reg/r${i}_sh_mask.h" "$i" "$i"
done
for i in $(seq 1 150); do
	printf 'void f%d(char *d)\n{\n\tstrcpy(d, "x");\n}\n' "$i" > "$W/drivers/gpu/f$i.c"
done
git -C "$W" add -A
git -C "$W" -c user.name=T -c user.email=t@example.org commit -q -m v1
git -C "$W" tag v1.0
# the next release changes every giant a little: deltas in the pack
for i in 1 2 3 4 5 6; do
	giant "$W/drivers/gpu/reg/r${i}_sh_mask.h" "$i" "$((i + 1))"
done
git -C "$W" add -A
git -C "$W" -c user.name=T -c user.email=t@example.org commit -q -m v1.1
git -C "$W" tag v1.1
git -C "$W" repack -q -a -d -f
# deltas (a 7th column: their depth) that inflate to more than 4 MB
deltas=$(git -C "$W" verify-pack -v "$W"/.git/objects/pack/*.idx |
	awk 'NF >= 7 { print $1 }' |
	while read -r oid; do git -C "$W" cat-file -s "$oid"; done |
	awk '$1 > 4000000 { d++ } END { print d + 0 }')
t_ok "giants are deltas in the pack ($deltas)" test "$deltas" -ge 6

t_exit "scan, two workers" 0 "$KMIG" --repo "$W" --db "$TRASH/two.db" scan --jobs 2
t_exit "scan, one worker" 0 "$KMIG" --repo "$W" --db "$TRASH/one.db" scan --jobs 1
for tag in v1.0 v1.1; do
	t_is "$tag: two workers count what one counts" \
		"$(counts "$TRASH/one.db" $tag)" "$(counts "$TRASH/two.db" $tag)"
done
t_is "v1.0: every giant's uses" "drivers/gpu/reg/r6_sh_mask.h|strcpy|6" \
	"$(counts "$TRASH/two.db" v1.0 | grep r6_sh_mask)"
t_is "v1.1: every giant's uses" "drivers/gpu/reg/r6_sh_mask.h|strcpy|7" \
	"$(counts "$TRASH/two.db" v1.1 | grep r6_sh_mask)"
t_is "v1.1: all of them" 177 \
	"$(sqlite3 "$TRASH/two.db" "SELECT sum(c.count) FROM file_counts c JOIN releases r ON r.id = c.release_id WHERE r.tag = 'v1.1' AND c.rule = 'strcpy'")"

t_done
