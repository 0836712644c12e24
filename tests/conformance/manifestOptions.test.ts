// A form field of an HTTP adapter that its manifest never reads would promise something Cartograph does not do
// (issue 4: nothing pretends to fetch). Every field of the connection form must be read by the manifest, apart from
// the network settings, which the engine itself applies to every request. The rule is the adapter kit's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adaptersFolder, readJson, unreadFormFields } from '../../tools/adapterKit/adapterFolder.js';
import { slugsWithManifest } from '../../tools/adapterKit/check.js';

describe('HTTP adapter forms offer only what their manifests do', () => {
  it.each(slugsWithManifest())('%s: every form field is read by the manifest', (slug) => {
    const manifest = readFileSync(`${adaptersFolder}/${slug}/manifest.json`, 'utf8');
    expect(unreadFormFields(manifest, readJson(`${adaptersFolder}/${slug}/connection.schema.json`))).toEqual([]);
  });
});
