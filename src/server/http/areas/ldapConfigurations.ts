import { noteChange } from '../../activities/activityChanges.js';
import type { AppContext } from '../../context.js';
import { classifyDirectoryError } from '../../adapters/ldap/directoryConnection.js';
import { bindServiceAccount, findDirectoryUser, mappedGroupIds } from '../../identity/ldap/directoryUsers.js';
import { outboundPolicyFor } from '../../outbound/policy.js';
import {
  deleteLdapConfiguration, listLdapConfigurations, maskLdapConfiguration, readLdapConfiguration, saveLdapConfiguration, type LdapConfiguration,
} from '../../identity/ldap/ldapConfigurations.js';
import { detailError, fieldError, HttpError, notFound, refusalAnswer } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';

const idOf = (request: { params: unknown }) => (request.params as { id: number }).id;

/** Mapped groups must be groups of the configuration's own company. */
async function checkMappings(context: AppContext, companyId: number, configuration: LdapConfiguration): Promise<void> {
  const ids = [...new Set(configuration.group_mappings.map((mapping) => mapping.group_id))];
  if (!ids.length) return;
  const known = await context.db.query<{ id: number }>('select id from groups where company_id = $1 and id = any($2::int[])', [companyId, ids]);
  const missing = ids.filter((id) => !known.some((row) => row.id === id));
  if (missing.length) throw fieldError('group_mappings', `Invalid pk "${missing[0]}" - object does not exist.`);
}

/** `/settings/ldap-configuration`: the company's sign-in directories, their bind secret sealed, and a test. */
export function registerLdapConfigurationRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const key = context.keys.secretsKey;
  const base = '/configurations/ldap-configurations';
  routes.add({
    method: 'GET', url: base, name: 'ldap_configurations.list', summary: 'List the LDAP sign-in directories', access: 'configurations.view_ldapconfiguration', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const all = (await listLdapConfigurations(db, key, callerOf(request).companyId))
        .filter((configuration) => !query.search || configuration.name.toLowerCase().includes(query.search.toLowerCase()));
      return paginated(request, query, all.length, all.slice(offset, offset + limit).map(maskLdapConfiguration));
    },
  });
  routes.add({
    method: 'GET', url: `${base}/:id`, name: 'ldap_configurations.read', summary: 'Read an LDAP directory (bind password masked)', access: 'configurations.view_ldapconfiguration', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const found = await readLdapConfiguration(db, key, callerOf(request).companyId, idOf(request));
      if (!found) throw notFound();
      return maskLdapConfiguration(found);
    },
  });
  routes.add({
    method: 'POST', url: base, name: 'ldap_configurations.create', summary: 'Add an LDAP sign-in directory', access: 'configurations.change_ldapconfiguration',
    body: 'cartograph:settings/ldap-configuration', status: 201,
    handler: async (request) => {
      const companyId = callerOf(request).companyId;
      const body = request.body as LdapConfiguration;
      if (!body.bind_password) throw fieldError('bind_password', 'This field is required.');
      await checkMappings(context, companyId, body);
      const created = await saveLdapConfiguration(db, key, companyId, null, body);
      noteChange(request, { before: null, after: created });
      return created;
    },
  });
  routes.add({
    method: 'PUT', url: `${base}/:id`, name: 'ldap_configurations.update', summary: 'Change an LDAP directory (a masked or absent bind password keeps the stored one)',
    access: 'configurations.change_ldapconfiguration', body: 'cartograph:settings/ldap-configuration', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const companyId = callerOf(request).companyId;
      const body = request.body as LdapConfiguration;
      await checkMappings(context, companyId, body);
      const before = await readLdapConfiguration(db, key, companyId, idOf(request));
      const saved = await saveLdapConfiguration(db, key, companyId, idOf(request), { ...body, bind_password: body.bind_password ?? '**********' });
      if (!saved || !before) throw notFound();
      noteChange(request, { before: maskLdapConfiguration(before), after: saved });
      return saved;
    },
  });
  routes.add({
    method: 'DELETE', url: `${base}/:id`, name: 'ldap_configurations.delete', summary: 'Remove an LDAP directory', access: 'configurations.change_ldapconfiguration', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const companyId = callerOf(request).companyId;
      const before = await readLdapConfiguration(db, key, companyId, idOf(request));
      if (!before || !(await deleteLdapConfiguration(db, companyId, idOf(request)))) throw notFound();
      noteChange(request, { before: maskLdapConfiguration(before), after: null });
      return undefined;
    },
  });
  routes.add({
    method: 'POST', url: `${base}/:id/test`, name: 'ldap_configurations.test', summary: 'Bind with the service account and look up a sample user',
    access: 'configurations.change_ldapconfiguration', params: 'cartograph:api/id-params', body: 'cartograph:api/ldap-test',
    handler: async (request) => {
      const configuration = await readLdapConfiguration(db, key, callerOf(request).companyId, idOf(request));
      if (!configuration) throw notFound();
      const { username } = request.body as { username?: string };
      let client;
      try {
        client = await bindServiceAccount(configuration, await outboundPolicyFor(db, context.config, callerOf(request).companyId));
      } catch (error) {
        throw detailError(400, `The bind failed: ${classifyDirectoryError(error, configuration.url).detail}`, 'ldap_bind_failed');
      }
      try {
        const user = await findDirectoryUser(client, configuration, username ?? null);
        if (!user) throw detailError(400, username ? `The bind worked, but no single user matches "${username}" under ${configuration.user_search_base}.` : `The bind worked, but the filter finds no user under ${configuration.user_search_base}.`, 'ldap_user_not_found');
        return { bind: true, user: { dn: user.dn, username: user.username, email: user.email, first_name: user.firstName, last_name: user.lastName, groups: user.groups, mapped_group_ids: mappedGroupIds(configuration, user) } };
      } catch (error) {
        if (refusalAnswer(error)) throw error;
        throw detailError(400, `The bind worked, but the user lookup failed: ${classifyDirectoryError(error, configuration.url).detail}`, 'ldap_lookup_failed');
      } finally {
        await client.unbind().catch(() => undefined);
      }
    },
  });
}
