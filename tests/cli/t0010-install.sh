#!/bin/sh
# make install: the binary already built, its data (semantic patches, the
# guest's init.c, the kernel configuration fragment), the man page and the
# bash completion, staged with DESTDIR.  The installed prefix is then moved
# elsewhere and run from outside the source tree with an environment that
# has no pointer to it: check, convert --dry-run and boot --help work, and
# the data it reads is the prefix's (an installed file removed is missed,
# the source tree's copy is not used).  make uninstall removes it all.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
S="$TRASH/series"
DB="$TRASH/kmig.db"
STAGE="$TRASH/stage"
P="$TRASH/prefix"
OUT="$TRASH/elsewhere"

# make in the source tree, not in the make that runs the tests (if any).
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP" "$@"; }
# The installed kmig: from elsewhere, nothing in the environment naming
# the source tree or kmig's data (env -i).
ki() {
	(cd "$OUT" && env -i HOME="$TRASH" PATH=/usr/local/bin:/usr/bin:/bin \
		KMIG_HOME="$KMIG_HOME" SOURCE_DATE_EPOCH=1700000000 \
		"$P/bin/kmig" --repo "$W" --db "$DB" "$@")
}

t_ok "make install DESTDIR=... PREFIX=/usr/local" \
	mk install DESTDIR="$STAGE" PREFIX=/usr/local
t_ok "binary, data, man page and completion installed" sh -c "
	cd '$STAGE/usr/local' &&
	test -x bin/kmig &&
	cmp share/kmig/qemu/init.c '$TOP/qemu/init.c' &&
	cmp share/kmig/qemu/kmig.config '$TOP/qemu/kmig.config' &&
	cmp share/kmig/cocci/strlcpy.cocci '$TOP/tracker/cocci/strlcpy.cocci' &&
	cmp share/kmig/cocci/alloc-arith.cocci '$TOP/tracker/cocci/alloc-arith.cocci' &&
	cmp share/kmig/debian/suites '$TOP/tracker/debian/suites' &&
	cmp share/man/man1/kmig.1 '$TOP/doc/kmig.1' &&
	cmp share/bash-completion/completions/kmig '$TOP/doc/kmig.bash-completion'"
# The prefix moves: the installed kmig finds its data next to itself.
mv "$STAGE/usr/local" "$P" && rm -rf "$STAGE"
mkdir -p "$OUT" "$S"

# A fixture repository: one commit adding a strcpy(), a release with
# strlcpy() calls for convert.
git init -q "$W"
mkdir -p "$W/drivers/foo"
cat > "$W/MAINTAINERS" <<'EOF'
FOO DRIVER
M:	Foo <foo@example.org>
F:	drivers/foo/
EOF
cat > "$W/drivers/foo/a.c" <<'EOF'
static char name[16];

void foo_set(const char *s)
{
	strlcpy(name, s, sizeof(name));
}
EOF
git_commit_all "$W" one && git -C "$W" tag v1.0
cat >> "$W/drivers/foo/a.c" <<'EOF'

void foo_copy(char *d, const char *s)
{
	strcpy(d, s);
}
EOF
git_commit_all "$W" two

t_exit "installed: check" 1 ki check HEAD
t_ok "check reports the new strcpy()" \
	grep -q '^>> drivers/foo/a.c:10: strcpy: ' "$TRASH/.stdout"
t_exit "installed: boot --help" 0 ki boot --help
t_ok "boot usage" grep -q '^usage: kmig boot ' "$TRASH/.stdout"
if command -v spatch > /dev/null 2>&1; then
	t_exit "installed: scan" 0 ki scan
	t_exit "installed: convert --dry-run" 0 \
		ki convert strlcpy --base v1.0 --series "$S" --dry-run
	t_is "convert found the installed semantic patch" \
		"would write 0001-foo-a-Replace-strlcpy-with-strscpy.patch: FOO DRIVER, 1 file, 1 use converted
strlcpy: 1 patch, 1 use converted, 0 not converted" "$(grep '^would write \|^strlcpy: ' "$TRASH/.stdout")"
	t_is "dry run writes nothing" "" "$(ls "$S")"
else
	t_skip "spatch (coccinelle) is not installed: make deps"
fi

# The data comes from the prefix, not from the source tree: without the
# installed fragment boot names the prefix's path; without the installed
# semantic patches convert has none (unless a system-wide install has).
rm "$P/share/kmig/qemu/kmig.config"
t_exit "boot without the installed fragment" 2 ki boot HEAD
t_is "the fragment looked up under the prefix" \
	"kmig: cannot open '$P/share/kmig/qemu/kmig.config': No such file or directory" \
	"$(cat "$TRASH/.stderr")"
rm -r "$P/share/kmig/cocci"
if [ -e /usr/local/share/kmig/cocci ]; then
	t_skip "/usr/local/share/kmig/cocci exists (a system-wide install)"
else
	t_exit "convert without the installed semantic patches" 2 \
		ki convert strlcpy --base v1.0 --series "$S"
	t_is "no semantic patches found: where to set them" \
		"kmig: cannot find kmig's semantic patches (set KMIG_COCCI_DIR)" \
		"$(cat "$TRASH/.stderr")"
fi

# The man page is valid roff and renders; the completion is valid bash.
if command -v groff > /dev/null 2>&1; then
	t_is "man page: no groff warnings" "" \
		"$(groff -man -Tutf8 -ww -z "$P/share/man/man1/kmig.1" 2>&1)"
fi
if command -v man > /dev/null 2>&1; then
	t_ok "man -l renders every command's section" sh -c "
		MANWIDTH=80 man -l '$P/share/man/man1/kmig.1' 2> /dev/null > '$TRASH/man.txt' &&
		grep -q '^NAME' '$TRASH/man.txt' &&
		for c in import scan report rules check log boot bisect branch convert web; do
			grep -q \"^   \$c\$\" '$TRASH/man.txt' || exit 1
		done"
fi
if command -v bash > /dev/null 2>&1; then
	C="$P/share/bash-completion/completions/kmig"
	t_ok "completion: bash -n" bash -n "$C"
	t_is "completion: commands, subcommands and options" \
		"boot bisect branch|apply status rebase export test|--max-patches" \
		"$(PATH="$P/bin:$PATH" bash -c ". '$C'
		c() { COMP_WORDS=(\"\$@\"); COMP_CWORD=\$((\$# - 1)); _kmig; echo \"\${COMPREPLY[*]}\"; }
		printf '%s|%s|%s' \"\$(c kmig b)\" \"\$(c kmig branch '')\" \"\$(c kmig convert --max)\"")"
fi

# make uninstall removes what make install wrote.
t_ok "make install, then make uninstall" sh -c "
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C '$TOP' install DESTDIR='$TRASH/u' PREFIX=/usr/local &&
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C '$TOP' uninstall DESTDIR='$TRASH/u' PREFIX=/usr/local &&
	test -z \"\$(find '$TRASH/u' -type f)\""

t_done
