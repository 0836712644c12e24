import { composeStory, setProjectAnnotations } from '@storybook/react-vite';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as preview from '../../.storybook/preview';
import { uncheckedKeywords } from '../../src/web/pages/adapters/connectionForm/schemaCheck';
import { adapterStory, catalogue, catalogueSlugs } from './adapterFormStory';
import { catalogueSlugs as slugsOnDisk, connectionFormIndexer, storyExportName, withAdapterStories } from './connectionFormStories.node';
import meta from './ConnectionForms.stories';

// happy-dom gives modules http URLs: files are found from the project root, where vitest runs.
const adaptersFolder = join(process.cwd(), 'schemas/adapters');
const annotations = setProjectAnnotations([preview]);
beforeAll(annotations.beforeAll);
afterEach(() => vi.restoreAllMocks());

describe('the generated adapter connection form stories', () => {
  it('are one per adapter folder of the catalogue, with the adapter\'s name and unique export names', async () => {
    expect(catalogueSlugs).toEqual(slugsOnDisk(adaptersFolder));
    expect(catalogueSlugs.length).toBeGreaterThanOrEqual(150);
    const code = withAdapterStories('', adaptersFolder);
    const names = catalogueSlugs.map(storyExportName);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(code).toContain(`export const ${name} = `);
    const entries = await connectionFormIndexer(adaptersFolder).createIndex(join(process.cwd(), 'stories/adapters/ConnectionForms.stories.tsx'), { makeTitle: (title?: string) => title ?? '' });
    expect(entries.map((entry) => entry.exportName)).toEqual(['Catalogue', ...names]);
    expect(entries.find((entry) => entry.exportName === 'NetworkScanner')).toMatchObject({ name: 'Network scanner', title: 'Adapters/Connection forms' });
  });

  it('use only schema keywords the console\'s checker enforces', () => {
    for (const { adapter, schema } of catalogue) expect({ slug: adapter.slug, unchecked: uncheckedKeywords(schema) }).toEqual({ slug: adapter.slug, unchecked: [] });
  });

  // One test renders them all: a test per form would pay the test runner's overhead 170 times.
  it('render every adapter\'s form in the light and dark themes without errors, secrets as password inputs', { timeout: 120_000 }, async () => {
    const errors: unknown[][] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
    for (const [index, slug] of catalogueSlugs.entries()) {
      const theme = index % 2 ? 'dark' : 'light';
      const Story = composeStory({ ...adapterStory(slug), globals: { theme } }, meta, undefined, storyExportName(slug));
      const { container } = render(<Story />);
      await Story.play?.({ canvasElement: container });
      expect({ slug, controls: container.querySelectorAll('input, select, textarea').length > 0 }).toEqual({ slug, controls: true });
      expect(document.documentElement.dataset.theme).toBe(theme);
      const secrets = catalogue.find((entry) => entry.adapter.slug === slug)!.schema;
      if (JSON.stringify(secrets.properties?.auth ?? {}).includes('"x-secret":true') && !secrets.properties?.auth?.oneOf) {
        expect({ slug, password: container.querySelector('input[type="password"]') !== null }).toEqual({ slug, password: true });
      }
      cleanup();
    }
    expect(errors).toEqual([]);
  });

  it('check a field when it loses focus, as the connection page does', async () => {
    const Story = composeStory(adapterStory('network-scanner'), meta);
    render(<Story />);
    const targets = screen.getByLabelText(/^Targets/);
    fireEvent.change(targets, { target: { value: '10.0.0.0/7' } });
    fireEvent.blur(targets);
    expect(await screen.findByText(/needs a CIDR suffix from \/8 to \/32/)).toBeTruthy();
  });
});
