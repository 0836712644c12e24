import { afterEach, describe, expect, it } from 'vitest';
import { collect, json, manifest, startServer, type TestServer } from './helpers.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const names = (count: number, from = 0) => Array.from({ length: count }, (_, index) => ({ name: `host-${from + index}` }));
const mapping = { Hostname: '{{ record.name }}' };

function hostnames(records: { fields: Record<string, unknown> }[]): unknown[] {
  return records.map((record) => record.fields.Hostname);
}

describe('the HTTP engine paginators', () => {
  it('pages by number until total_pages', async () => {
    const urls: string[] = [];
    server = await startServer((request, response) => {
      urls.push(request.url!);
      const page = Number(new URL(request.url!, 'http://x').searchParams.get('page'));
      json(response, 200, { users: names(2, page * 10), pagination: { total_pages: 3, current_page: page } });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      streams: [{ name: 'users', entity: 'user', request: { url: '/users', query: { page: '{{ page.number }}', per_page: '{{ page.limit }}' } }, paginator: { type: 'page', page_size: 2, total_pages: '{{ response.body.pagination.total_pages }}' }, records: '{{ response.body.users }}', mapping: { Username: '{{ record.name }}' } }],
    });
    const { records } = await collect(target, { base_url: server.url });
    expect(records).toHaveLength(6);
    expect(urls).toEqual(['/users?page=1&per_page=2', '/users?page=2&per_page=2', '/users?page=3&per_page=2']);
  });

  it('pages by number from 0 and stops on a short page when no total is given', async () => {
    server = await startServer((request, response) => {
      const page = Number(new URL(request.url!, 'http://x').searchParams.get('page'));
      json(response, 200, { results: page < 2 ? names(3, page * 3) : names(1, 6) });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      streams: [{ name: 'c', entity: 'device', request: { url: '/c', query: { page: '{{ page.number }}', 'page-size': '{{ page.limit }}' } }, paginator: { type: 'page', start_page: 0, page_size: 3 }, records: '{{ response.body.results }}', mapping }],
    });
    expect(hostnames((await collect(target, { base_url: server.url })).records)).toEqual(names(7).map((item) => item.name));
  });

  it('pages by offset with the total from the body, even when the server caps the limit lower', async () => {
    const offsets: string[] = [];
    server = await startServer((request, response) => {
      const offset = Number(new URL(request.url!, 'http://x').searchParams.get('offset'));
      offsets.push(String(offset));
      json(response, 200, { total: 5, rows: names(Math.min(2, 5 - offset), offset) });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      streams: [{ name: 'h', entity: 'device', request: { url: '/hardware', query: { offset: '{{ page.offset }}', limit: '{{ page.limit }}' } }, paginator: { type: 'offset', limit: 500, total: '{{ response.body.total }}' }, records: '{{ response.body.rows }}', mapping }],
    });
    expect((await collect(target, { base_url: server.url })).records).toHaveLength(5);
    expect(offsets).toEqual(['0', '2', '4']);
  });

  it('pages by offset with a range parameter and the total from the Content-Range header (206 while partial)', async () => {
    const ranges: string[] = [];
    server = await startServer((request, response) => {
      const range = new URL(request.url!, 'http://x').searchParams.get('range')!;
      ranges.push(range);
      const [start, end] = range.split('-').map(Number);
      const last = Math.min(end, 4);
      json(response, last < 4 ? 206 : 200, names(last - start + 1, start), { 'content-range': `${start}-${last}/5`, 'accept-range': 'Computer 1000' });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}/apirest.php',
      streams: [{ name: 'c', entity: 'device', request: { url: '/Computer', query: { range: '{{ page.offset }}-{{ page.offset + page.limit - 1 }}' } }, paginator: { type: 'offset', limit: 2, total: '{{ response.content_range.total }}' }, records: '{{ response.body }}', mapping }],
    });
    expect((await collect(target, { base_url: server.url })).records).toHaveLength(5);
    expect(ranges).toEqual(['0-1', '2-3', '4-5']);
  });

  it('follows a cursor from the body and omits the cursor parameter on the first page', async () => {
    const urls: string[] = [];
    server = await startServer((request, response) => {
      urls.push(request.url!);
      const cursor = new URL(request.url!, 'http://x').searchParams.get('cursor');
      if (!cursor) return json(response, 200, { data: names(2), pagination: { nextCursor: 'c2' } });
      if (cursor === 'c2') return json(response, 200, { data: names(2, 2), pagination: { nextCursor: '' } });
      json(response, 500, {});
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      streams: [{ name: 'a', entity: 'device', request: { url: '/agents', query: { limit: 2, cursor: '{{ page.cursor }}' } }, paginator: { type: 'cursor', cursor: '{{ response.body.pagination.nextCursor }}' }, records: '{{ response.body.data }}', mapping }],
    });
    expect((await collect(target, { base_url: server.url })).records).toHaveLength(4);
    expect(urls).toEqual(['/agents?limit=2', '/agents?limit=2&cursor=c2']);
  });

  it("puts the last record's sort values into the next POST body (search_after)", async () => {
    const bodies: unknown[] = [];
    server = await startServer((request, response) => {
      const body = JSON.parse(request.bodyText) as { search_after?: number[] };
      bodies.push(body);
      const after = body.search_after?.[0] ?? 0;
      const hits = after < 4 ? [1, 2].map((step) => ({ _source: { host: { name: `h${after + step}` } }, sort: [after + step, 'x'] })) : [];
      json(response, 200, { hits: { hits } });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      streams: [{
        name: 'es', entity: 'device',
        request: { method: 'POST', url: '/idx/_search', body: { size: 2, sort: [{ '{{ config.sort }}': 'asc' }], search_after: '{{ page.cursor }}' } },
        paginator: { type: 'cursor', cursor: '{{ last_record.sort }}', stop_when: '{{ records | length == 0 }}' },
        records: '{{ response.body.hits.hits }}',
        mapping: { Hostname: '{{ record._source.host.name }}' },
      }],
    });
    expect(hostnames((await collect(target, { base_url: server.url, sort: '@timestamp' })).records)).toEqual(['h1', 'h2', 'h3', 'h4']);
    expect(bodies).toEqual([
      { size: 2, sort: [{ '@timestamp': 'asc' }] },
      { size: 2, sort: [{ '@timestamp': 'asc' }], search_after: [2, 'x'] },
      { size: 2, sort: [{ '@timestamp': 'asc' }], search_after: [4, 'x'] },
    ]);
  });

  it('follows a next URL from the body verbatim, without adding the query again', async () => {
    const urls: string[] = [];
    server = await startServer((request, response) => {
      urls.push(request.url!);
      if (request.url === '/v1.0/users?%24top=2') return json(response, 200, { value: names(2), '@odata.nextLink': `${server!.url}/v1.0/users?$top=2&$skiptoken=X1` });
      json(response, 200, { value: names(1, 2) });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      streams: [{ name: 'u', entity: 'user', request: { url: '/v1.0/users', query: { $top: 2 } }, paginator: { type: 'next_url', next_url: "{{ response.body['@odata.nextLink'] }}" }, records: '{{ response.body.value }}', mapping: { Username: '{{ record.name }}' } }],
    });
    expect((await collect(target, { base_url: server.url })).records).toHaveLength(3);
    expect(urls).toEqual(['/v1.0/users?%24top=2', '/v1.0/users?$top=2&$skiptoken=X1']);
  });

  it('follows the Link header rel="next" and stops when it is gone', async () => {
    server = await startServer((request, response) => {
      const after = new URL(request.url!, 'http://x').searchParams.get('after');
      if (!after) return json(response, 200, names(2), { link: `<${server!.url}/api/v1/users?limit=2>; rel="self", <${server!.url}/api/v1/users?after=u2&limit=2>; rel="next"` });
      json(response, 200, names(1, 2), { link: `<${server!.url}/api/v1/users?after=u2&limit=2>; rel="self"` });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      streams: [{ name: 'u', entity: 'user', request: { url: '/api/v1/users', query: { limit: 2 } }, paginator: { type: 'link' }, records: '{{ response.body }}', mapping: { Username: '{{ record.name }}' } }],
    });
    expect((await collect(target, { base_url: server.url })).records).toHaveLength(3);
  });

  it('refuses a next URL on another origin, which would receive the credentials', async () => {
    server = await startServer((_request, response) => json(response, 200, { value: names(1), next: 'https://attacker.example.com/steal' }));
    const target = manifest({
      base_url: '{{ config.base_url }}',
      auth: { type: 'bearer', token: 'secret' },
      streams: [{ name: 'u', entity: 'user', request: { url: '/u' }, paginator: { type: 'next_url', next_url: '{{ response.body.next }}' }, records: '{{ response.body.value }}', mapping: { Username: '{{ record.name }}' } }],
    });
    await expect(collect(target, { base_url: server.url })).rejects.toThrow(/another origin/);
  });

  it('queries ids and then fetches their details in batches (CrowdStrike style)', async () => {
    const batches: string[][] = [];
    server = await startServer((request, response) => {
      if (request.url!.startsWith('/devices/queries')) {
        const offset = new URL(request.url!, 'http://x').searchParams.get('offset');
        if (!offset) return json(response, 200, { meta: { pagination: { offset: 'tok1' } }, resources: ['a', 'b', 'c', 'd', 'e'] });
        if (offset === 'tok1') return json(response, 200, { meta: { pagination: { offset: 'tok2' } }, resources: ['f'] });
        return json(response, 200, { meta: { pagination: { offset: 'tok2' } }, resources: [] });
      }
      const { ids } = JSON.parse(request.bodyText) as { ids: string[] };
      batches.push(ids);
      json(response, 200, { resources: ids.map((id) => ({ device_id: id, hostname: `host-${id}` })) });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      streams: [{
        name: 'hosts', entity: 'device',
        request: { url: '/devices/queries/devices-scroll/v1', query: { offset: '{{ page.cursor }}' } },
        paginator: { type: 'cursor', cursor: '{{ response.body.meta.pagination.offset }}', stop_when: '{{ records | length == 0 }}' },
        records: '{{ response.body.resources }}',
        children: { batch_size: 2, request: { method: 'POST', url: '/devices/entities/devices/v2', body: { ids: '{{ batch }}' } }, records: '{{ response.body.resources }}' },
        mapping: { Hostname: '{{ record.hostname }}', AgentId: '{{ record.device_id }}' },
      }],
    });
    const { records, warnings } = await collect(target, { base_url: server.url });
    expect(hostnames(records)).toEqual(['host-a', 'host-b', 'host-c', 'host-d', 'host-e', 'host-f']);
    expect(batches).toEqual([['a', 'b'], ['c', 'd'], ['e'], ['f']]);
    expect(warnings).toEqual([]);
  });

  it('fetches a detail per parent record and lets the mapping read the parent (Jamf/Qualys style)', async () => {
    server = await startServer((request, response) => {
      if (request.url === '/JSSResource/computers') return json(response, 200, { computers: [{ id: 1, name: 'mac-1' }, { id: 2, name: 'mac-2' }] });
      const id = Number(request.url!.split('/').pop());
      json(response, 200, { computer: { general: { id, serial_number: `SN${id}` } } });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      streams: [{
        name: 'computers', entity: 'device',
        request: { url: '/JSSResource/computers' },
        records: '{{ response.body.computers }}',
        children: { request: { url: '/JSSResource/computers/id/{{ parent.id | urlencode }}' }, records: '{{ [response.body.computer] }}' },
        mapping: { Hostname: '{{ parent.name }}', SerialNumber: '{{ record.general.serial_number }}' },
      }],
    });
    const { records } = await collect(target, { base_url: server.url });
    expect(records.map((record) => record.fields)).toEqual([{ Hostname: 'mac-1', SerialNumber: 'SN1' }, { Hostname: 'mac-2', SerialNumber: 'SN2' }]);
    expect(records[0].raw).toEqual({ general: { id: 1, serial_number: 'SN1' } });
  });

  it('lets a nested children chain read the records above its parent as ancestors (Nessus scan → host → host detail)', async () => {
    const paths: string[] = [];
    server = await startServer((request, response) => {
      paths.push(request.url!);
      if (request.url === '/scans') return json(response, 200, { scans: [{ id: 5 }, { id: 9 }] });
      const scan = /^\/scans\/(\d+)$/.exec(request.url!);
      if (scan) return json(response, 200, { hosts: [{ host_id: Number(scan[1]) * 10 }] });
      json(response, 200, { info: { 'host-fqdn': `host${request.url}` } });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      streams: [{
        name: 'hosts', entity: 'device',
        request: { url: '/scans' },
        records: '{{ response.body.scans }}',
        children: {
          request: { url: '/scans/{{ parent.id }}' },
          records: '{{ response.body.hosts }}',
          children: { request: { url: '/scans/{{ ancestors[-1].id }}/hosts/{{ parent.host_id }}' }, records: '{{ [response.body] }}' },
        },
        mapping: { Hostname: '{{ record.info["host-fqdn"] }}', Groups: '{{ "scan " + ancestors[-1].id + ", host " + parent.host_id }}' },
      }],
    });
    const { records } = await collect(target, { base_url: server.url });
    expect(paths).toEqual(['/scans', '/scans/5', '/scans/5/hosts/50', '/scans/9', '/scans/9/hosts/90']);
    expect(records.map((record) => record.fields.Hostname)).toEqual(['host/scans/5/hosts/50', 'host/scans/9/hosts/90']);
    // The mapping sees the same ancestors as the nested chain's requests.
    expect(records.map((record) => record.fields.Groups)).toEqual(['scan 5, host 50', 'scan 9, host 90']);
  });

  it('runs a stream once per item of for_each and skips streams whose `when` is false', async () => {
    const paths: string[] = [];
    server = await startServer((request, response) => {
      paths.push(request.url!);
      json(response, 200, { result: [{ name: request.url }] });
    });
    const target = manifest({
      base_url: '{{ config.base_url }}',
      streams: [
        { name: 'tables', entity: 'device', for_each: '{{ config.tables }}', request: { url: '/api/now/table/{{ item | urlencode }}' }, records: '{{ response.body.result }}', mapping: { Hostname: '{{ record.name }}', Category: '{{ item }}' } },
        { name: 'users', entity: 'user', when: '{{ config.fetch_users }}', request: { url: '/users' }, records: '{{ response.body.result }}', mapping: { Username: '{{ record.name }}' } },
      ],
    });
    const { records } = await collect(target, { base_url: server.url, tables: ['cmdb_ci_computer', '../x'], fetch_users: false });
    expect(paths).toEqual(['/api/now/table/cmdb_ci_computer', '/api/now/table/..%2Fx']);
    expect(records.map((record) => record.fields.Category)).toEqual(['cmdb_ci_computer', '../x']);
  });

  it('maps lists of templates into one list and keeps the vendor record as raw', async () => {
    server = await startServer((_request, response) => json(response, 200, [{ local_ip: '10.0.0.1', external_ip: '', mac: '00-1A-2B-3C-4D-5E', tags: ['a', 'b'] }]));
    const target = manifest({
      base_url: '{{ config.base_url }}',
      streams: [{ name: 'x', entity: 'device', request: { url: '/x' }, records: '{{ response.body }}', mapping: { IpAddresses: ['{{ record.local_ip }}', '{{ record.external_ip }}'], MacAddresses: '{{ record.mac | mac }}', Tags: ['{{ record.tags }}', 'static'], Hostname: '{{ record.none }}' } }],
    });
    const [record] = (await collect(target, { base_url: server.url })).records;
    expect(record.fields).toEqual({ IpAddresses: ['10.0.0.1'], MacAddresses: '00:1a:2b:3c:4d:5e', Tags: ['a', 'b', 'static'] });
    expect(record.raw).toMatchObject({ local_ip: '10.0.0.1', tags: ['a', 'b'] });
  });
});
