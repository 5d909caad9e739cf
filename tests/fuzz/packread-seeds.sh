#!/bin/sh
# packread-seeds.sh OUTDIR - seeds for fuzz-packread from packs git itself
# writes: a small synthetic repository (no kernel source) packed with
# offset deltas and with reference deltas, each turned into the harness's
# input format (see fuzz-packread.c): N, N 16-bit offsets, the pack body.
set -e
out=${1:?usage: packread-seeds.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git init -q -b main "$tmp/r"
cd "$tmp/r"
git config user.name Seed
git config user.email seed@example.org
for v in 1 2 3 4 5 6; do
	{ seq 1 40; echo "int v$v(void) { return $v; }"; seq $v 30; } > a.c
	printf 'struct s { int x[%d]; };\n' "$v" > b.h
	git add -A
	git commit -q -m "v$v"
done

seed() {	# NAME: the current pack as a harness input
	idx=$(ls .git/objects/pack/*.idx)
	pack=${idx%.idx}.pack
	git verify-pack -v "$idx" | awk '$2 ~ /^(commit|tree|blob|tag)$/ { print $5 }' |
		sort -n | head -n 32 > "$tmp/offs"
	python3 - "$pack" "$tmp/offs" "$out/$1" <<'EOP'
import struct, sys
pack = open(sys.argv[1], 'rb').read()
offs = [int(x) for x in open(sys.argv[2]).read().split()]
body = pack[12:-20]
offs = [o - 12 for o in offs if o - 12 < 65536]
with open(sys.argv[3], 'wb') as f:
    f.write(bytes([len(offs)]))
    for o in offs:
        f.write(struct.pack('<H', o))
    f.write(body[:65536 + 1024])
EOP
}

git repack -q -a -d -f --window=10 --depth=10
seed ofs-deltas
git -c repack.useDeltaBaseOffset=false repack -q -a -d -f --window=10 --depth=10
seed ref-deltas
git repack -q -a -d -f --window=0
seed whole-objects
