import type { AppContext } from '../../context.js';
import type { Database, Queryable } from '../../db/database.js';
import type { Caller } from '../../identity/callers.js';
import {
  findVerificationRecord, newVerificationToken, usedForSignInElsewhere, verificationRecord, verifiedElsewhere, type VerificationMethod,
} from '../../identity/domainClaims.js';
import { detailError, fieldError, notFound, requireProvider } from '../errors.js';
import { orderByClause, paginated } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { companyById, listQuery, visibility, visibleCompanies } from './companies.js';

type DomainBody = { domain?: string; tenant?: number; is_primary?: boolean };
type DomainRow = {
  id: number; domain: string; tenant: number; tenant_name: string; is_primary: boolean;
  verification_token: string; verified_at: Date | null; verification_method: VerificationMethod | null;
};

const domainSelect = `select d.id, d.domain, d.company_id as tenant, c.name as tenant_name, d.is_primary, d.verification_token, d.verified_at, d.verification_method
  from domains d join companies c on c.id = d.company_id`;

/** The reference shape plus the claim: its status, how it was verified, and the TXT record that proves it. */
function describeDomain(row: DomainRow) {
  return {
    id: row.id, domain: row.domain, tenant: row.tenant, tenant_name: row.tenant_name, is_primary: row.is_primary,
    status: row.verified_at ? 'verified' : 'pending',
    verified_at: row.verified_at ? new Date(row.verified_at).toISOString() : null,
    verification_method: row.verification_method,
    verification: verificationRecord(row.domain, row.verification_token),
  };
}

async function domainById(db: Queryable, caller: Caller, id: number): Promise<DomainRow> {
  const [row] = await db.query<DomainRow>(`${domainSelect} where d.id = $3 and ${visibleCompanies}`, [...visibility(caller), id]);
  if (!row) throw notFound();
  return row;
}

const claimedRefusal = () =>
  detailError(403, 'Another company signs people in through this domain: only the provider company can give it to a company.', 'domain_claimed');
const takenError = () => fieldError('domain', 'This domain already belongs to a company.');
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/**
 * Saves a domain: its company must be visible, one primary domain per company. A new or renamed domain (or one
 * moved to another company) starts a new claim with a new token: pending for a tenant, verified at once when the
 * provider company saves it (its saving is its approval). A domain another company signs in through is only the
 * provider's to give.
 */
async function saveDomain(db: Database, caller: Caller, body: DomainBody, existing: DomainRow | null): Promise<number> {
  const tenant = body.tenant ?? existing?.tenant;
  if (tenant === undefined) throw fieldError('tenant', 'This field is required.');
  await companyById(db, caller, tenant).catch(() => {
    throw fieldError('tenant', `Invalid pk "${tenant}" - object does not exist.`);
  });
  const domain = (body.domain ?? existing?.domain ?? '').toLowerCase().replace(/\.$/, '');
  const ownAlready = await db.query('select 1 from domains where company_id = $1 and lower(domain) = $2 and id <> coalesce($3::int, 0)', [tenant, domain, existing?.id ?? null]);
  if (ownAlready.length) throw takenError();
  const newClaim = !existing || domain !== existing.domain || tenant !== existing.tenant;
  if (newClaim && caller.isProvider && (await verifiedElsewhere(db, domain, tenant))) throw takenError();
  if (newClaim && !caller.isProvider && (await usedForSignInElsewhere(db, domain, tenant))) throw claimedRefusal();
  const claim = newClaim
    ? { token: newVerificationToken(), verifiedAt: caller.isProvider ? new Date() : null, method: caller.isProvider ? 'provider' : null }
    : { token: existing.verification_token, verifiedAt: existing.verified_at, method: existing.verification_method };
  const isPrimary = body.is_primary ?? existing?.is_primary ?? false;
  try {
    return await db.transaction(async (connection) => {
      if (isPrimary) await connection.query('update domains set is_primary = false where company_id = $1', [tenant]);
      const values = [domain, tenant, isPrimary, claim.token, claim.verifiedAt, claim.method];
      if (existing) {
        await connection.query(
          'update domains set domain = $2, company_id = $3, is_primary = $4, verification_token = $5, verified_at = $6, verification_method = $7 where id = $1',
          [existing.id, ...values],
        );
        return existing.id;
      }
      const [row] = await connection.query<{ id: number }>(
        'insert into domains (domain, company_id, is_primary, verification_token, verified_at, verification_method) values ($1, $2, $3, $4, $5, $6) returning id',
        values,
      );
      return row!.id;
    });
  } catch (error) {
    // Two saves of one domain at once: the database keeps one; the other is told as if it had come second.
    if (isUniqueViolation(error)) throw takenError();
    throw error;
  }
}

/** Marks a pending claim verified; the database refuses a second verified claim on one domain. */
async function markVerified(db: Queryable, row: DomainRow, method: VerificationMethod): Promise<void> {
  try {
    await db.query('update domains set verified_at = now(), verification_method = $2 where id = $1 and verified_at is null', [row.id, method]);
  } catch (error) {
    if (isUniqueViolation(error)) throw claimedRefusal();
    throw error;
  }
}

/** Domains (companies' claims on DNS domains): the reference API `/companies/domains`, with verify and approve. */
export function registerDomainRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const read = async (caller: Caller, id: number) => describeDomain(await domainById(db, caller, id));

  routes.add({
    method: 'GET', url: '/companies/domains', name: 'domains.list', summary: 'List domains with their claim status', access: 'companies.view_domain',
    query: 'cartograph:api/domain-list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const { query, limit, offset, search } = listQuery(request);
      const status = (request.query as { status?: 'pending' | 'verified' }).status ?? null;
      const filter = `${visibleCompanies} and ($3::text is null or d.domain ilike $3) and ($4::int is null or d.company_id = $4)
        and ($5::text is null or ($5::text = 'verified') = (d.verified_at is not null))`;
      const params = [...visibility(caller), search, query.tenant ?? null, status];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from domains d join companies c on c.id = d.company_id where ${filter}`, params);
      const order = orderByClause(query.ordering, { id: 'd.id', domain: 'd.domain' }, 'd.id');
      const rows = await db.query<DomainRow>(`${domainSelect} where ${filter} order by ${order} limit $6 offset $7`, [...params, limit, offset]);
      return paginated(request, query, count, rows.map(describeDomain));
    },
  });
  routes.add({
    method: 'POST', url: '/companies/domains', name: 'domains.create', summary: 'Claim a domain for a company (pending until verified, unless the provider adds it)',
    access: 'companies.add_domain', body: 'cartograph:entities/domain', status: 201,
    handler: async (request) => read(callerOf(request), await saveDomain(db, callerOf(request), request.body as DomainBody, null)),
  });
  routes.add({
    method: 'GET', url: '/companies/domains/:id', name: 'domains.read', summary: 'Read a domain', access: 'companies.view_domain', params: 'cartograph:api/id-params',
    handler: async (request) => read(callerOf(request), (request.params as { id: number }).id),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: '/companies/domains/:id', name: method === 'PUT' ? 'domains.update' : 'domains.partial_update', summary: 'Change a domain (a new name is a new, pending claim)',
      access: 'companies.change_domain', params: 'cartograph:api/id-params', body: method === 'PUT' ? 'cartograph:entities/domain' : 'cartograph:entities/domain-patch',
      handler: async (request) => {
        const caller = callerOf(request);
        const existing = await domainById(db, caller, (request.params as { id: number }).id);
        return read(caller, await saveDomain(db, caller, request.body as DomainBody, existing));
      },
    });
  }
  routes.add({
    method: 'POST', url: '/companies/domains/:id/verify', name: 'domains.verify', summary: "Verify a claim by its DNS TXT record (the answer's verification says which)",
    access: 'companies.change_domain', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const row = await domainById(db, caller, (request.params as { id: number }).id);
      if (row.verified_at) return describeDomain(row);
      if (await usedForSignInElsewhere(db, row.domain, row.tenant)) {
        if (!caller.isProvider || (await verifiedElsewhere(db, row.domain, row.tenant))) throw claimedRefusal();
      }
      const check = await findVerificationRecord(context.resolveTxt, row.domain, row.verification_token);
      if (!check.found) {
        const { names, value } = verificationRecord(row.domain, row.verification_token);
        const failures = check.lookupFailures.length ? ` The look-up failed for ${check.lookupFailures.join(', ')}.` : '';
        throw detailError(400, `No TXT record "${value}" was found at ${names.join(' or ')}. Publish it, let DNS catch up, and verify again.${failures}`, 'domain_not_verified');
      }
      await markVerified(db, row, 'dns');
      return read(caller, row.id);
    },
  });
  routes.add({
    method: 'POST', url: '/companies/domains/:id/approve', name: 'domains.approve', summary: "Approve a company's claim on a domain (provider company only)",
    access: 'companies.change_domain', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      requireProvider(caller, 'Only the provider company can approve a domain claim.');
      const row = await domainById(db, caller, (request.params as { id: number }).id);
      if (row.verified_at) return describeDomain(row);
      if (await verifiedElsewhere(db, row.domain, row.tenant)) {
        throw detailError(400, 'Another company holds this domain verified: remove it there first.', 'domain_claimed');
      }
      await markVerified(db, row, 'provider');
      return read(caller, row.id);
    },
  });
  routes.add({
    method: 'DELETE', url: '/companies/domains/:id', name: 'domains.delete', summary: 'Remove a domain', access: 'companies.delete_domain', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const domain = await domainById(db, callerOf(request), (request.params as { id: number }).id);
      await db.query('delete from domains where id = $1', [domain.id]);
    },
  });
}
