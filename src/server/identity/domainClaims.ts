import { randomBytes } from 'node:crypto';
import type { TxtResolver } from '../context.js';
import type { Queryable } from '../db/database.js';

/**
 * A company's claim on a DNS domain. A claim routes single sign-on to the company only once it is verified: the
 * company published its claim's token in a TXT record, or the provider company approved the claim. Each claim has
 * its own random token, so one company's record never proves another company's claim on the same domain.
 */
export type ClaimStatus = 'pending' | 'verified';
export type VerificationMethod = 'dns' | 'provider' | 'legacy';

const recordPrefix = 'cartograph-verification=';

/** 32 URL-safe characters from 24 random bytes. */
export const newVerificationToken = (): string => randomBytes(24).toString('base64url');

/** The TXT record that proves a claim, and the names it may be published at (the dedicated name first). */
export function verificationRecord(domain: string, token: string) {
  return { type: 'TXT' as const, names: [`_cartograph.${domain}`, domain], value: `${recordPrefix}${token}` };
}

/** Look-up answers that only say "no such record": anything else (a server failure, a timeout) is worth saying. */
const absentCodes = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

export type TxtCheck = { found: boolean; lookupFailures: string[] };

/** Looks for the claim's record at each of its names; a long TXT value comes back in chunks, joined here. */
export async function findVerificationRecord(resolveTxt: TxtResolver, domain: string, token: string): Promise<TxtCheck> {
  const { names, value } = verificationRecord(domain, token);
  const lookupFailures: string[] = [];
  for (const name of names) {
    let records: string[][];
    try {
      records = await resolveTxt(name);
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'error';
      if (!absentCodes.has(code)) lookupFailures.push(`${name} (${code})`);
      continue;
    }
    if (records.some((chunks) => chunks.join('').trim() === value)) return { found: true, lookupFailures };
  }
  return { found: false, lookupFailures };
}

/**
 * True when another company signs people in through this domain: it holds the domain verified, or users of it
 * signed in through single sign-on with addresses at the domain (even if that company has let the domain go).
 * Only the provider company may give such a domain to a company.
 */
export async function usedForSignInElsewhere(db: Queryable, domain: string, companyId: number): Promise<boolean> {
  const [row] = await db.query<{ used: boolean }>(
    `select exists (select 1 from domains where lower(domain) = $1 and company_id <> $2 and verified_at is not null)
         or exists (select 1 from users where company_id <> $2 and sso_subject is not null and email like '%@%'
                       and lower(regexp_replace(email, '^.*@', '')) = $1) as used`,
    [domain, companyId],
  );
  return row!.used;
}

/** True when another company holds the domain verified (the database allows one verified claim per domain). */
export async function verifiedElsewhere(db: Queryable, domain: string, companyId: number): Promise<boolean> {
  const rows = await db.query('select 1 from domains where lower(domain) = $1 and company_id <> $2 and verified_at is not null', [domain, companyId]);
  return rows.length > 0;
}
