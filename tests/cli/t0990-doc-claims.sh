#!/bin/sh
# What the README, --help and kmig(1) say against what kmig does:
# - SOURCE_DATE_EPOCH dates what convert and branch export --send write
#   when it is a number of seconds; any other value is no date (now, as
#   kmig web takes it), never the epoch;
# - the identity of branch apply's commits and of the patches convert and
#   export --send write is $KMIG_IDENTITY, else git's user.name/user.email
#   as git reads them in the repository (its own config first).
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
S="$TRASH/series"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
mkdir -p "$W/drivers/foo" "$S"
printf 'Maintainers List\n----------------\n\nFOO DRIVER\nM:\tFoo <foo@example.org>\nF:\tdrivers/foo/\n' \
	> "$W/MAINTAINERS"
cat > "$W/drivers/foo/a.c" <<'EOF'
static char name[16];

void foo_set(const char *s)
{
	strlcpy(name, s, sizeof(name));
}
EOF
git_commit_all "$W" one && git -C "$W" tag v1.0
sed -i 's/strlcpy/strscpy/' "$W/drivers/foo/a.c"
git_commit_all "$W" "foo: use strscpy()"
git -C "$W" format-patch -q -1 -o "$S" HEAD
ls "$S" | grep '\.patch$' > "$S/series"
git -C "$W" reset -q --hard v1.0
# the repository's own identity; the global configuration has none
git -C "$W" config user.name "Repo Owner"
git -C "$W" config user.email "owner@example.org"

t_exit "scan" 0 k scan
t_exit "branch apply" 0 k branch apply --base v1.0 --series "$S"
t_is "... the committer is the repository's user.name/user.email" \
	"Repo Owner <owner@example.org>" "$(git -C "$W" log -1 --format='%cn <%ce>' kmig/v1.0)"
t_exit "KMIG_IDENTITY still comes first" 0 env KMIG_IDENTITY="Kay <kay@example.org>" \
	"$KMIG" --repo "$W" --db "$DB" branch apply --base v1.0 --series "$S"
t_is "... its committer" "Kay <kay@example.org>" \
	"$(git -C "$W" log -1 --format='%cn <%ce>' kmig/v1.0)"

t_exit "export --send with SOURCE_DATE_EPOCH" 0 env SOURCE_DATE_EPOCH=1700000000 \
	"$KMIG" --repo "$W" --db "$DB" branch export --base v1.0 --send "$TRASH/send1"
t_is "... the cover letter's date" "Date: Tue, 14 Nov 2023 22:13:20 +0000" \
	"$(grep -m1 '^Date:' "$TRASH/send1/0000-cover-letter.patch")"
t_ok "... its From: the repository's identity" \
	grep -q '^From: Repo Owner <owner@example.org>$' "$TRASH/send1/0000-cover-letter.patch"
t_exit "export --send with a SOURCE_DATE_EPOCH that is no number" 0 env SOURCE_DATE_EPOCH=abc \
	"$KMIG" --repo "$W" --db "$DB" branch export --base v1.0 --send "$TRASH/send2"
t_is "... the cover letter is dated now, not 1970" "$(date -u +%Y)" \
	"$(sed -n 's/^Date: [A-Za-z]*, [0-9]* [A-Za-z]* \([0-9]*\) .*/\1/p' "$TRASH/send2/0000-cover-letter.patch" | head -1)"

if command -v spatch > /dev/null 2>&1; then
	t_exit "convert --dry-run, SOURCE_DATE_EPOCH=1700000000x" 0 env SOURCE_DATE_EPOCH=1700000000x \
		"$KMIG" --repo "$W" --db "$DB" convert strlcpy --base v1.0 --dry-run --series "$TRASH/s2"
	t_is "... dated now, not 1970 nor 2023" "$(date -u +%Y)" \
		"$(sed -n 's/^Date: [A-Za-z]*, [0-9]* [A-Za-z]* \([0-9]*\) .*/\1/p' "$TRASH/.stdout" | head -1)"
	t_ok "... From: the repository's identity" \
		grep -q '^From: Repo Owner <owner@example.org>$' "$TRASH/.stdout"
	t_ok "... and its Signed-off-by:" \
		grep -q '^Signed-off-by: Repo Owner <owner@example.org>$' "$TRASH/.stdout"
else
	t_skip "spatch (coccinelle) is not installed: make deps"
fi

t_done
