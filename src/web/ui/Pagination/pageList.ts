export type PageItem = number | 'gap';

/** How many pages `count` rows make at `size` per page (at least 1, so an empty list still has page 1). */
export const pageCount = (count: number, size: number): number => Math.max(1, Math.ceil(count / Math.max(1, size)));

/**
 * The page buttons to show: always the first and last page, the current page with `siblings` on each side, and a gap
 * where pages are left out. A gap never stands for a single page (that page is shown instead).
 * Before: current 6 of 20; after: [1, 'gap', 5, 6, 7, 'gap', 20].
 */
export function pageList(current: number, total: number, siblings = 1): PageItem[] {
  const wanted = new Set<number>([1, total]);
  for (let page = current - siblings; page <= current + siblings; page += 1) if (page >= 1 && page <= total) wanted.add(page);
  const pages = [...wanted].sort((left, right) => left - right);
  const items: PageItem[] = [];
  pages.forEach((page, index) => {
    const previous = pages[index - 1];
    if (previous !== undefined && page - previous === 2) items.push(previous + 1);
    else if (previous !== undefined && page - previous > 2) items.push('gap');
    items.push(page);
  });
  return items;
}

/** "1–50 of 230": the rows a page shows; "0 of 0" when there are none. */
export function rangeText(page: number, size: number, count: number): string {
  if (count === 0) return '0 of 0';
  const first = (page - 1) * size + 1;
  const last = Math.min(count, page * size);
  return `${first}–${last} of ${count}`;
}
