# usage: rows.py area file start end : turns ['Label', ...] row heads into [t('area.key'), ...]
import json, re, sys
area, f, a, b = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
loc = 'src/web/public/locales/en-US.json'
m = json.load(open(loc))
lines = open(f).read().split('\n')
def key_for(text):
    for k, v in m.items():
        if v == text and k.startswith(area + '.') and k.count('.') == 1: return k
    words = re.sub(r'[^A-Za-z0-9 ]+', ' ', text).split()
    name = ''.join(w.lower() if i == 0 else w[0].upper() + w[1:].lower() for i, w in enumerate(words))
    k = f'{area}.{name}'; n = 2
    while k in m and m[k] != text: k = f'{area}.{name}{n}'; n += 1
    m[k] = text; return k
for i in range(a - 1, b):
    lines[i] = re.sub(r"\[\s*'([^']+)'\s*,", lambda mo: "[t('%s')," % key_for(mo.group(1)), lines[i], count=1)
open(f, 'w').write('\n'.join(lines))
json.dump(dict(sorted(m.items())), open(loc, 'w'), indent=2, ensure_ascii=False); open(loc, 'a').write('\n')
