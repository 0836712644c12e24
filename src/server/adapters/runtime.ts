import { loadAdapterCatalogue, type CatalogueAdapter } from './catalogue.js';
import { createCustomFileEngine } from './custom/customEngine.js';
import type { AdapterEngine } from './engine.js';

/** The adapter catalogue and the engine that fetches for each adapter. */
export type AdapterRuntime = {
  catalogue: Map<string, CatalogueAdapter>;
  /** The engine an adapter's connections run with, or null while it has none (such connections cannot be saved). */
  engineFor: (adapter: CatalogueAdapter) => AdapterEngine | null;
};

/** Binds the catalogue to the available engines: `http` needs the adapter's manifest, code engines their name, custom adapters the file engines. */
export function createAdapterRuntime(engines: Record<string, AdapterEngine>, catalogue = loadAdapterCatalogue()): AdapterRuntime {
  return {
    catalogue,
    engineFor: (adapter) => {
      if (adapter.custom) return createCustomFileEngine(engines, adapter.custom);
      if (!adapter.engine || (adapter.engine === 'http' && !adapter.hasManifest)) return null;
      return engines[adapter.engine] ?? null;
    },
  };
}
