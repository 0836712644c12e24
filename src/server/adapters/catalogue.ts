import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { product } from '../../core/product.js';
import type { CustomAdapterDefinition } from './custom/customEngine.js';
import type { EntityKind } from './engine.js';

export type AdapterMetadata = {
  name: string;
  slug: string;
  description: string;
  groups: string[];
  categories: EntityKind[];
  vendor?: string;
  website?: string;
  docs_url?: string;
  beta?: boolean;
  /** `http` (declarative manifest), a code engine name, or null while no engine fits. */
  engine: string | null;
};

export type CatalogueAdapter = AdapterMetadata & {
  connectionSchemaId: string;
  /** Names of connection fields marked `x-secret` anywhere in the schema (including `oneOf` branches). */
  secretFields: Set<string>;
  hasManifest: boolean;
  /** Set for a company's custom adapter (never in the catalogue itself): what its files hold and how they map. */
  custom?: CustomAdapterDefinition;
};

const adaptersFolder = fileURLToPath(new URL('../../../schemas/adapters', import.meta.url));

export function collectSecretFields(node: unknown, found = new Set<string>()): Set<string> {
  if (!node || typeof node !== 'object') return found;
  const properties = (node as { properties?: Record<string, { 'x-secret'?: boolean }> }).properties ?? {};
  for (const [name, property] of Object.entries(properties)) if (property['x-secret']) found.add(name);
  for (const [key, child] of Object.entries(node)) if (key !== 'examples' && key !== 'default') collectSecretFields(child, found);
  return found;
}

/** Every adapter folder under schemas/adapters, by slug (read once at start). */
export function loadAdapterCatalogue(folder = adaptersFolder): Map<string, CatalogueAdapter> {
  const catalogue = new Map<string, CatalogueAdapter>();
  if (!existsSync(folder)) return catalogue;
  for (const slug of readdirSync(folder).sort()) {
    const metadataFile = `${folder}/${slug}/adapter.json`;
    const schemaFile = `${folder}/${slug}/connection.schema.json`;
    if (!existsSync(metadataFile) || !existsSync(schemaFile)) continue;
    const metadata = JSON.parse(readFileSync(metadataFile, 'utf8')) as AdapterMetadata;
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as { $id: string };
    catalogue.set(slug, {
      ...metadata,
      connectionSchemaId: schema.$id,
      secretFields: collectSecretFields(schema),
      hasManifest: existsSync(`${folder}/${slug}/manifest.json`),
    });
  }
  return catalogue;
}

/** The three built-in pseudo-adapters the spec prepends to every adapter list (status 6). */
export const pseudoAdapters = [
  { id: product.slug, name: product.name, slug: product.slug, categories: ['device', 'user', 'vulnerability', 'application', 'certificate', 'service'] },
  { id: null, name: `${product.name} Vulnerability Management`, slug: `${product.slug}-avm`, categories: ['vulnerability'] },
  { id: null, name: `${product.name} Certificates`, slug: `${product.slug}-certificate`, categories: ['certificate'] },
] as const;
