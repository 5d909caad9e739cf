#!/bin/sh
# build-lexsites.sh OUT - build scripts/precision/lexsites.c against the
# library objects of "make" (run "make" first).
set -e
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-$TOP/build/lexsites}
OBJS=$(ls "$TOP"/build/*.o | grep -v -e '/kmig\.o$' -e '/cmd-[^/]*\.o$')
cc -std=gnu11 -O2 -Wall -Wextra -Werror -pthread -I"$TOP/tracker" -I"$TOP/build" \
	-o "$OUT" "$TOP/scripts/precision/lexsites.c" $OBJS \
	-lgit2 -lsqlite3 -lz -ldeflate -lcrypto -pthread -lm
