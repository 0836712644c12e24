/** Escapes LIKE's wildcards so text matches as typed: `50%_off` → `50\%\_off` (PostgreSQL's default escape is `\`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A LIKE pattern for "contains": `a_b` → `%a\_b%`. */
export function containsPattern(search: string): string {
  return `%${escapeLike(search)}%`;
}
