import { randomBytes } from 'node:crypto';
import type { Plugin } from 'vite';

/** What builds/meta/{buildId}.json and builds/latest.json hold. */
export type BuildManifest = { id: string; timestamp: number };

/**
 * Gives each console build an id (compiled in as `__CARTOGRAPH_BUILD_ID__`) and writes the build manifest of spec §7
 * beside the assets: `builds/meta/{buildId}.json` and `builds/latest.json`. The running console polls latest.json and
 * offers a reload when the id there is no longer its own. The dev server has no build: its id is `dev`.
 */
export function buildManifestPlugin(): Plugin {
  let manifest: BuildManifest = { id: 'dev', timestamp: 0 };
  return {
    name: 'cartograph-build-manifest',
    config(_config, { command }) {
      if (command === 'build') manifest = { id: `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`, timestamp: Date.now() };
      return { define: { __CARTOGRAPH_BUILD_ID__: JSON.stringify(manifest.id) } };
    },
    generateBundle() {
      const source = `${JSON.stringify(manifest)}\n`;
      this.emitFile({ type: 'asset', fileName: `builds/meta/${manifest.id}.json`, source });
      this.emitFile({ type: 'asset', fileName: 'builds/latest.json', source });
    },
  };
}
