// Zscaler's key obfuscation, worked by hand from the algorithm of ZIA's "Getting Started" page (Zscaler publishes
// the algorithm, not a test vector): for 1700000123456 ms, n = "123456" and r = 123456 >> 1 = "061728".
import { describe, expect, it } from 'vitest';
import { obfuscateZscalerApiKey } from '../../../../src/server/adapters/http/zscalerApiKey.js';
import { collect, json, manifest, startServer } from './helpers.js';

describe("Zscaler's obfuscated API key", () => {
  it('picks key[d] for each digit of n, then key[d + 2] for each digit of the zero-padded r', () => {
    // n 1,2,3,4,5,6 → b c d e f g; r 0,6,1,7,2,8 (+2) → c i d j e k
    expect(obfuscateZscalerApiKey('abcdefghijkl', 1700000123456)).toBe('bcdefgcidjek');
    // n = "000042" keeps its leading zeros; r = 21 pads to "000021": a a a a e c, then c c c c e d
    expect(obfuscateZscalerApiKey('abcdefghijkl', '1700000000042')).toBe('aaaaeccccced');
  });

  it('signs in once with the key obfuscated by the timestamp it sends, then sends the JSESSIONID cookie and logs out', async () => {
    const seen: { method?: string; url?: string; cookie?: string; body: string }[] = [];
    const server = await startServer((request, response) => {
      seen.push({ method: request.method, url: request.url, cookie: request.headers.cookie, body: request.bodyText });
      if (request.url === '/api/v1/authenticatedSession') return response.writeHead(200, { 'set-cookie': 'JSESSIONID=F00D; Path=/; Secure', 'content-type': 'application/json' }).end('{"authType":"READ_ONLY_ADMIN"}');
      json(response, 200, [{ id: 1, name: 'jdoe' }]);
    });
    try {
      const target = manifest({ base_url: '{{ config.base_url }}/api/v1', auth: { type: 'zscaler_api_key', username: '{{ config.username }}', password: '{{ config.password }}', api_key: '{{ config.api_key }}' }, streams: [{ name: 'users', entity: 'user', request: { url: '/users' }, records: '{{ response.body }}', mapping: { Username: '{{ record.name }}' } }] });
      const result = await collect(target, { base_url: server.url, username: 'admin@acme.com', password: 'pw', api_key: 'abcdefghijkl' });
      expect(result.records.map((record) => record.fields.Username)).toEqual(['jdoe']);
      const login = JSON.parse(seen[0].body);
      expect(login).toMatchObject({ username: 'admin@acme.com', password: 'pw' });
      expect(login.apiKey).toBe(obfuscateZscalerApiKey('abcdefghijkl', login.timestamp));
      expect(seen[1]).toMatchObject({ method: 'GET', url: '/api/v1/users', cookie: 'JSESSIONID=F00D' });
      expect(seen[2]).toMatchObject({ method: 'DELETE', url: '/api/v1/authenticatedSession', cookie: 'JSESSIONID=F00D' });
    } finally {
      await server.close();
    }
  });
});
