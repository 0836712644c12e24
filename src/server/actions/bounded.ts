/** Runs `work` over every item with at most `limit` at once; answers the results in the items' order. */
export async function mapBounded<Item, Result>(items: Item[], limit: number, work: (item: Item, index: number) => Promise<Result>): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}

/** Splits a list into chunks of `size`: `[1,2,3]`, 2 → `[[1,2],[3]]`. */
export function chunks<Item>(items: Item[], size: number): Item[][] {
  const result: Item[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}
