import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadAdapterCatalogue } from '../../src/server/adapters/catalogue.js';
import { secretRuleOf } from '../../src/server/auth/secretRule.js';

// A stored secret sent back masked is kept only while the destination stays the same (src/server/adapters/secretRule.ts).
// That holds only if every form that keeps a secret also names where it goes: these checks keep a new adapter, settings
// page or action type from slipping through with a destination the rule does not know.
const catalogue = loadAdapterCatalogue();

/** Every string of a manifest under a key naming a URL (`base_url`, `url`, `token_url`, …), with the key. */
function* urlTemplates(node: unknown, key = ''): Generator<[string, string]> {
  if (typeof node === 'string') {
    if (/(^|_)url$/.test(key)) yield [key, node];
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [childKey, child] of Object.entries(node)) yield* urlTemplates(child, Array.isArray(node) ? key : childKey);
}

/**
 * The connection fields a template builds the host of a URL from: those of the expression the template starts with,
 * unless that expression only chooses between relative paths (`'/api/3'`), which stay on the host of the base URL.
 */
function hostFields(template: string): string[] {
  const leading = /^\{\{(.*?)\}\}/s.exec(template.trim());
  if (!leading || /'\//.test(leading[1])) return [];
  return [...leading[1].matchAll(/config\.([A-Za-z_.]+)/g)].map((match) => match[1].split('.').pop()!);
}

describe('secrets and their destinations in the adapter catalogue', () => {
  it('reads every adapter', () => {
    expect(catalogue.size).toBeGreaterThanOrEqual(170);
  });

  it('names at least one destination field for every adapter with a secret', () => {
    const without = [...catalogue.values()].filter((adapter) => adapter.secretFields.size && !adapter.destinationFields?.size).map((adapter) => adapter.slug);
    expect(without).toEqual([]);
  });

  it('counts as a destination every connection field a manifest builds a host from', () => {
    const missed: string[] = [];
    for (const adapter of catalogue.values()) {
      const file = `schemas/adapters/${adapter.slug}/manifest.json`;
      if (!existsSync(file)) continue;
      for (const [key, template] of urlTemplates(JSON.parse(readFileSync(file, 'utf8')))) {
        for (const field of hostFields(template)) if (!adapter.destinationFields?.has(field)) missed.push(`${adapter.slug}: ${key} uses config ${field}`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('finds the host fields of the manifests it reads (the check above is not empty)', () => {
    expect(hostFields("{{ config.auth.auth_type == 'insight_api_key' and ('https://' + config.auth.region + '.api.insight.rapid7.com') or config.base_url }}")).toEqual(['auth_type', 'region', 'base_url']);
    expect(hostFields("{{ config.group and ('/api/v4/groups/' + (config.group | urlencode)) or '/api/v4/users' }}")).toEqual([]);
    expect(catalogue.get('nexpose')!.destinationFields!.has('auth_type')).toBe(true);
    expect(catalogue.get('logicmonitor')!.destinationFields!.has('company')).toBe(true);
  });
});

describe('secrets and their destinations in settings pages and action types', () => {
  const folders = ['schemas/settings', 'schemas/actions'];
  it('names at least one destination field for every page or action type with a secret', () => {
    const without: string[] = [];
    let withSecrets = 0;
    for (const folder of folders) {
      for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
        const rule = secretRuleOf(JSON.parse(readFileSync(`${folder}/${file}`, 'utf8')));
        if (!rule.secretFields.size) continue;
        withSecrets += 1;
        if (!rule.destinationFields.size) without.push(`${folder}/${file}`);
      }
    }
    expect(withSecrets).toBeGreaterThanOrEqual(5);
    expect(without).toEqual([]);
  });
});
