import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Vitest runs from the project root (import.meta.url is not a file URL under happy-dom).
const root = join(process.cwd(), 'src/web/ui');
const css = readFileSync(join(root, 'tokens.css'), 'utf8');
const blockOf = (selector: string) => css.slice(css.indexOf(selector)).split('}')[0];
const colourTokens = (block: string) => [...block.matchAll(/(--ui-(?:color|shadow|backdrop)[\w-]*):/g)].map((match) => match[1]).sort();

describe('design tokens', () => {
  it('give every colour of the light theme a dark value too', () => {
    const light = colourTokens(blockOf(":root,"));
    const dark = colourTokens(blockOf("[data-theme='dark']"));
    expect(light.length).toBeGreaterThan(20);
    expect(dark).toEqual(light);
  });

  it('put modals and tooltips at z-index 1100, overlays and menus at 1000 (spec §9)', () => {
    const light = blockOf(':root,');
    expect(light).toContain('--ui-z-modal: 1100;');
    expect(light).toContain('--ui-z-tooltip: 1100;');
    expect(light).toContain('--ui-z-overlay: 1000;');
    expect(light).toContain('--ui-z-menu: 1000;');
  });

  it('are the only colours the component stylesheets use', () => {
    const sheets = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.css') && file !== 'tokens.css');
    expect(sheets.length).toBeGreaterThan(10);
    for (const sheet of sheets) {
      const text = readFileSync(join(root, sheet), 'utf8');
      expect({ sheet, literals: text.match(/#[0-9a-f]{3,8}\b|rgba?\(/gi) ?? [] }).toEqual({ sheet, literals: [] });
    }
  });
});
