# lib.sh - TAP helpers for kmig's shell tests.  Source it first:
#	. "$(dirname "$0")/../lib.sh"
# Each script gets a fresh trash directory ($TRASH), removed on success,
# KMIG_HOME inside it, and $KMIG pointing at the binary under test.
# Steps:  t_ok "description" command...   (passes when the command succeeds)
#         t_is "description" expected actual
#         t_done                           (prints the plan; exit status)
TOP=$(cd "$(dirname "$0")/../.." && pwd)
KMIG=${KMIG_BIN:-$TOP/kmig}
_t_real_home=$HOME	# HOME is the trash directory below; e2e-lib.sh needs the real one
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/kmig-test.XXXXXX")
export KMIG_HOME="$TRASH/home"
unset KMIG_REPO KMIG_DB KMIG_PROGRESS KMIG_NO_PROGRESS
export GIT_AUTHOR_NAME="Kmig Test" GIT_AUTHOR_EMAIL="test@kmig.invalid"
export GIT_COMMITTER_NAME="Kmig Test" GIT_COMMITTER_EMAIL="test@kmig.invalid"
export GIT_CONFIG_NOSYSTEM=1 HOME="$TRASH"
git config --global init.defaultBranch master
git config --global advice.detachedHead false
_t_n=0 _t_fail=0

t_ok() {
	_t_desc=$1; shift
	_t_n=$((_t_n + 1))
	if "$@" > "$TRASH/.out" 2>&1; then
		echo "ok $_t_n - $_t_desc"
	else
		echo "not ok $_t_n - $_t_desc"
		sed 's/^/#   /' "$TRASH/.out" | head -40
		_t_fail=$((_t_fail + 1))
	fi
}

t_is() {
	_t_n=$((_t_n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $_t_n - $1"
	else
		echo "not ok $_t_n - $1"
		echo "#   expected: $(printf '%s' "$2" | head -20 | sed '2,$s/^/#             /')"
		echo "#   actual:   $(printf '%s' "$3" | head -20 | sed '2,$s/^/#             /')"
		_t_fail=$((_t_fail + 1))
	fi
}

t_skip() {
	_t_n=$((_t_n + 1))
	echo "ok $_t_n # skip $1"
}

# t_need_spatch - the test is one skip, and ends, without Coccinelle
t_need_spatch() {
	command -v spatch > /dev/null 2>&1 && return 0
	t_skip "spatch (coccinelle) is not installed: make deps"
	t_done
}

# fake_qemu_hanging DIR - DIR/qemu-system-x86_64: a QEMU that prints a
# kernel banner, runs a process of its own (as lava-run runs QEMU), writes
# that process's id into $FAKE_PIDS/<its own pid> and never ends; with
# $FAKE_FAST set it fails at once instead
fake_qemu_hanging() {
	cat > "$1/qemu-system-x86_64" <<'FAKE'
#!/bin/sh
echo "Linux version 0.0 (fake)"
[ -n "$FAKE_FAST" ] && exit 1
sleep 300 &
echo $! > "$FAKE_PIDS/$$"
wait
FAKE
	chmod +x "$1/qemu-system-x86_64"
}

# wait_until TENTHS COMMAND... - run COMMAND every tenth of a second until
# it succeeds, TENTHS times at most; non-zero when it never did
wait_until() {
	_wu_n=$1
	shift
	until "$@"; do
		[ "$_wu_n" -gt 0 ] || return 1
		sleep 0.1
		_wu_n=$((_wu_n - 1))
	done
}

# files_at_least DIR N - does DIR hold N files or more?
files_at_least() {
	[ "$(ls "$1" | grep -c .)" -ge "$2" ]
}

# wait_files DIR N - wait, 20 s at most, until DIR holds N files or more
wait_files() {
	wait_until 200 files_at_least "$1" "$2"
}

# pids_alive DIR - the PIDs written in DIR's files whose processes still
# run, each after a blank (a zombie is gone: reaped when its parent, or
# init, gets to it)
pids_alive() {
	for _pa_f in "$1"/*; do
		[ -e "$_pa_f" ] || continue
		_pa_p=$(cat "$_pa_f")
		case $(ps -o stat= -p "$_pa_p") in
		""|Z*) ;;
		*) printf ' %s' "$_pa_p" ;;
		esac
	done
}

# wait_gone DIR - wait, 20 s at most, until no PID of DIR's files runs:
# a killed process tree takes its time to go, more so on a loaded machine
wait_gone() {
	wait_until 200 pids_gone "$1"
}

# pids_gone DIR - does no PID of DIR's files run?
pids_gone() {
	[ -z "$(pids_alive "$1")" ]
}

# kill_sleeps DIR - kill the fake QEMUs' "sleep 300" of DIR's files that
# still run, and nothing else: a PID of a process gone may be reused
kill_sleeps() {
	for _ks_p in $(pids_alive "$1"); do
		[ "$(ps -o comm= -p "$_ks_p")" = sleep ] && kill "$_ks_p" 2> /dev/null
	done
	return 0
}

# t_exit "desc" STATUS command... - the command exits with STATUS
t_exit() {
	_t_desc=$1 _t_want=$2; shift 2
	"$@" > "$TRASH/.stdout" 2> "$TRASH/.stderr"
	t_is "$_t_desc (exit $_t_want)" "$_t_want" "$?"
}

t_done() {
	echo "1..$_t_n"
	if [ "$_t_fail" -eq 0 ]; then
		rm -rf "$TRASH"
		exit 0
	fi
	echo "# trash directory kept: $TRASH"
	exit 1
}

# git_commit_all DIR MSG - commit everything in DIR
git_commit_all() {
	git -C "$1" add -A -f && git -C "$1" commit -q -m "$2"
}

# one_patch_series REPO SERIES [TAG-OPTIONS...] - a repository of two
# commits (f1.c, f2.c) reset to the first, tagged v1.0 (git tag's options
# as given, e.g. -a -m v1.0), and a series directory holding the second
# commit as its one patch, 0001-c2.patch: the smallest branch to apply.
one_patch_series() {
	_ops_r=$1 _ops_s=$2
	shift 2
	git init -q "$_ops_r"
	for _ops_i in 1 2; do
		echo "int f$_ops_i;" > "$_ops_r/f$_ops_i.c"
		git_commit_all "$_ops_r" "c$_ops_i"
	done
	git -C "$_ops_r" tag "$@" v1.0 HEAD~1
	mkdir -p "$_ops_s"
	git -C "$_ops_r" format-patch -1 --stdout HEAD > "$_ops_s/0001-c2.patch"
	echo 0001-c2.patch > "$_ops_s/series"
	git -C "$_ops_r" reset -q --hard v1.0
}

# db_canonical DB - everything a scan records, without row ids and timestamps.
db_canonical() {
	sqlite3 "$1" "
	SELECT 'R', tag, commit_id, sort_key, date, ruleset, maintainers_oid, files
		FROM releases ORDER BY tag;
	SELECT 'B', oid, ruleset, bytes FROM blobs ORDER BY oid;
	SELECT 'S', oid, rule, line, func, text FROM blob_sites
		ORDER BY oid, rule, line, func, text;
	SELECT 'F', r.tag, f.path, f.oid, s.name FROM release_files f
		JOIN releases r ON r.id = f.release_id
		JOIN subsystems s ON s.id = f.subsystem_id ORDER BY r.tag, f.path;
	SELECT 'C', r.tag, s.name, c.rule, c.count FROM counts c
		JOIN releases r ON r.id = c.release_id
		JOIN subsystems s ON s.id = c.subsystem_id ORDER BY 2, 3, 4;
	SELECT 'P', r.tag, c.path, c.rule, c.count FROM file_counts c
		JOIN releases r ON r.id = c.release_id ORDER BY 2, 3, 4;"
}

# boot_fixture REPO DB - boots without a kernel build: a repository of five
# commits c1..c5 (tag v1.0 at c1) whose every commit has a fake kernel
# image (4 KB of random bytes) in kmig's work area.  kmig reuses an image
# instead of building, and QEMU refuses this one at once, so each boot of
# c1..c5 is a fast "boot fail"; anything else (a revert kmig makes) fails
# to build at once ("make tinyconfig" with no kernel tree, exit 125).
boot_fixture() {
	git init -q "$1" || return 1
	for _bf_i in 1 2 3 4 5; do
		echo "int f$_bf_i;" > "$1/f$_bf_i.c"
		git_commit_all "$1" "c$_bf_i" || return 1
	done
	git -C "$1" tag v1.0 HEAD~4
	# the first boot fails to build and makes the work area
	KMIG_NO_PROGRESS=1 "$KMIG" --repo "$1" --db "$2" boot HEAD > /dev/null 2>&1
	[ $? -eq 125 ] || return 1
	_bf_hash=$(sqlite3 "$2" "SELECT substr(config_hash, 1, 12) FROM builds LIMIT 1")
	[ -n "$_bf_hash" ] || return 1
	for _bf_c in $(git -C "$1" rev-list HEAD); do
		for _bf_dir in "$KMIG_HOME"/work/*/images; do
			head -c 4096 /dev/urandom > "$_bf_dir/$_bf_c-$_bf_hash.bzImage" ||
				return 1
		done
	done
}
