import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import type { Queryable } from '../../src/server/db/database.js';
import { issueCertificate, opensslDate, type TestCertificate } from '../support/testCertificates.js';

// Real TLS servers on 127.0.0.1 with certificates made for the test: a corporate chain whose leaf expires in ten
// days and is served on two ports, an expired self-signed one, and a weak one (RSA 1024, SHA-1), plus an endpoint
// that accepts connections and never answers the handshake.

export type CertificateLab = {
  root: TestCertificate;
  intermediate: TestCertificate;
  portal: TestCertificate;
  legacy: TestCertificate;
  printer: TestCertificate;
  ports: { portalA: number; portalB: number; legacy: number; printer: number; stalled: number };
  close: () => Promise<void>;
};

async function listen(server: Server | TcpServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

export async function startCertificateLab(): Promise<CertificateLab> {
  const root = issueCertificate({ commonName: 'Corp Root CA', isCa: true }, null);
  const intermediate = issueCertificate({ commonName: 'Corp Issuing CA 1', isCa: true }, root);
  const portal = issueCertificate({ commonName: 'portal.corp.example', altNames: ['DNS:localhost', 'DNS:portal.corp.example', 'IP:127.0.0.1'], notAfter: opensslDate(10) }, intermediate);
  const legacy = issueCertificate({ commonName: 'legacy.corp.example', keyType: 'ec:prime256v1', notBefore: opensslDate(-400), notAfter: opensslDate(-10) }, null);
  const printer = issueCertificate({ commonName: 'printer.corp.example', keyType: 'rsa:1024', digest: 'sha1', notAfter: opensslDate(200) }, null);
  const servers: (Server | TcpServer)[] = [];
  const sockets = new Set<Socket>();
  const tls = (certificate: TestCertificate, chain = '') => {
    const server = createServer({ key: certificate.key, cert: `${certificate.cert}${chain}`, minVersion: 'TLSv1.2' });
    server.on('tlsClientError', () => undefined);
    servers.push(server);
    return server;
  };
  const stalling = createTcpServer((socket) => {
    // Accepts and reads, never answers: the scanner's handshake timeout must end it.
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.resume();
  });
  servers.push(stalling);
  const ports = {
    portalA: await listen(tls(portal, intermediate.cert)),
    portalB: await listen(tls(portal, intermediate.cert)),
    legacy: await listen(tls(legacy)),
    printer: await listen(tls(printer)),
    stalled: await listen(stalling),
  };
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  };
  return { root, intermediate, portal, legacy, printer, ports, close };
}

const inline = (name: string, records: unknown[]) => ({ source_type: 'upload', file: `data:application/json;name=${name};base64,${Buffer.from(JSON.stringify(records)).toString('base64')}`, file_name: name });

/** A device connection (the host behind 127.0.0.1) and a TLS scanner connection over the lab's endpoints, in company 1. */
export async function addCertificateConnections(db: Queryable, lab: CertificateLab): Promise<void> {
  const add = (adapter: string, name: string, config: object) =>
    db.query("insert into connections (company_id, adapter, name, connector_id, config) values (1, $1, $2, (select id from connectors where company_id = 1 and is_default), $3)", [adapter, name, JSON.stringify(config)]);
  await add('jsonfile', 'CMDB servers', { source: inline('servers.json', [{ id: 'srv-1', hostname: 'web-01', ip: '127.0.0.1', os: 'Linux' }, { id: 'srv-2', hostname: 'db-01', ip: '10.9.9.9', os: 'Linux' }]), entity: 'device', column_map: { id: 'AgentId', ip: 'IpAddresses' } });
  // A certificate manager that knows certificates by thumbprint or serial only (no bytes): the portal's thumbprint
  // folds into the scanned portal; the VPN certificate, issued to no endpoint scanned, stays one of its own.
  const portal = new X509Certificate(lab.portal.cert);
  await add('jsonfile', 'Certificate manager', {
    source: inline('managed.json', [
      { thumbprint: portal.fingerprint.replace(/:/g, '').toLowerCase(), cn: 'portal.corp.example', expires: portal.validTo, status: 'issued' },
      { serial: '00:AB:CD:EF:01', issuer: 'CN=Corp Issuing CA 1', cn: 'vpn.corp.example', expires: new Date(Date.now() + 300 * 86_400_000).toISOString(), keytype: 'RSA_1024', status: 'issued' },
    ]),
    entity: 'certificate', column_map: { thumbprint: 'FingerprintSha1', serial: 'SerialNumber', issuer: 'Issuer', cn: 'CommonName', expires: 'NotAfter', keytype: 'KeyAlgorithm' },
  });
  const { portalA, portalB, legacy, printer, stalled } = lab.ports;
  await add('tls-scanner', 'TLS scan', {
    targets: [`localhost:${portalA}`, `localhost:${portalB}`, `127.0.0.1:${portalA}`, `127.0.0.1:${legacy}`, `127.0.0.1:${printer}`, `127.0.0.1:${stalled}`],
    // Generous: the stalled endpoint costs this once; a loaded machine must not time out the real servers.
    custom_ca: lab.root.cert, handshake_timeout_ms: 10_000, concurrency: 6,
  });
}

/** Runs openssl in a scratch folder holding `files`; answers the bytes of `output`. */
export function opensslFile(args: string[], files: Record<string, string>, output: string): Buffer {
  const directory = mkdtempSync(join(tmpdir(), 'cartograph-bundle-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(directory, name), text);
    execFileSync('openssl', args, { cwd: directory, stdio: ['ignore', 'pipe', 'pipe'] });
    return readFileSync(join(directory, output));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** A DER PKCS#7 bundle of the given PEM certificates. */
export const pkcs7Of = (pems: string) => opensslFile(['crl2pkcs7', '-nocrl', '-certfile', 'chain.pem', '-outform', 'DER', '-out', 'bundle.p7b'], { 'chain.pem': pems }, 'bundle.p7b');

/** A PKCS#12 file holding a certificate, its key and a chain, under a password. */
export const pkcs12Of = (certificate: TestCertificate, chain: string, password: string) =>
  opensslFile(['pkcs12', '-export', '-inkey', 'key.pem', '-in', 'cert.pem', '-certfile', 'chain.pem', '-passout', `pass:${password}`, '-out', 'bundle.p12'], { 'key.pem': certificate.key, 'cert.pem': certificate.cert, 'chain.pem': chain }, 'bundle.p12');

/** DER bytes of a PEM certificate. */
export const derOf = (pem: string) => Buffer.from(pem.replace(/-----[A-Z ]+-----|\s+/g, ''), 'base64');
