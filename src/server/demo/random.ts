/** A small seeded pseudo-random generator (mulberry32): the same seed gives the same data set on every machine. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    chance: (probability: number) => next() < probability,
    integer: (maximumExclusive: number) => Math.floor(next() * maximumExclusive),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    hex: (length: number) => Array.from({ length }, () => Math.floor(next() * 16).toString(16)).join(''),
    alphanumeric: (length: number) => Array.from({ length }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'[Math.floor(next() * 34)]).join(''),
  };
}

export type Random = ReturnType<typeof seededRandom>;
