#!/bin/sh
# vla by the release's own constants: an array sized by an enumerator or
# an object-like constant macro that a header of the same release defines
# (hwmon_max, Ar5416RateSize, a macro defined by another, a cast) is no VLA
# (unless another branch of its #if does not define it: nr_cpu_ids), and
# of two arrays on one line only the constant one is dropped; the same array in a release whose
# headers do not define the name is one.  Per release in scan, report and
# the trend; kmig check judges by its base's headers (and by the change's).
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
mkdir -p "$W/include/linux" "$W/drivers/hwmon"
cat > "$W/include/linux/hwmon.h" <<'EOF2'
enum hwmon_sensor_types {
	hwmon_chip,
	hwmon_temp,
	hwmon_max,
};
#define Ar5416RateSize 16
#define lower_fn(x) (x)
#define runtime_len get_len()
#define chained_len (base_len * 2)
#define base_len 4
#define HFA384x_LEN ((u16)12)
#if NR_CPUS == 1
#define nr_cpu_ids ((unsigned int)NR_CPUS)
#else
extern unsigned int nr_cpu_ids;
#endif
EOF2
cat > "$W/drivers/hwmon/sensor.c" <<'EOF2'
#define nr_local 8

static int sensor_read(struct device *dev, int n)
{
	int nr_count[hwmon_max];
	char rates[Ar5416RateSize * 2];
	char local[nr_local];
	char var[n];
	char mixed[hwmon_max + n];
	char rt[runtime_len];
	char ch[chained_len];
	u8 snum[HFA384x_LEN];
	char more[n]; char two[hwmon_max];
	int per_cpu[nr_cpu_ids];
	return 0;
}
EOF2
# a file whose only array has a constant size in both releases: no use of
# any rule, on no page (line 6 and its name as in sensor.c)
cat > "$W/drivers/hwmon/const.c" <<'EOF2'
/* arrays of constant size only */

static int const_read(void)
{
	int ret = 0;
	char rates[Ar5416RateSize * 2];

	return ret;
}
EOF2
git_commit_all "$W" "sensor" && git -C "$W" tag v1.0
# v1.1: the header loses hwmon_max, the .c file is the same blob
sed -i '/hwmon_max/d' "$W/include/linux/hwmon.h"
git_commit_all "$W" "hwmon: drop hwmon_max" && git -C "$W" tag v1.1

t_exit "scan both releases" 0 k scan --jobs 2
vla() {
	k report "$1" --format csv --by file --rule vla | sed 1d | cut -d, -f2,4
}
t_is "v1.0: the names its header defines are constants" \
"drivers/hwmon/sensor.c,5" "$(vla v1.0)"
t_is "v1.1: without hwmon_max the same blob has two more VLAs" \
"drivers/hwmon/sensor.c,7" "$(vla v1.1)"
t_is "the sites of v1.0 recorded as constant" \
"drivers/hwmon/const.c 6
drivers/hwmon/sensor.c 5
drivers/hwmon/sensor.c 6
drivers/hwmon/sensor.c 11
drivers/hwmon/sensor.c 12
drivers/hwmon/sensor.c 13" \
"$(sqlite3 -separator ' ' "$DB" "SELECT rv.path, rv.line FROM release_vlaconst rv
	JOIN releases r ON r.id = rv.release_id WHERE r.tag = 'v1.0' ORDER BY rv.path, rv.line")"
t_is "the dependencies are recorded per site" \
"5|hwmon_max
6|Ar5416RateSize
8|n
9|hwmon_max n
10|runtime_len
11|chained_len
12|HFA384x_LEN
13|hwmon_max
13|n
14|nr_cpu_ids" \
"$(sqlite3 "$DB" "SELECT DISTINCT line, deps FROM blob_sites WHERE rule = 'vla' ORDER BY line, deps")"
k report --trend --format csv --rule vla > "$TRASH/trend"
t_is "the trend adds the site that became a VLA" \
"v1.0,5,,,,
v1.1,7,2,2,0,0" "$(sed 1d "$TRASH/trend")"

# the dashboard lists the arrays of variable size only, and not the file
# whose only array has a constant size (it has no file counts: the release
# pages and the trend read no site of it)
t_exit "web of both releases" 0 k web -o "$TRASH/site"
files_pages() { ls "$TRASH/site"/files-"$1"-*.html; }
sites() {
	python3 "$TOP/tests/web/site.py" sites "$TRASH/site" \
		"$(basename "$(files_pages "$1" | head -n 1)" | sed 's/-1\.html$//')"
}
t_is "v1.0's page: its 5 VLAs" 5 "$(sites v1-0)"
t_is "v1.1's page: its 7 VLAs" 7 "$(sites v1-1)"
t_ok "v1.0's page: not the constant sizes of sensor.c" \
	sh -c "! grep -q 'sensor.c:6<' $(files_pages v1-0 | tr '\n' ' ')"
t_ok "no page names the file of constant arrays" \
	sh -c "! grep -l 'const\.c' '$TRASH/site'/*.html"

# the gate: a new array sized by hwmon_max on base v1.0 is no new use
git -C "$W" checkout -q -b topic v1.0
cat >> "$W/drivers/hwmon/sensor.c" <<'EOF2'

static int sensor_write(struct device *dev, int len)
{
	int more[hwmon_max];
	u8 buf[len];
	return 0;
}
EOF2
git_commit_all "$W" "sensor: write"
t_exit "check on base v1.0: only the array of a variable size is new" 1 k check HEAD
t_ok "one new use" grep -qx "1 new deprecated use (0 allowed)" "$TRASH/.stdout"
t_ok "it is buf[len]" grep -q "sensor.c:21: vla:" "$TRASH/.stdout"
t_ok "not more[hwmon_max]" sh -c "! grep -q 'sensor.c:20:' '$TRASH/.stdout'"
t_exit "check without a scanned base: both arrays count" 1 \
	"$KMIG" --repo "$W" --db "$TRASH/none.db" check HEAD
t_ok "two new uses" grep -qx "2 new deprecated uses (0 allowed)" "$TRASH/.stdout"
t_ok "the note says why" grep -q "^note: vla sizes judged by the changed files' own definitions only" "$TRASH/.stdout"
t_done
