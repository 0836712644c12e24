import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCsf } from 'storybook/internal/csf-tools';
import type { Indexer } from 'storybook/internal/types';
import type { Plugin } from 'vite';

/**
 * Storybook's side of the generated adapter form stories (Node only: main.ts loads it). CSF stories are named exports,
 * which a module cannot create at run time, so the stories file gets one export per catalogue adapter appended both
 * where Storybook indexes it and where Vite serves it.
 */
export const connectionFormStoriesFile = /stories[\\/]adapters[\\/]ConnectionForms\.stories\.tsx$/;

/** Adapter folders that have a connection schema, sorted. */
export function catalogueSlugs(adaptersFolder: string): string[] {
  return readdirSync(adaptersFolder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(adaptersFolder, entry.name, 'connection.schema.json')))
    .map((entry) => entry.name)
    .sort();
}

/** A valid export name for a slug. Before: `network-scanner`; after: `NetworkScanner` (`1password` → `Adapter1password`). */
export function storyExportName(slug: string): string {
  const name = slug.split('-').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
  return /^[A-Za-z]/.test(name) ? name : `Adapter${name}`;
}

/** The stories file with one story per adapter appended, named after the adapter as its adapter.json writes it. */
export function withAdapterStories(code: string, adaptersFolder: string): string {
  const exports = catalogueSlugs(adaptersFolder).map((slug) => {
    const { name } = JSON.parse(readFileSync(join(adaptersFolder, slug, 'adapter.json'), 'utf8')) as { name?: string };
    return `export const ${storyExportName(slug)} = { ...adapterStory(${JSON.stringify(slug)}), name: ${JSON.stringify(name ?? slug)} };`;
  });
  return `${code}\n// Generated from schemas/adapters by connectionFormStories.node.ts.\n${exports.join('\n')}\n`;
}

/** Vite: serves the stories file with its generated stories. */
export function connectionFormStoriesPlugin(adaptersFolder: string): Plugin {
  return {
    name: 'cartograph-connection-form-stories',
    enforce: 'pre',
    transform(code, id) {
      if (!connectionFormStoriesFile.test(id.split('?')[0] ?? id)) return null;
      return { code: withAdapterStories(code, adaptersFolder), map: null };
    },
  };
}

/** Storybook: indexes the stories file with its generated stories (the CSF indexer reads files from disk, not from Vite). */
export function connectionFormIndexer(adaptersFolder: string): Indexer {
  return {
    test: connectionFormStoriesFile,
    createIndex: async (fileName, options) => loadCsf(withAdapterStories(readFileSync(fileName, 'utf8'), adaptersFolder), { ...options, fileName }).parse().indexInputs,
  };
}
