import { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';

/** Whether `issuer` issued `subject`: names match and the signature verifies with the issuer's key. */
function issued(issuer: X509Certificate, subject: X509Certificate): boolean {
  try {
    return subject.issuer === issuer.subject && subject.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

let trustedRoots: X509Certificate[] | null = null;
function roots(): X509Certificate[] {
  trustedRoots ??= rootCertificates.map((pem) => new X509Certificate(pem));
  return trustedRoots;
}

/** The common name of a certificate, or its whole subject: how messages name it. */
const nameOf = (certificate: X509Certificate): string => certificate.subject.split('\n').find((line) => line.startsWith('CN=')) ?? certificate.subject.replace(/\n/g, ', ');

export type OrderedChain = {
  /** The certificates, leaf first, each followed by its issuer where the upload holds it. */
  chain: Buffer[];
  /** Every link verifies and the last certificate is a trusted root or issued by one (Node's bundled authorities). */
  verified: boolean;
  /** Why not, in words. */
  verificationError: string | null;
};

/**
 * Orders a bundle leaf first and checks it. Before: `[intermediate, root, leaf]` (PKCS#7 bundles keep no order);
 * after: `{chain: [leaf, intermediate, root], verified: false, verificationError: 'the root … is not trusted'}`.
 * The leaf is the certificate that issued none of the others; certificates outside the leaf's chain follow it.
 */
export function orderChain(ders: Buffer[]): OrderedChain {
  const certificates = ders.map((der) => ({ der, x509: new X509Certificate(der) }));
  const issuers = new Set<number>();
  certificates.forEach((candidate, index) => {
    if (certificates.some((other, otherIndex) => otherIndex !== index && issued(candidate.x509, other.x509) && !issued(other.x509, candidate.x509))) issuers.add(index);
  });
  const leafIndex = Math.max(0, certificates.findIndex((_, index) => !issuers.has(index)));
  const chain = [certificates[leafIndex]];
  const used = new Set([leafIndex]);
  for (;;) {
    const last = chain[chain.length - 1];
    const next = certificates.findIndex((candidate, index) => !used.has(index) && issued(candidate.x509, last.x509));
    if (next < 0) break;
    used.add(next);
    chain.push(certificates[next]);
  }
  const top = chain[chain.length - 1].x509;
  const trusted = roots().some((root) => root.fingerprint256 === top.fingerprint256 || issued(root, top));
  const now = Date.now();
  const expired = chain.find(({ x509 }) => new Date(x509.validTo).getTime() < now || new Date(x509.validFrom).getTime() > now);
  const verificationError = expired
    ? `${nameOf(expired.x509)} is outside its validity period`
    : trusted ? null : `the chain ends at ${nameOf(top)}, which is not a trusted authority`;
  return { chain: [...chain, ...certificates.filter((_, index) => !used.has(index))].map(({ der }) => der), verified: !verificationError, verificationError };
}
