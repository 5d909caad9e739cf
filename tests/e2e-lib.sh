# e2e-lib.sh - setup shared by the end-to-end tests on the real kernel
# (tests/qemu/t*.sh, and tests/cli tests that borrow its repository).
# Source it instead of tests/lib.sh, which it sources:
#	. "$(dirname "$0")/../e2e-lib.sh"
#
# The kernel repository, kmig's work area (worktree, build directory,
# images) and the ccache persist between runs in one shared KMIG_HOME,
# found the way kmig finds its default home, with the real HOME (lib.sh
# points HOME at the trash directory):
#	E2E_HOME=${KMIG_E2E_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/kmig}
# Set here:
#	KMIG_HOME   exported, $E2E_HOME
#	E2E_LINUX   $E2E_HOME/linux, the repository "kmig import" makes
#	E2E_BASE    v7.3.4, the live kernel: the base of the fixture series
#	            and the one kernel version the QEMU tests build
#	            (tinyconfig + qemu/kmig.config); there is no newer
#	            default release, so no "next" one
#	E2E_OLD, E2E_NEW   v6.1.192 and v6.12.118, a release and the one
#	            after it for the history tests that only scan (t0010,
#	            t0110: strlcpy is gone by v6.12)
#	E2E_HISTORY the default history: the newest Debian version of each
#	            default line when these tests were recorded (5.10 to 7.3)
#	E2E_REPO    the repository the test runs kmig on: $E2E_LINUX, or
#	            the fixture clone after e2e_use_fixture
# The database is per run, in the trash directory.
. "$(dirname "$0")/../lib.sh"
E2E_HOME=${KMIG_E2E_HOME:-${XDG_CACHE_HOME:-${_t_real_home:-/tmp}/.cache}/kmig}
export KMIG_HOME="$E2E_HOME"
E2E_LINUX="$E2E_HOME/linux"
E2E_BASE=v7.3.4
E2E_OLD=v6.1.192
E2E_NEW=v6.12.118
E2E_HISTORY="v5.10.262 v6.1.192 v6.12.118 v7.2.13 v7.3.4"
E2E_REPO="$E2E_LINUX"
FIXTURE_DIR="$TOP/tests/qemu"

# e2e_has TAG... - $E2E_LINUX has every TAG.
e2e_has() {
	for _e2e_tag in "$@"; do
		git --git-dir="$E2E_LINUX" rev-parse -q --verify \
			"$_e2e_tag^{commit}" > /dev/null 2>&1 || return 1
	done
}

# e2e_import TAG... - import the TAGs into $E2E_LINUX unless it has them
# all (a fresh machine: minutes); fails unless it has them afterwards.
e2e_import() {
	e2e_has "$@" && return 0
	_e2e_vers=$(for _e2e_tag in "$@"; do echo "${_e2e_tag#v}"; done)
	echo "# importing" $_e2e_vers "into $E2E_LINUX (first run: minutes)" >&2
	# shellcheck disable=SC2086
	"$KMIG" --repo "$E2E_LINUX" --db "$TRASH/import.db" import $_e2e_vers >&2 &&
		e2e_has "$@"
}

# e2e_ensure_history - $E2E_LINUX has the default history (five releases:
# about 750 MB of .debs on a fresh machine).
e2e_ensure_history() {
	# shellcheck disable=SC2086
	e2e_import $E2E_HISTORY
}

# e2e_use_fixture - kmig runs on the fixture clone $E2E_HOME/e2e/linux.git
# (KMIG_REPO), with the run's database (KMIG_DB, see db()) and progress
# lines on stderr (KMIG_PROGRESS).  Call it right after sourcing.
e2e_use_fixture() {
	E2E_REPO="$E2E_HOME/e2e/linux.git"
	export KMIG_REPO="$E2E_REPO"
	export KMIG_DB="$TRASH/kmig.db"
	export KMIG_PROGRESS=1
}

# e2e_fixture - (re)make the fixture commits (tests/qemu/000*.patch) on
# $E2E_BASE in $E2E_REPO, a bare clone sharing the objects of $E2E_LINUX
# (which also has the tag $E2E_OLD, for t0120's v6.1 series),
# with fixed dates so the commit ids are the same on every run and every
# machine with the same $E2E_BASE; sets C1..C4.  After e2e_use_fixture.
e2e_fixture() {
	if [ "$E2E_REPO" = "$E2E_LINUX" ]; then
		echo "# e2e_fixture: call e2e_use_fixture first" >&2
		return 1
	fi
	e2e_import "$E2E_BASE" "$E2E_OLD" || return 1
	if [ ! -d "$E2E_REPO" ]; then
		mkdir -p "$(dirname "$E2E_REPO")" &&
		git clone -q --bare --shared "$E2E_LINUX" "$E2E_REPO" ||
			return 1
	fi
	git --git-dir="$E2E_REPO" fetch -q "$E2E_LINUX" \
		"+refs/tags/$E2E_BASE:refs/tags/$E2E_BASE" \
		"+refs/tags/$E2E_OLD:refs/tags/$E2E_OLD" || return 1
	(
		export GIT_DIR="$E2E_REPO" GIT_INDEX_FILE="$TRASH/fixture.index"
		git read-tree "$E2E_BASE^{tree}" || exit 1
		parent=$(git rev-parse "$E2E_BASE^{commit}") || exit 1
		for p in "$FIXTURE_DIR"/000*.patch; do
			git mailinfo "$TRASH/msg" "$TRASH/patch" < "$p" > "$TRASH/info" || exit 1
			git apply --cached "$TRASH/patch" || exit 1
			tree=$(git write-tree) || exit 1
			subject=$(sed -n 's/^Subject: //p' "$TRASH/info")
			GIT_AUTHOR_NAME=$(sed -n 's/^Author: //p' "$TRASH/info")
			GIT_AUTHOR_EMAIL=$(sed -n 's/^Email: //p' "$TRASH/info")
			GIT_AUTHOR_DATE=$(sed -n 's/^Date: //p' "$TRASH/info")
			GIT_COMMITTER_NAME="Kmig Fixture"
			GIT_COMMITTER_EMAIL="fixture@kmig.invalid"
			GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
			export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE \
				GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL \
				GIT_COMMITTER_DATE
			parent=$( { printf '%s\n\n' "$subject"; cat "$TRASH/msg"; } |
				git commit-tree "$tree" -p "$parent") || exit 1
			echo "$parent"
		done > "$TRASH/fixture.ids"
		git update-ref refs/heads/fixture "$parent"
	) || return 1
	C1=$(sed -n 1p "$TRASH/fixture.ids")
	C2=$(sed -n 2p "$TRASH/fixture.ids")
	C3=$(sed -n 3p "$TRASH/fixture.ids")
	C4=$(sed -n 4p "$TRASH/fixture.ids")
	[ -n "$C4" ]
}

# qemu_left - QEMU processes booting kernels of this KMIG_HOME.
qemu_left() {
	ps -eo args= | grep "^qemu-system-x86_64 .*-kernel $KMIG_HOME/" |
		grep -v grep
}

# qemu_running, qemu_gone - is a QEMU of this run's home running, or none?
qemu_running() { [ -n "$(qemu_left)" ]; }
qemu_gone() { [ -z "$(qemu_left)" ]; }

# db QUERY - run QUERY on the run's database ($KMIG_DB).
db() {
	sqlite3 "$KMIG_DB" "$1"
}
