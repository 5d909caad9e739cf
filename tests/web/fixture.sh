# fixture.sh - sourced by the web tests after tests/lib.sh: a fixture kernel
# repository with three releases in $W, scanned into $DB, with k() running
# kmig on them.  One MAINTAINERS section title and one file name carry
# HTML: <script> elements and both kinds of quotes.  The releases are
# dated 15 June 2021, 2022 and 2023 (365 days apart), for the forecast.
W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

EVIL_DIR="drivers/evil/\"q'<script>document.documentElement.setAttribute(\"data-pwned\",\"3\")<"
EVIL_FILE="$EVIL_DIR/script>.c"
EVIL_SECTION="EVIL <script>document.documentElement.setAttribute(\"data-pwned\",\"1\")</script> 'QUOTED' \"DRIVER\" & CO"

git init -q "$W"
mkdir -p "$W/net/rds" "$W/net/core" "$W/drivers/foo" "$W/$EVIL_DIR" "$W/include/linux"
cat > "$W/MAINTAINERS" <<EOM
List of maintainers

Maintainers List
----------------

RDS - RELIABLE DATAGRAM SOCKETS
M:	Someone <someone@example.org>
F:	net/rds/

NETWORKING [GENERAL]
F:	net/

$EVIL_SECTION
F:	drivers/evil/

THE REST
F:	*
F:	*/
EOM
cat > "$W/net/rds/send.c" <<'EOF'
int rds_sendmsg(struct socket *sock)
{
	char buf[16];

	if (WARN_ON(!sock))
		return -EINVAL;
	strcpy(buf, "x");
	BUG_ON(sock == NULL);
	return 0;
}
static const struct proto_ops rds_proto_ops = { .sendmsg = rds_sendmsg };
EOF
cat > "$W/net/core/dev.c" <<'EOF'
static void f(int n)
{
	p = kmalloc(n * sizeof(*p), GFP_KERNEL);
	strlcpy(a, b, sizeof(a));
}
EOF
printf 'void h(void)\n{\n\tBUG();\n}\n' > "$W/drivers/foo/bar.c"
cat > "$W/$EVIL_FILE" <<'EOF'
void evil(void)
{
	strcpy(a, "<script>document.documentElement.setAttribute('data-pwned','2')</script>");
}
EOF
printf 'struct s { int n; char data[0]; };\nstruct t { int n; char data[0]; };\n' > "$W/include/linux/m.h"
GIT_COMMITTER_DATE="2021-06-15T12:00:00Z" git_commit_all "$W" one && git -C "$W" tag v1.9

sed -i 's/strlcpy(a, b, sizeof(a));/strscpy(a, b, sizeof(a));\n\tstrcpy(a, b);/' "$W/net/core/dev.c"
cp "$W/net/rds/send.c" "$W/net/rds/send2.c"
GIT_COMMITTER_DATE="2022-06-15T12:00:00Z" git_commit_all "$W" two && git -C "$W" tag v1.10

printf 'void z(void)\n{\n\tBUG();\n\tkmap(p);\n}\n' > "$W/drivers/foo/more.c"
printf 'struct s { int n; char data[0]; };\n' > "$W/include/linux/m.h"
GIT_COMMITTER_DATE="2023-06-15T12:00:00Z" git_commit_all "$W" three && git -C "$W" tag v1.11

k scan --jobs 2 > /dev/null 2>&1 || echo "Bail out! kmig scan failed on the fixture"
