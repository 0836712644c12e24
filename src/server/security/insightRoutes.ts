import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import { fieldError, Forbidden, notFound } from '../errors.js';
import { pageWindow } from '../http/pagination.js';
import { callerOf, type RouteCatalogue } from '../http/routes.js';
import { planSnapshotQuery, withStatementTimeout } from '../inventory/search.js';
import { resolveSnapshot } from '../inventory/snapshots.js';
import { checkCondition } from './conditions.js';
import type { Caller } from '../identity/callers.js';
import { explainDevice, explainUser } from './explain.js';
import { securityOverview, profileHistory } from './overview.js';
import { securityFormula } from './scoring.js';
import { latestScoredSnapshot, policyKind, profileKind, type PolicyInventory } from './securityStore.js';
import { requestRescore } from './rescore.js';
import { starterPolicies, starterPolicyDocument } from './starterPolicies.js';
import { userNamesSql } from './userPolicies.js';
import { addStarterQueries } from '../query/starterQueries.js';

type SnapshotQuery = { index_id?: number | null; page?: number; size?: number };
type Preview = { kind?: 'profile' | 'policy'; inventory?: PolicyInventory; query: string; profile_ids?: number[] };

const sampleSize = 10;

/** The overview, a profile's members and history, a device's explanation, a user's policies, previews and the starter library. */
export function registerSecurityInsightRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;

  routes.add({
    method: 'GET', url: '/securitymanager/overview', name: 'security_manager.overview', summary: 'The company score and its trend, the worst profiles, devices and policies',
    access: 'securitymanager.view_assetprofile',
    handler: async (request) => ({ ...(await securityOverview(db, callerOf(request).companyId)), formula: securityFormula }),
  });

  routes.add({
    method: 'GET', url: '/securitymanager/asset-profiles/:id/members', name: 'asset_profile.members', summary: "A profile's devices in a snapshot and how the set changed across snapshots",
    access: 'securitymanager.view_assetprofile', params: 'cartograph:api/id-params', query: 'cartograph:api/security-snapshot-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const id = (request.params as { id: number }).id;
      const query = request.query as SnapshotQuery;
      const [profile] = await db.query('select 1 from resources where kind = $1 and company_id = $2 and id = $3', [profileKind, caller.companyId, id]);
      if (!profile) throw notFound();
      const discoveryId = query.index_id ? await resolveSnapshot(db, caller.companyId, query.index_id) : await latestScoredSnapshot(db, caller.companyId);
      const { limit, offset } = pageWindow({ page: query.page, size: query.size });
      const [{ count }] = await db.query<{ count: number }>('select count(*)::int as count from security_profile_members where discovery_id = $1 and profile_id = $2', [discoveryId, id]);
      const results = await db.query(
        `select m.asset_id, a.fields->'Hostname'->>0 as hostname, a.fields->'OS.Type'->>0 as os, s.score
           from security_profile_members m join snapshot_assets a on a.discovery_id = m.discovery_id and a.entity = 'device' and a.asset_id = m.asset_id
           left join security_device_scores s on s.discovery_id = m.discovery_id and s.asset_id = m.asset_id
          where m.discovery_id = $1 and m.profile_id = $2 order by s.score nulls last, m.asset_id limit $3 offset $4`,
        [discoveryId, id, limit, offset],
      );
      return { index_id: discoveryId, count, results, history: await profileHistory(db, caller.companyId, id) };
    },
  });

  /** A handler answering one asset's explanation in the snapshot asked for (the latest by default), 404 when it has none. */
  const explanationOf = <T>(explain: (db: Queryable, discoveryId: number, assetId: string) => Promise<T | null>) => async (request: FastifyRequest) => {
    const discoveryId = await resolveSnapshot(db, callerOf(request).companyId, (request.query as SnapshotQuery).index_id);
    const explained = await explain(db, discoveryId, (request.params as { id: string }).id);
    if (!explained) throw notFound();
    return explained;
  };

  routes.add({
    method: 'GET', url: '/securitymanager/devices/:id/score', name: 'security_manager.device_score', summary: 'Why a device scored as it did: each policy that applied, passed or failed, with the values that decided',
    access: 'users.view_device_detail', params: 'cartograph:api/asset-params', query: 'cartograph:api/security-snapshot-query',
    handler: explanationOf(explainDevice),
  });

  routes.add({
    method: 'GET', url: '/securitymanager/users/:id/policies', name: 'security_manager.user_policies', summary: 'The user policies evaluated in a snapshot and whether the user passed each, with the values that decided',
    access: 'users.view_user_inventory_detail', params: 'cartograph:api/asset-params', query: 'cartograph:api/security-snapshot-query',
    handler: explanationOf(explainUser),
  });

  const preview = async (caller: Caller, body: Preview) => {
    const { companyId } = caller;
    // A profile holds devices; a policy checks its inventory, and only a device policy is scoped by profiles.
    const entity = body.kind === 'policy' ? (body.inventory ?? 'device') : 'device';
    await checkCondition(db, caller, body.query, 'query', entity);
    const profileIds = body.profile_ids ?? [];
    if (entity !== 'device' && profileIds.length) throw fieldError('profile_ids', 'Asset profiles hold devices: a policy on users applies to every user.');
    const profiles = profileIds.length
      ? await db.query<{ query: string }>("select document->>'query' as query from resources where kind = $1 and company_id = $2 and id = any($3::int[])", [profileKind, companyId, profileIds])
      : [];
    const scope = profiles.map((profile) => `(${profile.query})`).join(' OR ');
    const discoveryId = await resolveSnapshot(db, companyId, null);
    // The same compiler as the inventory list: what the preview counts is what the list shows for the same text.
    const count = (text: string) =>
      withStatementTimeout(db, async (connection) => {
        const plan = await planSnapshotQuery(connection, caller, discoveryId, entity, text);
        const [row] = await connection.query<{ count: number }>(`select count(*)::int as count from ${plan.table} where ${plan.where}`, plan.params);
        // Devices by host name; users by user name and display name, as their inventory names them.
        const names = entity === 'user' ? userNamesSql : "a.fields->'Hostname'->>0 as hostname";
        const sample = await connection.query<{ asset_id: string; hostname?: string | null; username?: string | null; display_name?: string | null }>(
          `select t.asset_id, ${names} from (select asset_id from ${plan.table} where ${plan.where} order by asset_id limit ${sampleSize}) t
             join snapshot_assets a on a.discovery_id = $1 and a.entity = $2 and a.asset_id = t.asset_id order by t.asset_id`, plan.params,
        );
        return { count: row.count, sample };
      });
    const within = (text: string) => (scope ? `(${scope}) AND (${text})` : text);
    if (body.kind === 'profile') {
      const matched = await count(body.query);
      return { index_id: discoveryId, matching: matched.count, sample: matched.sample };
    }
    const applicable = await count(scope || '');
    const failing = await count(within(`NOT (${body.query})`));
    return { index_id: discoveryId, inventory: entity, applicable: applicable.count, passing: applicable.count - failing.count, failing: failing.count, sample: failing.sample };
  };
  routes.add({
    method: 'POST', url: '/securitymanager/asset-profiles/preview', name: 'asset_profile.preview', summary: 'How many devices of the latest snapshot a profile query holds, before it is saved',
    access: 'securitymanager.view_assetprofile', body: 'cartograph:api/security-preview',
    handler: async (request) => preview(callerOf(request), { ...(request.body as Preview), kind: 'profile' }),
  });
  routes.add({
    method: 'POST', url: '/securitymanager/security-policies/preview', name: 'security_policy.preview', summary: 'How many devices (or users) of the latest snapshot a policy applies to and how many fail it, before it is saved',
    access: 'securitymanager.view_securitypolicy', body: 'cartograph:api/security-preview',
    handler: async (request) => preview(callerOf(request), { ...(request.body as Preview), kind: 'policy' }),
  });

  routes.add({
    method: 'POST', url: '/securitymanager/security-policies/starter', name: 'security_policy.starter', summary: 'Adds the starter library (CIS Controls v8) switched off; optionally enables all of it',
    access: 'securitymanager.add_securitypolicy', body: 'cartograph:api/starter-policies',
    handler: async (request) => {
      const caller = callerOf(request);
      const { enable = false } = request.body as { enable?: boolean };
      if (enable && !caller.permissions.has('securitymanager.change_securitypolicy')) throw new Forbidden({ detail: 'You may not enable security policies.' });
      const answer = await db.transaction(async (connection) => {
        const existing = await connection.query<{ starter_id: string; name: string }>(
          "select document->>'starter_id' as starter_id, lower(document->>'name') as name from resources where kind = $1 and company_id = $2", [policyKind, caller.companyId],
        );
        // A starter policy already there (or a policy of the same name) is left as the company has it.
        const missing = starterPolicies.filter((policy) => !existing.some((row) => row.starter_id === policy.starter_id || row.name === policy.name.toLowerCase()));
        for (const policy of missing) {
          await connection.query('insert into resources (kind, company_id, document) values ($1, $2, $3)', [policyKind, caller.companyId, JSON.stringify(starterPolicyDocument(policy, false, caller.userId))]);
        }
        const enabled = enable
          ? (await connection.query(
              `update resources set document = jsonb_set(document, '{enabled}', 'true'), updated_at = now()
                where kind = $1 and company_id = $2 and document->>'starter_id' is not null and not coalesce((document->>'enabled')::boolean, false) returning id`,
              [policyKind, caller.companyId],
            )).length
          : 0;
        // The people control (leavers with an active account) is a user policy and, for dashboards, reports and
        // `Query is <id>`, a saved query of the user inventory as well.
        const queriesAdded = caller.permissions.has('queries.add_query') ? await addStarterQueries(connection, caller.companyId, caller.userId, caller.username) : 0;
        return { added: missing.length, already_present: starterPolicies.length - missing.length, enabled, available: starterPolicies.length, queries_added: queriesAdded };
      });
      if (answer.enabled) await requestRescore(context.jobs.send, caller.companyId, (error) => request.log.error({ err: error }, 'could not ask for a rescoring'));
      return answer;
    },
  });
}
