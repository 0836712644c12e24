import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { dropCompanyFindings } from '../../discovery/software/findingsPartitions.js';
import type { Caller } from '../../identity/callers.js';
import { grantsOfGroups, refuseGrantsBeyondCaller } from '../../identity/grantLimits.js';
import { builtinGroupId, companyColumns, createCompany, type CompanyRow } from '../../identity/companies.js';
import { describeUser, userById, userColumns, type UserRow } from '../../identity/users.js';
import { createUser, type UserBody } from './users.js';
import { detailError, fieldError, notFound, requireProvider } from '../errors.js';
import { orderByClause, pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { containsPattern } from '../../db/likePatterns.js';

type CompanyBody = { name?: string; is_active?: boolean };

// The provider company (created at first start) administers every company; any other sees only itself.
export const visibleCompanies = '($1::boolean or c.id = $2)';
export const visibility = (caller: Caller) => [caller.isProvider, caller.companyId];

const describeCompany = (row: CompanyRow) => ({ id: row.id, name: row.name, domain: row.domain, is_active: row.is_active, is_constant: row.is_constant });

export async function companyById(db: Queryable, caller: Caller, id: number): Promise<CompanyRow> {
  const [row] = await db.query<CompanyRow>(`select ${companyColumns} from companies c where c.id = $3 and ${visibleCompanies}`, [...visibility(caller), id]);
  if (!row) throw notFound();
  return row;
}

async function checkCompanyName(db: Queryable, name: string | undefined, companyId: number | null): Promise<void> {
  if (name === undefined) return;
  const taken = await db.query('select 1 from companies where lower(name) = lower($1) and id <> coalesce($2::int, 0)', [name, companyId]);
  if (taken.length) throw fieldError('name', 'A company with that name already exists.');
}

export function listQuery(request: FastifyRequest) {
  const query = request.query as ListQuery & { tenant?: number };
  return { query, ...pageWindow(query), search: query.search ? containsPattern(query.search) : null };
}

/** Companies (tenants), plus the caller's own company and the companies it administers. */
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
      requireProvider(caller, 'Only the provider company can create companies.');
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
      const caller = callerOf(request);
      const company = await companyById(db, caller, (request.params as { id: number }).id);
      const body = request.body as UserBody;
      const administrators = await builtinGroupId(db, company.id, 'Administrators');
      // An administrator holds everything: only someone who holds everything may make one (and know its password).
      refuseGrantsBeyondCaller(caller, await grantsOfGroups(db, [administrators]), context.adapters.catalogue, "You cannot create a company's administrator with more than you hold.");
      const id = await createUser(db, company.id, { ...body, group_ids: [administrators] });
      return describeUser(await userById(db, company.id, id));
    },
  });
}
