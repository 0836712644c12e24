import { describeCertificate } from '../adapters/scanners/certificateDetails.js';

/** What the inventory keeps of one certificate, however a source described it. */
export type CertificateFacts = {
  commonName: string | null;
  subject: string | null;
  issuer: string | null;
  issuerCommonName: string | null;
  subjectAltNames: string[];
  serialNumber: string | null;
  notBefore: string | null;
  notAfter: string | null;
  keyAlgorithm: string | null;
  keySize: number | null;
  keyCurve: string | null;
  signatureAlgorithm: string | null;
  selfSigned: boolean | null;
  isCa: boolean | null;
  fingerprintSha256: string | null;
  fingerprintSha1: string | null;
};

export const expiryStatuses = { expired: 'Expired', month: 'Expires within 30 days', quarter: 'Expires within 90 days', valid: 'Valid' } as const;

const day = 86_400_000;

/** Days from `now` to the expiry, rounded down (negative once expired). */
export function daysToExpiry(notAfter: string, now: Date): number {
  return Math.floor((new Date(notAfter).getTime() - now.getTime()) / day);
}

/** Expired, within 30 days, within 90 days, or valid, as of `now`. */
export function expiryStatus(notAfter: string | null, now: Date): string | null {
  if (!notAfter) return null;
  const left = new Date(notAfter).getTime() - now.getTime();
  if (Number.isNaN(left)) return null;
  if (left < 0) return expiryStatuses.expired;
  if (left < 30 * day) return expiryStatuses.month;
  if (left < 90 * day) return expiryStatuses.quarter;
  return expiryStatuses.valid;
}

/**
 * Weak keys and algorithms: RSA under 2048 bits, any DSA key, EC under 256 bits, SHA-1 or MD5 signatures. A root's
 * signature on itself is not checked by anyone who trusts it, so a self-signed authority's SHA-1 is not counted.
 */
export function weaknessesOf(facts: Pick<CertificateFacts, 'keyAlgorithm' | 'keySize' | 'signatureAlgorithm' | 'selfSigned' | 'isCa'>): string[] {
  const weaknesses: string[] = [];
  const algorithm = facts.keyAlgorithm?.toLowerCase() ?? '';
  if (algorithm.startsWith('rsa') && facts.keySize !== null && facts.keySize < 2048) weaknesses.push('RSA key under 2048 bits');
  if (algorithm === 'dsa') weaknesses.push('DSA key');
  if (algorithm === 'ec' && facts.keySize !== null && facts.keySize < 256) weaknesses.push('EC key under 256 bits');
  const signature = facts.signatureAlgorithm ?? '';
  if (!(facts.selfSigned && facts.isCa)) {
    if (/md5/i.test(signature)) weaknesses.push('MD5 signature');
    else if (/sha-?1(?![0-9])/i.test(signature)) weaknesses.push('SHA-1 signature');
  }
  return weaknesses;
}

/** Facts of a DER certificate, read by node:crypto. */
export function factsOfDer(der: Buffer): CertificateFacts {
  const details = describeCertificate(der);
  return {
    commonName: details.commonName, subject: details.subject, issuer: details.issuer, issuerCommonName: details.issuerCommonName,
    subjectAltNames: details.subjectAltNames, serialNumber: details.serialNumber, notBefore: details.notBefore, notAfter: details.notAfter,
    keyAlgorithm: details.keyAlgorithm, keySize: details.keySize, keyCurve: details.keyCurve, signatureAlgorithm: details.signatureAlgorithm,
    selfSigned: details.selfSigned, isCa: details.isCa, fingerprintSha256: details.fingerprintSha256, fingerprintSha1: details.fingerprintSha1,
  };
}

/**
 * A fingerprint as node:crypto prints it (upper-case hex pairs joined by colons). Before: `"a1b2…"`, `"A1:B2:…"`, or
 * base64url (Azure's `x5t`); after: `"A1:B2:…"`. Null when the text is none of those for `bytes` bytes.
 */
export function normalizeFingerprint(value: unknown, bytes: 20 | 32): string | null {
  if (typeof value !== 'string') return null;
  let hex = value.trim().replace(/[:\s-]/g, '');
  if (!new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(hex)) {
    const decoded = /^[A-Za-z0-9_+/-]+=*$/.test(value.trim()) ? Buffer.from(value.trim(), 'base64url') : Buffer.alloc(0);
    if (decoded.length !== bytes) return null;
    hex = decoded.toString('hex');
  }
  return hex.toUpperCase().match(/.{2}/g)!.join(':');
}

/** A serial number as hex without separators or leading zero bytes, upper case (`"0a:1b"` → `"0A1B"`, `"00FF"` → `"FF"`). */
export function normalizeSerial(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const hex = String(value).trim().replace(/[:\s-]/g, '').toUpperCase();
  if (!/^[0-9A-F]+$/.test(hex)) return null;
  return hex.replace(/^(00)+(?=..)/, '') || null;
}

const text = (values: unknown[] | undefined): string | null => {
  const first = values?.find((value) => typeof value === 'string' || typeof value === 'number');
  return first === undefined ? null : String(first).trim() || null;
};
const number = (values: unknown[] | undefined): number | null => {
  const value = Number(text(values));
  return text(values) !== null && Number.isFinite(value) ? value : null;
};
const flag = (values: unknown[] | undefined): boolean | null => {
  const value = values?.[0];
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return null;
};
const isoDate = (values: unknown[] | undefined): string | null => {
  const value = text(values);
  if (!value) return null;
  // Epoch seconds (Azure's attributes.exp) or milliseconds, or any date text.
  const date = /^\d{9,10}$/.test(value) ? new Date(Number(value) * 1000) : /^\d{12,13}$/.test(value) ? new Date(Number(value)) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

/**
 * Facts of a certificate as a source reports them without its bytes (a certificate manager's fields). Key types
 * written together (`RSA_2048`, `EC_prime256v1`, ACM's style) are split into algorithm and size.
 */
export function factsOfReported(fields: Record<string, unknown[]>): CertificateFacts {
  let keyAlgorithm = text(fields.KeyAlgorithm)?.toLowerCase() ?? null;
  let keySize = number(fields.KeySize);
  let keyCurve = text(fields.KeyCurve);
  const combined = keyAlgorithm && /^(rsa|ec|ecdsa|dsa)[_-]?(\w+)$/.exec(keyAlgorithm);
  if (combined) {
    keyAlgorithm = combined[1];
    if (/^\d+$/.test(combined[2])) keySize ??= Number(combined[2]);
    else keyCurve ??= combined[2];
  }
  if (keyAlgorithm === 'ecdsa') keyAlgorithm = 'ec';
  if (keyAlgorithm === 'ec' && keySize === null && keyCurve) keySize = Number(/\d{3}/.exec(keyCurve)?.[0]) || null;
  const subject = text(fields.Subject);
  return {
    commonName: text(fields.CommonName) ?? (subject && /CN=([^,/]+)/.exec(subject)?.[1]) ?? null,
    subject,
    issuer: text(fields.Issuer),
    issuerCommonName: text(fields.IssuerCommonName) ?? (text(fields.Issuer) && /CN=([^,/]+)/.exec(text(fields.Issuer)!)?.[1]) ?? null,
    subjectAltNames: (fields.SubjectAltNames ?? []).filter((name): name is string => typeof name === 'string' && Boolean(name.trim())).map((name) => (/^[A-Za-z ]+:/.test(name) ? name : `DNS:${name}`)),
    serialNumber: normalizeSerial(text(fields.SerialNumber)),
    notBefore: isoDate(fields.NotBefore),
    notAfter: isoDate(fields.NotAfter),
    keyAlgorithm, keySize, keyCurve,
    signatureAlgorithm: text(fields.SignatureAlgorithm),
    selfSigned: flag(fields.SelfSigned),
    isCa: flag(fields.IsCa),
    fingerprintSha256: normalizeFingerprint(text(fields.FingerprintSha256) ?? text(fields.Fingerprint), 32),
    fingerprintSha1: normalizeFingerprint(text(fields.FingerprintSha1), 20),
  };
}
