# mkhistory.py DIR RELEASES FILES SEED TAGPREFIX - a git history of
# RELEASES tags (TAGPREFIX0, TAGPREFIX1, ...) over FILES C files holding
# random deprecated uses; each release rewrites 30 files (new blobs).
# Used by the crash and concurrency tests.
import os, random, subprocess, sys
w, releases, nfiles, seed, prefix = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rnd = random.Random(seed)
uses = ['strcpy(a, b);', 'BUG_ON(!p);', 'WARN_ON(x);', 'strlcpy(d, s, n);',
	'p = kmalloc(n * sizeof(*p), GFP_KERNEL);', 'v = simple_strtoul(s, NULL, 0);',
	'kmap(page);', 'x = 1;', 'y = 2;', 'z = 3;']
dirs = ['net/core', 'net/rds', 'drivers/a', 'drivers/b', 'fs/x', 'mm', 'kernel']
files = ['%s/f%03d.c' % (dirs[i % len(dirs)], i) for i in range(nfiles)]
for d in dirs:
	os.makedirs(os.path.join(w, d), exist_ok=True)
with open(os.path.join(w, 'MAINTAINERS'), 'w') as f:
	f.write('NET\nF:\tnet/\n\nRDS\nF:\tnet/rds/\n\nDRIVERS\nF:\tdrivers/\n\n'
		'THE REST\nF:\t*\nF:\t*/\n')
def write(path, gen):
	with open(os.path.join(w, path), 'w') as f:
		for fn in range(30):
			f.write('int fn_%d_%d(int n)\n{\n' % (gen, fn))
			for l in range(8):
				f.write('\t%s\n' % rnd.choice(uses))
			f.write('\treturn 0;\n}\n\n')
for p in files:
	write(p, 0)
for rel in range(releases):
	if rel:
		for p in rnd.sample(files, 30):
			write(p, rel)
	subprocess.run(['git', '-C', w, 'add', '-A'], check=True)
	subprocess.run(['git', '-C', w, 'commit', '-q', '-m', 'r%d' % rel], check=True)
	subprocess.run(['git', '-C', w, 'tag', prefix + '%d' % rel], check=True)
