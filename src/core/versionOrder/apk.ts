// Alpine's version order (apk-tools' version.c, `digit{.digit}...{letter}{_suffix{number}}...{~hash}{-r#}`): the
// version is read as tokens, compared while both sides hold the same kind of token; where they part, a
// pre-release suffix (`_alpha`, `_beta`, `_pre`, `_rc`) is older than anything, else the side that goes on with a
// more significant token (a further number, a letter) is newer, so 1.2 < 1.2.1, 1.2_rc1 < 1.2 < 1.2_p1 < 1.2-r1.

type TokenKind = 'initial' | 'digit' | 'letter' | 'suffix' | 'suffixNumber' | 'hash' | 'revision' | 'end' | 'invalid';
/** Token kinds in the order a version may hold them: a later kind may not come before an earlier one. */
const kindRank: Record<TokenKind, number> = { initial: 0, digit: 1, letter: 2, suffix: 3, suffixNumber: 4, hash: 5, revision: 6, end: 7, invalid: 8 };
/** Suffixes oldest first; those before the empty one are pre-releases. */
const suffixes = ['alpha', 'beta', 'pre', 'rc', '', 'cvs', 'svn', 'git', 'hg', 'p'];
const releaseRank = suffixes.indexOf('');

type Token = { kind: TokenKind; text: string; suffix: number };

/** Compares digit runs as numbers of any length. */
function compareNumbers(left: string, right: string): number {
  const [a, b] = [left.replace(/^0+(?=\d)/, ''), right.replace(/^0+(?=\d)/, '')];
  return a.length !== b.length ? Math.sign(a.length - b.length) : a === b ? 0 : a < b ? -1 : 1;
}

/** Byte order, then length: how apk sorts what it compares as text. */
const compareText = (left: string, right: string) => (left === right ? 0 : left < right ? -1 : 1);

/** The tokens of a version, the last one `end` or `invalid`. */
function tokens(version: string): Token[] {
  const list: Token[] = [];
  let position = 0;
  const digits = () => {
    const start = position;
    while (position < version.length && version[position] >= '0' && version[position] <= '9') position += 1;
    return version.slice(start, position);
  };
  const first = digits();
  list.push({ kind: first ? 'initial' : 'invalid', text: first, suffix: 0 });
  while (list[list.length - 1].kind !== 'invalid' && list[list.length - 1].kind !== 'end') {
    const previous = kindRank[list[list.length - 1].kind];
    const character = version[position];
    let token: Token = { kind: 'invalid', text: '', suffix: 0 };
    if (character === undefined) token = { kind: 'end', text: '', suffix: 0 };
    else if (character >= 'a' && character <= 'z' && previous <= kindRank.digit) {
      position += 1;
      token = { kind: 'letter', text: character, suffix: 0 };
    } else if ((character === '.' && previous <= kindRank.digit) || (character >= '0' && character <= '9' && previous === kindRank.suffix)) {
      if (character === '.') position += 1;
      const text = digits();
      if (text) token = { kind: previous === kindRank.suffix ? 'suffixNumber' : 'digit', text, suffix: 0 };
    } else if (character === '_' && previous <= kindRank.suffixNumber) {
      const name = /^[a-z]*/.exec(version.slice(position + 1))![0];
      position += 1 + name.length;
      const suffix = name ? suffixes.indexOf(name) : -1;
      if (suffix >= 0 && suffix !== releaseRank) token = { kind: 'suffix', text: name, suffix };
    } else if (character === '~' && previous < kindRank.hash) {
      const hash = /^[0-9a-f]*/.exec(version.slice(position + 1))![0];
      position += 1 + hash.length;
      if (hash) token = { kind: 'hash', text: hash, suffix: 0 };
    } else if (character === '-' && previous < kindRank.revision && version[position + 1] === 'r') {
      position += 2;
      const text = digits();
      if (text) token = { kind: 'revision', text, suffix: 0 };
    }
    list.push(token);
  }
  return list;
}

function compareTokens(left: Token, right: Token): number {
  switch (left.kind) {
    case 'digit':
      // A leading zero makes the run a fraction-like text (1.02 < 1.1), as Gentoo orders it.
      return left.text.startsWith('0') || right.text.startsWith('0') ? compareText(left.text, right.text) : compareNumbers(left.text, right.text);
    case 'initial': case 'suffixNumber': case 'revision': return compareNumbers(left.text, right.text);
    case 'letter': return compareText(left.text, right.text);
    case 'suffix': return Math.sign(left.suffix - right.suffix);
    default: return compareText(left.text, right.text);
  }
}

/** Alpine's order of two package versions. Before: `("1.2.3_rc1-r0", "1.2.3-r0")`; after: -1. */
export function compareApk(left: string, right: string): number {
  const [a, b] = [tokens(left.trim()), tokens(right.trim())];
  let index = 0;
  for (; a[index].kind === b[index].kind && kindRank[a[index].kind] < kindRank.end; index += 1) {
    const order = compareTokens(a[index], b[index]);
    if (order) return order;
  }
  const [x, y] = [a[index], b[index]];
  if (x.kind === y.kind) return 0;
  if (x.kind === 'suffix' && x.suffix < releaseRank) return -1;
  if (y.kind === 'suffix' && y.suffix < releaseRank) return 1;
  return kindRank[x.kind] > kindRank[y.kind] ? -1 : 1;
}

/** A version apk accepts. */
export function isApkVersion(text: string): boolean {
  const list = tokens(text.trim());
  return list[list.length - 1].kind === 'end';
}
