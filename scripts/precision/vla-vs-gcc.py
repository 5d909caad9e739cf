#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""vla-vs-gcc.py - let GCC judge kmig's vla sites: compile sampled files of
a release that kmig reports under x86_64 allmodconfig with -Wvla, and count
how many of the reported sites GCC also calls variable length arrays.

  scripts/precision/vla-vs-gcc.py --db DB [--repo R] [--tag T] [--n N]
                                  [--seed S] [--work DIR] [--before LEXSITES]

DB is a kmig database in which TAG (default v7.3.4) is scanned.  "After"
is what kmig counts there (blob_sites of rule vla less the sites the
release's headers make constant, release_vlaconst); the population sampled
is every .c file (not tools/, samples/, scripts/: no kernel objects) with
a vla candidate in blob_sites (so files whose every site became constant
are in it too).  With --before, LEXSITES is a scripts/precision/lexsites
binary built from an older kmig: its vla sites of every .c file of the
tree are "before", and their files join the population.

The tree is TAG exported with git archive into WORK/src (default
/work/vla-gcc), configured with "make O=WORK/out allmodconfig" and
"prepare"d once; then each sampled file is built alone
("make O=... KCFLAGS='-Wvla -Wno-error=vla' path/file.o";
allmodconfig turns warnings into errors).  A file that is not built (an
error, or no object: not in the configuration, another architecture's) is
left out: precision
is given where the file compiles, until N (default 30) files compiled.  A
site is a (file, line); GCC's are its -Wvla warnings in that file (for a
file whose Makefile silences -Wvla, from its compile command again
without the -Wno-vla).
"""
import argparse
import os
import random
import re
import sqlite3
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GCC_RE = re.compile(r'^(?P<path>[^:\s]+):(?P<line>\d+):\d+: (warning|error): '
                    r'(ISO C90 forbids variable length array|'
                    r'variable length array .* is used)')
# allmodconfig sets CONFIG_WERROR: keep a VLA a warning, so the file builds
KCFLAGS = 'KCFLAGS=-Wvla -Wno-error=vla'


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True,
                          errors='replace', **kw)


def kmig_sites(db, tag):
    """(after, candidates): {path: set(lines)} from the kmig database."""
    con = sqlite3.connect(db)
    q = ("SELECT rf.path, bs.line, EXISTS (SELECT 1 FROM release_vlaconst rv "
         " WHERE rv.release_id = r.id AND rv.path = rf.path AND rv.line = bs.line) "
         "FROM releases r JOIN release_files rf ON rf.release_id = r.id "
         "JOIN blob_sites bs ON bs.oid = rf.oid AND bs.ruleset = r.ruleset "
         "WHERE r.tag = ? AND bs.rule = 'vla'")
    after, cand = {}, {}
    for path, line, const in con.execute(q, (tag,)):
        cand.setdefault(path, set()).add(line)
        if not const:
            after.setdefault(path, set()).add(line)
    if not cand:
        sys.exit('vla-vs-gcc: %s is not scanned in %s, or has no vla site' % (tag, db))
    return after, cand


def prepare(repo, tag, work):
    src, out = os.path.join(work, 'src'), os.path.join(work, 'out')
    stamp = os.path.join(work, 'prepared-' + tag)
    if os.path.exists(stamp):
        return src, out
    os.makedirs(src, exist_ok=True)
    os.makedirs(out, exist_ok=True)
    print('# exporting %s into %s' % (tag, src), file=sys.stderr)
    subprocess.run('git -C %s archive %s | tar -x -C %s' % (repo, tag, src),
                   shell=True, check=True)
    print('# allmodconfig and prepare (minutes)', file=sys.stderr)
    jobs = str(os.cpu_count() or 1)
    for target in (['allmodconfig'], ['-j' + jobs, 'prepare']):
        r = run(['make', '-s', '-C', src, 'O=' + out] + target)
        if r.returncode:
            sys.exit('vla-vs-gcc: make %s failed:\n%s' % (target[-1], r.stderr[-2000:]))
    open(stamp, 'w').close()
    return src, out


def gcc_sites(src, out, path):
    """None when the file does not build, else the set of -Wvla lines."""
    obj = path[:-2] + '.o'
    try:
        os.unlink(os.path.join(out, obj))	# built again: its warnings
    except FileNotFoundError:
        pass
    r = run(['make', '-C', src, 'O=' + out, KCFLAGS, obj])
    # a file the configuration does not name is not built, without an error
    if r.returncode or not os.path.exists(os.path.join(out, obj)):
        return None
    return warned(r.stderr, path) | unsilenced(out, obj, path)


def warned(stderr, path):
    lines = set()
    for l in stderr.splitlines():
        m = GCC_RE.match(l)
        if m and m.group('path').endswith(path):
            lines.add(int(m.group('line')))
    return lines


def unsilenced(out, obj, path):
    """A file whose Makefile adds -Wno-vla (mm/kasan's tests in v6.1):
    its recorded compile command once more without it."""
    d, f = os.path.split(obj)
    try:
        with open(os.path.join(out, d, '.' + f + '.cmd')) as fh:
            text = fh.read()
    except FileNotFoundError:
        return set()
    m = re.search(r'^(?:saved)?cmd_\S+ := (.*)$', text, re.M)
    if not m or '-Wno-vla' not in m.group(1):
        return set()
    cmd = m.group(1).split(' ; ')[0].replace('-Wno-vla', '-Wvla -Wno-error=vla')
    cmd = re.sub(r' -o \S+', ' -o /dev/null', cmd, count=1)
    return warned(run(cmd, shell=True, cwd=out).stderr, path)


def before_sites(lexsites, src):
    """{path: set(lines)}: the older kmig's vla sites of every .c file."""
    files = []
    for d, _, names in os.walk(src):
        files += [os.path.relpath(os.path.join(d, n), src)
                  for n in names if n.endswith('.c')]
    sites = {}
    for i in range(0, len(files), 500):
        out = run([lexsites] + files[i:i + 500], cwd=src).stdout
        for l in out.splitlines():
            parts = l.split(':', 3)
            if len(parts) == 4 and parts[2] == 'vla':
                sites.setdefault(parts[0], set()).add(int(parts[1]))
    return sites


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--db', required=True)
    ap.add_argument('--repo', default=os.path.join(
        os.environ.get('XDG_CACHE_HOME', os.path.expanduser('~/.cache')), 'kmig', 'linux'))
    ap.add_argument('--tag', default='v7.3.4')
    ap.add_argument('--n', type=int, default=30)
    ap.add_argument('--seed', type=int, default=15)
    ap.add_argument('--work', default='/work/vla-gcc')
    ap.add_argument('--before')
    a = ap.parse_args()

    after, cand = kmig_sites(a.db, a.tag)
    src, out = prepare(a.repo, a.tag, a.work)
    before = before_sites(a.before, src) if a.before else {}
    pop = sorted(p for p in set(cand) | set(before) if p.endswith('.c') and
                 not p.startswith(('tools/', 'samples/', 'scripts/')))
    random.Random(a.seed).shuffle(pop)

    tot = {'before': [0, 0], 'after': [0, 0]}
    compiled = skipped = 0
    rows = []
    for path in pop:
        if compiled >= a.n:
            break
        g = gcc_sites(src, out, path)
        if g is None:
            skipped += 1
            print('# %s: not built under x86_64 allmodconfig' % path,
                  file=sys.stderr)
            continue
        compiled += 1
        sides = {'after': after.get(path, set())}
        if a.before:
            sides['before'] = before.get(path, set())
        for k, s in sides.items():
            tot[k][0] += len(s)
            tot[k][1] += len(s & g)
        rows.append((path, sides, g))

    for path, sides, g in rows:
        def fmt(s):
            return ','.join(str(x) for x in sorted(s)) or '-'
        line = '%s: gcc %s; kmig %s' % (path, fmt(g), fmt(sides['after']))
        if 'before' in sides:
            line += '; before %s' % fmt(sides['before'])
        print(line)
    print('files compiled: %d (not built under x86_64 allmodconfig: %d)'
          % (compiled, skipped))
    for k in ('before', 'after'):
        n, c = tot[k]
        if k == 'before' and not a.before:
            continue
        pct = 100.0 * c / n if n else 0.0
        print('%s: %d sites reported, %d confirmed by gcc -Wvla (%.1f %%)'
              % (k, n, c, pct))


if __name__ == '__main__':
    main()
