#!/bin/sh
# bench/run.sh - "make bench": kmig side by side with git grep and the
# inflate limit on the imported Debian kernel history.  See bench/README.md.
#
# Every contender runs once per round, in the same order, so the contenders
# alternate (A B C A B C ...); the table shows the median and min-max of the
# rounds.  Nothing here asserts a time: the targets are reported.
#
# Knobs (environment):
#   KMIG_BENCH_HOME      repository + databases (default
#                        ${XDG_CACHE_HOME:-$HOME/.cache}/kmig-bench, or
#                        .../kmig-bench2 with KMIG_BENCH_RELEASES=2)
#   KMIG_BENCH_RELEASES  6 (default: 6.1.170 6.1.187 6.1.192 6.12.107
#                        6.12.115 6.12.118), 2 (6.1.192 6.12.118: quick,
#                        no scaling), or a list of Debian versions
#   KMIG_BENCH_ROUNDS    rounds (default 3)
#   KMIG_BENCH_GREP_SAMPLE  (rule, tag) pairs of the per-rule git grep run
#                        per round (default: all; fewer rotate over the rounds
#                        and the time is extrapolated to all pairs)
#   KMIG_BENCH_BOOT      0 to skip the kmig boot contender (default 1)
#   KMIG_BENCH_BOOT_ROUNDS  rounds of the boot contender (default ROUNDS)
#   KMIG_BENCH_JOBS      kmig --jobs (default: CPUs)
#   KMIG_BENCH_ONLY      run only these contenders (e.g. "cold cold-2 cold-4
#                        inflate" for the scaling part alone)
#   KMIG_BENCH_DEBS      the Debian linux-source .debs of the import
#                        section (default ${KMIG_HOME:-~/.cache/kmig}/debs)
#   KMIG_BENCH_IMPORT_DEB  the .deb whose tarball the import contenders
#                        import (default: the newest version there)
#   KMIG_BENCH_LEX_TAG   the release whose in-scope .c/.h the lexer
#                        contender lexes (default: the newest bench tag)
#   KMIG_BENCH_LEX_BASE  a revision of kmig whose lexer runs beside this
#                        tree's, alternately: before and after a change
#   KMIG                 the binary (default ./kmig)
set -u

TOP=$(cd "$(dirname "$0")/.." && pwd)
KMIG=${KMIG:-$TOP/kmig}
RULES_FILE=$TOP/bench/grep-rules.txt
PATHSPEC="*.c *.h :!tools/ :!scripts/ :!Documentation/ :!usr/ :!samples/bpf/ :!*/tools/* :!*/Documentation/*"

# ------------------------------------------------------------------
# Internal modes: the git grep contenders, run under /usr/bin/time.

rules_lines() {
	grep -v '^#' "$RULES_FILE" | grep -v '^$'
}

# grep_rule REPO TAG ID MODE PATTERNS: one git grep -c, prints the sum
grep_rule() {
	repo=$1 tag=$2 mode=$4 pats=$5
	set -f
	case $mode in
	w)	set -- -w -F
		for p in $pats; do set -- "$@" -e "$p"; done ;;
	f)	set -- -F -e "$pats" ;;
	E)	set -- -E -e "$pats" ;;
	esac
	# shellcheck disable=SC2086
	git -C "$repo" grep -c "$@" "$tag" -- $PATHSPEC |
		awk -F: '{ s += $NF } END { print s + 0 }'
	set +f
}

# The combined Perl pattern of every rule.
combined_pattern() {
	rules_lines | while IFS='|' read -r id mode pats; do
		case $mode in
		w)	printf '\\b(?:%s)\\b\n' "$(echo "$pats" | tr ' ' '|')" ;;
		f)	printf '%s\n' "$pats" | sed 's/[][()*.\\^$|?+{}]/\\&/g' ;;
		E)	printf '%s\n' "$pats" ;;
		esac
	done | awk '{ s = s (NR > 1 ? "|" : "") "(?:" $0 ")" } END { print s }'
}

case ${1:-} in
__grep_combined)	# REPO TAG...
	repo=$2
	shift 2
	pat=$(combined_pattern)
	set -f
	for tag in "$@"; do
		# shellcheck disable=SC2086
		git -C "$repo" grep -c -P -e "$pat" "$tag" -- $PATHSPEC |
			awk -F: '{ s += $NF } END { print s + 0 }' || exit 2
	done
	exit 0 ;;
__grep_rules)		# TMPDIR REPO FIRST STEP COUNT TAG...
	# the (tag, rule) pairs FIRST, FIRST+STEP, ... (COUNT of them, modulo
	# the number of pairs), tags outer, rules inner
	tmp=$2 repo=$3 first=$4 step=$5 count=$6
	shift 6
	rules_lines > "$tmp/rules"
	npairs=$(($(wc -l < "$tmp/rules") * $#))
	k=0
	: > "$tmp/pairs"
	while [ "$k" -lt "$count" ]; do
		echo $(( (first + k * step) % npairs )) >> "$tmp/pairs"
		k=$((k + 1))
	done
	n=0
	for tag in "$@"; do
		while IFS='|' read -r id mode pats; do
			if grep -qx "$n" "$tmp/pairs"; then
				echo "$tag,$id,$(grep_rule "$repo" "$tag" "$id" "$mode" "$pats")"
			fi
			n=$((n + 1))
		done < "$tmp/rules"
	done
	exit 0 ;;
esac

# ------------------------------------------------------------------
# Setup.

say() { printf '%s\n' "$*" >&2; }
die() { say "bench: $*"; exit 2; }

cd "$TOP" || die "cannot cd to $TOP"
[ -x "$KMIG" ] || die "no kmig binary at $KMIG (run make)"
[ -x /usr/bin/time ] || die "/usr/bin/time is missing (make deps installs the 'time' package)"
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}
RELS=${KMIG_BENCH_RELEASES:-6}
case $RELS in
6)	RELS="6.1.170 6.1.187 6.1.192 6.12.107 6.12.115 6.12.118"
	H=${KMIG_BENCH_HOME:-$CACHE/kmig-bench} ;;
2)	RELS="6.1.192 6.12.118"
	H=${KMIG_BENCH_HOME:-$CACHE/kmig-bench2}
	say "bench: NOTE: 2 releases only (KMIG_BENCH_RELEASES=2): no 4- and 6-release scaling" ;;
*)	H=${KMIG_BENCH_HOME:-$CACHE/kmig-bench} ;;
esac
ROUNDS=${KMIG_BENCH_ROUNDS:-3}
JOBS=${KMIG_BENCH_JOBS:-$(nproc)}
REPO=$H/linux
export KMIG_NO_PROGRESS=1
mkdir -p "$H" || die "cannot create $H"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kmig-bench.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$TMP"' EXIT INT TERM
# a private copy: a rebuild of ./kmig during the run changes nothing here
# (its data -- the QEMU configuration, the semantic patches, the Debian
# suites of kmig import -- is found next to the original, else in this tree:
# the copy has no source tree beside it)
kmig_src=$(cd "$(dirname "$KMIG")" && pwd)
data_dir() {	# data_dir VAR SUBDIR: set VAR unless the caller did
	eval "[ -n \"\${$1:-}\" ]" && return 0
	if [ -d "$kmig_src/$2" ]; then
		eval "$1=\$kmig_src/\$2"
	else
		eval "$1=\$TOP/\$2"
	fi
	export "$1"
}
data_dir KMIG_QEMU_DIR qemu
data_dir KMIG_COCCI_DIR tracker/cocci
data_dir KMIG_DEBIAN_DIR tracker/debian
cp "$KMIG" "$TMP/kmig" || die "cannot copy $KMIG"
KMIG=$TMP/kmig

# Import what is missing, in version order, into the bench repository only.
missing=
for v in $RELS; do
	git -C "$REPO" rev-parse -q --verify "refs/tags/v$v" > /dev/null 2>&1 ||
		missing="$missing $v"
done
if [ -n "$missing" ]; then
	say "bench: importing$missing into $REPO (minutes per release)"
	# one run a version: a kmig import run is all or nothing, and a
	# version the mirror lists but no longer serves must not cost the rest
	for v in $missing; do
		KMIG_HOME=$H "$KMIG" --repo "$REPO" --db "$H/kmig.db" import "$v" >&2 ||
			say "bench: WARNING: import of $v failed; benchmarking the releases present"
	done
fi
TAGS=
NT=0
for v in $RELS; do
	if git -C "$REPO" rev-parse -q --verify "refs/tags/v$v" > /dev/null 2>&1; then
		TAGS="$TAGS v$v"
		NT=$((NT + 1))
	fi
done
[ "$NT" -gt 0 ] || die "no release of '$RELS' in $REPO"
TAGS=${TAGS# }
ALLTAGS=$(git -C "$REPO" tag -l 'v[0-9]*' | grep -v -- -rc | wc -l)
[ "$ALLTAGS" -eq "$NT" ] ||
	say "bench: NOTE: $REPO has $ALLTAGS release tags, benchmarking $NT"
tag_args() {	# the first $1 tags as --tags options
	echo "$TAGS" | tr ' ' '\n' | head -n "$1" | sed 's/^/--tags /' | tr '\n' ' '
}
ALL_TAG_ARGS=$(tag_args "$NT")

NRULES=$(rules_lines | wc -l)
PAIRS=$((NRULES * NT))
SAMPLE=${KMIG_BENCH_GREP_SAMPLE:-$PAIRS}
[ "$SAMPLE" -gt "$PAIRS" ] && SAMPLE=$PAIRS
# a sample spreads over tags and rules: step across the pairs, never a
# multiple of the number of rules (that would pick one rule on every tag)
STEP=$((PAIRS / SAMPLE))
[ "$SAMPLE" -lt "$PAIRS" ] && [ $((STEP % NRULES)) -eq 0 ] && STEP=$((STEP + 1))

CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
CORES=$(nproc)
load() { cut -d' ' -f1-3 /proc/loadavg; }
LOAD0=$(load)
STAMP=$(date -u +%Y%m%dT%H%MZ)

want() {	# is contender $1 selected (KMIG_BENCH_ONLY)?  lex-base goes with lex
	set -- "${1%-base}"
	case " ${KMIG_BENCH_ONLY:-$1} " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# The warm database (for the warm re-scan, kmig check, kmig web, kmig report
# --trend and the counts).
if want warm || want check || want check-warn || want grep-rules || want web ||
   want trend; then
	say "bench: preparing the warm database"
	# shellcheck disable=SC2086
	"$KMIG" --repo "$REPO" --db "$H/warm.db" scan $ALL_TAG_ARGS --jobs "$JOBS" \
		> /dev/null 2>&1 || die "kmig scan failed on $REPO"
fi

# phases FILE: from the progress notes of a scan ("TAG: wrote B blobs in
# S s, F files in S s, counts and commit in S s", "TAG: call graph: ...
# (S s)", "TAG: read deprecated.rst and include/ ... in S s"), one line per
# release: "TAG blobs_s files_s graph_s counts_s include_s"
phases() {
	tr '\r' '\n' < "$1" | awk '
		/: wrote [0-9]+ blobs in / { t = $1; sub(":", "", t)
			b = $6; f = $10; c = $15; sub("s,", "", b); sub("s,", "", f); sub("s$", "", c)
			w[t] = b "," f "," c }
		/: call graph: / { t = $1; sub(":", "", t); g = $NF; gsub("[()s]", "", g); gr[t] = g }
		/: read deprecated.rst and include\// { t = $1; sub(":", "", t); i = $NF; sub("s$", "", i); inc[t] = i }
		END { for (t in w) { split(w[t], x, ","); print t, x[1], x[2], gr[t], x[3], (t in inc) ? inc[t] : 0 } }'
}

# The point release: the newest release of the history whose predecessor
# there is of the same line (v7.2.13 after v7.2.12), scanned in a run of
# its own on a database with every release before it: what a maintainer
# runs when Debian ships one.  The database before it is kept per tag and
# brought up to date first (a changed rule set re-lexes it there, untimed).
POINT_N=0
k=0
prev=
for t in $TAGS; do
	k=$((k + 1))
	line=${t%.*}
	[ "$line" = "$prev" ] && POINT_N=$k
	prev=$line
done
POINT_TAG=
if want point && [ "$POINT_N" -gt 1 ]; then
	POINT_TAG=$(echo "$TAGS" | cut -d' ' -f"$POINT_N")
	POINT_BASE=$H/point-before-$POINT_TAG.db
	say "bench: preparing the database before $POINT_TAG"
	# shellcheck disable=SC2046
	"$KMIG" --repo "$REPO" --db "$POINT_BASE" scan $(tag_args $((POINT_N - 1))) --jobs "$JOBS" \
		> /dev/null 2>&1 || die "kmig scan failed on $REPO"
elif want point; then
	say "bench: no point release in the history (two releases of one line): no point contender"
fi

# kmig check: one commit of the conversion branch (made here when missing).
CHECK_REV=
if ! want check; then
	:
elif "$KMIG" check --help > /dev/null 2>&1; then
	if ! git -C "$REPO" rev-parse -q --verify refs/heads/kmig/v6.1.192 > /dev/null &&
	   git -C "$REPO" rev-parse -q --verify refs/tags/v6.1.192 > /dev/null; then
		"$KMIG" --repo "$REPO" --db "$H/kmig.db" branch apply --base v6.1.192 \
			--series "$TOP/branch-patches" > /dev/null 2>&1
	fi
	git -C "$REPO" rev-parse -q --verify refs/heads/kmig/v6.1.192 > /dev/null &&
		CHECK_REV=kmig/v6.1.192
	[ -n "$CHECK_REV" ] || say "bench: NOTE: no conversion branch: kmig check not measured"
else
	say "bench: NOTE: kmig check is not available"
fi

# kmig check of a patch that needs the call graph: a WARN added to
# rds_sendmsg() of the newest release (before its first blank line), so both
# sides' graphs of that release are built.
WARN_PATCH= WARN_BASE=
if want check-warn; then
	WARN_BASE=${TAGS##* }
	mkdir -p "$TMP/wp/a/net/rds" "$TMP/wp/b/net/rds"
	if git -C "$REPO" show "$WARN_BASE:net/rds/send.c" > "$TMP/wp/a/net/rds/send.c" 2> /dev/null &&
	   awk '/^int rds_sendmsg\(/ { f = 1 } f && /^$/ && !done { print "\tWARN_ON(payload_len > 1 << 20);"; done = 1 } { print }' \
		"$TMP/wp/a/net/rds/send.c" > "$TMP/wp/b/net/rds/send.c" &&
	   ! cmp -s "$TMP/wp/a/net/rds/send.c" "$TMP/wp/b/net/rds/send.c"; then
		(cd "$TMP/wp" && diff -u a/net/rds/send.c b/net/rds/send.c) > "$TMP/warn.patch"
		WARN_PATCH=$TMP/warn.patch
	else
		say "bench: NOTE: no rds_sendmsg() in $WARN_BASE: kmig check of a WARN not measured"
	fi
fi

# kmig boot: a one-file step of the conversion branch in the default
# KMIG_HOME (whose build directory is shared with kmig boot's own use).
BOOT_REV=
BOOT_PARENT=
BOOT_HOME=${KMIG_HOME:-$CACHE/kmig}
want boot || KMIG_BENCH_BOOT=0
if [ "${KMIG_BENCH_BOOT:-1}" = 0 ]; then
	say "bench: NOTE: kmig boot skipped (KMIG_BENCH_BOOT=0)"
elif ! "$KMIG" boot --help > /dev/null 2>&1; then
	say "bench: NOTE: kmig boot is not available"
else
	# the newest commit of the branch changing one always-built file
	BOOT_REV=$(git -C "$BOOT_HOME/linux" log --format='@%H' --name-only \
		kmig/v6.1.192 ^v6.1.192 2> /dev/null | awk '
		/^@/ { if (c != "" && n == 1 && f ~ /^kernel\/.*\.c$/) { print c; exit }
		       c = substr($0, 2); n = 0; next }
		NF { n++; f = $0 }
		END { if (c != "" && n == 1 && f ~ /^kernel\/.*\.c$/) print c }' | head -n 1)
	if [ -n "$BOOT_REV" ]; then
		BOOT_PARENT=$(git -C "$BOOT_HOME/linux" rev-parse "$BOOT_REV^")
		say "bench: kmig boot step $(git -C "$BOOT_HOME/linux" log -1 --format='%h %s' "$BOOT_REV")"
		say "bench: building its parent first (not timed; a full build when cold)"
		KMIG_HOME=$BOOT_HOME "$KMIG" boot --rebuild "$BOOT_PARENT" > "$TMP/boot0" 2>&1 ||
			say "bench: WARNING: boot of the parent failed: $(tail -n 1 "$TMP/boot0")"
	else
		say "bench: NOTE: no conversion branch in $BOOT_HOME/linux (make demo): kmig boot not measured"
	fi
fi

# Import: kmig import of one tarball against git's import-tars.perl (git
# fast-import), and the size of a history's pack that kmig import wrote
# against "git repack -a -d -f" of the same history.
IMPORT_TAR= PACK_KMIG= PACK_GIT= PACK_TAGS=
IMPORT_TARS_PL=/usr/share/doc/git/contrib/fast-import/import-tars.perl
DEBS=${KMIG_BENCH_DEBS:-${KMIG_HOME:-$CACHE/kmig}/debs}
# deb_version FILE: 7.3.4 from linux-source-7.3_7.3.4-1~bpo13+1_all.deb
deb_version() { basename "$1" | sed 's/^[^_]*_\([^-_]*\).*/\1/'; }
# deb_tarball DEB OUT: the kernel tarball inside a linux-source .deb
deb_tarball() {
	dpkg-deb --fsys-tarfile "$1" |
		tar -xf - -O --wildcards './usr/src/linux-source-*.tar.*' > "$2"
}
if want import || want import-tars || want pack-size; then
	DEBLIST=$(for d in "$DEBS"/linux-source-*_all.deb; do
		[ -f "$d" ] && echo "$(deb_version "$d") $d"
	done | sort -V | cut -d' ' -f2-)
	[ -n "$DEBLIST" ] || say "bench: NOTE: no linux-source .deb in $DEBS: import not measured"
fi
if [ -n "${DEBLIST:-}" ] && { want import || want import-tars; }; then
	[ -f "$IMPORT_TARS_PL" ] || [ ! -f "$IMPORT_TARS_PL.gz" ] ||
		{ gzip -dc "$IMPORT_TARS_PL.gz" > "$TMP/import-tars.perl" &&
		  IMPORT_TARS_PL=$TMP/import-tars.perl; }
	[ -f "$IMPORT_TARS_PL" ] || say "bench: NOTE: no $IMPORT_TARS_PL (the git package's contrib)"
	deb=${KMIG_BENCH_IMPORT_DEB:-$(echo "$DEBLIST" | tail -n 1)}
	IMPORT_TAG=v$(deb_version "$deb")
	IMPORT_TAR=$TMP/import.tar.xz
	say "bench: import contenders: the tarball of $(basename "$deb")"
	deb_tarball "$deb" "$IMPORT_TAR" || die "cannot unpack $deb"
fi
# The pack of every .deb's release imported in version order, kept in
# $H/pack-history with the size git repack -a -d -f gives (computed once
# per history: minutes).
if [ -n "${DEBLIST:-}" ] && want pack-size; then
	PH=$H/pack-history
	for deb in $DEBLIST; do
		t=v$(deb_version "$deb")
		PACK_TAGS="$PACK_TAGS $t"
		git -C "$PH/linux" rev-parse -q --verify "refs/tags/$t" > /dev/null 2>&1 &&
			continue
		say "bench: importing $t into $PH (pack size)"
		deb_tarball "$deb" "$TMP/ph.tar.xz" || die "cannot unpack $deb"
		KMIG_HOME=$PH "$KMIG" --repo "$PH/linux" --db "$PH/kmig.db" import \
			--tarball "$TMP/ph.tar.xz" --tag "$t" > /dev/null ||
			die "kmig import of $t failed"
		rm -f "$TMP/ph.tar.xz"
	done
	PACK_TAGS=${PACK_TAGS# }
	packs_size() { cat "$1"/objects/pack/*.pack | wc -c; }
	PACK_KMIG=$(packs_size "$PH/linux")
	key="$(git -C "$PH/linux" rev-parse HEAD) $PACK_KMIG"
	if [ "$(head -n 1 "$PH/repack-f" 2> /dev/null)" != "$key" ]; then
		say "bench: git repack -a -d -f of a copy of $PH/linux (minutes)"
		cp -a "$PH/linux" "$TMP/repack" &&
			git -C "$TMP/repack" repack -a -d -f -q &&
			{ echo "$key"; packs_size "$TMP/repack"; } > "$PH/repack-f"
		rm -rf "$TMP/repack"
	fi
	PACK_GIT=$(sed -n 2p "$PH/repack-f" 2> /dev/null)
fi

# The lexer: build/lexbench (this tree's, and KMIG_BENCH_LEX_BASE's when
# set) on the in-scope .c and .h of one release, written out once.  Its
# MB/s per core is the CPU time of lexing alone (bench/README.md, "The
# lexer's throughput"); --sites digests what it found, so two lexers are
# shown to find the same sites and call-graph facts.
LEX_TAG= LEX_BASE=
if want lex; then
	LEX_TAG=${KMIG_BENCH_LEX_TAG:-${TAGS##* }}
	git -C "$REPO" rev-parse -q --verify "refs/tags/$LEX_TAG" > /dev/null 2>&1 ||
		die "no release $LEX_TAG in $REPO (KMIG_BENCH_LEX_TAG)"
	make -s -C "$TOP" lexbench >&2 || die "cannot build build/lexbench"
	cp "$TOP/build/lexbench" "$TMP/lexbench" || die "cannot copy build/lexbench"
	if [ -n "${KMIG_BENCH_LEX_BASE:-}" ]; then
		LEX_BASE=$(git -C "$TOP" rev-parse -q --verify "$KMIG_BENCH_LEX_BASE^{commit}") ||
			die "KMIG_BENCH_LEX_BASE: no revision '$KMIG_BENCH_LEX_BASE'"
		say "bench: building the lexer of $(git -C "$TOP" log -1 --format='%h %s' "$LEX_BASE")"
		mkdir -p "$TMP/lexbase"
		git -C "$TOP" archive "$LEX_BASE" | tar -x -C "$TMP/lexbase" &&
			make -s -C "$TMP/lexbase" lexbench >&2 &&
			cp "$TMP/lexbase/build/lexbench" "$TMP/lexbench-base" ||
			die "cannot build the lexbench of $KMIG_BENCH_LEX_BASE (it has one since issue 20)"
		rm -rf "$TMP/lexbase"
	fi
	say "bench: writing out the in-scope .c and .h of $LEX_TAG for the lexer"
	mkdir -p "$TMP/lexsrc"
	set -f
	# shellcheck disable=SC2086
	git -C "$REPO" archive "$LEX_TAG" -- $PATHSPEC | tar -x -C "$TMP/lexsrc" ||
		die "cannot write out $LEX_TAG"
	set +f
fi
# lex NAME ROUND BINARY: one timed lexbench round; its MB/s per core and
# sites digest go to $TMP/lex.NAME ("round mbs sha1")
lex() {
	want lex || return 0
	run "$1" "$2" 0 "$3" --rounds 1 --sites "$TMP/lexsrc"
	awk -v r="$2" '/MB\/s per core/ { for (i = 1; i < NF; i++) if ($(i + 1) == "MB/s") m = $i }
		/ sites, sha1 / { h = $NF }
		/ files, .* MB, / { f = $2; b = $4 }
		END { print r, m, h, f, b }' "$TMP/out.$1" >> "$TMP/lex.$1"
}

# ------------------------------------------------------------------
# Rounds.

SAMPLES=$TMP/samples	# contender round wall user sys rss_kb rc
: > "$SAMPLES"

# run NAME ROUND OKCODES CMD...: time CMD, record one sample
run() {
	name=$1 round=$2 ok=$3
	shift 3
	want "$name" || return 0
	/usr/bin/time -f '%e %U %S %M' -o "$TMP/time" "$@" > "$TMP/out.$name" 2> "$TMP/err.$name"
	rc=$?
	case " $ok " in
	*" $rc "*) ;;
	*)	say "bench: WARNING: $name exited $rc: $(tail -n 1 "$TMP/err.$name")" ;;
	esac
	echo "$name $round $(tail -n 1 "$TMP/time") $rc" >> "$SAMPLES"
	say "  $name: $(tail -n 1 "$TMP/time" | cut -d' ' -f1) s"
}

SCALE_N=
for n in 2 4; do
	[ "$n" -lt "$NT" ] && SCALE_N="$SCALE_N $n"
done

touch "$TMP/cold.stdout" "$TMP/cold.stderr"
for n in $SCALE_N; do
	touch "$TMP/cold-$n.stdout"
done
r=1
while [ "$r" -le "$ROUNDS" ]; do
	say "bench: round $r/$ROUNDS (load $(load))"
	rm -f "$H/cold.db" "$H/cold.db-wal" "$H/cold.db-shm" "$H/cold.db-graph"
	# shellcheck disable=SC2086
	# with its progress notes: each release's write phases (the scaling table)
	run cold "$r" 0 env -u KMIG_NO_PROGRESS KMIG_PROGRESS=1 "$KMIG" --repo "$REPO" --db "$H/cold.db" scan $ALL_TAG_ARGS --jobs "$JOBS"
	cp "$TMP/out.cold" "$TMP/cold.stdout" 2> /dev/null
	cp "$TMP/err.cold" "$TMP/cold.stderr" 2> /dev/null
	# shellcheck disable=SC2086
	run warm "$r" 0 "$KMIG" --repo "$REPO" --db "$H/warm.db" scan $ALL_TAG_ARGS --jobs "$JOBS"
	if [ -n "$POINT_TAG" ]; then
		rm -f "$H/point.db" "$H/point.db-wal" "$H/point.db-shm" "$H/point.db-graph"
		cp "$POINT_BASE" "$H/point.db"
		# the graphs' cache its scan saved, as a maintainer has it
		[ ! -f "$POINT_BASE-graph" ] || cp "$POINT_BASE-graph" "$H/point.db-graph"
		# the copies on disk first: their writeback is not the scan's (it
		# made the run's own fsync()s wait, up to 0.3 s more of "counts")
		sync
		# shellcheck disable=SC2046
		run point "$r" 0 env -u KMIG_NO_PROGRESS KMIG_PROGRESS=1 "$KMIG" --repo "$REPO" \
			--db "$H/point.db" scan $(tag_args "$POINT_N") --jobs "$JOBS"
		tr '\r' '\n' < "$TMP/err.point" > "$TMP/point.stderr"
		# every round's phases: one run's are within the noise of 0.2 s
		phases "$TMP/point.stderr" | awk -v t="$POINT_TAG" '$1 == t' >> "$TMP/point.phases"
	fi
	# to /dev/null, as the issue defines it (run() keeps stdout in a file)
	run inflate "$r" 0 sh -c 'exec git -C "$1" cat-file --batch-all-objects --batch --unordered > /dev/null' inflate "$REPO"
	# shellcheck disable=SC2086
	run grep-combined "$r" 0 sh "$0" __grep_combined "$REPO" $TAGS
	# shellcheck disable=SC2086
	if [ "$SAMPLE" -lt "$PAIRS" ]; then
		first=$(( (r - 1) % PAIRS ))
	else
		first=0
	fi
	mkdir -p "$TMP/g"
	run grep-rules "$r" 0 sh "$0" __grep_rules "$TMP/g" "$REPO" "$first" "$STEP" "$SAMPLE" $TAGS
	[ -z "$CHECK_REV" ] ||
		run check "$r" "0 1" "$KMIG" --repo "$REPO" --db "$H/warm.db" check --jobs "$JOBS" "$CHECK_REV"
	[ -z "$WARN_PATCH" ] ||
		run check-warn "$r" "1" "$KMIG" --repo "$REPO" --db "$H/warm.db" check --jobs "$JOBS" \
			--patch "$WARN_PATCH" --base "$WARN_BASE"
	rm -rf "$TMP/site"
	run web "$r" 0 "$KMIG" --repo "$REPO" --db "$H/warm.db" web -o "$TMP/site"
	[ -d "$TMP/site" ] && du -sk "$TMP/site" | cut -f1 > "$TMP/site.kb" &&
		find "$TMP/site" -type f | wc -l > "$TMP/site.files"
	run trend "$r" 0 "$KMIG" --repo "$REPO" --db "$H/warm.db" report --trend \
		--by subsystem --format csv
	lex lex "$r" "$TMP/lexbench"
	[ -z "$LEX_BASE" ] || lex lex-base "$r" "$TMP/lexbench-base"
	for n in $SCALE_N; do
		rm -f "$H/scale.db" "$H/scale.db-wal" "$H/scale.db-shm" "$H/scale.db-graph"
		# shellcheck disable=SC2046
		run "cold-$n" "$r" 0 "$KMIG" --repo "$REPO" --db "$H/scale.db" scan $(tag_args "$n") --jobs "$JOBS"
		cp "$TMP/out.cold-$n" "$TMP/cold-$n.stdout" 2> /dev/null
	done
	if [ -n "$IMPORT_TAR" ]; then
		rm -rf "$TMP/imp" "$TMP/imp-tars"
		mkdir -p "$TMP/imp"
		run import "$r" 0 env KMIG_HOME="$TMP/imp" "$KMIG" --repo "$TMP/imp/linux" \
			--db "$TMP/imp/kmig.db" import --tarball "$IMPORT_TAR" --tag "$IMPORT_TAG"
		rm -rf "$TMP/imp"
		if [ -f "$IMPORT_TARS_PL" ]; then
			git init -q --bare "$TMP/imp-tars"
			run import-tars "$r" 0 sh -c 'cd "$1" && exec perl "$2" "$3"' import-tars \
				"$TMP/imp-tars" "$IMPORT_TARS_PL" "$IMPORT_TAR"
			rm -rf "$TMP/imp-tars"
		fi
	fi
	if [ -n "$BOOT_REV" ] && [ "$r" -le "${KMIG_BENCH_BOOT_ROUNDS:-$ROUNDS}" ]; then
		# both directions are one-file steps after the other was built
		for rev in "$BOOT_REV" "$BOOT_PARENT"; do
			run boot "$r" 0 env KMIG_HOME="$BOOT_HOME" "$KMIG" boot --rebuild "$rev"
		done
	fi
	r=$((r + 1))
done
rm -f "$H/scale.db" "$H/scale.db-wal" "$H/scale.db-shm" "$H/scale.db-graph"
LOAD1=$(load)

# ------------------------------------------------------------------
# Statistics and the table.

# spread [FMT]: "median min max" of the numbers on stdin, each printed with
# FMT (default %.3f); "- - -" for none
spread() {
	sort -g | awk -v f="${1:-%.3f}" '{ v[NR] = $1 } END {
		if (!NR) { print "- - -"; exit }
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf f " " f " " f "\n", m, v[1], v[NR] }'
}
# stat NAME FIELD: "median min max" of a sample column (3 wall, 4+5 cpu, 6 rss)
stat() {
	awk -v n="$1" -v f="$2" '$1 == n {
		v = (f == "cpu") ? $4 + $5 : $f; print v }' "$SAMPLES" | spread
}
med() { stat "$1" "$2" | cut -d' ' -f1; }
# point_beyond: "median min max" over the rounds of a point release's
# time beyond its blobs (file rows, call graph, counts and commit, include/)
point_beyond() {
	awk '{ print $3 + $4 + $5 + $6 }' "$TMP/point.phases" | spread %.2f
}
count() { awk -v n="$1" '$1 == n' "$SAMPLES" | wc -l; }
# ratio A B: A / B with two decimals, "-" when either is missing
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f\n", a / b }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-") print "n/a"; else print (a <= b) ? "yes" : "NO" }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-") print "n/a"; else print (a >= b) ? "yes" : "NO" }'; }

# The per-rule grep ran SAMPLE of PAIRS pairs per round: extrapolate.
SCALE=$(awk -v p="$PAIRS" -v s="$SAMPLE" 'BEGIN { printf "%.6f\n", p / s }')
awk -v s="$SCALE" '$1 == "grep-rules" { $3 *= s; $4 *= s; $5 *= s } { print }' \
	"$SAMPLES" > "$SAMPLES.x" && mv "$SAMPLES.x" "$SAMPLES"

COLD=$(med cold 3)
COLD_CPU=$(med cold cpu)
INFL=$(med inflate 3)
INFL_CPU=$(med inflate cpu)
RSS_MB=$(awk '$1 == "cold" && $6 > m { m = $6 } END { printf "%.0f\n", m / 1024 }' "$SAMPLES")

mkdir -p "$TOP/bench/results"
CSV=$TOP/bench/results/$STAMP.csv
{
	echo "date,cpu_model,cores,load_start,load_end,releases,contender,rounds,wall_median_s,wall_min_s,wall_max_s,cpu_median_s,peak_rss_mb,ratio_wall,ratio_cpu,reference,target,met,note"
} > "$CSV"


row() {	# NAME LABEL REF_NAME RATIO_DIR TARGET_TEXT MET NOTE
	name=$1 label=$2 refn=$3 target=$5 met=$6 note=$7
	set -- $(stat "$name" 3)
	wm=$1 wmin=$2 wmax=$3
	cm=$(med "$name" cpu)
	rss=$(awk -v n="$name" '$1 == n && $6 > m { m = $6 } END { printf "%.0f\n", m / 1024 }' "$SAMPLES")
	rw=- rc=-
	if [ -n "$refn" ]; then
		rw=$(ratio "$wm" "$(med "$refn" 3)")
		rc=$(ratio "$cm" "$(med "$refn" cpu)")
	fi
	printf '%-34s %3s %9s %19s %9s %7s %8s %8s  %-22s %s\n' "$label" "$(count "$name")" \
		"$wm" "$wmin-$wmax" "$cm" "$rss" "$rw" "$rc" "$target" "$met"
	echo "$STAMP,\"$CPU\",$CORES,$LOAD0,$LOAD1,$NT,$name,$(count "$name"),$wm,$wmin,$wmax,$cm,$rss,$rw,$rc,$refn,\"$target\",$met,\"$note\"" |
		sed 's/ \([0-9.]*\) \([0-9.]*\),/ \1 \2,/' >> "$CSV"
}

{
	echo
	echo "kmig bench, $STAMP: $CPU, $CORES cores; $NT releases ($TAGS)"
	echo "load average at start $LOAD0, at end $LOAD1; $ROUNDS rounds, --jobs $JOBS"
	echo
	printf '%-34s %3s %9s %19s %9s %7s %8s %8s  %-22s %s\n' contender n \
		"wall(s)" "min-max(s)" "cpu(s)" "RSS(MB)" "x wall" "x cpu" target met
	row cold "kmig scan, cold, all tags" inflate le "<= 0.6 x inflate" \
		"$(le "$(ratio "$COLD" "$INFL")" 0.6)" "fresh database"
	row inflate "git cat-file (inflate limit)" "" - "-" - "every object once, one thread"
	row warm "kmig scan, warm (nothing new)" "" - "<= 0.3 s" "$(le "$(med warm 3)" 0.3)" ""
	if [ -s "$TMP/point.phases" ]; then
		# beyond its blobs: the write phases but the blobs', median of the rounds
		set -- $(point_beyond)
		row point "kmig scan, a point release alone" "" - "<= 0.2 s beyond blobs" \
			"$(le "$1" 0.2)" "$POINT_TAG in a later run; beyond its blobs $1 s ($2-$3, $(wc -l < "$TMP/point.phases") rounds)"
	fi
	row grep-combined "git grep -c -P combined, per tag" cold ge "info" - "one pattern for all rules"
	gnote="one git grep per rule per tag"
	[ "$SAMPLE" -lt "$PAIRS" ] && gnote="$gnote; $SAMPLE of $PAIRS pairs per round, extrapolated x$SCALE"
	row grep-rules "git grep -c per rule per tag" cold ge ">= 25 x kmig cold" \
		"$(ge "$(ratio "$(med grep-rules 3)" "$COLD")" 25)" "$gnote"
	if [ -n "$CHECK_REV" ]; then
		row check "kmig check (one commit)" "" - "<= 0.1 s" "$(le "$(med check 3)" 0.1)" "$CHECK_REV"
	else
		echo "kmig check (one commit)            not available"
		echo "$STAMP,\"$CPU\",$CORES,$LOAD0,$LOAD1,$NT,check,0,,,,,,,,,\"<= 0.1 s\",n/a,\"not available\"" >> "$CSV"
	fi
	[ -z "$WARN_PATCH" ] ||
		row check-warn "kmig check (a WARN: call graph)" "" - "info" - \
			"a patch adding a WARN to rds_sendmsg() on $WARN_BASE: both sides' graphs"
	if [ -s "$TMP/site.kb" ]; then
		row web "kmig web (the warm database)" "" - "<= 10 s" "$(le "$(med web 3)" 10)" \
			"site $(awk '{ printf "%.1f", $1 / 1024 }' "$TMP/site.kb") MB in $(cat "$TMP/site.files") files"
	fi
	want trend &&
		row trend "kmig report --trend --by subsystem" "" - "info" - \
			"every release against the one before: $(($(wc -l < "$TMP/out.trend") - 1)) rows"
	if [ -n "$BOOT_REV" ]; then
		row boot "kmig boot, one-file step" "" - "<= 20 s" "$(le "$(med boot 3)" 20)" \
			"$(git -C "$BOOT_HOME/linux" log -1 --format=%h "$BOOT_REV") and parent, alternately"
	else
		echo "kmig boot, one-file step           not measured (see the notes above)"
		echo "$STAMP,\"$CPU\",$CORES,$LOAD0,$LOAD1,$NT,boot,0,,,,,,,,,\"<= 20 s\",n/a,\"not measured\"" >> "$CSV"
	fi
	for n in $SCALE_N; do
		row "cold-$n" "kmig scan, cold, first $n tags" cold - "scaling" - "$(tag_args "$n" | sed 's/--tags //g')"
	done
	if [ -n "$IMPORT_TAR" ]; then
		row import "kmig import, one tarball" import-tars le "<= 1.0 x import-tars" \
			"$(le "$(ratio "$(med import 3)" "$(med import-tars 3)")" 1.0)" "$IMPORT_TAG"
		row import-tars "import-tars.perl (fast-import)" "" - "-" - "$IMPORT_TAG"
	fi
	echo
	if [ -n "$PACK_KMIG" ]; then
		pr=$(ratio "$PACK_KMIG" "${PACK_GIT:--}")
		echo "pack of $PACK_TAGS: kmig import $(awk -v b="$PACK_KMIG" 'BEGIN { printf "%.1f", b / 1e6 }') MB," \
			"git repack -a -d -f $(awk -v b="${PACK_GIT:-0}" 'BEGIN { printf "%.1f", b / 1e6 }') MB:" \
			"$pr x (target <= 1.2 x: $(le "$pr" 1.2))"
		echo "$STAMP,\"$CPU\",$CORES,$LOAD0,$LOAD1,$NT,pack-size,1,,,,,,$pr,,repack-f,\"<= 1.2 x git repack -a -d -f\",$(le "$pr" 1.2),\"bytes: kmig $PACK_KMIG, git $PACK_GIT; $PACK_TAGS\"" >> "$CSV"
	fi
	if [ -s "$TMP/lex.lex" ]; then
		# lexstat NAME: "median min max" MB/s per core, files, MB, digest
		lexstat() {
			echo "$(cut -d' ' -f2 "$TMP/lex.$1" | spread %.1f)" \
				"$(tail -n 1 "$TMP/lex.$1" | awk '{ print $4, $5, $3 }')"
		}
		set -- $(lexstat lex)
		lm=$1 lmin=$2 lmax=$3 lsha=$6
		lmet=$(ge "$lm" 1000)
		echo "lexer (build/lexbench, $LEX_TAG's in-scope .c/.h: $4 files, $5 MB): $lm MB/s per core" \
			"($lmin-$lmax) (target >= 1000 MB/s: $lmet); sites sha1 $(echo "$lsha" | cut -c1-12)"
		echo "$STAMP,\"$CPU\",$CORES,$LOAD0,$LOAD1,$NT,lex,$(count lex),$(stat lex 3 | tr ' ' ','),$(med lex cpu),,,,,\">= 1000 MB/s per core\",$lmet,\"$lm MB/s per core ($lmin-$lmax), $LEX_TAG $5 MB; sites sha1 $lsha\"" >> "$CSV"
		if [ -s "$TMP/lex.lex-base" ]; then
			set -- $(lexstat lex-base)
			same="the same sites"
			[ "$6" = "$lsha" ] || same="DIFFERENT sites (sha1 $(echo "$6" | cut -c1-12))"
			echo "lexer of $(git -C "$TOP" log -1 --format=%h "$LEX_BASE") (before): $1 MB/s per core ($2-$3);" \
				"this tree's / its: $(ratio "$lm" "$1") x; $same"
			echo "$STAMP,\"$CPU\",$CORES,$LOAD0,$LOAD1,$NT,lex-base,$(count lex-base),$(stat lex-base 3 | tr ' ' ','),$(med lex-base cpu),,,,,info,-,\"$1 MB/s per core ($2-$3) at $LEX_BASE; sites sha1 $6\"" >> "$CSV"
		fi
	fi
	if [ "$RSS_MB" -gt 0 ]; then
		echo "peak RSS of the cold scan: $RSS_MB MB (target <= 300 MB: $(le "$RSS_MB" 300))"
	else
		echo "peak RSS of the cold scan: not measured (no cold contender)"
	fi
	if [ -s "$TMP/point.phases" ]; then
		pm() { awk -v f="$1" '{ print $f }' "$TMP/point.phases" | spread %.2f | cut -d' ' -f1; }
		set -- $(point_beyond)
		echo "point release $POINT_TAG after $(echo "$TAGS" | cut -d' ' -f$((POINT_N - 1))), a run of its own" \
			"(medians of $(wc -l < "$TMP/point.phases") rounds):" \
			"$(awk '/lexed [0-9.]+ MB/ { print $3 }' "$TMP/point.stderr" | tail -n 1) MB lexed;" \
			"blobs written $(pm 2) s; beyond them $1 s ($2-$3): file rows $(pm 3) s, call graph $(pm 4) s," \
			"counts and commit $(pm 5) s; include/ $(pm 6) s"
	fi
	echo "x wall / x cpu: the contender's median over the reference's (kmig cold for git grep,"
	echo "the inflate limit for kmig cold).  CPU = user + sys."
} | tee "$TMP/table"

# Scaling: blobs lexed per release in the cold scan of every tag, and the
# cold scans of the first 2 and 4.
SCSV=$TOP/bench/results/$STAMP-scaling.csv
{
	echo "date,releases,tags,files,blobs_lexed,mb_lexed,lex_s,wall_median_s,cpu_median_s,blobs_write_s,files_write_s,graph_s,counts_s"
	for n in $SCALE_N; do
		blobs=$(awk '/blobs lexed/ { s += $4 } END { print s + 0 }' "$TMP/cold-$n.stdout")
		echo "$STAMP,$n,\"$(tag_args "$n" | sed 's/--tags //g;s/ *$//')\",,$blobs,,,$(med "cold-$n" 3),$(med "cold-$n" cpu),,,,"
	done
	blobs=$(awk '/blobs lexed/ { s += $4 } END { print s + 0 }' "$TMP/cold.stdout")
	echo "$STAMP,$NT,\"$TAGS\",,$blobs,,,$COLD,$COLD_CPU,,,,"
	# per release of the last cold scan: "TAG: N files, M blobs lexed, U uses"
	# from its output, and the MB of the blobs each release lexed first from
	# its database (releases overlap in the pipeline: no per-release time)
	awk '/blobs lexed/ { sub(":", "", $1); print $1, $2, $4 }' "$TMP/cold.stdout" > "$TMP/a"
	sqlite3 -separator ' ' "$H/cold.db" "
		WITH first AS (SELECT rf.oid, min(r.sort_key) AS k
			FROM release_files rf JOIN releases r ON r.id = rf.release_id
			GROUP BY rf.oid)
		SELECT r.tag, printf('%.1f', sum(b.bytes) / 1e6)
		FROM first f JOIN releases r ON r.sort_key = f.k
		JOIN blobs b ON b.oid = f.oid AND b.ruleset = r.ruleset
		GROUP BY r.id ORDER BY r.sort_key" > "$TMP/b" 2> /dev/null
	# the phases of each release's write, on the thread that writes, from the
	# progress notes ("TAG: wrote B blobs in S s, F files in S s, counts and
	# commit in S s" and "TAG: call graph: ... (S s)")
	phases "$TMP/cold.stderr" > "$TMP/c"
	while read -r tag files blobs; do
		mb=$(awk -v t="$tag" '$1 == t { print $2 }' "$TMP/b")
		ph=$(awk -v t="$tag" '$1 == t { print $2 "," $3 "," $4 "," $5 }' "$TMP/c")
		echo "$STAMP,1,$tag,$files,$blobs,$mb,,,,${ph:-,,,}"
	done < "$TMP/a"
} > "$SCSV"
{
	echo
	echo "scaling (cold scans; a release costs in proportion to its new blobs):"
	awk -F, 'NR > 1 && $2 != 1 { printf "  first %d tags: %6d blobs lexed, wall %s s, cpu %s s\n", $2, $5, $8, $9 }' "$SCSV"
	echo "  per release: its new blobs; then the writing thread's time: its blobs written,"
	echo "  its file rows, its call graph, its counts and commit (the last three: what it pays"
	echo "  beyond its new blobs)"
	awk -F, 'NR > 1 && $2 == 1 { printf "  %-10s %6d files %6d new blobs %8s MB lexed  blobs %5s s  files %5s s  graph %5s s  counts %5s s\n", $3, $4, $5, $6, $10, $11, $12, $13 }' "$SCSV"
	echo
	echo "results: $CSV"
	echo "         $SCSV"
	echo "inflate limit: $INFL s wall, $INFL_CPU s cpu; kmig cold: $COLD s wall, $COLD_CPU s cpu"
} | tee -a "$TMP/table"
# git grep's approximate counts next to kmig's exact ones (last round's pairs)
CCSV=$TOP/bench/results/$STAMP-counts.csv
echo "date,tag,rule,kmig,git_grep_lines" > "$CCSV"
touch "$TMP/out.grep-rules"
while IFS=, read -r tag id n; do
	k=$("$KMIG" --repo "$REPO" --db "$H/warm.db" report "$tag" --by rule --format csv 2> /dev/null |
		awk -F, -v r="$id" '$2 == r { print $3 }')
	echo "$STAMP,$tag,$id,$k,$n"
done < "$TMP/out.grep-rules" >> "$CCSV"
awk '{ print }' "$SAMPLES" | sed "s/^/$STAMP /" | tr ' ' ',' |
	sed '1i date,contender,round,wall_s,user_s,sys_s,rss_kb,exit' > "$TOP/bench/results/$STAMP-samples.csv"
exit 0
