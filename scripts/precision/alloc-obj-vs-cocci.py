#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""alloc-obj-vs-cocci.py - compare kmig's alloc-obj sites with the
kernel's own scripts/coccinelle/api/kmalloc_objs.cocci (run by spatch) on
sampled files of a release.

  scripts/precision/alloc-obj-vs-cocci.py [--repo R] [--tag T] [--n N]
                                          [--seed S] [--keep DIR]

Samples N (default 200) .c files of TAG (default v7.3.4; not tools/ or
samples/, which the script skips) that call an allocator the script
rewrites, checks them out into a temporary directory (git show; no
includes: spatch --no-includes), runs spatch -D patch with the release's
own .cocci on each, and takes as the script's sites the removed lines that
hold an allocator call; kmig's are those of build/lexsites (built by
build-lexsites.sh).  A site is a (file, line).  The script rewrites only
kmalloc/kzalloc/kvmalloc/kvzalloc and kmalloc_array/kcalloc/kvmalloc_array/
kvcalloc; kmig's _node and devm_ forms are counted apart.

Prints the counts, agreement = both / (both + only kmig + only cocci), and
every disagreement with its line, so the reasons can be read.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COCCI_NAMES = r'\b(kv?[mz]alloc|kmalloc_array|kvmalloc_array|kcalloc|kvcalloc)\s*\('
ALLOC_RE = re.compile(COCCI_NAMES)
OTHER_RE = re.compile(r'\b(devm_\w*alloc\w*|\w+alloc\w*_node)\s*\(')


def git(repo, *args):
    return subprocess.run(['git', '-C', repo] + list(args), check=True,
                          capture_output=True, text=True,
                          errors='replace').stdout


def cocci_sites(spatch_out):
    """(line, text) of the removed lines holding an allocator call."""
    sites = []
    old = 0
    for l in spatch_out.splitlines():
        m = re.match(r'^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@', l)
        if m:
            old = int(m.group(1))
            continue
        if l.startswith('---') or l.startswith('+++'):
            continue
        if l.startswith('-'):
            if ALLOC_RE.search(l):
                sites.append((old, l[1:].strip()))
            old += 1
        elif l.startswith('+'):
            continue
        else:
            old += 1
    return sites


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repo', default=os.path.expanduser('~/.cache/kmig/linux'))
    ap.add_argument('--tag', default='v7.3.4')
    ap.add_argument('--n', type=int, default=200)
    ap.add_argument('--seed', type=int, default=15)
    ap.add_argument('--keep')
    a = ap.parse_args()

    lexsites = os.path.join(TOP, 'build', 'lexsites')
    if not os.access(lexsites, os.X_OK):
        subprocess.run(['sh', os.path.join(TOP, 'scripts/precision/build-lexsites.sh')],
                       check=True)
    files = git(a.repo, 'grep', '-l', '-E', COCCI_NAMES.replace(r'\b', r'\<').replace(r'\s', '[[:space:]]'),
                a.tag, '--', '*.c', ':!tools', ':!samples').split()
    files = sorted(f.split(':', 1)[1] for f in files)
    random.Random(a.seed).shuffle(files)
    files = sorted(files[:a.n])
    tmp = a.keep or tempfile.mkdtemp(prefix='kmig-cocci-')
    os.makedirs(tmp, exist_ok=True)
    cocci = os.path.join(tmp, 'kmalloc_objs.cocci')
    with open(cocci, 'w') as f:
        f.write(git(a.repo, 'show', '%s:scripts/coccinelle/api/kmalloc_objs.cocci' % a.tag))
    both = only_k = only_c = other = calls = 0
    diffs = []
    for path in files:
        dst = os.path.join(tmp, 'src', path)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        src = git(a.repo, 'show', '%s:%s' % (a.tag, path))
        with open(dst, 'w') as f:
            f.write(src)
        calls += len(ALLOC_RE.findall(src))
        out = subprocess.run(['spatch', '--sp-file', cocci, '-D', 'patch',
                              '--no-includes', '--very-quiet', dst],
                             capture_output=True, text=True, errors='replace').stdout
        c = {l: t for l, t in cocci_sites(out)}
        k = {}
        for l in subprocess.run([lexsites, dst], capture_output=True, text=True,
                                errors='replace').stdout.splitlines():
            p, line, rule, text = l.split(':', 3)
            if rule != 'alloc-obj':
                continue
            if not ALLOC_RE.search(text) and OTHER_RE.search(text):
                other += 1	# _node / devm_: outside the script's names
                continue
            k[int(line)] = text
        for l in sorted(set(c) | set(k)):
            if l in c and l in k:
                both += 1
            elif l in k:
                only_k += 1
                diffs.append('only kmig  %s:%d: %s' % (path, l, k[l]))
            else:
                only_c += 1
                diffs.append('only cocci %s:%d: %s' % (path, l, c[l]))
    total = both + only_k + only_c
    for d in diffs:
        print(d)
    print('files %d (%s, seed %d), %d calls of the script\'s allocators; '
          'sites: both %d, only kmig %d, only cocci %d; '
          'kmig _node/devm_ sites (not in the script) %d'
          % (len(files), a.tag, a.seed, calls, both, only_k, only_c, other))
    if calls:
        print('calls judged alike (counted by both or by neither): %.1f%%'
              % (100.0 * (calls - only_k - only_c) / calls))
    if total:
        print('agreement %.1f%% (both / all sites either finds); '
              'kmig precision %.1f%%, recall %.1f%% against the script'
              % (100.0 * both / total,
                 100.0 * both / (both + only_k) if both + only_k else 100.0,
                 100.0 * both / (both + only_c) if both + only_c else 100.0))
    return 0


if __name__ == '__main__':
    sys.exit(main())
