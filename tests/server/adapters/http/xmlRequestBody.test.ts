// SOAP requests (standalone ESXi's vSphere Web Services API): a body_format xml body is one template text sent as
// text/xml, and the `xml` filter keeps a value holding markup characters one value inside it.
import { describe, expect, it } from 'vitest';
import { filters } from '../../../../src/server/adapters/http/templateFilters.js';
import { collect, manifest, startServer } from './helpers.js';

describe('XML request bodies', () => {
  it('escapes the five XML special characters', () => {
    expect(filters.xml(`a<b>&"c'`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
    expect(filters.xml(undefined)).toBe('');
  });

  it('sends the rendered envelope as text/xml and reads the XML answer', async () => {
    const seen: { type?: string; body: string }[] = [];
    const server = await startServer((request, response) => {
      seen.push({ type: request.headers['content-type'], body: request.bodyText });
      response.writeHead(200, { 'content-type': 'text/xml' }).end('<Envelope><Body><LoginResponse><returnval><userName>svc</userName></returnval></LoginResponse></Body></Envelope>');
    });
    try {
      const body = '<Envelope><Body><Login><userName>{{ config.username | xml }}</userName><password>{{ config.password | xml }}</password></Login></Body></Envelope>';
      const target = manifest({ base_url: '{{ config.base_url }}', streams: [{ name: 'login', entity: 'user', request: { method: 'POST', url: '/sdk', body, body_format: 'xml', response_format: 'xml' }, records: '{{ [response.body.Envelope.Body.LoginResponse.returnval] }}', mapping: { Username: '{{ record.userName }}' } }] });
      const result = await collect(target, { base_url: server.url, username: 'svc', password: 'p&ss<word>"' });
      expect(result.records.map((record) => record.fields.Username)).toEqual(['svc']);
      expect(seen[0].type).toBe('text/xml; charset=utf-8');
      expect(seen[0].body).toBe('<Envelope><Body><Login><userName>svc</userName><password>p&amp;ss&lt;word&gt;&quot;</password></Login></Body></Envelope>');
    } finally {
      await server.close();
    }
  });
});
