import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { product } from '../../core/product.js';
import type { CustomAdapterDefinition } from './custom/customAdapterDefinition.js';
import type { EntityKind } from './engine.js';
import { secretRuleOf, type SecretRule } from '../auth/secretRule.js';

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

/**
 * An adapter and its connection schema's secret rule: `secretFields` (marked `x-secret` anywhere in the schema,
 * including `oneOf` branches), `destinationFields` (where those secrets are sent) and the secrets' titles.
 */
export type CatalogueAdapter = AdapterMetadata & SecretRule & {
  connectionSchemaId: string;
  hasManifest: boolean;
  /** The entities the adapter fetches: its manifest's streams' entities when it has a manifest, else its categories. */
  entities?: EntityKind[];
  /** Whether `fixtures/replay.json` sits beside the manifest, so the conformance test replays it through the HTTP engine. */
  hasReplayFixture?: boolean;
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

/** The entities a manifest's streams yield, in stream order: what the adapter really fetches, not what it hopes to. */
function manifestEntities(manifestFile: string): EntityKind[] {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { streams?: { entity?: EntityKind }[] };
  return [...new Set((manifest.streams ?? []).flatMap((stream) => (stream.entity ? [stream.entity] : [])))];
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
    const manifestFile = `${folder}/${slug}/manifest.json`;
    const hasManifest = existsSync(manifestFile);
    catalogue.set(slug, {
      ...metadata,
      connectionSchemaId: schema.$id,
      ...secretRuleOf(schema),
      hasManifest,
      entities: hasManifest ? manifestEntities(manifestFile) : metadata.categories,
      hasReplayFixture: existsSync(`${folder}/${slug}/fixtures/replay.json`),
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
