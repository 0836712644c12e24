import type { Queryable } from '../../db/database.js';

/** A name as typed at sign-in, split into the account and the domain it names: `alice@corp.example`, `CORP\alice`. */
export function splitQualifiedName(typed: string): { account: string; domain: string | null; netbios: boolean } {
  const at = typed.lastIndexOf('@');
  if (at > 0 && at < typed.length - 1) return { account: typed.slice(0, at), domain: typed.slice(at + 1), netbios: false };
  const backslash = typed.indexOf('\\');
  if (backslash > 0 && backslash < typed.length - 1) return { account: typed.slice(backslash + 1), domain: typed.slice(0, backslash), netbios: true };
  return { account: typed, domain: null, netbios: false };
}

/**
 * The one company whose directories may be asked about this name, or null (then none is asked):
 * 1. the company of the user of that name (local or directory user): names are unique across companies;
 * 2. else the company owning the verified domain the name carries (a pending claim routes nothing): `alice@corp.example` the domain itself, `CORP\alice` a
 *    domain whose first label is CORP (when only one company has such a domain);
 * 3. else, when the name carries no domain a company owns, the only company with a directory, if there is one.
 * A directory never sees the password of a name another company owns, and a bare name is never tried against
 * several companies' directories (the first to answer would take the name).
 */
export async function companyForDirectorySignIn(db: Queryable, typed: string, companiesWithDirectories: number[]): Promise<number | null> {
  const [user] = await db.query<{ company_id: number }>('select company_id from users where lower(username) = lower($1)', [typed]);
  if (user) return user.company_id;
  const { domain, netbios } = splitQualifiedName(typed);
  if (domain) {
    const owners = await db.query<{ company_id: number }>(
      `select distinct company_id from domains
        where verified_at is not null and (lower(domain) = lower($1) or ($2 and split_part(lower(domain), '.', 1) = lower($1)))`, [domain, netbios],
    );
    if (owners.length === 1) return owners[0]!.company_id;
    if (owners.length > 1) return null;
  }
  return companiesWithDirectories.length === 1 ? companiesWithDirectories[0]! : null;
}
