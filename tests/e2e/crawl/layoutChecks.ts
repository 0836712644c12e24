import type { Page } from 'playwright-core';

// What the every-route crawl asks of a page's layout, once it has settled: at both widths the console is made for,
// no text runs out of its table cell, no date wraps onto three lines, no word is broken mid-word, no chart label or
// legend is clipped and no dashboard tile cuts its content off; and the breadcrumb ends with the page's title.

/** The two desktop sizes the console must fit (issue 28): a common laptop and a smaller one. */
export const crawlViewports = [{ width: 1440, height: 900 }, { width: 1280, height: 800 }] as const;

/** A word this long (a hash, a key) may break anywhere: it cannot fit a cell otherwise. */
const unbreakableWordLength = 32;

/** Runs in the page: the layout problems of what is on screen now, each a sentence naming the element. */
function problemsOnScreen({ unbreakable }: { unbreakable: number }): string[] {
  const problems: string[] = [];
  const describe = (element: Element) => `"${(element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60)}"`;
  const visible = (element: Element) => (element as HTMLElement).offsetParent !== null && element.getBoundingClientRect().width > 0;
  // A text node's line boxes, clipped by the ancestors (inside `container`) that hide their overflow: an ellipsis
  // or a scrolling box keeps its text inside, so only what is really painted outside counts.
  const paintedRects = (node: Text, container: Element) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    let clip = { left: -Infinity, right: Infinity, top: -Infinity, bottom: Infinity };
    for (let parent = node.parentElement; parent && parent !== container; parent = parent.parentElement) {
      const style = getComputedStyle(parent);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
        const box = parent.getBoundingClientRect();
        clip = { left: Math.max(clip.left, box.left), right: Math.min(clip.right, box.right), top: Math.max(clip.top, box.top), bottom: Math.min(clip.bottom, box.bottom) };
      }
    }
    return [...range.getClientRects()].filter((rect) => rect.width > 0)
      .map((rect) => ({ left: Math.max(rect.left, clip.left), right: Math.min(rect.right, clip.right), top: rect.top }))
      .filter((rect) => rect.right > rect.left);
  };
  const textNodes = (root: Element) => {
    const nodes: Text[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.textContent?.trim()) nodes.push(node as Text);
    return nodes;
  };
  const lineCount = (rects: { top: number }[]) => new Set(rects.map((rect) => Math.round(rect.top))).size;
  const datePattern = /\b\d{4}\b.*\b\d{1,2}:\d{2}\b|\b\d{1,2}:\d{2}\b.*\b\d{4}\b|^\d{4}-\d{2}-\d{2}/;

  for (const cell of document.querySelectorAll('main td, main th')) {
    if (!visible(cell)) continue;
    const box = cell.getBoundingClientRect();
    for (const node of textNodes(cell)) {
      const rects = paintedRects(node, cell);
      // Text for screen readers only (a visually hidden label) is clipped to a pixel: nothing to read, nothing to judge.
      if (rects.length === 0 || Math.max(...rects.map((rect) => rect.right)) - Math.min(...rects.map((rect) => rect.left)) < 2) continue;
      if (rects.some((rect) => rect.right > box.right + 1 || rect.left < box.left - 1)) {
        problems.push(`text overflows its cell: ${describe(cell)}`);
        break;
      }
      const text = node.textContent ?? '';
      if (datePattern.test(text.trim()) && lineCount(rects) > 2) problems.push(`a date wraps onto ${lineCount(rects)} lines: ${describe(cell)}`);
      // Each word (separators: spaces, and the hyphens, slashes and dots a line may break after) on one line.
      for (const word of text.matchAll(/[^\s\-/.,;:_@]+/g)) {
        if (word[0].length >= unbreakable) continue;
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        if (lineCount([...range.getClientRects()].filter((rect) => rect.width > 0)) > 1) {
          problems.push(`the word "${word[0]}" breaks across lines in ${describe(cell)}`);
          break;
        }
      }
    }
  }

  // A chart's axis labels, titles and legend lie inside its tile; a tile shows all of its body.
  for (const tile of document.querySelectorAll('.dashboard-tile')) {
    if (!visible(tile)) continue;
    const box = tile.getBoundingClientRect();
    const title = tile.querySelector('.dashboard-tile__title')?.textContent ?? describe(tile);
    for (const label of tile.querySelectorAll('svg text')) {
      const rect = label.getBoundingClientRect();
      if (rect.width > 0 && (rect.left < box.left - 1 || rect.right > box.right + 1 || rect.top < box.top - 1 || rect.bottom > box.bottom + 1)) {
        problems.push(`the chart "${title}" clips its label "${label.textContent}"`);
        break;
      }
    }
    const body = tile.querySelector('.dashboard-tile__body');
    if (body && body.scrollHeight > body.clientHeight + 1) problems.push(`the tile "${title}" cuts its content off (${body.scrollHeight}px in ${body.clientHeight}px)`);
  }
  return problems;
}

/** The breadcrumb's last step against the page's title (its h1); pages without an h1 or a top bar are not judged. */
async function breadcrumbProblems(page: Page): Promise<string[]> {
  const found = await page.evaluate(() => {
    // The sign-in layout has no top bar, so no breadcrumb to judge.
    if (!document.querySelector('.top-bar')) return { title: undefined, last: undefined };
    const title = document.querySelector('main h1')?.textContent?.trim().replace(/\s+/g, ' ');
    const steps = [...document.querySelectorAll('.top-bar .breadcrumb li')].map((step) => step.textContent?.trim().replace(/\s+/g, ' ') ?? '');
    return { title, last: steps.at(-1) };
  });
  if (!found.title) return [];
  return found.last === found.title ? [] : [`the breadcrumb ends with ${found.last === undefined ? 'nothing' : `"${found.last}"`}, the page's title is "${found.title}"`];
}

/** Two animation frames: a resize has been laid out and painted (Vega redraws its charts on the window's resize). */
const settle = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));

/**
 * The layout problems of the loaded page at each crawl viewport (the page is resized, not reloaded: the data is the
 * same), then its breadcrumb; leaves the page at the last viewport.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  for (const viewport of crawlViewports) {
    await page.setViewportSize(viewport);
    // Vega redraws a chart on the window's resize, in a frame of its own: two settled frames see the new drawing.
    await settle(page);
    await settle(page);
    for (const problem of await page.evaluate(problemsOnScreen, { unbreakable: unbreakableWordLength })) problems.push(`${viewport.width}×${viewport.height}: ${problem}`);
  }
  return [...new Set(problems), ...(await breadcrumbProblems(page))];
}
