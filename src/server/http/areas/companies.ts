import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Database, Queryable } from '../../db/database.js';
import { dropCompanyFindings } from '../../discovery/software/findingsPartitions.js';
import type { Caller } from '../../identity/callers.js';
import { builtinGroupId, companyColumns, createCompany, type CompanyRow } from '../../identity/companies.js';
import { describeUser, userById, userColumns, type UserRow } from '../../identity/users.js';
import { createUser, type UserBody } from './users.js';
import { detailError, fieldError, notFound } from '../errors.js';
import { likePattern, orderByClause, pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';

type CompanyBody = { name?: string; is_active?: boolean };
type DomainBody = { domain?: string; tenant?: number; is_primary?: boolean };
type DomainRow = { id: number; domain: string; tenant: number; tenant_name: string; is_primary: boolean };

// The provider company (created at first start) administers every company; any other sees only itself.
const visibleCompanies = '($1::boolean or c.id = $2)';
const visibility = (caller: Caller) => [caller.isProvider, caller.companyId];

const describeCompany = (row: CompanyRow) => ({ id: row.id, name: row.name, domain: row.domain, is_active: row.is_active, is_constant: row.is_constant });

async function companyById(db: Queryable, caller: Caller, id: number): Promise<CompanyRow> {
  const [row] = await db.query<CompanyRow>(`select ${companyColumns} from companies c where c.id = $3 and ${visibleCompanies}`, [...visibility(caller), id]);
  if (!row) throw notFound();
  return row;
}

async function checkCompanyName(db: Queryable, name: string | undefined, companyId: number | null): Promise<void> {
  if (name === undefined) return;
  const taken = await db.query('select 1 from companies where lower(name) = lower($1) and id <> coalesce($2::int, 0)', [name, companyId]);
  if (taken.length) throw fieldError('name', 'A company with that name already exists.');
}

const domainSelect = `select d.id, d.domain, d.company_id as tenant, c.name as tenant_name, d.is_primary from domains d join companies c on c.id = d.company_id`;

async function domainById(db: Queryable, caller: Caller, id: number): Promise<DomainRow> {
  const [row] = await db.query<DomainRow>(`${domainSelect} where d.id = $3 and ${visibleCompanies}`, [...visibility(caller), id]);
  if (!row) throw notFound();
  return row;
}

/** Saves a domain: its company must be visible, its name unique, and one primary domain per company. */
async function saveDomain(db: Database, caller: Caller, body: DomainBody, existing: DomainRow | null): Promise<number> {
  const tenant = body.tenant ?? existing?.tenant;
  if (tenant === undefined) throw fieldError('tenant', 'This field is required.');
  await companyById(db, caller, tenant).catch(() => {
    throw fieldError('tenant', `Invalid pk "${tenant}" - object does not exist.`);
  });
  const domain = (body.domain ?? existing?.domain ?? '').toLowerCase().replace(/\.$/, '');
  const taken = await db.query('select 1 from domains where lower(domain) = $1 and id <> coalesce($2::int, 0)', [domain, existing?.id ?? null]);
  if (taken.length) throw fieldError('domain', 'This domain already belongs to a company.');
  const isPrimary = body.is_primary ?? existing?.is_primary ?? false;
  return db.transaction(async (connection) => {
    if (isPrimary) await connection.query('update domains set is_primary = false where company_id = $1', [tenant]);
    if (existing) {
      await connection.query('update domains set domain = $2, company_id = $3, is_primary = $4 where id = $1', [existing.id, domain, tenant, isPrimary]);
      return existing.id;
    }
    const [row] = await connection.query<{ id: number }>('insert into domains (domain, company_id, is_primary) values ($1, $2, $3) returning id', [domain, tenant, isPrimary]);
    return row.id;
  });
}

function listQuery(request: FastifyRequest) {
  const query = request.query as ListQuery & { tenant?: number };
  return { query, ...pageWindow(query), search: query.search ? likePattern(query.search) : null };
}

/** Companies (tenants) and their domains, plus the caller's own company and the companies it administers. */
export function registerCompanyRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  routes.add({
    method: 'GET', url: '/api/company', name: 'company.read_own', summary: "The caller's company", access: 'authenticated',
    handler: async (request) => describeCompany(await companyById(db, callerOf(request), callerOf(request).companyId)),
  });
  routes.add({
    method: 'GET', url: '/api/admins', name: 'company.admin_companies', summary: 'Companies the caller administers', access: 'authenticated',
    handler: async (request) => {
      const caller = callerOf(request);
      const own = await companyById(db, caller, caller.companyId);
      const administered = caller.permissions.has('companies.view_company')
        ? await db.query<CompanyRow>(`select ${companyColumns} from companies c where ${visibleCompanies} order by c.id`, visibility(caller))
        : [own];
      return {
        public: { id: own.id, name: own.name, domain: own.domain },
        results: administered.map((company) => ({ company: company.id, company_name: company.name, company_domain: company.domain })),
      };
    },
  });

  routes.add({
    method: 'GET', url: '/companies/companies', name: 'companies.list', summary: 'List companies', access: 'companies.view_company', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const { query, limit, offset, search } = listQuery(request);
      const filter = `${visibleCompanies} and ($3::text is null or c.name ilike $3)`;
      const params = [...visibility(caller), search];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from companies c where ${filter}`, params);
      const order = orderByClause(query.ordering, { id: 'c.id', name: 'lower(c.name)' }, 'c.id');
      const rows = await db.query<CompanyRow>(`select ${companyColumns} from companies c where ${filter} order by ${order} limit $4 offset $5`, [...params, limit, offset]);
      return paginated(request, query, count, rows.map(describeCompany));
    },
  });
  routes.add({
    method: 'POST', url: '/companies/companies', name: 'companies.create', summary: 'Create a company (provider company only)', access: 'companies.add_company',
    body: 'cartograph:entities/company', status: 201,
    handler: async (request) => {
      const caller = callerOf(request);
      if (!caller.isProvider) throw detailError(403, 'Only the provider company can create companies.', 'permission_denied');
      const body = request.body as Required<Pick<CompanyBody, 'name'>> & CompanyBody;
      await checkCompanyName(db, body.name, null);
      const id = await db.transaction((connection) => createCompany(connection, body));
      return describeCompany(await companyById(db, caller, id));
    },
  });
  routes.add({
    method: 'GET', url: '/companies/companies/:id', name: 'companies.read', summary: 'Read a company', access: 'companies.view_company', params: 'cartograph:api/id-params',
    handler: async (request) => describeCompany(await companyById(db, callerOf(request), (request.params as { id: number }).id)),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: '/companies/companies/:id', name: method === 'PUT' ? 'companies.update' : 'companies.partial_update', summary: 'Change a company',
      access: 'companies.change_company', params: 'cartograph:api/id-params', body: method === 'PUT' ? 'cartograph:entities/company' : 'cartograph:entities/company-patch',
      handler: async (request) => {
        const caller = callerOf(request);
        const company = await companyById(db, caller, (request.params as { id: number }).id);
        const body = request.body as CompanyBody;
        if (company.id === caller.companyId && body.is_active === false) throw fieldError('is_active', 'You cannot deactivate your own company.');
        await checkCompanyName(db, body.name, company.id);
        await db.query('update companies set name = coalesce($2, name), is_active = coalesce($3, is_active), updated_at = now() where id = $1', [
          company.id, body.name ?? null, body.is_active ?? null,
        ]);
        return describeCompany(await companyById(db, caller, company.id));
      },
    });
  }
  routes.add({
    method: 'DELETE', url: '/companies/companies/:id', name: 'companies.delete', summary: 'Delete a company and everything it owns', access: 'companies.delete_company',
    params: 'cartograph:api/id-params',
    handler: async (request) => {
      const company = await companyById(db, callerOf(request), (request.params as { id: number }).id);
      if (company.is_constant || company.id === callerOf(request).companyId) throw detailError(400, 'The provider company and your own company cannot be deleted.');
      await dropCompanyFindings(db, company.id);
      await db.query('delete from companies where id = $1', [company.id]);
    },
  });

  routes.add({
    method: 'GET', url: '/companies/companies/:id/administrators', name: 'companies.administrators', summary: "The company's administrators",
    access: 'companies.view_company', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const company = await companyById(db, callerOf(request), (request.params as { id: number }).id);
      const rows = await db.query<UserRow>(
        `select ${userColumns} from users u where u.company_id = $1 and exists (select 1 from user_groups ug where ug.user_id = u.id and ug.group_id = $2) order by u.id`,
        [company.id, await builtinGroupId(db, company.id, 'Administrators')],
      );
      return rows.map(describeUser);
    },
  });
  routes.add({
    method: 'POST', url: '/companies/companies/:id/administrators', name: 'companies.add_administrator', summary: 'Create an administrator for the company',
    access: 'companies.change_company', params: 'cartograph:api/id-params', body: 'cartograph:api/company-administrator', status: 201,
    handler: async (request) => {
      const company = await companyById(db, callerOf(request), (request.params as { id: number }).id);
      const body = request.body as UserBody;
      const id = await createUser(db, company.id, { ...body, group_ids: [await builtinGroupId(db, company.id, 'Administrators')] });
      return describeUser(await userById(db, company.id, id));
    },
  });

  routes.add({
    method: 'GET', url: '/companies/domains', name: 'domains.list', summary: 'List domains', access: 'companies.view_domain', query: 'cartograph:api/domain-list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const { query, limit, offset, search } = listQuery(request);
      const filter = `${visibleCompanies} and ($3::text is null or d.domain ilike $3) and ($4::int is null or d.company_id = $4)`;
      const params = [...visibility(caller), search, query.tenant ?? null];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from domains d join companies c on c.id = d.company_id where ${filter}`, params);
      const order = orderByClause(query.ordering, { id: 'd.id', domain: 'd.domain' }, 'd.id');
      const rows = await db.query<DomainRow>(`${domainSelect} where ${filter} order by ${order} limit $5 offset $6`, [...params, limit, offset]);
      return paginated(request, query, count, rows);
    },
  });
  routes.add({
    method: 'POST', url: '/companies/domains', name: 'domains.create', summary: 'Add a domain to a company', access: 'companies.add_domain',
    body: 'cartograph:entities/domain', status: 201,
    handler: async (request) => domainById(db, callerOf(request), await saveDomain(db, callerOf(request), request.body as DomainBody, null)),
  });
  routes.add({
    method: 'GET', url: '/companies/domains/:id', name: 'domains.read', summary: 'Read a domain', access: 'companies.view_domain', params: 'cartograph:api/id-params',
    handler: async (request) => domainById(db, callerOf(request), (request.params as { id: number }).id),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: '/companies/domains/:id', name: method === 'PUT' ? 'domains.update' : 'domains.partial_update', summary: 'Change a domain',
      access: 'companies.change_domain', params: 'cartograph:api/id-params', body: method === 'PUT' ? 'cartograph:entities/domain' : 'cartograph:entities/domain-patch',
      handler: async (request) => {
        const caller = callerOf(request);
        const existing = await domainById(db, caller, (request.params as { id: number }).id);
        return domainById(db, caller, await saveDomain(db, caller, request.body as DomainBody, existing));
      },
    });
  }
  routes.add({
    method: 'DELETE', url: '/companies/domains/:id', name: 'domains.delete', summary: 'Remove a domain', access: 'companies.delete_domain', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const domain = await domainById(db, callerOf(request), (request.params as { id: number }).id);
      await db.query('delete from domains where id = $1', [domain.id]);
    },
  });
}
