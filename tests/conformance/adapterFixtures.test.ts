// Every adapter with a manifest.json: the manifest is valid, its fixture replays through the real HTTP engine to the
// expected records, and its connectivity check passes against the replay.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createServerAjv } from '../../codegen/validators.js';
import type { FetchedRecord } from '../../src/server/adapters/engine.js';
import { createHttpEngine } from '../../src/server/adapters/http/httpEngine.js';
import type { Manifest } from '../../src/server/adapters/http/manifest.js';
import { isSubset, replayPlaceholder, startReplayServer, withReplayUrl, type ReplayFixture } from '../support/replayServer.js';

type Node = Record<string, unknown>;

const adaptersFolder = 'schemas/adapters';
const metaSchema = JSON.parse(readFileSync(`${adaptersFolder}/manifest.meta.json`, 'utf8')) as Node;
const slugs = readdirSync(adaptersFolder).filter((slug) => existsSync(`${adaptersFolder}/${slug}/manifest.json`)).sort();

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** The fixture's config with the replay URL put back to a value the form accepts (an enum member, a default or an example). */
function configForForm(config: Node, schema: Node): Node {
  const properties = (schema.properties ?? {}) as Record<string, Node>;
  return Object.fromEntries(
    Object.entries(config).map(([name, value]) => {
      if (typeof value !== 'string' || !value.includes(replayPlaceholder)) return [name, value];
      const property = properties[name] ?? {};
      const stand = (property.enum as string[] | undefined)?.[0] ?? (property.default as string | undefined) ?? (property.examples as string[] | undefined)?.[0] ?? 'https://replay.example.com';
      return [name, value.split(replayPlaceholder).join(stand.replace(/\/$/, ''))];
    }),
  );
}

async function replay(slug: string, fixture: ReplayFixture, manifest: Manifest) {
  const server = await startReplayServer(fixture.exchanges);
  const engine = createHttpEngine(() => manifest);
  const warnings: string[] = [];
  const records: FetchedRecord[] = [];
  try {
    const config = withReplayUrl(fixture.config, server.url);
    for await (const record of engine.fetch({ adapter: slug, config, signal: AbortSignal.timeout(20_000), warn: (message) => warnings.push(message) })) records.push(record);
    return { records, warnings, unmatched: server.unmatched };
  } finally {
    await server.close();
  }
}

describe('the adapter fixtures', () => {
  it('cover the adapters the HTTP engine fetches for', () => {
    expect(slugs.length).toBeGreaterThan(0);
    for (const slug of slugs) expect(readJson<Node>(`${adaptersFolder}/${slug}/adapter.json`).engine, slug).toBe('http');
  });
});

describe.each(slugs)('adapter %s', (slug) => {
  const manifest = readJson<Manifest>(`${adaptersFolder}/${slug}/manifest.json`);
  const fixtureFile = `${adaptersFolder}/${slug}/fixtures/replay.json`;

  it('has a manifest that validates against manifest.meta.json', () => {
    const validate = createServerAjv({ coerce: false }).compile(metaSchema);
    expect(validate(manifest), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
  });

  it('has a replay fixture whose config fills its connection form', () => {
    expect(existsSync(fixtureFile), fixtureFile).toBe(true);
    const fixture = readJson<ReplayFixture>(fixtureFile);
    const schema = readJson<Node>(`${adaptersFolder}/${slug}/connection.schema.json`);
    const validate = createServerAjv({ coerce: false }).compile(schema);
    expect(validate(configForForm(fixture.config, schema)), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
  });

  it('replays its fixture through the HTTP engine to exactly the expected records', async () => {
    const fixture = readJson<ReplayFixture>(fixtureFile);
    const { records, unmatched } = await replay(slug, fixture, manifest);
    expect(unmatched, 'requests no exchange matched').toEqual([]);
    expect(records.length).toBe(fixture.expected.count);
    for (const expected of fixture.expected.records) {
      const found = records.some((record) => record.entity === expected.entity && isSubset(expected.fields, record.fields));
      expect(found, `no ${expected.entity} record with ${JSON.stringify(expected.fields)}; first records: ${JSON.stringify(records.slice(0, 2).map((record) => record.fields))}`).toBe(true);
    }
    for (const record of records) expect(record.raw).toBeTruthy();
  });

  it('passes its connectivity check against the replay', async () => {
    const fixture = readJson<ReplayFixture>(fixtureFile);
    const server = await startReplayServer(fixture.exchanges);
    try {
      const result = await createHttpEngine(() => manifest).test({ adapter: slug, config: withReplayUrl(fixture.config, server.url), signal: AbortSignal.timeout(20_000) });
      expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
    } finally {
      await server.close();
    }
  });
});
