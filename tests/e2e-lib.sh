# e2e-lib.sh - shared by the end-to-end tests on the real kernel.
# Source after lib.sh.  Uses a persistent cache so the download, the
# imported repository and build directories survive between runs:
#   KMIG_E2E_HOME (default $HOME/.cache/kmig, the real HOME, as tests/qemu/lib-e2e.sh)
# and makes sure the default history (v6.1.192 and v6.12.118) is imported.
E2E_HOME=${KMIG_E2E_HOME:-${_t_real_home:-/root}/.cache/kmig}
export KMIG_HOME="$E2E_HOME"
E2E_REPO="$E2E_HOME/linux"
E2E_BASE=v6.1.192
E2E_NEXT=v6.12.118

e2e_ensure_history() {
	if git -C "$E2E_REPO" rev-parse -q --verify "refs/tags/$E2E_BASE" > /dev/null 2>&1 &&
	   git -C "$E2E_REPO" rev-parse -q --verify "refs/tags/$E2E_NEXT" > /dev/null 2>&1; then
		return 0
	fi
	echo "# importing ${E2E_BASE#v} and ${E2E_NEXT#v} into $E2E_REPO (first run)" >&2
	"$KMIG" --repo "$E2E_REPO" --db "$TRASH/import.db" import "${E2E_BASE#v}" "${E2E_NEXT#v}" >&2
}
