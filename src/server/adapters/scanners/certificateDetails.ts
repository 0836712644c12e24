import { X509Certificate } from 'node:crypto';

/** What an inventory needs to know about one X.509 certificate. */
export type CertificateDetails = {
  subject: string;
  commonName: string | null;
  issuer: string;
  issuerCommonName: string | null;
  subjectAltNames: string[];
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  daysToExpiry: number;
  expired: boolean;
  keyAlgorithm: string | null;
  keySize: number | null;
  keyCurve: string | null;
  signatureAlgorithm: string | null;
  selfSigned: boolean;
  isCa: boolean;
  fingerprintSha256: string;
  fingerprintSha1: string;
};

// Signature algorithm OIDs (RFC 4055, RFC 5758, RFC 8410) by their usual names.
const signatureAlgorithms: Record<string, string> = {
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption', '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption', '1.2.840.113549.1.1.10': 'RSASSA-PSS',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption', '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption', '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1', '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256', '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512', '1.3.101.112': 'Ed25519', '1.3.101.113': 'Ed448', '1.2.840.10040.4.3': 'dsa-with-SHA1',
};

// A DER header: tag, then a short or long-form length. Returns where the content starts and how long it is.
function derHeader(der: Buffer, offset: number): { tag: number; start: number; length: number } {
  const tag = der[offset];
  let length = der[offset + 1];
  let start = offset + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes < 1 || bytes > 4) throw new Error('unsupported DER length');
    length = der.readUIntBE(start, bytes);
    start += bytes;
  }
  if (start + length > der.length) throw new Error('truncated DER');
  return { tag, start, length };
}

function decodeOid(bytes: Buffer): string {
  const parts = [Math.floor(bytes[0] / 40), bytes[0] % 40];
  let value = 0;
  for (const byte of bytes.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

/**
 * The signature algorithm of a DER certificate (Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, … }),
 * which node:crypto does not expose. Before: the DER bytes; after: `"sha256WithRSAEncryption"` (or the OID if unknown).
 */
export function signatureAlgorithmOf(der: Buffer): string | null {
  try {
    const certificate = derHeader(der, 0);
    const tbs = derHeader(der, certificate.start);
    const algorithm = derHeader(der, tbs.start + tbs.length);
    const oid = derHeader(der, algorithm.start);
    if (certificate.tag !== 0x30 || algorithm.tag !== 0x30 || oid.tag !== 0x06) return null;
    const dotted = decodeOid(der.subarray(oid.start, oid.start + oid.length));
    return signatureAlgorithms[dotted] ?? dotted;
  } catch {
    return null;
  }
}

const curveBits: Record<string, number> = { prime256v1: 256, secp384r1: 384, secp521r1: 521, secp256k1: 256 };
const edwardsBits: Record<string, number> = { ed25519: 256, ed448: 448 };

const commonNameOf = (distinguishedName: string): string | null => distinguishedName.split('\n').find((line) => line.startsWith('CN='))?.slice(3) ?? null;

/** `"O=Example\nCN=www.example.com"` (node's form) → `"CN=www.example.com, O=Example"` (most specific first, as RFC 4514 prints). */
function readableName(distinguishedName: string): string {
  return distinguishedName.split('\n').filter(Boolean).reverse().join(', ');
}

/** `"DNS:a.example, IP Address:10.0.0.1"` → `["DNS:a.example", "IP:10.0.0.1"]`. */
function alternativeNames(text: string | undefined): string[] {
  if (!text) return [];
  return text.split(/,\s*(?=[A-Za-z ]+:)/).map((name) => name.trim().replace(/^IP Address:/, 'IP:')).filter(Boolean);
}

/** Reads one certificate. `now` is a parameter so expiry arithmetic is testable. */
export function describeCertificate(der: Buffer, now = new Date()): CertificateDetails {
  const certificate = new X509Certificate(der);
  const notBefore = new Date(certificate.validFrom);
  const notAfter = new Date(certificate.validTo);
  const key = certificate.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  // Self-signed: issued to itself and signed by its own key. (checkIssued would also demand keyCertSign, which
  // self-signed server certificates rarely carry.)
  let selfSigned = false;
  try {
    selfSigned = certificate.subject === certificate.issuer && certificate.verify(key);
  } catch {
    selfSigned = false;
  }
  return {
    subject: readableName(certificate.subject),
    commonName: commonNameOf(certificate.subject),
    issuer: readableName(certificate.issuer),
    issuerCommonName: commonNameOf(certificate.issuer),
    subjectAltNames: alternativeNames(certificate.subjectAltName),
    serialNumber: certificate.serialNumber.toUpperCase(),
    notBefore: notBefore.toISOString(),
    notAfter: notAfter.toISOString(),
    daysToExpiry: Math.floor((notAfter.getTime() - now.getTime()) / 86_400_000),
    expired: notAfter.getTime() < now.getTime(),
    keyAlgorithm: key.asymmetricKeyType ?? null,
    keySize: details.modulusLength ?? (details.namedCurve ? curveBits[details.namedCurve] : edwardsBits[key.asymmetricKeyType ?? '']) ?? null,
    keyCurve: details.namedCurve ?? null,
    signatureAlgorithm: signatureAlgorithmOf(der),
    selfSigned,
    isCa: certificate.ca,
    fingerprintSha256: certificate.fingerprint256,
    fingerprintSha1: certificate.fingerprint,
  };
}
