import { fleetSources, type LabelledFleet } from './fleet.js';
import { seededRandom, type Random } from './random.js';
import type { DemoObservation } from './softwareAndFindings.js';

// The demo's certificates, as the vulnerability scanner's TLS certificate report lists them: one row per certificate
// served on one host and port. Dates are relative to when the demo is loaded, so on first start some certificates
// expire this month, some this quarter, one expired two weeks ago; one is self-signed and one weak (RSA 1024 signed
// with SHA-1). A wildcard and a public certificate are served on several hosts: each is one certificate with many
// places in the inventory.

const day = 86_400_000;
const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
const corporateCa = 'CN=Corp Issuing CA 1, O=Example Corp, C=US';
const publicCa = "CN=R11, O=Let's Encrypt, C=US";

type DemoCertificate = {
  commonName: string; issuer: string; notBefore: number; notAfter: number; keyAlgorithm: string; keySize: number; signature: string;
  selfSigned: boolean; sans: string[]; serial: string; fingerprint: string;
};

function certificate(random: Random, now: number, commonName: string, issuer: string, days: { from: number; to: number }, overrides: Partial<DemoCertificate> = {}): DemoCertificate {
  return {
    commonName, issuer, notBefore: now + days.from * day, notAfter: now + days.to * day, keyAlgorithm: 'rsa', keySize: 2048, signature: 'sha256WithRSAEncryption',
    selfSigned: false, sans: [`DNS:${commonName}`], serial: random.hex(32).toUpperCase(),
    fingerprint: Array.from({ length: 32 }, () => random.hex(2).toUpperCase()).join(':'),
    ...overrides,
  };
}

/** The demo's certificate rows (`entity: certificate`) for the scanner's servers, as of `now`. */
export function generateDemoCertificates(fleet: LabelledFleet, now = new Date(), seed = 42): DemoObservation[] {
  const random = seededRandom(seed + 7);
  const at = now.getTime();
  const servers = fleet.records
    .filter((record) => record.connectionId === fleetSources.scanner.connectionId && /^(srv|vm)-/.test(String(first(record.fields.Hostname) ?? '')))
    .slice(0, 60)
    .map((record) => ({ host: String(first(record.fields.Hostname)), ip: String(first(record.fields.IpAddresses) ?? '') }));
  const rows: DemoObservation[] = [];
  const serve = (entry: DemoCertificate, host: { host: string; ip: string }, port = 443) =>
    rows.push({
      connectionId: fleetSources.scanner.connectionId,
      fields: {
        Host: host.host, IpAddresses: host.ip ? [host.ip] : [], Port: port, CommonName: entry.commonName, Subject: `CN=${entry.commonName}`, Issuer: entry.selfSigned ? `CN=${entry.commonName}` : entry.issuer,
        SerialNumber: entry.serial, NotBefore: new Date(entry.notBefore).toISOString(), NotAfter: new Date(entry.notAfter).toISOString(), KeyAlgorithm: entry.keyAlgorithm,
        KeySize: entry.keySize, SignatureAlgorithm: entry.signature, SelfSigned: entry.selfSigned, SubjectAltNames: entry.sans, FingerprintSha256: entry.fingerprint,
      },
    });
  if (servers.length < 12) return rows;
  // Each server's own certificate from the corporate CA; expiries spread so every status is present.
  const expiries = [5, 12, 21, 27, 45, 60, 75, 88];
  servers.slice(0, 40).forEach((server, index) => {
    const to = expiries[index] ?? 120 + random.integer(600);
    serve(certificate(random, at, server.host, corporateCa, { from: to - 365, to }), server);
  });
  // A wildcard on the web tier, a public certificate on the two front servers (expiring this month).
  const wildcard = certificate(random, at, '*.corp.example.com', corporateCa, { from: -200, to: 165 }, { sans: ['DNS:*.corp.example.com', 'DNS:corp.example.com'] });
  for (const server of servers.slice(40, 52)) serve(wildcard, server, 8443);
  const shop = certificate(random, at, 'shop.example.com', publicCa, { from: -78, to: 12 }, { keyAlgorithm: 'ec', keySize: 256, signature: 'ecdsa-with-SHA256', sans: ['DNS:shop.example.com', 'DNS:www.shop.example.com'] });
  serve(shop, servers[52] ?? servers[0]);
  serve(shop, servers[53] ?? servers[1]);
  // One expired, one self-signed (a management controller's factory certificate), one weak.
  serve(certificate(random, at, 'legacy-app.corp.example.com', corporateCa, { from: -379, to: -14 }), servers[54] ?? servers[2], 8443);
  serve(certificate(random, at, `idrac-${servers[55]?.host ?? servers[3].host}`, '', { from: -900, to: 2700 }, { selfSigned: true }), servers[55] ?? servers[3], 443);
  serve(certificate(random, at, 'printers.corp.example.com', corporateCa, { from: -500, to: 230 }, { keySize: 1024, signature: 'sha1WithRSAEncryption' }), servers[56] ?? servers[4], 631);
  return rows;
}
