import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AdapterSource } from './model.js';
import { adapterMetadata, connectionSchema, instructions } from './render.js';
import { catalogue } from './vendors/index.js';

/**
 * One-off writer: `npx tsx codegen/adapterCatalogue/main.ts` (re)writes adapter.json,
 * connection.schema.json and instructions.md of every adapter folder under schemas/adapters from the
 * vendor tables in ./vendors. Icons come from codegen/adapterIcons.ts. The folders are the committed
 * output; this script is how they were produced.
 */

const adaptersFolder = fileURLToPath(new URL('../../schemas/adapters', import.meta.url));

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function writeAdapter(source: AdapterSource): void {
  const folder = `${adaptersFolder}/${source.slug}`;
  mkdirSync(folder, { recursive: true });
  writeFileSync(`${folder}/adapter.json`, json(adapterMetadata(source)));
  writeFileSync(`${folder}/connection.schema.json`, json(connectionSchema(source)));
  writeFileSync(`${folder}/instructions.md`, instructions(source));
}

const seen = new Set<string>();
for (const source of catalogue) {
  if (seen.has(source.slug)) throw new Error(`duplicate adapter slug ${source.slug}`);
  seen.add(source.slug);
  writeAdapter(source);
}
console.log(`adapter catalogue: ${catalogue.length} adapters → schemas/adapters`);
