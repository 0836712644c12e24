import type { Page } from 'playwright-core';
import { loadSchemas } from '../../../codegen/loadSchemas';
import { hasExcessDecimals } from '../../../src/core/format/numbers';

// Issue 28, "Keep it fixed": what a page shows is meant for people. The crawl reads every visible text node of a
// page (not the query bar, code samples or form inputs, whose text is the user's or a syntax) and flags a text that
// is a schema property key or a coded enum value, an internal record key or connection number, a date not in the
// console's format, or a number with more decimals than a field carries.

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key people do not read as a word: it has an underscore, a dot, or a capital inside (`LastSeen`, `OS.Type`). */
const isCodeKey = (key: string) => /[_.]/.test(key) || /[a-z][A-Z]/.test(key);
/** An enum value that is a code (lower case, or with an underscore), as tests/conformance/schemaTitles.test.ts reads it. */
const isCodeValue = (value: unknown): value is string => typeof value === 'string' && value.length > 1 && !/^[A-Z0-9][^_]*$/.test(value) && !/^https?:\/\//.test(value);

/** The keys and coded enum values of the schemas the console renders, each one a text no page may show alone. */
export function displayVocabulary(schemasFolder = 'schemas'): Set<string> {
  const vocabulary = new Set<string>();
  const rendered = loadSchemas(schemasFolder).filter(({ file }) => /^(entities|settings|actions)\//.test(file) || /^adapters\/[^/]+\/connection\.schema\.json$/.test(file));
  const walk = (node: Node) => {
    if (isNode(node.properties)) for (const [key, child] of Object.entries(node.properties)) if (isCodeKey(key) && (!isNode(child) || child.title !== key)) vocabulary.add(key);
    if (Array.isArray(node.enum) && isNode(node['x-enum-titles'])) {
      const titles = node['x-enum-titles'];
      for (const value of node.enum) if (isCodeValue(value) && titles[value] !== value) vocabulary.add(value);
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'examples' || key === 'default') continue;
      if (isNode(child)) walk(child);
      else if (Array.isArray(child)) for (const item of child) if (isNode(item)) walk(item);
    }
  };
  for (const { schema } of rendered) walk(schema as Node);
  return vocabulary;
}

/** Dates the console never writes: ISO 8601 (`2026-11-20T10:00`, `2026-11-20`) and numeric day orders (`11/20/2026`). */
const foreignDate = /\b\d{4}-\d{2}-\d{2}(T\d{2}:\d{2})?\b|\b\d{1,2}\/\d{1,2}\/\d{4}\b/;
/** An asset's record key (`2:device:cb2bd678…`) or a stand-in for a connection's name (`Connection #1`). */
const internalIds = /\b\d+:(device|user|software|vulnerability|certificate|service|license):[0-9a-f]{6,}|\bConnection #\d+\b/;

/** What is wrong with each visible text, as "problem: text"; none for a page meant for people. */
export function visibleTextProblems(texts: readonly string[], vocabulary: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const text of texts) {
    if (vocabulary.has(text)) problems.push(`raw key or value: ${text}`);
    if (internalIds.test(text)) problems.push(`internal id: ${text}`);
    if (foreignDate.test(text)) problems.push(`date not in the console's format: ${text}`);
    if (hasExcessDecimals(text)) problems.push(`number with too many decimals: ${text}`);
  }
  return [...new Set(problems)];
}

/** The page's visible text nodes, trimmed, outside the query bar, code, form inputs and text the user typed. */
export function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const exempt = '.query-bar, code, pre, textarea, input, select, [contenteditable], .vega-embed, [data-raw-text]';
    const texts: string[] = [];
    const root = document.querySelector('#app');
    if (!root) return texts;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent || parent.closest(exempt)) continue;
      if (!parent.checkVisibility()) continue;
      texts.push(text);
    }
    return texts;
  });
}

/** The label problems of the page as it is drawn now. */
export async function labelProblems(page: Page, vocabulary: ReadonlySet<string>): Promise<string[]> {
  return visibleTextProblems(await visibleTexts(page), vocabulary);
}
