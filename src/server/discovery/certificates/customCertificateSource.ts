import { X509Certificate } from 'node:crypto';
import { orderChain } from '../../certificates/chains.js';
import type { Queryable } from '../../db/database.js';

/** The adapter custom certificates are reported under: the built-in certificate pseudo-adapter. */
export const customCertificateAdapter = 'cartograph-certificate';

/** One record of the certificate stream as the certificate stage reads it (a snapshot record, or a custom certificate). */
export type CertificateSighting = { key: string; connectionId: number; adapter: string; fields: Record<string, unknown[]> };

const pemBlocks = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * The custom certificates of the discovery's company as certificate sightings: every certificate of each upload
 * (leaf first), the leaf with its chain and whether the chain verifies today. They name no endpoint.
 */
export async function customCertificateSightings(db: Queryable, discoveryId: number): Promise<CertificateSighting[]> {
  const rows = await db.query<{ id: number; certificates: string }>(
    'select c.id, c.certificates from custom_certificates c join discoveries d on d.company_id = c.company_id where d.id = $1 order by c.id',
    [discoveryId],
  );
  const sightings: CertificateSighting[] = [];
  for (const row of rows) {
    const pems = row.certificates.match(pemBlocks) ?? [];
    if (!pems.length) continue;
    const ordered = orderChain(pems.map((pem) => new X509Certificate(pem).raw));
    const chain = ordered.chain.map((der) => new X509Certificate(der).fingerprint256);
    pems.forEach((pem, index) => {
      const leaf = new X509Certificate(pem).fingerprint256 === chain[0];
      sightings.push({
        key: `custom:${row.id}:${index}`, connectionId: 0, adapter: customCertificateAdapter,
        fields: { Pem: [pem], ...(leaf && { ChainFingerprints: chain, ChainVerified: [ordered.verified], VerificationError: ordered.verificationError ? [ordered.verificationError] : [] }) },
      });
    });
  }
  return sightings;
}
