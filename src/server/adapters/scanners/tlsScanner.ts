import { isIP } from 'node:net';
import type { AdapterEngine, FetchedRecord } from '../engine.js';
import { boundedPool } from './boundedPool.js';
import { describeCertificate, type CertificateDetails } from './certificateDetails.js';
import { guessService } from './serviceGuess.js';
import { probeTls, type TlsHandshake } from './tlsProbe.js';
import { endpointsOf, readTlsScanSettings, TlsConfigError, type TlsScanSettings } from './tlsTargets.js';

type Answered = Extract<TlsHandshake, { ok: true }>;

/** Per-endpoint warnings shown before they are only counted, so a dead /24 does not flood the connection page. */
const maximumListedFailures = 20;
/** How many endpoints the connectivity check tries. */
const checkedEndpoints = 16;

// TLS services by port; anything else on TLS is reported as https when the port is unknown.
function tlsServiceName(port: number): string {
  const name = guessService(port, Buffer.alloc(0)).name;
  if (name === 'unknown' || name === 'http' || name === 'http-proxy') return 'https';
  return name;
}

function certificateFields(details: CertificateDetails, handshake: Answered, position: number, chainFingerprints: string[], pem: string): Record<string, unknown> {
  const { host, port } = handshake.endpoint;
  return {
    Name: details.commonName ?? details.subject,
    CommonName: details.commonName,
    Subject: details.subject,
    Issuer: details.issuer,
    IssuerCommonName: details.issuerCommonName,
    SubjectAltNames: details.subjectAltNames,
    SerialNumber: details.serialNumber,
    NotBefore: details.notBefore,
    NotAfter: details.notAfter,
    DaysToExpiry: details.daysToExpiry,
    Expired: details.expired,
    KeyAlgorithm: details.keyAlgorithm,
    KeySize: details.keySize,
    KeyCurve: details.keyCurve,
    SignatureAlgorithm: details.signatureAlgorithm,
    SelfSigned: details.selfSigned,
    IsCa: details.isCa,
    Fingerprint: details.fingerprintSha256,
    FingerprintSha256: details.fingerprintSha256,
    FingerprintSha1: details.fingerprintSha1,
    ChainPosition: position,
    ChainVerified: handshake.authorized,
    VerificationError: handshake.authorizationError,
    Endpoint: `${host}:${port}`,
    Host: host,
    Port: port,
    // SNI is sent for names only (tlsProbe.ts): the name the server chose this certificate for.
    Sni: isIP(host) ? null : host,
    TlsVersion: handshake.protocol,
    // The chain served at this endpoint, leaf first, so the inventory can show it wherever the certificate is served.
    ChainFingerprints: chainFingerprints,
    Pem: pem,
  };
}

/**
 * One endpoint's records: its service, its leaf certificate, and each issuing certificate not yet reported in this
 * fetch (an intermediate serving a thousand hosts is one certificate, not a thousand).
 */
function endpointRecords(handshake: Answered, reportedIssuers: Set<string>, warn: (message: string) => void): FetchedRecord[] {
  const { host, port } = handshake.endpoint;
  const chain: Array<{ der: Buffer; details: CertificateDetails }> = [];
  for (const [position, der] of handshake.chain.entries()) {
    try {
      chain.push({ der, details: describeCertificate(der) });
    } catch (error) {
      // A certificate node:crypto cannot parse ends the chain there; the endpoint and what was read are kept.
      warn(`${host}:${port}: certificate ${position} of the chain could not be read (${(error as Error).message}).`);
      break;
    }
  }
  const leaf = chain[0]?.details;
  const records: FetchedRecord[] = [{
    entity: 'service',
    fields: {
      ServiceName: tlsServiceName(port), Port: port, Protocol: 'tcp', Host: host, IpAddresses: handshake.remoteAddress ? [handshake.remoteAddress] : [],
      TlsVersion: handshake.protocol, Cipher: handshake.cipher, ChainVerified: handshake.authorized, VerificationError: handshake.authorizationError,
      CertificateFingerprint: leaf?.fingerprintSha256 ?? null, CertificateNotAfter: leaf?.notAfter ?? null, CertificateDaysToExpiry: leaf?.daysToExpiry ?? null,
      LastSeen: new Date().toISOString(),
    },
    raw: { id: `${host}:${port}/tcp`, host, port, address: handshake.remoteAddress, protocol: handshake.protocol, cipher: handshake.cipher, authorized: handshake.authorized, authorization_error: handshake.authorizationError },
  }];
  const chainFingerprints = chain.map(({ details }) => details.fingerprintSha256);
  chain.forEach(({ der, details }, position) => {
    if (position > 0 && reportedIssuers.has(details.fingerprintSha256)) return;
    if (position > 0) reportedIssuers.add(details.fingerprintSha256);
    const id = position === 0 ? `${details.fingerprintSha256}@${host}:${port}` : details.fingerprintSha256;
    const pem = pemOf(der);
    records.push({ entity: 'certificate', fields: certificateFields(details, handshake, position, position === 0 ? chainFingerprints : [], pem), raw: { id, ...details } });
  });
  return records;
}

function pemOf(der: Buffer): string {
  const body = der.toString('base64').match(/.{1,64}/g)!.join('\n');
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`;
}

function handshakes(settings: TlsScanSettings, signal: AbortSignal, limit = Number.POSITIVE_INFINITY) {
  function* limited() {
    let count = 0;
    for (const endpoint of endpointsOf(settings)) {
      if (count++ >= limit) return;
      yield endpoint;
    }
  }
  return boundedPool(limited(), (endpoint) => probeTls(endpoint, settings.handshakeTimeoutMs, settings.customCa), { concurrency: settings.concurrency, signal });
}

/** The TLS certificate scanner (`cartograph-certificate`): the certificate chains served by host:port lists. */
export const tlsScannerEngine: AdapterEngine = {
  name: 'tls-scanner',

  async test({ config, signal }) {
    let settings: TlsScanSettings;
    try {
      settings = readTlsScanSettings(config);
    } catch (error) {
      if (error instanceof TlsConfigError) return { ok: false, reason: 'invalid_config', detail: error.message };
      throw error;
    }
    const failures: Array<Extract<TlsHandshake, { ok: false }>> = [];
    let answered = 0;
    for await (const handshake of handshakes(settings, signal, checkedEndpoints)) {
      if (handshake.ok) answered += 1;
      else failures.push(handshake);
    }
    const tried = answered + failures.length;
    if (!answered && failures.length) return { ok: false, reason: failures[0].reason, detail: `None of the ${tried} endpoints tried completed a TLS handshake. ${failures[0].detail}` };
    return { ok: true, detail: `${answered} of ${tried} endpoints tried answered with a certificate; the scan covers ${settings.endpointCount.toLocaleString('en')} endpoints.` };
  },

  async *fetch({ config, signal, warn }) {
    const settings = readTlsScanSettings(config);
    const reportedIssuers = new Set<string>();
    let answered = 0;
    let failed = 0;
    let firstFailure = '';
    for await (const handshake of handshakes(settings, signal)) {
      if (!handshake.ok) {
        failed += 1;
        firstFailure ||= handshake.detail;
        if (failed <= maximumListedFailures) warn(handshake.detail);
        continue;
      }
      answered += 1;
      yield* endpointRecords(handshake, reportedIssuers, warn);
    }
    if (failed > maximumListedFailures) warn(`…and ${(failed - maximumListedFailures).toLocaleString('en')} more endpoints did not answer (${failed.toLocaleString('en')} of ${(answered + failed).toLocaleString('en')} in all).`);
    if (signal.aborted) warn(`The scan was cancelled after ${(answered + failed).toLocaleString('en')} of ${settings.endpointCount.toLocaleString('en')} endpoints.`);
    // Every endpoint down is a failed fetch (wrong targets or no route), not an empty inventory.
    else if (!answered && failed) throw new Error(`None of the ${failed.toLocaleString('en')} endpoints completed a TLS handshake. ${firstFailure}`);
  },
};
