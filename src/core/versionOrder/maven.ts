// Maven's version order (ComparableVersion, https://maven.apache.org/pom.html#version-order-specification): a
// version is a list of numbers and qualifiers split at `.`, `-` and the changes between digits and letters; a `-`
// (or a change to letters) opens a sub-list. Qualifiers order alpha < beta < milestone < rc = cr < snapshot <
// "" = ga = final = release < sp < other words (alphabetically); trailing zeros and release words do not count
// (1 = 1.0 = 1-ga), and `a1`, `b1`, `m1` mean alpha-1, beta-1, milestone-1.

type Item =
  | { kind: 'number'; value: bigint }
  | { kind: 'word'; value: string }
  | { kind: 'combination'; word: Extract<Item, { kind: 'word' }>; number: Item }
  | { kind: 'list'; items: Item[] };
type Word = Extract<Item, { kind: 'word' }>;

const qualifiers = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const releaseWords = new Set(['ga', 'final', 'release']);
const releaseKey = String(qualifiers.indexOf(''));

/** The text a qualifier sorts by: its rank among the known qualifiers, else after them all, alphabetically. */
function qualifierKey(value: string): string {
  if (releaseWords.has(value)) return releaseKey;
  const rank = qualifiers.indexOf(value);
  return rank === -1 ? `${qualifiers.length}-${value}` : String(rank);
}

const compareText = (left: string, right: string) => (left === right ? 0 : left < right ? -1 : 1);

function word(value: string, followedByDigit: boolean): Word {
  const expanded = followedByDigit && value.length === 1 ? ({ a: 'alpha', b: 'beta', m: 'milestone' } as Record<string, string>)[value] ?? value : value;
  return { kind: 'word', value: expanded === 'cr' ? 'rc' : expanded };
}

function numberItem(digits: string): Item {
  return { kind: 'number', value: BigInt(digits.replace(/^0+/, '') || '0') };
}

function parseItem(combination: boolean, digit: boolean, text: string): Item {
  if (combination) {
    const joined = text.replace(/-/g, '');
    const firstDigit = Math.max(0, joined.search(/\d/));
    return { kind: 'combination', word: word(joined.slice(0, firstDigit), true), number: numberItem(joined.slice(firstDigit)) };
  }
  return digit ? numberItem(text) : word(text, false);
}

function isNull(item: Item): boolean {
  if (item.kind === 'number') return item.value === 0n;
  if (item.kind === 'word') return item.value === '';
  if (item.kind === 'list') return item.items.length === 0;
  return false;
}

/** Drops the zeros and empty words that do not count, innermost list first. */
function normalize(list: Item[]): void {
  for (let index = list.length - 1; index >= 0; index -= 1) {
    if (!isNull(list[index])) continue;
    const next = list[index + 1];
    if (!next || next.kind === 'word') list.splice(index, 1);
    else if (next.kind === 'list' && (next.items[0]?.kind === 'combination' || next.items[0]?.kind === 'word')) list.splice(index, 1);
  }
  if (list.length === 1 && list[0].kind === 'list') list.splice(0, 1, ...list[0].items);
}

/** Compares an item with another, or with nothing (`null`: the version ended there). */
function compareItem(item: Item, other: Item | null): number {
  switch (item.kind) {
    case 'number':
      if (!other) return item.value === 0n ? 0 : 1;
      if (other.kind === 'number') return item.value === other.value ? 0 : item.value < other.value ? -1 : 1;
      return 1;
    case 'word':
      if (!other) return compareText(qualifierKey(item.value), releaseKey);
      if (other.kind === 'number') return -1;
      if (other.kind === 'word') return compareText(qualifierKey(item.value), qualifierKey(other.value));
      if (other.kind === 'list') return -compareItem(other, item);
      {
        const order = compareItem(item, other.word);
        if (order) return order;
        return compareItem(item, null) === 0 ? -compareItem(other.number, null) : -1;
      }
    case 'combination':
      if (!other) return compareItem(item.word, null) || compareItem(item.number, null);
      if (other.kind === 'number') return -1;
      if (other.kind === 'list') return -compareItem(other, item);
      if (other.kind === 'word') {
        const order = compareItem(item.word, other);
        if (order) return order;
        return compareItem(item.word, null) === 0 ? compareItem(item.number, null) : 1;
      }
      return compareItem(item.word, other.word) || compareItem(item.number, other.number);
    case 'list': {
      const items = item.items;
      if (!other) {
        for (const each of items) {
          const order = compareItem(each, null);
          if (order) return order;
        }
        return 0;
      }
      if (other.kind === 'number') return -1;
      if (other.kind === 'word' || other.kind === 'combination') {
        let order = items.length ? compareItem(items[0], other) : -compareItem(other, null);
        for (let index = 1; !order && index < items.length; index += 1) order = compareItem(items[index], null);
        return order;
      }
      for (let index = 0; index < Math.max(items.length, other.items.length); index += 1) {
        const [left, right] = [items[index] ?? null, other.items[index] ?? null];
        const order = left === null ? (right === null ? 0 : -compareItem(right, null)) : compareItem(left, right);
        if (order) return order;
      }
      return 0;
    }
  }
}

/** Parses a version into Maven's item list. Before: `"1.0-alpha-1"`; after: `[1, [alpha-1]]` as items. */
export function parseMaven(text: string): Item {
  const version = text.trim().toLowerCase();
  const root: Item[] = [];
  let list = root;
  const lists: Item[][] = [root];
  const openList = () => {
    const items: Item[] = [];
    list.push({ kind: 'list', items });
    lists.push(items);
    list = items;
  };
  let digit = false;
  let combination = false;
  let start = 0;
  for (let index = 0; index < version.length; index += 1) {
    const character = version[index];
    if (character === '.') {
      list.push(index === start ? numberItem('0') : parseItem(combination, digit, version.slice(start, index)));
      combination = false;
      start = index + 1;
    } else if (character === '-') {
      if (index === start) list.push(numberItem('0'));
      else {
        // X-1 reads as X1.
        if (!digit && index !== version.length - 1 && /\d/.test(version[index + 1])) {
          combination = true;
          continue;
        }
        list.push(parseItem(combination, digit, version.slice(start, index)));
      }
      start = index + 1;
      if (list.length) openList();
      combination = false;
    } else if (character >= '0' && character <= '9') {
      if (!digit && index > start) {
        combination = true;
        if (list.length) openList();
      }
      digit = true;
    } else {
      if (digit && index > start) {
        list.push(parseItem(combination, true, version.slice(start, index)));
        start = index;
        openList();
        combination = false;
      }
      digit = false;
    }
  }
  if (version.length > start) {
    // 1.0.0.X1 < 1.0.0-X2: a qualifier after a dot reads as after a dash.
    if (!digit && list.length) openList();
    list.push(parseItem(combination, digit, version.slice(start)));
  }
  for (const items of lists.reverse()) normalize(items);
  return { kind: 'list', items: root };
}

/** Maven's order of two versions. Before: `("1.0-SNAPSHOT", "1.0")`; after: -1. */
export function compareMaven(left: string, right: string): number {
  return compareItem(parseMaven(left), parseMaven(right));
}
