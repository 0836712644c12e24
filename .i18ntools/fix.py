# usage: python3 fix.py spec.txt ; spec lines: FILE<TAB>OLD<TAB>NEW   and   KEY<TAB>key<TAB>text
import json, os, sys
loc = 'src/web/public/locales/en-US.json'
m = json.load(open(loc))
files = {}
for line in open(sys.argv[1]):
    line = line.rstrip('\n')
    if not line.strip() or line.startswith('#'): continue
    a, b, c = line.split('\t')
    if a == 'KEY':
        if b in m and m[b] != c: print('KEY CONFLICT (kept old)', b, m[b], c); continue
        m[b] = c; continue
    s = files.get(a) or open(a).read()
    if b not in s: print('NOT FOUND', a, b); continue
    s = s.replace(b, c.replace("\\n", "\n")); files[a] = s
for f, s in files.items():
    if "i18n/messages'" not in s:
        rel = os.path.relpath('src/web/app/i18n/messages', os.path.dirname(f))
        if not rel.startswith('.'): rel = './' + rel
        s = "import { t } from '%s';\n" % rel + s
    open(f, 'w').write(s)
json.dump(dict(sorted(m.items())), open(loc, 'w'), indent=2, ensure_ascii=False); open(loc, 'a').write('\n')
