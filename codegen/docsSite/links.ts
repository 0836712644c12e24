/** A link of a built page that leads nowhere: the page it is on, and its target. */
export type BrokenLink = { page: string; target: string };

const attributePattern = /\s(?:href|src)="([^"]*)"/g;
const idPattern = /\sid="([^"]*)"/g;

/**
 * Every relative `href` and `src` of the site's pages must name a file of the site and, with `#anchor`, an id on
 * that page. External links (`https:`, `mailto:`) are not followed: the docs build offline.
 * Before: `{'a.html': '<a href="b.html#x">'}` with no b.html; after: `[{page: 'a.html', target: 'b.html#x'}]`.
 */
export function brokenLinks(files: Map<string, string | Buffer>): BrokenLink[] {
  const idsOf = new Map<string, Set<string>>();
  for (const [path, content] of files) {
    if (typeof content === 'string') idsOf.set(path, new Set([...content.matchAll(idPattern)].map((match) => match[1])));
  }
  const broken: BrokenLink[] = [];
  for (const [page, content] of files) {
    if (typeof content !== 'string') continue;
    for (const [, target] of content.matchAll(attributePattern)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, anchor] = target.split('#');
      const file = path === '' ? page : new URL(path, `site:/${page}`).pathname.slice(1);
      const ids = idsOf.get(file);
      const found = files.has(file) && (anchor === undefined || (ids?.has(decodeURIComponent(anchor)) ?? false));
      if (!found) broken.push({ page, target });
    }
  }
  return broken;
}
