#!/bin/sh
# t0610-lava.sh - kmig boot --runner lava on real kernels with the local
# lava-run (lava-dispatcher, as root): each case gets the verdict the
# built-in runner gives: the base passes, the planted WARN_ON commit of
# the bisect fixture (C3) fails with the same WARNING finding, a guest that
# never finishes times out, a kernel that panics before init fails with
# the same panic.  The job files kmig kept pass LAVA's schema check.  The
# remote path (lavacli) runs against a stub lavacli on PATH, which plays
# the lab by running the submitted job with lava-run here: no lab exists
# on this machine.
. "$(dirname "$0")/../e2e-lib.sh"
e2e_use_fixture

if ! command -v lava-run > /dev/null || [ "$(id -u)" -ne 0 ]; then
	t_skip "lava-run missing or not root (make deps; it runs as root)"
	t_done
fi

t_ok "fixture commits" e2e_fixture

# planted_panic - a commit on $E2E_BASE whose kernel panics before init:
# a late initcall calling panic(); fixed dates, so the same id each run.
planted_panic() {
	(
		export GIT_DIR="$E2E_REPO" GIT_INDEX_FILE="$TRASH/panic.index"
		git read-tree "$E2E_BASE^{tree}" || exit 1
		{
			git cat-file blob "$E2E_BASE:init/main.c" || exit 1
			cat <<-'EOF'

			static int __init kmig_test_planted_panic(void)
			{
				panic("kmig test: planted panic before init");
				return 0;
			}
			late_initcall(kmig_test_planted_panic);
			EOF
		} > "$TRASH/main.c" || exit 1
		blob=$(git hash-object -w "$TRASH/main.c") || exit 1
		git update-index --cacheinfo "100644,$blob,init/main.c" || exit 1
		tree=$(git write-tree) || exit 1
		export GIT_AUTHOR_NAME="Kmig Fixture" GIT_AUTHOR_EMAIL="fixture@kmig.invalid"
		export GIT_COMMITTER_NAME="Kmig Fixture" GIT_COMMITTER_EMAIL="fixture@kmig.invalid"
		export GIT_AUTHOR_DATE="2026-12-01T12:00:00Z" GIT_COMMITTER_DATE="2026-12-01T12:00:00Z"
		echo "init: panic before init (kmig test)" |
			git commit-tree "$tree" -p "$(git rev-parse "$E2E_BASE^{commit}")"
	)
}
PANIC=$(planted_panic)
t_ok "planted-panic commit made" test -n "$PANIC"

# parity NAME REV ARGS... - boot REV with each runner; same exit status,
# boot status and first finding.  Outputs in $TRASH/NAME-{kmig,lava}.out.
parity() {
	_p_name=$1 _p_rev=$2; shift 2
	"$KMIG" boot "$_p_rev" "$@" > "$TRASH/$_p_name-kmig.out" 2> "$TRASH/$_p_name-kmig.err"
	_p_kmig=$?
	"$KMIG" boot "$_p_rev" --runner lava "$@" > "$TRASH/$_p_name-lava.out" 2> "$TRASH/$_p_name-lava.err"
	_p_lava=$?
	cat "$TRASH/$_p_name-lava.err" >&2
	t_is "$_p_name: same exit status with both runners" "$_p_kmig" "$_p_lava"
	t_is "$_p_name: same boot status" \
		"$(sed -n 's/^boot \([a-z]*\) .*/\1/p' "$TRASH/$_p_name-kmig.out")" \
		"$(sed -n 's/^boot \([a-z]*\) .*/\1/p' "$TRASH/$_p_name-lava.out")"
	t_is "$_p_name: same first finding" \
		"$(grep -m1 '^finding:' "$TRASH/$_p_name-kmig.out")" \
		"$(grep -m1 '^finding:' "$TRASH/$_p_name-lava.out")"
	t_is "$_p_name: same test lines" \
		"$(grep '^KMIG-TEST' "$TRASH/$_p_name-kmig.out")" \
		"$(grep '^KMIG-TEST' "$TRASH/$_p_name-lava.out")"
	return "$_p_lava"
}

parity base "$E2E_BASE"
t_is "base: lava passes" 0 "$?"
t_ok "base: boot and rds PASS under lava" \
	sh -c "grep -q '^KMIG-TEST boot PASS' '$TRASH/base-lava.out' && grep -q '^KMIG-TEST rds PASS' '$TRASH/base-lava.out'"
t_is "base: boot recorded pass" "pass|boot,rds" \
	"$(db "SELECT status, tests FROM boots ORDER BY id DESC LIMIT 1")"

parity warn "$C3"
t_is "C3: lava fails (exit 1)" 1 "$?"
t_ok "C3: the WARNING in net/rds/rdma.c under lava" \
	grep -q '^finding: WARNING: .*net/rds/rdma.c:[0-9]* .*rds_rdma_extra_size' "$TRASH/warn-lava.out"
t_is "C3: boot recorded fail with the finding" "fail|1" \
	"$(db "SELECT status, findings LIKE 'WARNING:%net/rds/rdma.c:%' FROM boots ORDER BY id DESC LIMIT 1")"
console=$(sed -n 's/^console: //p' "$TRASH/warn-lava.out")
t_ok "C3: the console (LAVA's target lines) kept" grep -q '^KMIG-START' "$console"
jobdir=$(ls -d "$(dirname "$(dirname "$console")")"/lava/kmig-"$(echo "$C3" | cut -c1-12)"-* | tail -1)
t_ok "C3: the LAVA job kept in its own directory" test -s "$jobdir/lava.log"
t_ok "C3: its job definition passes LAVA's schema check" \
	/usr/bin/python3 /usr/share/lava-common/lava-schema.py job "$jobdir/job.yaml"
t_ok "C3: its device description passes LAVA's schema check" \
	/usr/bin/python3 /usr/share/lava-common/lava-schema.py device --no-render "$jobdir/device.yaml"
t_ok "C3: the job's metadata names the commit and the tests" \
	sh -c "grep -q 'kmig.commit: \"$C3\"' '$jobdir/job.yaml' && grep -q 'kmig.tests: \"boot,rds\"' '$jobdir/job.yaml'"

parity hang "$E2E_BASE" --test hang --timeout 15
t_is "hang: lava exits 1" 1 "$?"
t_ok "hang: status timeout under lava" grep -q '^boot timeout ' "$TRASH/hang-lava.out"
t_is "hang: boot recorded timeout" "timeout" \
	"$(db "SELECT status FROM boots ORDER BY id DESC LIMIT 1")"

parity panic "$PANIC" --timeout 60
t_is "panic before init: lava exits 1" 1 "$?"
t_ok "panic before init: the planted panic is the finding" \
	grep -q '^finding: Kernel panic - not syncing: kmig test: planted panic before init' "$TRASH/panic-lava.out"

# The remote path against a stub lab: lavacli on PATH.
mkdir -p "$TRASH/bin" "$TRASH/lab" "$TRASH/artifacts"
cat > "$TRASH/lab/device.yaml" <<'EOF'
device_type: qemu
available_architectures: [x86_64]
constants:
  kernel-start-message: "Linux version [0-9]"
  shutdown-message: "reboot: Restarting system"
  default-shell-prompt: "lava-test: # "
  spawn_maxread: "4092"
  failure_retry: 1
  boot_retry: 1
  posix: {lava_test_sh_cmd: /bin/sh, lava_test_results_dir: /lava-%s, lava_test_shell_file: ~/.bashrc}
parameters: {}
actions:
  deploy: {methods: {image: {parameters: {}}}}
  boot:
    connections: {serial: {}}
    methods: {qemu: {parameters: {command: qemu-system-x86_64, options: [-accel tcg, -nographic, -no-reboot, -m 256]}}}
timeouts: {actions: {}, connections: {}}
EOF
cat > "$TRASH/bin/lavacli" <<EOF
#!/bin/sh
# stub lavacli: a lab of one QEMU device, the jobs run by lava-run here
lab=$TRASH/lab
EOF
cat >> "$TRASH/bin/lavacli" <<'EOF'
echo "$*" >> "$lab/calls"
[ "$1" = --identity ] && [ "$2" = testlab ] || { echo "Unknown identity '$2'" >&2; exit 1; }
shift 2
case "$1 $2" in
"jobs submit")
	[ -e "$lab/fail-submit" ] && { echo "Unable to submit: lab down" >&2; exit 1; }
	n=$(( $(cat "$lab/next" 2>/dev/null || echo 41) + 1 ))
	echo "$n" > "$lab/next"
	cp "$3" "$lab/job-$n.yaml"
	echo "$n" ;;
"jobs wait")
	lava-run --job-id "$3" --output-dir "$lab/out-$3" --device "$lab/device.yaml" \
		"$lab/job-$3.yaml" > "$lab/log-$3" 2>&1
	rm -rf "$lab/out-$3" ;;
"jobs logs")
	for id; do :; done
	sed 's/^/- /' "$lab/log-$id" ;;
*)	echo "stub lavacli: $*" >&2; exit 1 ;;
esac
EOF
chmod +x "$TRASH/bin/lavacli"
remote="--runner lava --lava-identity testlab --artifact-url file://$TRASH/artifacts --artifact-dir $TRASH/artifacts"

# shellcheck disable=SC2086
t_exit "remote: the base passes on the (stub) lab" 0 \
	env PATH="$TRASH/bin:$PATH" "$KMIG" boot "$E2E_BASE" $remote
t_ok "remote: boot pass" grep -q '^boot pass ' "$TRASH/.stdout"
t_ok "remote: submitted, waited for, log fetched" \
	sh -c "grep -q '^--identity testlab jobs submit ' '$TRASH/lab/calls' && grep -q '^--identity testlab jobs wait 42 ' '$TRASH/lab/calls' && grep -q '^--identity testlab jobs logs --raw 42' '$TRASH/lab/calls'"
t_ok "remote: the job fetched the kernel from --artifact-url" \
	grep -q "url: \"file://$TRASH/artifacts/kmig-" "$TRASH/lab/job-42.yaml"
t_is "remote: the published artifacts are removed after the job" "" \
	"$(ls "$TRASH/artifacts")"
# shellcheck disable=SC2086
t_exit "remote: C3 fails with its WARNING" 1 \
	env PATH="$TRASH/bin:$PATH" "$KMIG" boot "$C3" $remote
t_ok "remote: C3's WARNING finding" \
	grep -q '^finding: WARNING: .*net/rds/rdma.c:' "$TRASH/.stdout"
touch "$TRASH/lab/fail-submit"
before=$(db "SELECT count(*) FROM boots")
# shellcheck disable=SC2086
t_exit "remote: a lab that refuses the job is an error, not a verdict" 2 \
	env PATH="$TRASH/bin:$PATH" "$KMIG" boot "$C3" $remote
t_ok "remote: the error names lavacli" grep -q 'lavacli' "$TRASH/.stderr"
t_is "remote: no boot recorded for it" "$before" "$(db "SELECT count(*) FROM boots")"

t_exit "--runner nope is a usage error" 2 "$KMIG" boot --runner nope
t_exit "--lava-identity without --artifact-url is a usage error" 2 \
	"$KMIG" boot --runner lava --lava-identity testlab
t_is "no QEMU process left" "" "$(qemu_left)"
t_is "no QEMU of lava-run left" "" \
	"$(ps -eo args= | grep '^qemu-system-x86_64 .*/var/lib/lava/dispatcher/' | grep -v grep)"
t_done
