# kmig - track and drive deprecated kernel API migrations.
#
#   make          build ./kmig
#   make deps     install the Debian packages kmig needs (idempotent)
#   make test     every test: unit (cmocka), CLI (TAP), QEMU end to end
#   make demo     the main job on the embedded default (Debian kernel history)
#   make asan     build and run the unit and CLI tests under ASan/UBSan
#   make bench    benchmarks
#   make lexbench build/lexbench, the lexer's throughput (bench/README.md, "The lexer's throughput")
#   make fuzz     build the libFuzzer harnesses (clang) into build-fuzz/
#   make install  install kmig, its data, man page and bash completion under
#                 $(DESTDIR)$(PREFIX) (PREFIX=/usr/local); make uninstall

PKGS     := libgit2 sqlite3 zlib libdeflate libcrypto
CC       ?= cc
OPT      ?= -O2 -g
CFLAGS   += -std=gnu11 $(OPT) -Wall -Wextra -Werror -pthread \
	    $(shell pkg-config --cflags $(PKGS) 2>/dev/null) -Itracker -I$(BUILD)
LDLIBS   += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -pthread -lm
BUILD    ?= build
KMIG     ?= kmig

# make install: PREFIX is compiled in (datadir.h); DESTDIR only stages.
PREFIX   ?= /usr/local
BINDIR   := $(PREFIX)/bin
DATADIR  := $(PREFIX)/share/kmig
MANDIR   := $(PREFIX)/share/man
BASHCOMPDIR := $(PREFIX)/share/bash-completion/completions
INSTALL  ?= install

SRCS     := $(wildcard tracker/*.c)
OBJS     := $(patsubst tracker/%.c,$(BUILD)/%.o,$(SRCS)) $(BUILD)/schema.o \
	    $(BUILD)/web-assets.o
LIBOBJS  := $(filter-out $(BUILD)/kmig.o $(BUILD)/cmd-%.o,$(OBJS))
UNIT_SRC := $(wildcard tests/unit/test-*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

all: $(KMIG) $(BUILD)/guest-init

$(KMIG): $(OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: tracker/%.c $(wildcard tracker/*.h tracker/*.def) | $(BUILD)
	$(CC) $(CFLAGS) -c -o $@ $<

# The schema is embedded into the binary from db/schema.sql.
$(BUILD)/schema.c: db/schema.sql scripts/embed.sh | $(BUILD)
	sh scripts/embed.sh kmig_schema_sql < $< > $@

$(BUILD)/schema.o: $(BUILD)/schema.c
	$(CC) $(CFLAGS) -c -o $@ $<

# So are the dashboard's style sheet and script (kmig web).
$(BUILD)/web-assets.c: web/style.css web/sort.js scripts/embed.sh | $(BUILD)
	{ sh scripts/embed.sh kmig_web_css < web/style.css && \
	  sh scripts/embed.sh kmig_web_js < web/sort.js; } > $@

$(BUILD)/web-assets.o: $(BUILD)/web-assets.c
	$(CC) $(CFLAGS) -c -o $@ $<

# Two hashes of the source keep the caches right without a manual bump.
# The blob cache key (rules_hash()) covers what decides a blob's sites and
# call-graph facts: every tracker/lex*.c and tracker/lex*.h (lex-internal.h
# lists them), rules.def and entry.def.  What a release counts from those
# is decided by the release step too: reach.c (the call graph, the
# headers' constants and the graphs' cache file) and the counting SQL of
# store-count.h (SITE_RULE, FILE_COUNTS_SQL).  They are the release hash
# (release_hash(), which includes rules_hash()): a change there counts
# every release again from its cached blobs, lexing none; the rest of the
# store's SQL (store-internal.h) is in neither.  Each header is recomputed
# on every make and rewritten only when its hash changes, so adding or
# removing a lexer file changes it too, and rules.o is rebuilt only then.
MATCHER_SRC := $(sort $(wildcard tracker/lex*.c tracker/lex*.h)) tracker/rules.def tracker/entry.def
RELEASE_SRC := tracker/reach.c tracker/store-count.h tracker/maintainers.c
$(BUILD)/matcher-hash.h: $(MATCHER_SRC) $(RELEASE_SRC) FORCE | $(BUILD)
	@new="$$(printf '#define KMIG_MATCHER_HASH "%s"\n#define KMIG_RELEASE_HASH "%s"' \
		"$$(cat $(MATCHER_SRC) | sha1sum | cut -c1-16)" \
		"$$(cat $(RELEASE_SRC) | sha1sum | cut -c1-16)")" && \
	if [ "$$new" != "$$(cat $@ 2>/dev/null)" ]; then \
		echo "$$new" > $@; echo "matcher hash: $$new"; fi

$(BUILD)/rules.o: $(BUILD)/matcher-hash.h

# The installed data directory, compiled into datadir.o; the stamp changes
# (and datadir.o is rebuilt) only when PREFIX does.
$(BUILD)/datadir.stamp: FORCE | $(BUILD)
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' > $@
$(BUILD)/datadir.o: CFLAGS += -DKMIG_DATADIR='"$(DATADIR)"'
$(BUILD)/datadir.o: $(BUILD)/datadir.stamp

# The QEMU guest's /init is compiled at boot time (qemu.c, gcc -static);
# compile it here too, warnings as errors, so that make catches a mistake.
$(BUILD)/guest-init: qemu/init.c | $(BUILD)
	$(CC) -std=gnu11 -static -O2 -Wall -Wextra -Werror -o $@ $<

# Each tests/unit/test-*.c is a binary, linked with the helpers of
# tests/unit/unit-util.c and the library objects.
$(BUILD)/tests/unit-util.o: tests/unit/unit-util.c tests/unit/unit-util.h tracker/util.h | $(BUILD)
	@mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c tests/unit/unit-util.h $(BUILD)/tests/unit-util.o $(LIBOBJS) | $(BUILD)
	@mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/tests/unit-util.o $(LIBOBJS) $(LDLIBS) -lcmocka

$(BUILD):
	mkdir -p $(BUILD)

unit: $(UNIT_BIN)

deps:
	sh scripts/deps.sh

test: deps
	$(MAKE) all unit
	$(MAKE) asan
	sh tests/run.sh

# Fast subset: no QEMU and no real-kernel tests.
check: all unit
	KMIG_TEST_QUICK=1 sh tests/run.sh

asan:
	$(MAKE) BUILD=build-asan KMIG=kmig-asan \
		OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		all unit
	KMIG_TEST_QUICK=1 KMIG_BIN=$(CURDIR)/kmig-asan KMIG_UNIT_DIR=build-asan/tests \
		ASAN_OPTIONS=detect_leaks=1 sh tests/run.sh

# libFuzzer harnesses (tests/fuzz/README.md): the library objects are built
# with clang, ASan and UBSan and coverage instrumentation into build-fuzz/.
FUZZ_SRC  := $(wildcard tests/fuzz/fuzz-*.c)
FUZZ_BIN  := $(patsubst tests/fuzz/%.c,$(BUILD)/%,$(FUZZ_SRC))
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=all \
	     -fno-omit-frame-pointer

fuzz:
	$(MAKE) BUILD=build-fuzz CC=clang \
		OPT="-O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN)" fuzz-bin

fuzz-bin: $(FUZZ_BIN)

$(BUILD)/fuzz-%: tests/fuzz/fuzz-%.c $(LIBOBJS) | $(BUILD)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIBOBJS) $(LDLIBS)

# The lexer's throughput and a digest of its sites (bench/README.md, "The lexer's throughput"):
# build/lexbench, linked against the library objects.
lexbench: $(BUILD)/lexbench

$(BUILD)/lexbench: bench/lexbench.c $(LIBOBJS) | $(BUILD)
	$(CC) $(CFLAGS) -o $@ $< $(LIBOBJS) $(LDLIBS)

demo: deps
	$(MAKE) all
	sh scripts/demo.sh

bench: deps
	$(MAKE) all
	sh bench/run.sh

# The data kmig reads at run time goes to $(DATADIR): qemu/ (the guest's
# source and the kernel configuration fragment), cocci/ (the semantic
# patches of kmig convert) and debian/ (the Debian suites of kmig import);
# see tracker/datadir.h for the lookup.
install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/qemu \
		$(DESTDIR)$(DATADIR)/cocci $(DESTDIR)$(DATADIR)/debian \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 755 $(KMIG) $(DESTDIR)$(BINDIR)/kmig
	$(INSTALL) -m 644 qemu/init.c qemu/kmig.config $(DESTDIR)$(DATADIR)/qemu
	$(INSTALL) -m 644 tracker/cocci/*.cocci $(DESTDIR)$(DATADIR)/cocci
	$(INSTALL) -m 644 tracker/debian/suites $(DESTDIR)$(DATADIR)/debian
	$(INSTALL) -m 644 doc/kmig.1 $(DESTDIR)$(MANDIR)/man1/kmig.1
	$(INSTALL) -m 644 doc/kmig.bash-completion $(DESTDIR)$(BASHCOMPDIR)/kmig

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/kmig $(DESTDIR)$(MANDIR)/man1/kmig.1 \
		$(DESTDIR)$(BASHCOMPDIR)/kmig
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build build-asan build-fuzz kmig kmig-asan

FORCE:

.PHONY: all unit deps test check asan fuzz fuzz-bin demo bench lexbench install \
	uninstall clean FORCE
