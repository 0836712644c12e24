// Every adapter with a manifest.json: the manifest is valid, its fixture replays through the real HTTP engine to the
// expected records, and its connectivity check passes against the replay. The replay and the form rules are the
// adapter kit's (tools/adapterKit), which `npm run adapter -- check` runs the same way.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/server/adapters/http/manifest.js';
import { adaptersFolder, configForForm, readJson, schemaErrors } from '../../tools/adapterKit/adapterFolder.js';
import { fetchEngines } from '../../src/server/adapters/engines.js';
import { fileEngines, slugsWithFileFixture, slugsWithManifest, slugsWithSocketFixture, socketEngines, type SocketFixture } from '../../tools/adapterKit/check.js';
import { replayFileConnectivityCheck, replayFileFixture, type FileFixture } from '../../tools/adapterKit/fileReplay.js';
import { replayConnectivityCheck, replayFixture } from '../../tools/adapterKit/fixtureReplay.js';
import { isSubset, type ReplayFixture } from '../../tools/adapterKit/replayServer.js';

type Node = Record<string, unknown>;

const metaSchema = readJson<Node>(`${adaptersFolder}/manifest.meta.json`);
const slugs = slugsWithManifest();

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
    expect(schemaErrors(metaSchema, manifest)).toEqual([]);
  });

  it('has a replay fixture whose config fills its connection form', () => {
    expect(existsSync(fixtureFile), fixtureFile).toBe(true);
    const fixture = readJson<ReplayFixture>(fixtureFile);
    const schema = readJson<Node>(`${adaptersFolder}/${slug}/connection.schema.json`);
    expect(schemaErrors(schema, configForForm(fixture.config, schema))).toEqual([]);
  });

  it('replays its fixture through the HTTP engine to exactly the expected records', async () => {
    const fixture = readJson<ReplayFixture>(fixtureFile);
    const { records, unmatched, error } = await replayFixture(slug, fixture, manifest);
    expect(error).toBeUndefined();
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
    const result = await replayConnectivityCheck(slug, fixture, manifest);
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
  });

  // A fixture may name a documented failure (a wrong password against a Windows server's NTLM sign-in).
  const failure = existsSync(fixtureFile) ? readJson<ReplayFixture>(fixtureFile).failure : undefined;
  if (failure) {
    it('gives its documented failure the reason the fixture names', async () => {
      const result = await replayConnectivityCheck(slug, readJson<ReplayFixture>(fixtureFile), manifest, failure.config);
      expect(result, JSON.stringify(result)).toMatchObject({ ok: false, reason: failure.reason });
    });
  }
});

// Adapters of a socket code engine (Greenbone's GMP over TLS, SQL Server's TDS for sql-views): the fixture replays
// through the real engine against a local server speaking the vendor's documented protocol, and its documented failure
// gives the reason it names.
describe.each(slugsWithSocketFixture())('engine adapter %s', (slug) => {
  const fixture = readJson<SocketFixture>(`${adaptersFolder}/${slug}/fixtures/replay.json`);
  const engineName = readJson<Node>(`${adaptersFolder}/${slug}/adapter.json`).engine as keyof typeof socketEngines;
  const socket = socketEngines[engineName];
  const engine = fetchEngines[engineName];

  it("has a replay fixture of its engine's protocol whose config fills its connection form", () => {
    expect(fixture.protocol).toBe(socket.protocol);
    const schema = readJson<Node>(`${adaptersFolder}/${slug}/connection.schema.json`);
    expect(schemaErrors(schema, configForForm(fixture.config, schema))).toEqual([]);
  });

  it('replays its fixture through its engine to exactly the expected records', async () => {
    const { records, unmatched, error } = await socket.replay(slug, fixture, engine);
    expect(error).toBeUndefined();
    expect(unmatched, 'commands no exchange matched').toEqual([]);
    expect(records.length).toBe(fixture.expected.count);
    for (const expected of fixture.expected.records) {
      expect(records.some((record) => record.entity === expected.entity && isSubset(expected.fields, record.fields)), JSON.stringify(expected.fields)).toBe(true);
    }
    for (const record of records) expect(record.raw).toBeTruthy();
  });

  it('passes its connectivity check against the replay, and fails the documented way', async () => {
    expect(await socket.check(slug, fixture, engine)).toMatchObject({ ok: true });
    expect(fixture.failure).toBeDefined();
    expect(await socket.check(slug, fixture, engine, fixture.failure!.config)).toMatchObject({ ok: false, reason: fixture.failure!.reason });
  });
});

// Adapters of a file code engine (the SBOM engine): the files the tools wrote, kept in the fixtures folder, are read
// through the real engine from a folder it may import from; its documented failure (files it cannot read) gives the
// reason it names.
describe.each(slugsWithFileFixture())('file engine adapter %s', (slug) => {
  const fixture = readJson<FileFixture>(`${adaptersFolder}/${slug}/fixtures/replay.json`);
  const folder = `${adaptersFolder}/${slug}/fixtures`;
  const create = fileEngines[readJson<Node>(`${adaptersFolder}/${slug}/adapter.json`).engine as string];

  it('has a replay fixture whose config fills its connection form', () => {
    const schema = readJson<Node>(`${adaptersFolder}/${slug}/connection.schema.json`);
    expect(schemaErrors(schema, configForForm(fixture.config, schema))).toEqual([]);
  });

  it('reads its fixture files through its engine to exactly the expected records', async () => {
    const { records, unmatched, error } = await replayFileFixture(slug, fixture, folder, create);
    expect(error).toBeUndefined();
    expect(unmatched, 'files the fixture names that are missing').toEqual([]);
    expect(records.length).toBe(fixture.expected.count);
    for (const expected of fixture.expected.records) {
      expect(records.some((record) => record.entity === expected.entity && isSubset(expected.fields, record.fields)), JSON.stringify(expected.fields)).toBe(true);
    }
    for (const record of records) expect(record.raw).toBeTruthy();
  });

  it('passes its connectivity check on the fixture files, and fails the documented way', async () => {
    expect(await replayFileConnectivityCheck(slug, fixture, folder, create)).toMatchObject({ ok: true });
    expect(fixture.failure).toBeDefined();
    expect(await replayFileConnectivityCheck(slug, fixture, folder, create, fixture.failure!.files)).toMatchObject({ ok: false, reason: fixture.failure!.reason });
  });
});
