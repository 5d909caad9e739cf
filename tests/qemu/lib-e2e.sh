# lib-e2e.sh - setup shared by the end-to-end tests (tests/qemu/t*.sh).
# Source it instead of tests/lib.sh:   . "$(dirname "$0")/lib-e2e.sh"
#
# The kernel repository, kmig's work area (worktree, build directory,
# images) and the ccache persist between runs in a shared KMIG_HOME:
#   KMIG_HOME=${KMIG_E2E_HOME:-$HOME/.cache/kmig}
# If $KMIG_HOME/linux lacks v6.1.192, "kmig import 6.1.192" makes it (a
# fresh machine: minutes).  The fixture series (tests/qemu/000*.patch) is
# committed on v6.1.192 in $KMIG_HOME/e2e/linux.git, a bare clone sharing
# the objects of $KMIG_HOME/linux, with fixed dates so the commit ids are
# the same on every run and every machine with the same v6.1.192.  The
# database is per run, in the trash directory.
_e2e_home=${KMIG_E2E_HOME:-${HOME:-/root}/.cache/kmig}
. "$(dirname "$0")/../lib.sh"
export KMIG_HOME="$_e2e_home"
export KMIG_DB="$TRASH/kmig.db"
export KMIG_PROGRESS=1
E2E_REPO="$KMIG_HOME/e2e/linux.git"
export KMIG_REPO="$E2E_REPO"
FIXTURE_DIR="$TOP/tests/qemu"

# e2e_base_repo - make sure $KMIG_HOME/linux has v6.1.192.
e2e_base_repo() {
	git --git-dir="$KMIG_HOME/linux" rev-parse -q --verify \
		'v6.1.192^{commit}' > /dev/null 2>&1 && return 0
	echo "# importing v6.1.192 into $KMIG_HOME/linux (first run)" >&2
	"$KMIG" --repo "$KMIG_HOME/linux" import 6.1.192 >&2
}

# e2e_fixture - (re)make the fixture commits; sets C1..C4.
e2e_fixture() {
	e2e_base_repo || return 1
	if [ ! -d "$E2E_REPO" ]; then
		mkdir -p "$KMIG_HOME/e2e" &&
		git clone -q --bare --shared "$KMIG_HOME/linux" "$E2E_REPO" ||
			return 1
	fi
	git --git-dir="$E2E_REPO" fetch -q "$KMIG_HOME/linux" \
		'+refs/tags/v6.1.192:refs/tags/v6.1.192' || return 1
	(
		export GIT_DIR="$E2E_REPO" GIT_INDEX_FILE="$TRASH/fixture.index"
		git read-tree 'v6.1.192^{tree}' || exit 1
		parent=$(git rev-parse 'v6.1.192^{commit}') || exit 1
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

# db QUERY - run QUERY on the run's database.
db() {
	sqlite3 "$KMIG_DB" "$1"
}
