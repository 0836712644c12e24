import { X509Certificate } from 'node:crypto';
import type { Queryable } from '../db/database.js';
import { fieldError, notFound } from '../errors.js';
import { expiryStatus, factsOfDer, weaknessesOf } from './certificateFacts.js';
import { CertificateInputError, pemOfDer, readCertificateUpload } from './certificateInput.js';
import { orderChain } from './chains.js';
import { containsPattern } from '../db/likePatterns.js';

// Custom certificates: uploaded or pasted by administrators, kept as the PEM text of the certificates they hold
// (leaf first), and reported into the certificate inventory by every discovery (customCertificateSource.ts).

export type CustomCertificateBody = { name: string; description?: string; certificate?: string; password?: string; file_name?: string };

type Row = { id: number; name: string; description: string; certificates: string; certificate_count: number; created_at: string; updated_at: string; created_by_name: string | null };

const pemBlocks = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** What the API answers for a custom certificate: its own fields and the leaf's facts, read again from the PEM. */
function present(row: Row, now = new Date()) {
  const pems = row.certificates.match(pemBlocks) ?? [];
  const ders = pems.map((pem) => new X509Certificate(pem).raw);
  const facts = factsOfDer(ders[0]);
  const chain = orderChain(ders);
  return {
    id: row.id, name: row.name, description: row.description,
    common_name: facts.commonName, subject: facts.subject, issuer: facts.issuer, serial_number: facts.serialNumber,
    subject_alt_names: facts.subjectAltNames, not_before: facts.notBefore, not_after: facts.notAfter, expiry_status: expiryStatus(facts.notAfter, now),
    key_algorithm: facts.keyAlgorithm, key_size: facts.keySize, signature_algorithm: facts.signatureAlgorithm, weaknesses: weaknessesOf(facts),
    self_signed: facts.selfSigned, is_ca: facts.isCa, fingerprint_sha256: facts.fingerprintSha256, fingerprint_sha1: facts.fingerprintSha1,
    chain_verified: chain.verified, verification_error: chain.verificationError, certificate_count: row.certificate_count,
    chain: ders.map((der) => { const item = factsOfDer(der); return { common_name: item.commonName, subject: item.subject, issuer: item.issuer, not_after: item.notAfter, fingerprint_sha256: item.fingerprintSha256 }; }),
    pem: row.certificates,
    created_by: row.created_by_name, created_at: row.created_at, updated_at: row.updated_at,
  };
}

/** Reads an upload into the PEM text stored (leaf first) and its leaf's fingerprint; refusals become field errors. */
async function readUpload(body: CustomCertificateBody): Promise<{ pem: string; fingerprint: string; count: number }> {
  try {
    const upload = await readCertificateUpload(Buffer.from(body.certificate ?? '', 'utf8'), body.password ?? null);
    const { chain } = orderChain(upload.certificates);
    return { pem: chain.map(pemOfDer).join(''), fingerprint: new X509Certificate(chain[0]).fingerprint256, count: chain.length };
  } catch (error) {
    if (error instanceof CertificateInputError) throw fieldError(/PKCS#12 password|give its password/.test(error.message) ? 'password' : 'certificate', error.message);
    throw error;
  }
}

const select = `select c.id, c.name, c.description, c.certificates, c.certificate_count, c.created_at, c.updated_at, u.username as created_by_name
  from custom_certificates c left join users u on u.id = c.created_by`;

async function readRow(db: Queryable, companyId: number, id: number): Promise<Row> {
  const [row] = await db.query<Row>(`${select} where c.company_id = $1 and c.id = $2`, [companyId, id]);
  if (!row) throw notFound();
  return row;
}

async function refuseDuplicate(db: Queryable, companyId: number, fingerprint: string, except: number | null): Promise<void> {
  const [other] = await db.query<{ name: string }>('select name from custom_certificates where company_id = $1 and fingerprint_sha256 = $2 and id <> coalesce($3::int, -1)', [companyId, fingerprint, except]);
  if (other) throw fieldError('certificate', `This certificate is already uploaded as "${other.name}".`);
}

export async function listCustomCertificates(db: Queryable, companyId: number, search: string | null, limit: number, offset: number) {
  const filter = 'c.company_id = $1 and ($2::text is null or c.name ilike $2 or c.description ilike $2)';
  const pattern = search ? containsPattern(search) : null;
  const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from custom_certificates c where ${filter}`, [companyId, pattern]);
  const rows = await db.query<Row>(`${select} where ${filter} order by lower(c.name), c.id limit $3 offset $4`, [companyId, pattern, limit, offset]);
  return { count, rows: rows.map((row) => present(row)) };
}

export async function readCustomCertificate(db: Queryable, companyId: number, id: number) {
  return present(await readRow(db, companyId, id));
}

export async function createCustomCertificate(db: Queryable, companyId: number, userId: number, body: CustomCertificateBody) {
  const upload = await readUpload(body);
  await refuseDuplicate(db, companyId, upload.fingerprint, null);
  const [{ id }] = await db.query<{ id: number }>(
    `insert into custom_certificates (company_id, name, description, fingerprint_sha256, certificates, certificate_count, created_by)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [companyId, body.name.trim(), body.description ?? '', upload.fingerprint, upload.pem, upload.count, userId],
  );
  return readCustomCertificate(db, companyId, id);
}

export async function updateCustomCertificate(db: Queryable, companyId: number, id: number, body: CustomCertificateBody) {
  await readRow(db, companyId, id);
  if (body.certificate?.trim()) {
    const upload = await readUpload(body);
    await refuseDuplicate(db, companyId, upload.fingerprint, id);
    await db.query('update custom_certificates set fingerprint_sha256 = $3, certificates = $4, certificate_count = $5 where company_id = $1 and id = $2', [companyId, id, upload.fingerprint, upload.pem, upload.count]);
  }
  await db.query('update custom_certificates set name = $3, description = $4, updated_at = now() where company_id = $1 and id = $2', [companyId, id, body.name.trim(), body.description ?? '']);
  return readCustomCertificate(db, companyId, id);
}

export async function deleteCustomCertificate(db: Queryable, companyId: number, id: number): Promise<void> {
  const deleted = await db.query('delete from custom_certificates where company_id = $1 and id = $2 returning id', [companyId, id]);
  if (!deleted.length) throw notFound();
}
