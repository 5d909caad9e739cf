#!/bin/sh
# A smoke run of each libFuzzer harness (tests/fuzz/README.md) from its
# seed corpus, the regression inputs of past findings included: no crash,
# leak, sanitizer report, timeout or out-of-memory.  Skipped when clang or
# its fuzzer runtime is missing, and under the ASan pass of make test (the
# harnesses carry their own sanitizers).
#
# The run is seeded and bounded by a number of executions (about 20 s of
# each harness here), so make test runs nearly the same inputs every time
# (the end coverage varies by a few edges): new findings come from the
# long runs of tests/fuzz/README.md, not from a lottery in CI.
# KMIG_FUZZ_SEED=0 asks libFuzzer for a random seed; KMIG_FUZZ_SECONDS
# caps each harness's time on a slow machine (which then runs a prefix of
# the sequence).
. "$(dirname "$0")/../e2e-lib.sh"

secs=${KMIG_FUZZ_SECONDS:-90}
seed=${KMIG_FUZZ_SEED:-1}
harnesses="lexer maintainers patch console packread facts"

# executions of each harness: what 20 s gives on a 2-CPU build machine
runs_of()
{
	case $1 in
	lexer)		echo 20000 ;;
	maintainers)	echo 50000 ;;
	patch)		echo 30000 ;;
	console)	echo 500000 ;;
	packread)	echo 30000 ;;
	facts)		echo 4000 ;;
	esac
}

if [ "$KMIG" != "$TOP/kmig" ]; then
	for h in $harnesses; do
		t_skip "fuzz-$h: smoke runs once, not under $KMIG"
	done
	t_done
fi
if ! command -v clang > /dev/null 2>&1; then
	for h in $harnesses; do
		t_skip "fuzz-$h: clang is not installed (make deps installs clang and libclang-rt-14-dev)"
	done
	t_done
fi
if ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
     clang -x c -fsanitize=fuzzer -o "$TRASH/probe" - > "$TRASH/probe.log" 2>&1; then
	for h in $harnesses; do
		t_skip "fuzz-$h: clang cannot link -fsanitize=fuzzer (libclang-rt-14-dev missing?)"
	done
	t_done
fi

t_ok "make fuzz builds the harnesses" make -s -C "$TOP" fuzz
# Extra seeds from the imported kernel, when the cache has it (not committed).
krepo=$E2E_LINUX
for h in $harnesses; do
	mkdir -p "$TRASH/corpus-$h"
done
if git --git-dir="$krepo" rev-parse -q --verify 'v6.1.192^{commit}' > /dev/null 2>&1; then
	for f in net/rds/send.c net/rds/rdma.c lib/string.c include/linux/slab.h; do
		git --git-dir="$krepo" show "v6.1.192:$f" > "$TRASH/corpus-lexer/$(echo "$f" | tr / _)" 2>/dev/null
	done
	git --git-dir="$krepo" show v6.1.192:MAINTAINERS | head -c 20000 \
		> "$TRASH/corpus-maintainers/real-head" 2>/dev/null
fi
for h in $harnesses; do
	runs=$(runs_of "$h")
	"$TOP/build-fuzz/fuzz-$h" -seed="$seed" -runs="$runs" \
		-max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$TRASH/artifact-$h-" \
		"$TRASH/corpus-$h" "$TOP/tests/fuzz/corpus/$h" > "$TRASH/fuzz-$h.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$TRASH/fuzz-$h.log")
	cov=$(grep -o 'cov: [0-9]*' "$TRASH/fuzz-$h.log" | tail -n 1)
	echo "# fuzz-$h: ${execs:-?} executions (seed $seed), $cov"
	t_is "fuzz-$h: up to $runs executions from the seed corpus, no finding" 0 "$rc"
	if [ "$rc" -ne 0 ]; then
		# enough of the report to reproduce from a CI log: the
		# sanitizer's stack and the input in base64 when it is small
		grep -m 30 -E 'ERROR|SUMMARY|ALARM|Test unit written|^Base64|^ *#[0-9]+ ' \
			"$TRASH/fuzz-$h.log" | sed 's/^/#   /'
	fi
	t_ok "fuzz-$h: seeds loaded" grep -q 'INITED' "$TRASH/fuzz-$h.log"
done
t_done
