import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expiryStatus, factsOfDer, factsOfReported, normalizeFingerprint, weaknessesOf } from '../../src/server/certificates/certificateFacts.js';
import { CertificateInputError, derOfReported, readCertificateUpload } from '../../src/server/certificates/certificateInput.js';
import { orderChain } from '../../src/server/certificates/chains.js';
import { derOf, opensslFile } from './certificateFixtures.js';
import { issueCertificate } from '../support/testCertificates.js';

// Reading certificates and their facts without a database: the odd certificates of "Bad input" (negative serials,
// unusual extensions), the vendors' spellings of fingerprints and key types, and chain order.

/** A self-signed certificate made by `openssl req -x509` with extra arguments. */
function selfSigned(extra: string[]): string {
  return opensslFile(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '30', '-subj', '/CN=odd.example', ...extra], {}, 'cert.pem').toString('utf8');
}

describe('certificate parsing', () => {
  it('reads a certificate with a negative serial and an unknown non-critical extension', () => {
    const pem = selfSigned(['-set_serial', '-4660', '-addext', '1.3.6.1.4.1.55555.1=ASN1:UTF8String:cartograph test extension']);
    const facts = factsOfDer(derOf(pem));
    expect(facts).toMatchObject({ commonName: 'odd.example', selfSigned: true, keyAlgorithm: 'rsa', keySize: 2048 });
    // Whatever sign the serial has, it is read as the certificate holds it, the same on every reading.
    expect(facts.serialNumber).toMatch(/^-?[0-9A-F]+$/);
    expect(factsOfDer(derOf(pem)).serialNumber).toBe(facts.serialNumber);
    expect(facts.fingerprintSha256).toBe(new X509Certificate(pem).fingerprint256);
  });

  it('refuses garbage, truncated text, keys and requests with a clear message', async () => {
    const refusal = (input: string | Buffer) => readCertificateUpload(Buffer.isBuffer(input) ? input : Buffer.from(input)).then(() => 'read', (error: Error) => (error instanceof CertificateInputError ? error.message : `unexpected: ${error.message}`));
    const certificate = issueCertificate({ commonName: 'parse.example' }, null);
    expect(await refusal('')).toBe('The upload is empty.');
    expect(await refusal(Buffer.from([0x30, 0x82, 0x05, 0x00, 0x01, 0x02]))).toMatch(/not a certificate Cartograph can read/);
    expect(await refusal(certificate.cert.slice(0, -40))).toMatch(/truncated/);
    expect(await refusal(certificate.key)).toMatch(/private key \(PRIVATE KEY\)/);
    expect(await refusal(Buffer.alloc(2_000_000, 65))).toMatch(/larger than 1 MiB/);
    const request = opensslFile(['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'req.pem', '-subj', '/CN=req.example'], {}, 'req.pem').toString('utf8');
    expect(await refusal(request)).toBe('This holds a CERTIFICATE REQUEST, not a certificate.');
    expect(await refusal(derOf(certificate.cert).subarray(0, 300))).toMatch(/not a certificate Cartograph can read/);
  });

  it('reads what vendors report instead of bytes: thumbprints in base64url, ACM key types, SHA-1 signatures', () => {
    const sha1 = 'A1B2C3D4E5F60718293A4B5C6D7E8F9012345678';
    expect(normalizeFingerprint(Buffer.from(sha1, 'hex').toString('base64url'), 20)).toBe(sha1.match(/.{2}/g)!.join(':'));
    expect(normalizeFingerprint('not a fingerprint', 20)).toBeNull();
    const facts = factsOfReported({ CommonName: ['api.example.com'], KeyAlgorithm: ['EC_prime256v1'], SignatureAlgorithm: ['SHA1WITHECDSA'], SerialNumber: ['0a:1b'], NotAfter: ['1767225600'] });
    expect(facts).toMatchObject({ keyAlgorithm: 'ec', keyCurve: 'prime256v1', keySize: 256, serialNumber: '0A1B', notAfter: '2026-01-01T00:00:00.000Z' });
    expect(weaknessesOf(facts)).toEqual(['SHA-1 signature']);
    expect(weaknessesOf(factsOfReported({ KeyAlgorithm: ['RSA_1024'], SignatureAlgorithm: ['sha256WithRSAEncryption'] }))).toEqual(['RSA key under 2048 bits']);
    // A root's signature on itself is never checked: its SHA-1 is no weakness.
    expect(weaknessesOf({ keyAlgorithm: 'rsa', keySize: 2048, signatureAlgorithm: 'sha1WithRSAEncryption', selfSigned: true, isCa: true })).toEqual([]);
    const now = new Date('2026-11-25T00:00:00Z');
    expect(['2026-11-24T00:00:00Z', '2026-12-20T00:00:00Z', '2027-02-01T00:00:00Z', '2027-06-01T00:00:00Z', null].map((date) => expiryStatus(date, now)))
      .toEqual(['Expired', 'Expires within 30 days', 'Expires within 90 days', 'Valid', null]);
    expect(derOfReported(derOf(issueCertificate({ commonName: 'b64.example' }, null).cert).toString('base64'))).not.toBeNull();
    expect(derOfReported('bm90IGEgY2VydGlmaWNhdGU=')).toBeNull();
  });

  it('orders a bundle leaf first and says why an untrusted chain does not verify', () => {
    const root = issueCertificate({ commonName: 'Parse Root', isCa: true }, null);
    const issuing = issueCertificate({ commonName: 'Parse Issuing', isCa: true }, root);
    const leaf = issueCertificate({ commonName: 'leaf.parse.example' }, issuing);
    const ordered = orderChain([root, leaf, issuing].map((certificate) => derOf(certificate.cert)));
    expect(ordered.chain.map((der) => new X509Certificate(der).subject.split('\n').find((line) => line.startsWith('CN=')))).toEqual(['CN=leaf.parse.example', 'CN=Parse Issuing', 'CN=Parse Root']);
    expect(ordered).toMatchObject({ verified: false, verificationError: expect.stringMatching(/Parse Root, which is not a trusted authority/) });
  });
});
