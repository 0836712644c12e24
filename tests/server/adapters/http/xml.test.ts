// XML answers: parsed into elements and attributes, lists named by xml_lists, entries expanded, and hostile or broken
// XML refused with a clear error (never expanded, never a crash).
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, manifest, startServer, type TestServer } from './helpers.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function xml(response: ServerResponse, body: string): void {
  response.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(body);
}

const hostsManifest = manifest({
  base_url: '{{ config.base_url }}',
  streams: [
    {
      name: 'detections',
      entity: 'vulnerability',
      request: { url: '/hosts', response_format: 'xml', xml_lists: ['HOST', 'DETECTION'] },
      records: '{{ response.body.OUTPUT.HOST_LIST.HOST }}',
      expand: '{{ record.DETECTION_LIST.DETECTION }}',
      mapping: { Hostname: '{{ record.DNS }}', VendorVulnerabilityId: '{{ entry.QID }}', Port: '{{ entry.PORT | int }}', Evidence: '{{ entry.RESULTS }}', Protocol: "{{ entry['@protocol'] }}" },
    },
  ],
});

describe('XML answers', () => {
  it('reads elements, attributes, CDATA and entities, one record per expanded entry, a single element still a list', async () => {
    let accept = '';
    server = await startServer((request, response) => {
      accept = String(request.headers.accept);
      xml(response, `<?xml version="1.0" encoding="UTF-8" ?>
<!DOCTYPE OUTPUT SYSTEM "https://qualysapi.qualys.com/api/2.0/fo/asset/host/vm/detection/host_list_vm_detection_output.dtd">
<OUTPUT><HOST_LIST>
  <HOST><ID>1</ID><DNS><![CDATA[ws-0042.corp.example.com]]></DNS>
    <DETECTION_LIST><DETECTION protocol="tcp"><QID>92112</QID><PORT>445</PORT><RESULTS><![CDATA[KB5034765 <missing> & more]]></RESULTS></DETECTION>
      <DETECTION><QID>00105</QID><RESULTS>caf&#233; &amp; &lt;b&gt;</RESULTS></DETECTION></DETECTION_LIST></HOST>
  <HOST><ID>2</ID><DNS>srv-01</DNS><DETECTION_LIST><DETECTION><QID>38170</QID></DETECTION></DETECTION_LIST></HOST>
  <HOST><ID>3</ID><DNS>no-findings</DNS></HOST>
</HOST_LIST></OUTPUT>`);
    });
    const { records, warnings } = await collect(hostsManifest, { base_url: server.url });
    expect(accept).toContain('xml');
    expect(warnings).toEqual([]);
    expect(records.map((record) => record.fields)).toEqual([
      { Hostname: 'ws-0042.corp.example.com', VendorVulnerabilityId: '92112', Port: 445, Evidence: 'KB5034765 <missing> & more', Protocol: 'tcp' },
      { Hostname: 'ws-0042.corp.example.com', VendorVulnerabilityId: '00105', Evidence: 'café & <b>' },
      { Hostname: 'srv-01', VendorVulnerabilityId: '38170' },
    ]);
    // The raw record kept is the entry (the detection), not the whole host.
    expect(records[2].raw).toEqual({ QID: '38170' });
  });

  it('reads element names without their namespace prefix when asked, whatever prefixes the server chose', async () => {
    const prefixed = manifest({
      base_url: '{{ config.base_url }}',
      streams: [{
        name: 'vms', entity: 'device',
        request: { url: '/wsman', response_format: 'xml', xml_strip_prefixes: true, xml_lists: ['Msvm_ComputerSystem'] },
        records: '{{ response.body.Envelope.Body.PullResponse.Items.Msvm_ComputerSystem }}',
        mapping: { Hostname: '{{ record.ElementName }}', LastSeen: '{{ record.TimeOfLastStateChange.Datetime | date }}' },
      }],
    });
    const answers = [
      '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:n="http://schemas.xmlsoap.org/ws/2004/09/enumeration"><s:Body><n:PullResponse><n:Items><p:Msvm_ComputerSystem xmlns:p="urn:cs"><p:ElementName>web-01</p:ElementName><p:TimeOfLastStateChange><cim:Datetime xmlns:cim="urn:cim">2024-05-20T06:01:02Z</cim:Datetime></p:TimeOfLastStateChange></p:Msvm_ComputerSystem></n:Items></n:PullResponse></s:Body></s:Envelope>',
      '<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:wsen="http://schemas.xmlsoap.org/ws/2004/09/enumeration"><env:Body><wsen:PullResponse><wsen:Items><q:Msvm_ComputerSystem xmlns:q="urn:cs"><q:ElementName>sql-01</q:ElementName></q:Msvm_ComputerSystem></wsen:Items></wsen:PullResponse></env:Body></env:Envelope>',
    ];
    for (const [index, body] of answers.entries()) {
      server = await startServer((_request, response) => xml(response, body));
      const { records } = await collect(prefixed, { base_url: server.url });
      expect(records.map((record) => record.fields)).toEqual([index === 0 ? { Hostname: 'web-01', LastSeen: '2024-05-20T06:01:02.000Z' } : { Hostname: 'sql-01' }]);
      await server.close();
      server = null;
    }
  });

  it('refuses a DOCTYPE declaring entities (billion laughs) without expanding anything', async () => {
    const laughs = ['<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level || ''};`.repeat(10)}">`)].join('');
    server = await startServer((_request, response) => xml(response, `<?xml version="1.0"?><!DOCTYPE OUTPUT [${laughs}]><OUTPUT><HOST_LIST><HOST><DNS>&lol9;</DNS></HOST></HOST_LIST></OUTPUT>`));
    await expect(collect(hostsManifest, { base_url: server.url })).rejects.toThrow(/declares entities in its DOCTYPE.*never expands them.*GET \/hosts \(stream detections, page 1\)|GET \/hosts \(stream detections, page 1\).*declares entities in its DOCTYPE/);
  });

  it('refuses an external entity (XXE) that would read a local file', async () => {
    server = await startServer((_request, response) => xml(response, '<?xml version="1.0"?><!DOCTYPE OUTPUT [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><OUTPUT><HOST_LIST><HOST><DNS>&xxe;</DNS></HOST></HOST_LIST></OUTPUT>'));
    const failure = await collect(hostsManifest, { base_url: server.url }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/declares entities/);
    expect((failure as Error).message).not.toContain('root:');
  });

  it('fails on truncated XML with the request and page, and on markup nested beyond any vendor answer', async () => {
    server = await startServer((_request, response) => xml(response, '<OUTPUT><HOST_LIST><HOST><DNS>ws-1</DNS></HOST><HOST><DNS>ws-'));
    await expect(collect(hostsManifest, { base_url: server.url })).rejects.toThrow(/the answer to GET \/hosts \(stream detections, page 1\).*invalid or truncated XML/);
    await server.close();
    server = await startServer((_request, response) => xml(response, `${'<a>'.repeat(500)}${'</a>'.repeat(500)}`));
    await expect(collect(hostsManifest, { base_url: server.url })).rejects.toThrow(/XML refused: .*nested/i);
  });

  it('refuses element names that would reach an object prototype', async () => {
    server = await startServer((_request, response) => xml(response, '<OUTPUT><HOST_LIST><HOST><__proto__><polluted>yes</polluted></__proto__></HOST></HOST_LIST></OUTPUT>'));
    await expect(collect(hostsManifest, { base_url: server.url })).rejects.toThrow(/XML refused/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
