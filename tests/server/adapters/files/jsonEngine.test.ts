import { writeFileSync } from 'node:fs';
import { loopbackAllowed } from '../../../support/outbound.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileEngines } from '../../../../src/server/adapters/files/fileEngines.js';
import { JsonRecordStream } from '../../../../src/server/adapters/files/jsonRecordStream.js';
import { fetchAll, pathSource, scratchFolder } from './helpers.js';

const folder = scratchFolder();
const engines = createFileEngines({ dataDir: folder.path, importRoots: [folder.path] });
afterAll(() => folder.remove());

const fetchJson = (name: string, content: string, options: Record<string, unknown> = {}) => {
  writeFileSync(folder.file(name), content);
  return fetchAll(engines.json, { source: pathSource(folder.file(name)), entity: 'device', ...options }, 'jsonfile');
};

/** Feeds a document to the reader in pieces of `size` characters, as a stream would. */
function readInPieces(text: string, path: string[], size: number): unknown[] {
  const reader = new JsonRecordStream(path);
  const records: unknown[] = [];
  for (let index = 0; index < text.length; index += size) {
    reader.push(text.slice(index, index + size));
    records.push(...reader.ready.splice(0));
  }
  reader.end();
  return [...records, ...reader.ready];
}

describe('the streaming JSON reader', () => {
  const document = { meta: { pages: [1, 2], note: 'a ] and a } inside a "string"' }, data: { items: [{ id: 1, name: 'caf\u00e9 \ud83d\ude00', tags: ['a', 'b'], nested: { deep: [null, true, false, -1.5e3] } }, { id: 2 }] } };

  it('gives the same records whatever the chunk boundaries, escapes and nesting', () => {
    const text = JSON.stringify(document, null, 2);
    for (const size of [1, 2, 3, 7, 64, text.length]) expect(readInPieces(text, ['data', 'items'], size)).toEqual(document.data.items);
  });

  it('reads JSON Lines as one record per line', () => {
    expect(readInPieces('{"a":1}\n{"a":2}\n\n{"a":3}\n', [], 5)).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
  });

  it('refuses a record that grows beyond the bound instead of holding it', () => {
    const reader = new JsonRecordStream([], 1000);
    expect(() => reader.push(`[{"blob":"${'x'.repeat(2000)}"}]`)).toThrow(/A record is larger than/);
  });
});

describe('the JSON engine', () => {
  it('streams the objects of a top-level array with header mapping and nested key paths', async () => {
    const { records } = await fetchJson('devices.json', JSON.stringify([{ hostname: 'mac-01', serial_number: 'C02', os: { name: 'macOS', version: '14.6' } }]), { column_map: { 'os.name': 'OS.Type', 'os.version': 'OS.Version' } });
    expect(records).toEqual([{ entity: 'device', fields: { Hostname: 'mac-01', SerialNumber: 'C02', 'OS.Type': 'macOS', 'OS.Version': '14.6' }, raw: { hostname: 'mac-01', serial_number: 'C02', os: { name: 'macOS', version: '14.6' } } }]);
  });

  it('reads the array under the configured records path', async () => {
    const { records } = await fetchJson('wrapped.json', JSON.stringify({ total: 2, data: { items: [{ email: 'a@example.com' }, { email: 'b@example.com' }] } }), { entity: 'user', records_path: 'data.items' });
    expect(records.map((record) => record.fields)).toEqual([{ Email: 'a@example.com' }, { Email: 'b@example.com' }]);
  });

  it('fails clearly when the file is an object rather than a list, naming the keys that hold lists', async () => {
    await expect(fetchJson('object.json', JSON.stringify({ count: 1, devices: [{ hostname: 'x' }] }))).rejects.toThrow(
      'The JSON file is an object, not a list of records: set the records path to the key that holds the list. Keys holding lists: devices.',
    );
  });

  it('fails clearly when the records path is missing or points at something that is not a list', async () => {
    await expect(fetchJson('path.json', JSON.stringify({ data: { items: { id: 1 } } }), { records_path: 'data.items' })).rejects.toThrow(/data\.items is an object, not a list of records/);
    await expect(fetchJson('path.json', JSON.stringify({ data: {} }), { records_path: 'data.items' })).rejects.toThrow('The JSON file has no key "items" under data, so data.items cannot be found.');
    await expect(fetchJson('scalar.json', '42')).rejects.toThrow(/a single value, not a list of records/);
  });

  it('fails on a truncated file after handing out the records it completed', async () => {
    writeFileSync(folder.file('cut.json'), '[{"hostname":"a"},{"hostname":"b"');
    const seen: unknown[] = [];
    const reading = (async () => {
      for await (const record of engines.json.fetch({ adapter: 'jsonfile', config: { source: pathSource(folder.file('cut.json')), entity: 'device' }, signal: AbortSignal.timeout(5000), warn: () => {}, outbound: loopbackAllowed })) seen.push(record);
    })();
    await expect(reading).rejects.toThrow('The file ends before the JSON is complete (it looks truncated) (line 1)');
    expect(seen).toHaveLength(1);
  });

  it('skips elements that are not objects with a counted warning', async () => {
    const { records, warnings } = await fetchJson('mixed.json', '[{"hostname":"a"}, 3, "text", {"hostname":"b"}]');
    expect(records.map((record) => record.fields.Hostname)).toEqual(['a', 'b']);
    expect(warnings).toEqual([expect.stringMatching(/^Record 2 of .* it is a number, not an object\.$/), expect.stringMatching(/^Record 3 of .* it is a string/), '2 records that are not objects skipped in total.']);
  });

  it('warns when the list of records is empty', async () => {
    const { records, warnings } = await fetchJson('empty.json', '{"data":{"items":[]}}', { records_path: 'data.items' });
    expect(records).toEqual([]);
    expect(warnings).toEqual([`The list of records in ${folder.file('empty.json')} is empty.`]);
  });

  it('checks content, not the name: binary data is refused', async () => {
    await expect(fetchJson('binary.json', '%PDF-1.7 binary')).rejects.toThrow('The file is a PDF document, not JSON text.');
  });
});
