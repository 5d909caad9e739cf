#!/usr/bin/env python3
"""site.py - read a generated kmig web site back (standard library only).

  site.py rows PAGE TABLE_ID          rows in the table's <tbody>
  site.py column PAGE TABLE_ID N      text of column N (0-based), one a line
  site.py cell PAGE TABLE_ID KEY N    column N of the row whose first cell is KEY
  site.py sites SITE PREFIX           rows of the use-site tables of pages PREFIX*
  site.py links SITE                  check every link, anchor and resource:
                                      prints the broken ones, exit 1 if any
  site.py external SITE               print references that leave the site
  site.py scripts SITE                print every <script> element that is not
                                      the site's own sort.js
"""
import glob
import html.parser
import os
import sys
import urllib.parse


class Page(html.parser.HTMLParser):
    def __init__(self, path):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.refs = []          # (tag, attr, value)
        self.scripts = []       # attrs of <script>
        self.tables = {}        # id -> list of rows (list of cell texts)
        self.site_rows = 0
        self._table = []        # stack of (id, in_tbody, class)
        self._cell = None
        self._row = None
        with open(path, encoding="utf-8") as f:
            self.feed(f.read())

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for k in ("href", "src", "action", "data", "poster"):
            if k in a and a[k] is not None:
                self.refs.append((tag, k, a[k]))
        if tag == "script":
            self.scripts.append(a)
        if tag == "table":
            self._table.append([a.get("id"), False, a.get("class") or ""])
            if a.get("id"):
                self.tables[a["id"]] = []
        elif tag == "tbody" and self._table:
            self._table[-1][1] = True
        elif tag == "tr" and self._table and self._table[-1][1]:
            self._row = []
            if "sites" in self._table[-1][2].split():
                self.site_rows += 1
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            tid = self._table[-1][0] if self._table else None
            if tid is not None:
                self.tables[tid].append(self._row)
            self._row = None
        elif tag == "tbody" and self._table:
            self._table[-1][1] = False
        elif tag == "table" and self._table:
            self._table.pop()

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def pages(site):
    return sorted(glob.glob(os.path.join(site, "*.html")))


def main(argv):
    cmd = argv[0]
    if cmd == "rows":
        print(len(Page(argv[1]).tables.get(argv[2], [])))
    elif cmd == "column":
        for row in Page(argv[1]).tables.get(argv[2], []):
            print(row[int(argv[3])])
    elif cmd == "cell":
        for row in Page(argv[1]).tables.get(argv[2], []):
            if row[0] == argv[3]:
                print(row[int(argv[4])])
    elif cmd == "sites":
        print(sum(Page(p).site_rows for p in glob.glob(os.path.join(argv[1], argv[2] + "*"))))
    elif cmd == "links":
        site, parsed, bad = argv[1], {}, []
        for p in pages(site):
            parsed[os.path.basename(p)] = Page(p)
        for name, page in parsed.items():
            for tag, attr, ref in page.refs:
                u = urllib.parse.urlsplit(ref)
                if u.scheme == "data" or u.scheme or u.netloc:
                    continue
                target = urllib.parse.unquote(u.path) or name
                if not os.path.exists(os.path.join(site, target)):
                    bad.append("%s: %s=%s: no such file" % (name, attr, ref))
                elif u.fragment and target.endswith(".html"):
                    if u.fragment not in parsed[target].ids:
                        bad.append("%s: %s=%s: no such anchor" % (name, attr, ref))
        for b in bad:
            print(b)
        return 1 if bad else 0
    elif cmd == "external":
        for p in pages(argv[1]):
            for tag, attr, ref in Page(p).refs:
                u = urllib.parse.urlsplit(ref)
                if (u.scheme and u.scheme != "data") or u.netloc:
                    print("%s: <%s %s=%s>" % (os.path.basename(p), tag, attr, ref))
    elif cmd == "scripts":
        for p in pages(argv[1]):
            for a in Page(p).scripts:
                if a != {"src": "sort.js", "defer": None}:
                    print("%s: %r" % (os.path.basename(p), a))
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
