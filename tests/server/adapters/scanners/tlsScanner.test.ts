import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { loopbackAllowed } from '../../../support/outbound.js';
import { createServer, type Server } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionConfig, FetchedRecord } from '../../../../src/server/adapters/engine.js';
import { tlsScannerEngine } from '../../../../src/server/adapters/scanners/tlsScanner.js';
import { issueCertificate, opensslDate, type TestCertificate } from '../../../support/testCertificates.js';

type Listening = { server: Server | TcpServer; port: number };

const servers: Listening[] = [];
let root: TestCertificate;
let intermediate: TestCertificate;
let selfSigned: Listening;
let expired: Listening;
let chained: Listening;
let plainText: Listening;
let closedPort: number;

async function listen(server: Server | TcpServer): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const listening = { server, port: (server.address() as { port: number }).port };
  servers.push(listening);
  return listening;
}

const tlsServer = (key: string, cert: string) => {
  const server = createServer({ key, cert });
  server.on('tlsClientError', () => undefined);
  return server;
};

beforeAll(async () => {
  const selfSignedCertificate = issueCertificate({ commonName: 'localhost', altNames: ['DNS:localhost', 'IP:127.0.0.1'] }, null);
  const expiredCertificate = issueCertificate({ commonName: 'legacy.corp.example', keyType: 'ec:prime256v1', notBefore: opensslDate(-400), notAfter: opensslDate(-10) }, null);
  root = issueCertificate({ commonName: 'Corp Root CA', isCa: true }, null);
  intermediate = issueCertificate({ commonName: 'Corp Issuing CA 1', isCa: true, keyType: 'ec:prime256v1' }, root);
  const leaf = issueCertificate({ commonName: 'portal.corp.example', altNames: ['DNS:localhost', 'DNS:portal.corp.example', 'IP:127.0.0.1'], notAfter: opensslDate(45) }, intermediate);
  selfSigned = await listen(tlsServer(selfSignedCertificate.key, selfSignedCertificate.cert));
  expired = await listen(tlsServer(expiredCertificate.key, expiredCertificate.cert));
  // The server sends its leaf and the intermediate, as a correctly configured server does.
  chained = await listen(tlsServer(leaf.key, `${leaf.cert}${intermediate.cert}`));
  plainText = await listen(createTcpServer((socket) => {
    socket.on('error', () => undefined);
    // Reading (and discarding) is what lets the server see the client hang up.
    socket.resume();
    socket.end('SSH-2.0-OpenSSH_9.2\r\n');
  }));
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map(({ server }) => new Promise((resolve) => server.close(resolve))));
}, 8000);

async function scan(config: ConnectionConfig): Promise<{ records: FetchedRecord[]; warnings: string[] }> {
  const records: FetchedRecord[] = [];
  const warnings: string[] = [];
  for await (const record of tlsScannerEngine.fetch({ adapter: 'tls-scanner', config, signal: new AbortController().signal, warn: (message) => warnings.push(message), outbound: loopbackAllowed })) records.push(record);
  return { records, warnings };
}

const certificatesOf = (records: FetchedRecord[], endpoint: string) => records.filter((record) => record.entity === 'certificate' && record.fields.Endpoint === endpoint);

describe('the TLS certificate scanner', () => {
  it('reads a self-signed certificate with its key, validity and fingerprint, and records that it is not trusted', async () => {
    const { records, warnings } = await scan({ targets: [`localhost:${selfSigned.port}`] });
    expect(warnings).toEqual([]);
    const [certificate] = certificatesOf(records, `localhost:${selfSigned.port}`);
    expect(certificate.fields).toMatchObject({
      CommonName: 'localhost', Subject: 'O=Cartograph Tests, CN=localhost', SubjectAltNames: ['DNS:localhost', 'IP:127.0.0.1'],
      KeyAlgorithm: 'rsa', KeySize: 2048, SignatureAlgorithm: 'sha256WithRSAEncryption', SelfSigned: true, Expired: false,
      ChainVerified: false, VerificationError: 'DEPTH_ZERO_SELF_SIGNED_CERT', ChainPosition: 0,
    });
    expect(certificate.fields.Fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(certificate.fields.DaysToExpiry).toBeGreaterThan(360);
    const service = records.find((record) => record.entity === 'service')!;
    expect(service.fields).toMatchObject({ Port: selfSigned.port, Host: 'localhost', IpAddresses: ['127.0.0.1'], ChainVerified: false, CertificateFingerprint: certificate.fields.Fingerprint });
    expect(service.fields.TlsVersion).toMatch(/^TLSv1\.[23]$/);
  });

  it('flags an expired certificate with negative days to expiry', async () => {
    const { records } = await scan({ targets: [`127.0.0.1:${expired.port}`] });
    const [certificate] = certificatesOf(records, `127.0.0.1:${expired.port}`);
    expect(certificate.fields).toMatchObject({ CommonName: 'legacy.corp.example', Expired: true, KeyAlgorithm: 'ec', KeySize: 256, KeyCurve: 'prime256v1', SignatureAlgorithm: 'ecdsa-with-SHA256', ChainVerified: false });
    expect(certificate.fields.DaysToExpiry).toBeLessThan(0);
  });

  it('reads the whole chain and verifies it against a custom CA', async () => {
    const endpoint = `localhost:${chained.port}`;
    const untrusted = await scan({ targets: [endpoint] });
    const names = certificatesOf(untrusted.records, endpoint).map((record) => [record.fields.ChainPosition, record.fields.CommonName, record.fields.IsCa]);
    expect(names).toEqual([[0, 'portal.corp.example', false], [1, 'Corp Issuing CA 1', true]]);
    expect(certificatesOf(untrusted.records, endpoint)[0].fields).toMatchObject({ ChainVerified: false, VerificationError: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', IssuerCommonName: 'Corp Issuing CA 1' });
    const trusted = await scan({ targets: [endpoint], custom_ca: root.cert });
    const chain = certificatesOf(trusted.records, endpoint);
    expect(chain[0].fields).toMatchObject({ ChainVerified: true, VerificationError: null });
    expect(chain[0].fields.DaysToExpiry).toBeGreaterThanOrEqual(44);
    expect(chain.map((record) => record.fields.CommonName)).toContain('Corp Issuing CA 1');
  });

  it('reports an issuing certificate once even when several endpoints serve it', async () => {
    const { records } = await scan({ targets: [`localhost:${chained.port}`, `127.0.0.1:${chained.port}`] });
    const certificates = records.filter((record) => record.entity === 'certificate');
    expect(certificates.filter((record) => record.fields.CommonName === 'portal.corp.example')).toHaveLength(2);
    expect(certificates.filter((record) => record.fields.CommonName === 'Corp Issuing CA 1')).toHaveLength(1);
    expect(records.filter((record) => record.entity === 'service')).toHaveLength(2);
  });

  it('warns per unreachable or non-TLS endpoint and still returns the others', async () => {
    const { records, warnings } = await scan({ targets: [`127.0.0.1:${closedPort}`, `127.0.0.1:${plainText.port}`, `127.0.0.1:${selfSigned.port}`] });
    expect(records.filter((record) => record.entity === 'service').map((record) => record.fields.Port)).toEqual([selfSigned.port]);
    expect(warnings).toHaveLength(2);
    expect(warnings).toContainEqual(expect.stringMatching(new RegExp(`127\\.0\\.0\\.1:${closedPort} refused`)));
    expect(warnings).toContainEqual(expect.stringMatching(/does not speak TLS|closed the connection/));
  });

  it('fails the fetch when no endpoint answers at all', async () => {
    await expect(scan({ targets: [`127.0.0.1:${closedPort}`] })).rejects.toThrow(/None of the 1 endpoints/);
  });

  it('checks connectivity by handshaking with the first endpoints', async () => {
    const signal = new AbortController().signal;
    expect(await tlsScannerEngine.test({ adapter: 'tls-scanner', config: { targets: [`127.0.0.1:${selfSigned.port}`, `127.0.0.1:${closedPort}`] }, signal, outbound: loopbackAllowed }))
      .toEqual({ ok: true, detail: expect.stringContaining('1 of 2 endpoints') });
    expect(await tlsScannerEngine.test({ adapter: 'tls-scanner', config: { targets: [`127.0.0.1:${closedPort}`] }, signal, outbound: loopbackAllowed })).toMatchObject({ ok: false, reason: 'refused' });
  });

  it('rejects bad targets, bad ports and oversized ranges with the reason', async () => {
    const check = (config: ConnectionConfig) => tlsScannerEngine.test({ adapter: 'tls-scanner', config, signal: new AbortController().signal, outbound: loopbackAllowed });
    expect(await check({ targets: [] })).toMatchObject({ ok: false, reason: 'invalid_config' });
    expect(await check({ targets: ['bad host!'] })).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringContaining('bad host!') });
    expect(await check({ targets: ['www.example.com:70000'] })).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringContaining('invalid port') });
    expect(await check({ targets: ['10.0.0.0/8'] })).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringContaining('/16') });
    expect(await check({ targets: ['10.0.0.0/16'], ports: '443,8443' })).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringContaining('131,068 endpoints') });
  });
});
