/**
 * The small Markdown dialect of adapter instructions, parsed into a tree the console renders as React elements, so
 * no HTML string is ever injected. Supported: `#`/`##`/`###` headings, paragraphs, `-` and `1.` lists nested by
 * indentation, and inline `**strong**`, `` `code` `` and `[text](https://...)` links (http, https and mailto only;
 * any other link stays plain text). Everything else is text.
 */

export type MarkdownInline =
  | { kind: 'text'; text: string }
  | { kind: 'strong'; children: MarkdownInline[] }
  | { kind: 'code'; text: string }
  | { kind: 'link'; href: string; children: MarkdownInline[] };

export type MarkdownListItem = { inlines: MarkdownInline[]; lists: MarkdownList[] };
export type MarkdownList = { kind: 'list'; ordered: boolean; items: MarkdownListItem[] };
export type MarkdownBlock = { kind: 'heading'; level: 1 | 2 | 3; inlines: MarkdownInline[] } | { kind: 'paragraph'; inlines: MarkdownInline[] } | MarkdownList;

const safeHref = /^(https?:\/\/|mailto:)/i;
// One alternation for the three inline forms; the first that starts earliest wins, as a reader would expect.
const inlinePattern = /\*\*(.+?)\*\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** Inline markup of one line. `Use **Test** with \`token\`` → text, strong(text), text, code. */
export function parseInlines(text: string): MarkdownInline[] {
  const inlines: MarkdownInline[] = [];
  let last = 0;
  for (const match of text.matchAll(inlinePattern)) {
    const start = match.index ?? 0;
    if (start > last) inlines.push({ kind: 'text', text: text.slice(last, start) });
    const [whole, strong, code, linkText, href] = match;
    if (strong !== undefined) inlines.push({ kind: 'strong', children: parseInlines(strong) });
    else if (code !== undefined) inlines.push({ kind: 'code', text: code });
    else if (safeHref.test(href)) inlines.push({ kind: 'link', href, children: parseInlines(linkText) });
    else inlines.push({ kind: 'text', text: whole });
    last = start + whole.length;
  }
  if (last < text.length) inlines.push({ kind: 'text', text: text.slice(last) });
  return inlines;
}

const listLine = /^(\s*)(-|\*|\d+\.)\s+(.*)$/;
const headingLine = /^(#{1,3})\s+(.*)$/;

type ListEntry = { indent: number; ordered: boolean; text: string };

/** Nests consecutive list lines by indentation: deeper lines become lists of the item above them. */
function buildList(entries: ListEntry[]): MarkdownList {
  const root: MarkdownList = { kind: 'list', ordered: entries[0].ordered, items: [] };
  const stack: { indent: number; list: MarkdownList }[] = [{ indent: entries[0].indent, list: root }];
  for (const entry of entries) {
    while (stack.length > 1 && entry.indent < stack[stack.length - 1].indent) stack.pop();
    let top = stack[stack.length - 1];
    const parentItem = top.list.items.at(-1);
    if (entry.indent > top.indent && parentItem) {
      const nested: MarkdownList = { kind: 'list', ordered: entry.ordered, items: [] };
      parentItem.lists.push(nested);
      top = { indent: entry.indent, list: nested };
      stack.push(top);
    }
    top.list.items.push({ inlines: parseInlines(entry.text), lists: [] });
  }
  return root;
}

/** Parses the instructions dialect into blocks; never throws, whatever the text. */
export function parseMarkdown(source: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  let paragraph: string[] = [];
  let list: ListEntry[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', inlines: parseInlines(paragraph.join(' ')) });
    if (list.length) blocks.push(buildList(list));
    paragraph = [];
    list = [];
  };
  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) {
    const heading = headingLine.exec(line);
    const item = listLine.exec(line);
    if (!line.trim()) flush();
    else if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1].length as 1 | 2 | 3, inlines: parseInlines(heading[2].trim()) });
    } else if (item) {
      if (paragraph.length) flush();
      list.push({ indent: item[1].length, ordered: /\d/.test(item[2]), text: item[3] });
    } else if (list.length && /^\s+/.test(line)) list[list.length - 1].text += ` ${line.trim()}`;
    else {
      if (list.length) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}

/** The plain text of inlines, for titles and search. */
export function inlineText(inlines: MarkdownInline[]): string {
  return inlines.map((inline) => (inline.kind === 'text' || inline.kind === 'code' ? inline.text : inlineText(inline.children))).join('');
}
