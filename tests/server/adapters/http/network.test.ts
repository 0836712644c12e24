import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate, type TestCertificate } from '../../../support/testCertificates.js';
import { check, collect, json, manifest, startServer } from './helpers.js';

let root: TestCertificate;
let https: HttpsServer;
let httpsUrl: string;
let proxy: Server;
let proxyUrl: string;
const tunnels: string[] = [];
const proxyCredentials: (string | undefined)[] = [];
const sockets = new Set<Socket>();

const target = manifest({
  base_url: '{{ config.base_url }}',
  retry: { max_attempts: 1 },
  check: { request: { url: '/items' }, detail: 'Found {{ response.body.items | length }} items.' },
  streams: [{ name: 'items', entity: 'device', request: { url: '/items' }, records: '{{ response.body.items }}', mapping: { Hostname: '{{ record.name }}' } }],
});

beforeAll(async () => {
  // A private CA and a leaf for 127.0.0.1: nothing public trusts it, as with an on-premises appliance.
  root = issueCertificate({ commonName: 'Cartograph Test Root CA', isCa: true }, null);
  const leaf = issueCertificate({ commonName: '127.0.0.1', altNames: ['IP:127.0.0.1', 'DNS:localhost'] }, root);
  https = createHttpsServer({ key: leaf.key, cert: leaf.cert }, (_request, response) => json(response, 200, { items: [{ name: 'tls-host' }] }));
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  httpsUrl = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
  // A minimal CONNECT proxy that records the tunnels it opens.
  proxy = createHttpServer((_request, response) => response.writeHead(405).end());
  proxy.on('connect', (request, client: Socket) => {
    tunnels.push(request.url ?? '');
    proxyCredentials.push(request.headers['proxy-authorization']);
    const [host, port] = (request.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  https.closeAllConnections();
  await new Promise((resolve) => https.close(resolve));
  await new Promise((resolve) => proxy.close(resolve));
});

describe('the HTTP engine on the network', () => {
  it('refuses a certificate no trusted authority issued when verification is on', async () => {
    const result = await check(target, { base_url: httpsUrl });
    expect(result).toMatchObject({ ok: false, reason: 'tls' });
    await expect(collect(target, { base_url: httpsUrl, verify_ssl: true })).rejects.toThrow(/certificate/i);
  });

  it('trusts the custom CA from the config in addition to the public authorities', async () => {
    expect(await check(target, { base_url: httpsUrl, custom_ca: root.cert })).toEqual({ ok: true, detail: 'Found 1 items.' });
    const { records } = await collect(target, { base_url: httpsUrl, custom_ca: root.cert });
    expect(records.map((record) => record.fields.Hostname)).toEqual(['tls-host']);
  });

  it('accepts the certificate when verification is turned off', async () => {
    expect(await check(target, { base_url: httpsUrl, verify_ssl: false })).toMatchObject({ ok: true });
  });

  it('goes through the configured HTTP proxy, with the credentials embedded in its URL', async () => {
    tunnels.length = 0;
    proxyCredentials.length = 0;
    const withCredentials = proxyUrl.replace('http://', 'http://svc-proxy:p%40ss@');
    const { records } = await collect(target, { base_url: httpsUrl, custom_ca: root.cert, proxy: withCredentials });
    expect(records).toHaveLength(1);
    expect(tunnels).toEqual([new URL(httpsUrl).host]);
    expect(proxyCredentials).toEqual([`Basic ${Buffer.from('svc-proxy:p@ss').toString('base64')}`]);
  });

  it('answers refused when nothing listens on the port', async () => {
    const closed = await startServer((_request, response) => json(response, 200, {}));
    const url = closed.url;
    await closed.close();
    expect(await check(target, { base_url: url })).toMatchObject({ ok: false, reason: 'refused' });
  });

  it('answers dns when the host name does not resolve', async () => {
    expect(await check(target, { base_url: 'https://cartograph-test.invalid' })).toMatchObject({ ok: false, reason: 'dns' });
  });

  it('answers unauthorized for a 401 and invalid_config without a usable base URL', async () => {
    const server = await startServer((_request, response) => json(response, 401, { errorSummary: 'Invalid token provided' }));
    try {
      expect(await check(target, { base_url: server.url })).toMatchObject({ ok: false, reason: 'unauthorized', detail: expect.stringContaining('Invalid token provided') });
    } finally {
      await server.close();
    }
    expect(await check(target, {})).toMatchObject({ ok: false, reason: 'invalid_config' });
    expect(await check(target, { base_url: 'ftp://files.example.com' })).toMatchObject({ ok: false, reason: 'invalid_config' });
  });
});
