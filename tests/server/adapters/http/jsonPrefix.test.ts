// Bodies with text before their JSON (Trellix ePO answers "OK:" on the first line): json_prefix removes it before
// parsing, a body without the prefix is read as it is, and an unexpected prefix still fails as invalid JSON.
import { afterEach, describe, expect, it } from 'vitest';
import { collect, manifest, startServer, type TestServer } from './helpers.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const systems = (jsonPrefix?: string) =>
  manifest({
    base_url: '{{ config.base_url }}',
    streams: [{ name: 'systems', entity: 'device', request: { url: '/remote/core.executeQuery', ...(jsonPrefix ? { json_prefix: jsonPrefix } : {}) }, records: '{{ response.body }}', mapping: { Hostname: "{{ record['EPOComputerProperties.ComputerName'] }}" } }],
  });

function answer(body: string) {
  return startServer((_request, response) => response.writeHead(200, { 'content-type': 'text/plain;charset=UTF-8' }).end(body));
}

describe('json_prefix', () => {
  it('removes the text before the JSON, line break included', async () => {
    server = await answer('OK:\r\n[{"EPOComputerProperties.ComputerName":"FIN-WS-01"},{"EPOComputerProperties.ComputerName":"OK: still text"}]');
    const { records } = await collect(systems('OK:'), { base_url: server.url });
    expect(records.map((record) => record.fields.Hostname)).toEqual(['FIN-WS-01', 'OK: still text']);
  });

  it('reads a body without the prefix as it is, and an empty one as no records', async () => {
    server = await answer('[{"EPOComputerProperties.ComputerName":"SRV-01"}]');
    expect((await collect(systems('OK:'), { base_url: server.url })).records.map((record) => record.fields.Hostname)).toEqual(['SRV-01']);
    await server.close();
    server = await answer('OK:\r\n');
    expect((await collect(systems('OK:'), { base_url: server.url })).records).toEqual([]);
  });

  it('fails as invalid JSON when the manifest does not name the prefix', async () => {
    server = await answer('OK:\r\n[]');
    await expect(collect(systems(), { base_url: server.url })).rejects.toThrow(/invalid or truncated JSON/);
  });
});
