import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inlineText, parseInlines, parseMarkdown } from '../../src/core/markdown/parseMarkdown';

describe('the instructions Markdown dialect', () => {
  it('reads headings, paragraphs joined across lines, and nested lists', () => {
    const blocks = parseMarkdown('# Okta\n\nUsers and\ndevices.\n\n## Connect\n\n- `Domain`: your org\n  - **API token**: SSWS\n    - `Token`: secret\n- Network settings\n\n1. First\n2. Second\n');
    expect(blocks.map((block) => block.kind)).toEqual(['heading', 'paragraph', 'heading', 'list', 'list']);
    expect(blocks[1]).toEqual({ kind: 'paragraph', inlines: [{ kind: 'text', text: 'Users and devices.' }] });
    const list = blocks[3];
    if (list.kind !== 'list') throw new Error('expected a list');
    expect(list.ordered).toBe(false);
    expect(list.items).toHaveLength(2);
    expect(inlineText(list.items[0].lists[0].items[0].inlines)).toBe('API token: SSWS');
    expect(inlineText(list.items[0].lists[0].items[0].lists[0].items[0].inlines)).toBe('Token: secret');
    expect(blocks[4]).toMatchObject({ kind: 'list', ordered: true, items: [{}, {}] });
  });

  it('keeps links only for http, https and mailto, so a javascript: link stays text', () => {
    expect(parseInlines('see [docs](https://example.com/a) or [x](javascript:alert(1))')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', href: 'https://example.com/a', children: [{ kind: 'text', text: 'docs' }] },
      { kind: 'text', text: ' or ' },
      { kind: 'text', text: '[x](javascript:alert(1)' },
      { kind: 'text', text: ')' },
    ]);
  });

  it('treats HTML as text: nothing in the tree is markup', () => {
    const blocks = parseMarkdown('<script>alert(1)</script> **<b>x</b>**');
    expect(blocks).toEqual([
      { kind: 'paragraph', inlines: [{ kind: 'text', text: '<script>alert(1)</script> ' }, { kind: 'strong', children: [{ kind: 'text', text: '<b>x</b>' }] }] },
    ]);
  });

  it('parses every adapter instructions page into a title heading and sections', () => {
    const folder = 'schemas/adapters';
    for (const slug of readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)) {
      const blocks = parseMarkdown(readFileSync(`${folder}/${slug}/instructions.md`, 'utf8'));
      expect(blocks[0], slug).toMatchObject({ kind: 'heading', level: 1 });
      expect(blocks.filter((block) => block.kind === 'heading' && block.level === 2).length, slug).toBeGreaterThanOrEqual(4);
    }
  });
});
