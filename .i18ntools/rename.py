# usage: python3 rename.py old=new ...  (message keys; sources under src/web and the en-US file)
import json, subprocess, sys
loc = 'src/web/public/locales/en-US.json'
m = json.load(open(loc))
files = subprocess.check_output(['grep', '-rlE', "t\\('", 'src/web', '--include=*.ts', '--include=*.tsx']).decode().split()
texts = {f: open(f).read() for f in files}
pairs = [a.split('=') for a in sys.argv[1:]]
tmp = {}
for i, (old, new) in enumerate(pairs):
    for f in texts: texts[f] = texts[f].replace("t('%s'" % old, "t('@@%d'" % i)
    tmp[i] = m.pop(old)
for i, (old, new) in enumerate(pairs):
    for f in texts: texts[f] = texts[f].replace("t('@@%d'" % i, "t('%s'" % new)
    if new in m and m[new] != tmp[i]: print('CONFLICT', new)
    m[new] = tmp[i]
for f, s in texts.items(): open(f, 'w').write(s)
json.dump(dict(sorted(m.items())), open(loc, 'w'), indent=2, ensure_ascii=False); open(loc, 'a').write('\n')
