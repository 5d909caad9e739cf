#!/bin/sh
# The gate judges by its base: releases with and without the kmalloc_obj
# section and macro; kmig rules/report "since"; --rule/--skip-rule;
# alloc-obj counts struct objects, not byte buffers.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
mkdir -p "$W/Documentation/process" "$W/include/linux" "$W/drivers/misc"
cat > "$W/Documentation/process/deprecated.rst" <<'EOF'
Deprecated Interfaces
=====================

strcpy()
--------
Use strscpy().

strncpy() on NUL-terminated strings
-----------------------------------
Use strscpy().

Open-coded kmalloc assignments for struct objects are a later section.
EOF
cat > "$W/include/linux/slab.h" <<'EOF'
void *kmalloc(size_t size, gfp_t flags);
/* one day: kzalloc_obj(p) */
static inline void *kzalloc_wrap(void)
{
	return kzalloc_obj(x);
}
EOF
cat > "$W/include/linux/string.h" <<'EOF'
extern ssize_t strscpy(char *, const char *, size_t);
EOF
printf 'int old(void) { return 0; }\n' > "$W/drivers/misc/old.c"
git_commit_all "$W" "v1.0" && git -C "$W" tag v1.0

cat >> "$W/Documentation/process/deprecated.rst" <<'EOF'

Open-coded kmalloc assignments for struct objects
-------------------------------------------------
Use kmalloc_obj().
EOF
cat >> "$W/include/linux/slab.h" <<'EOF'
#define kzalloc_obj(P, ...) __alloc_obj(P)
EOF
git_commit_all "$W" "v2.0" && git -C "$W" tag v2.0

cat > "$TRASH/new.patch" <<'EOF'
diff --git a/drivers/misc/new.c b/drivers/misc/new.c
new file mode 100644
--- /dev/null
+++ b/drivers/misc/new.c
@@ -0,0 +1,15 @@
+#include <linux/slab.h>
+struct foo { int a; };
+struct foo *foo_new(size_t len)
+{
+	struct foo *p;
+	char *buf;
+
+	p = kzalloc(sizeof(*p), GFP_KERNEL);
+	buf = kmalloc(len, GFP_KERNEL);
+	buf = kmalloc(sizeof(u8), GFP_KERNEL);
+	p = kmalloc(sizeof(struct foo), GFP_KERNEL);
+	strncpy(buf, "x", 1);
+	kfree(buf);
+	return p;
+}
EOF

# an unscanned base: the facts come from the tree
t_exit "old base without the section and macro: not failed by alloc-obj" 1 \
	k check --patch "$TRASH/new.patch" --base v1.0
t_ok "strncpy still fails" grep -q '^>> drivers/misc/new.c:12: strncpy' "$TRASH/.stdout"
t_ok "advice names only what the base defines" grep -q 'use strscpy() (of this' "$TRASH/.stdout"
t_ok "struct forms listed as informational" grep -q '^info: drivers/misc/new.c:8: alloc-obj' "$TRASH/.stdout"
t_ok "... both" grep -q '^info: drivers/misc/new.c:11: alloc-obj' "$TRASH/.stdout"
t_ok "... not deprecated in the base" grep -q 'not deprecated in v1.0' "$TRASH/.stdout"
t_ok "byte buffers not counted" sh -c "! grep -q 'new.c:9:\|new.c:10:' '$TRASH/.stdout'"
t_ok "summary: one failing use" grep -q '^1 new deprecated use (0 allowed)$' "$TRASH/.stdout"
t_ok "summary: two informational" grep -q '^2 new uses are not deprecated in v1.0 (informational)$' "$TRASH/.stdout"
t_exit "skipping strncpy: the old base passes" 0 \
	k check --patch "$TRASH/new.patch" --base v1.0 --skip-rule 'strn*'
t_exit "json" 0 k check --patch "$TRASH/new.patch" --base v1.0 --skip-rule strncpy --format json
t_is "json: informational uses, facts from the tree" "0 2 tree True" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["summary"]["new"], d["base"]["informational"], d["base"]["facts"], all(s["informational"] for s in d["new"]))' "$TRASH/.stdout")"

# the new base has section and macro: the same patch fails
t_exit "new base: fails" 1 k check --patch "$TRASH/new.patch" --base v2.0 --rule alloc-obj
t_ok "alloc-obj fails on v2.0" grep -q '^>> drivers/misc/new.c:8: alloc-obj' "$TRASH/.stdout"
t_ok "advice: kzalloc_obj() only" sh -c "grep -q 'use kzalloc_obj()' '$TRASH/.stdout' && ! grep -q kmalloc_flex '$TRASH/.stdout'"
t_ok "--rule: strncpy not listed" sh -c "! grep -q strncpy '$TRASH/.stdout'"
t_ok "two new uses" grep -q '^2 new deprecated uses (0 allowed)$' "$TRASH/.stdout"
t_exit "--rule matching nothing" 2 k check --patch "$TRASH/new.patch" --rule 'nope*'
t_ok "... named" grep -q "unknown rule 'nope\*'" "$TRASH/.stderr"

# scanned: kmig rules and report show since, check reads the database
t_exit "scan" 0 k scan
t_exit "rules" 0 k rules
t_ok "alloc-obj documented and replaced since v2.0" \
	sh -c "grep -A5 '^alloc-obj ' '$TRASH/.stdout' | grep -q 'documented since: v2.0; replacement since: v2.0'"
t_ok "strcpy since v1.0" \
	sh -c "grep -A5 '^strcpy ' '$TRASH/.stdout' | grep -q 'documented since: v1.0; replacement since: v1.0'"
t_ok "bug: no scanned release documents it" \
	sh -c "grep -A5 '^bug ' '$TRASH/.stdout' | grep -q 'documented since: none; replacement since: none'"
t_exit "rules json" 0 k rules --format json
t_is "json since" "v2.0 v2.0" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=[x for x in d["rules"] if x["id"]=="alloc-obj"][0]; print(r["documented_since"], r["replacement_since"])' "$TRASH/.stdout")"
t_exit "report" 0 k report --rule 'alloc-*' --rule strcpy
t_ok "report since line" grep -q '^  alloc-obj  *documented v2.0  *replacement v2.0$' "$TRASH/.stdout"
t_ok "report --rule globs: no strncpy row" sh -c "! grep -q '^strncpy' '$TRASH/.stdout'"
t_exit "check on the scanned old base" 1 k check --patch "$TRASH/new.patch" --base v1.0 --format json
t_is "facts from the database, with since" "database True" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["base"]["facts"], any("documented since v2.0" in (s.get("reason") or "") for s in d["new"]))' "$TRASH/.stdout")"
t_exit "rescan reads no header" 0 k scan
t_is "up to date" "v1.0: up to date
v2.0: up to date" "$(cat "$TRASH/.stdout")"

# each header blob read once, its mask kept for later runs: slab.h of
# v1.0 defines none of the replacement names, slab.h of v2.0 kzalloc_obj,
# string.h strscpy
t_is "three header masks stored" "3|2" \
	"$(sqlite3 "$DB" 'SELECT count(*), sum(mask <> 0) FROM relinfo_headers')"
echo '/* nothing the rules replace with */' > "$W/include/linux/fortify.h"
printf 'int v3(void) { return 0; }\n' >> "$W/drivers/misc/old.c"
git_commit_all "$W" "v3.0" && git -C "$W" tag v3.0
t_exit "a later run: v3.0" 0 env KMIG_PROGRESS=1 "$KMIG" --repo "$W" --db "$DB" scan
t_ok "only its new header read" \
	grep -q '^v3.0: read deprecated.rst and include/ (1 headers not read before) in' "$TRASH/.stderr"
t_is "v3.0 has kzalloc_obj by slab.h's stored mask" kzalloc_obj \
	"$(sqlite3 "$DB" "SELECT replacements FROM relinfo r JOIN releases l ON l.relinfo_key = r.key WHERE l.tag = 'v3.0' AND r.rule = 'alloc-obj'")"
t_is "four header masks" 4 "$(sqlite3 "$DB" 'SELECT count(*) FROM relinfo_headers')"

t_done
