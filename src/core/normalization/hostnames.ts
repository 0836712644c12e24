/**
 * The display spelling of a device's host name, stable across snapshots whichever source is read first: the spelling
 * most of its sources give, ties broken by the sources' precedence (`spellings` is each source's host name, the
 * preferred source first). Before: `["ws-0142", "WS-0142", "WS-0142"]`; after: `"WS-0142"`.
 */
export function displayHostname(spellings: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const spelling of spellings) counts.set(spelling, (counts.get(spelling) ?? 0) + 1);
  let best: string | undefined;
  for (const spelling of spellings) if (best === undefined || counts.get(spelling)! > counts.get(best)!) best = spelling;
  return best;
}
