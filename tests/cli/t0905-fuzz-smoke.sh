#!/bin/sh
# A 20-second smoke run of each libFuzzer harness (tests/fuzz/README.md)
# from its seed corpus, the regression inputs of past findings included:
# no crash, leak, sanitizer report, timeout or out-of-memory.  Skipped
# when clang or its fuzzer runtime is missing, and under the ASan pass of
# make test (the harnesses carry their own sanitizers).
. "$(dirname "$0")/../e2e-lib.sh"

secs=${KMIG_FUZZ_SECONDS:-20}
harnesses="lexer maintainers patch console packread facts"

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
	"$TOP/build-fuzz/fuzz-$h" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$TRASH/artifact-$h-" \
		"$TRASH/corpus-$h" "$TOP/tests/fuzz/corpus/$h" > "$TRASH/fuzz-$h.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$TRASH/fuzz-$h.log")
	cov=$(grep -o 'cov: [0-9]*' "$TRASH/fuzz-$h.log" | tail -n 1)
	echo "# fuzz-$h: ${execs:-?} executions in ${secs} s, $cov"
	t_is "fuzz-$h: ${secs} s from the seed corpus, no finding" 0 "$rc"
	if [ "$rc" -ne 0 ]; then
		grep -m 5 -E 'ERROR|SUMMARY|ALARM|Test unit written' "$TRASH/fuzz-$h.log" | sed 's/^/#   /'
	fi
	t_ok "fuzz-$h: seeds loaded" grep -q 'INITED' "$TRASH/fuzz-$h.log"
done
t_done
