import { createHash } from 'node:crypto';
import { sealSecrets } from '../../src/server/auth/secretFields.js';
import { allSchemas } from '../../src/server/http/validators.js';
import type { RouteDefinition } from '../../src/server/http/routes.js';
import { latestFindings, latestRecords, latestSnapshotAssets, publishFindings, publishSnapshot, type KnownAsset } from './dashboardsFixtures.js';
import { userPassword, type TestServer } from './harness.js';

// Company A's things, one of each kind a route names by id, so a test can have company B name them.

type ResourceSchema = { $id: string; examples?: object[]; 'x-resource': { path: string } };
export type OwnedIds = {
  /** By the route's path before its first parameter (`/users/users` for `/users/users/:id`): an id of company A. */
  ids: Map<string, string | number>;
  /** Valid bodies by `METHOD url`, so a refusal cannot come from the body's validation instead of the lookup. */
  bodies: Map<string, unknown>;
  discoveryId: number;
  jiraConnectionId: number;
  reportId: number;
  savedQueryId: number;
  chartId: number;
  dashboardId: number;
  userId: number;
  groupId: number;
};

/** Path parameters that name no company's row: the adapter catalogue and the feeds are the same for everyone. */
export const globalParameterPrefixes = new Set(['/adapters/adapters', '/avm/enrichments']);

/** `/users/users/:id/x` → `/users/users`: where the first path parameter starts. */
export const prefixOf = (definition: RouteDefinition) => definition.url.slice(0, definition.url.indexOf('/:'));

const csvOptions = [
  { name: 'source', typed_value: { source_type: 'url', file_url: 'http://127.0.0.1:9/devices.csv' } },
  { name: 'entity', typed_value: 'device' }, { name: 'delimiter', typed_value: ',' }, { name: 'encoding', typed_value: 'utf-8' },
];
const customAdapter = {
  name: 'Facilities register', description: 'Asset register of the facilities team', entity: 'device',
  fields: [{ column: 'Asset Name', type: 'string', field: 'Hostname', identifier: true }, { column: 'Room', type: 'string', field: null }],
};
/** The latest snapshot's assets plus one of each inventory the fixtures above lack. */
const inventoryAssets = (now: Date): KnownAsset[] => [
  ...latestSnapshotAssets(now),
  { entity: 'software', id: 's1', fields: { Name: ['Chrome'], Vendor: ['Google'] } },
  { entity: 'service', id: 'svc1', fields: { Name: ['Payroll'] } },
  { entity: 'license', id: 'l1', fields: { Name: ['Office'] } },
];

/** A company's asset id as a discovery makes them (20 hex digits, so finding ids pass their pattern). */
export const assetId = (company: string, id: string) => createHash('sha1').update(`${company}:${id}`).digest('hex').slice(0, 20);

/** A published snapshot of company `companyId` (with findings and a merge recommendation); answers its discovery id. */
export async function publishInventory(server: TestServer, companyId: number, company: string): Promise<number> {
  const now = new Date();
  const assets = inventoryAssets(now).map((asset) => ({ ...asset, id: assetId(company, asset.id) }));
  const discoveryId = await publishSnapshot(server.context.db, companyId, now, 0, assets, latestRecords.map((record) => ({ ...record, key: `${company}${record.key}` })));
  await publishFindings(server.context.db, discoveryId, latestFindings.map((finding) => ({ ...finding, device: assetId(company, finding.device), vulnerability: assetId(company, finding.vulnerability) })));
  await server.context.db.query(
    "insert into merge_recommendations (discovery_id, entity, left_asset, right_asset, score, reasons) values ($1, 'device', $2, $3, 0.7, '[]')",
    [discoveryId, assetId(company, 'd1'), assetId(company, 'd2')],
  );
  return discoveryId;
}

/** Creates company A's things (company A is the provider company, signed in as `server.adminToken`). */
export async function seedCompanyA(server: TestServer): Promise<OwnedIds> {
  const token = server.adminToken;
  const ids = new Map<string, string | number>();
  const bodies = new Map<string, unknown>();
  const post = async (url: string, body: unknown) => {
    const answer = await server.request('POST', url, { token, body });
    if (answer.status >= 300) throw new Error(`A could not POST ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };

  // Every resource schema, from its example; PUT sends the same document back. Charts and widgets go on A's default
  // dashboard (their examples name dashboard 1, which need not be its id: a company starts with documents of its own).
  const defaultDashboard = ((await server.request('GET', '/dashboards/dashboards?size=1000', { token })).body.results as { id: number; is_default?: boolean }[]).find((dashboard) => dashboard.is_default)!.id;
  const resources = allSchemas().filter((schema) => schema['x-resource']) as unknown as ResourceSchema[];
  const report = resources.find((schema) => schema.$id.endsWith('/report'))!;
  const reportBody = { ...report.examples?.[0], name: 'Alphacorp report' };
  const reportId = (await post(report['x-resource'].path, reportBody)).id as number;
  ids.set(report['x-resource'].path, reportId);
  bodies.set(`PUT ${report['x-resource'].path}/:id`, reportBody);
  for (const schema of resources) {
    const { path } = schema['x-resource'];
    if (ids.has(path)) continue;
    const example: Record<string, unknown> = {
      ...schema.examples?.[0],
      ...(schema.$id.endsWith('/user') && { group_ids: [] }),
      ...(schema.$id.endsWith('/company') && { name: 'Alphacorp subsidiary' }),
      ...(schema.$id.endsWith('/report-schedule') && { report: reportId }),
      ...((schema.$id.endsWith('/chart') || schema.$id.endsWith('/widget')) && { dashboard: defaultDashboard }),
    };
    ids.set(path, (await post(path, example)).id);
    // The LDAP example maps group 1, which B's validation would refuse before its lookup could.
    const { group_mappings: _groupMappings, ...put } = example;
    bodies.set(`PUT ${path}/:id`, schema.$id.endsWith('/ldap-configuration') ? put : example);
  }

  const discoveryId = await publishInventory(server, 1, 'A');
  ids.set('/discoveries/discoveries', discoveryId);
  for (const [prefix, id] of [
    ['/devices/devices', 'd1'], ['/userinventory/users', 'u1'], ['/appinventory/applications', 's1'], ['/avm/vulnerabilities', 'v1'], ['/services/services', 'svc1'],
    ['/licenses/licenses', 'l1'], ['/certificates/certificates', 'c1'], ['/securitymanager/devices', 'd1'], ['/securitymanager/users', 'u1'],
  ] as const) ids.set(prefix, assetId('A', id));
  ids.set('/avm/findings', `${assetId('A', 'v1')}.${assetId('A', 'd1')}`);
  const [recommendation] = await server.context.db.query<{ id: number }>('select id from merge_recommendations where discovery_id = $1', [discoveryId]);
  ids.set('/devices/merge-recommendations', recommendation.id);

  const connection = { adapter: 'csvfile', name: 'Alphacorp devices', option_connections: csvOptions };
  const connectionId = (await post('/adapters/connections', connection)).id as number;
  ids.set('/adapters/connections', connectionId);
  ids.set('/adapters/test', connectionId);
  bodies.set('PUT /adapters/connections/:id', connection);
  const jira = server.context.adapters.catalogue.get('jira')!;
  const [jiraRow] = await server.context.db.query<{ id: number }>(
    "insert into connections (company_id, adapter, name, connector_id, config) values (1, 'jira', 'Alphacorp tickets', (select id from connectors where company_id = 1 and is_default), $1) returning id",
    [JSON.stringify(sealSecrets(server.context.keys.secretsKey, { base_url: 'https://jira.example', auth: { auth_type: 'cloud_api_token', email: 'bot@example.test', api_token: 'jira token' } }, jira.secretFields))],
  );

  const connector = await post('/connectors/connectors', { name: 'Alphacorp plant' });
  ids.set('/connectors/connectors', connector.id);
  bodies.set('PUT /connectors/connectors/:id', { name: 'Renamed by B' });
  // A fetch of A's connection leased to A's connector: another connector's batches and results must not reach it.
  const [job] = await server.context.db.query<{ id: number }>(
    "insert into connector_jobs (company_id, connector_id, connection_id, discovery_id, state, attempt) values (1, $1, $2, $3, 'leased', 1) returning id",
    [connector.id, connectionId, discoveryId],
  );
  ids.set('/connectors/api/jobs', job.id);
  bodies.set('POST /connectors/api/jobs/:id/records', { attempt: 1, sequence: 1, records: [{ entity: 'device', fields: { Hostname: 'planted' } }] });
  bodies.set('POST /connectors/api/jobs/:id/finish', { attempt: 1, state: 'error', error: 'planted' });

  ids.set('/customs/adapters', (await post('/customs/adapters', customAdapter)).id);
  bodies.set('PUT /customs/adapters/:id', { ...customAdapter, name: 'Renamed by B' });
  const { issueCertificate } = await import('../support/testCertificates.js');
  ids.set('/certificates/custom-certificates', (await post('/certificates/custom-certificates', { name: 'Alphacorp partner', certificate: issueCertificate({ commonName: 'a.example' }, null).cert })).id);
  bodies.set('PUT /certificates/custom-certificates/:id', { name: 'Renamed by B' });
  ids.set('/api/tokens', (await post('/api/tokens', { name: 'Alphacorp script', expires_in_days: 30 })).id);

  const action = await post('/actions/actions', { name: 'Alphacorp dry run', trigger: 'manual', scope: { entity: 'device', query: 'OS.Type = Linux' }, type: 'webhook', parameters: { url: 'https://hooks.example.com/intake', body_template: '{"hostname": "{{Hostname}}"}', batch_size: 1 } });
  ids.set('/actions/actions', action.id);
  ids.set('/actions/runs', (await post(`/actions/actions/${action.id}/run`, { dry_run: true })).id);
  ids.set('/reports/runs', (await post(`/reports/reports/${reportId}/run`, { formats: ['csv'] })).id);

  const [activity] = (await server.request('GET', '/activities/activities?size=1', { token })).body.results;
  ids.set('/activities/activities', activity.id);

  bodies.set('POST /avm/findings/:id/status', { status: 'false_positive', reason: 'Planted by company B' });
  bodies.set('POST /actions/actions/:id/run', { dry_run: true });
  bodies.set('POST /reports/reports/:id/run', { formats: ['csv'] });
  bodies.set('POST /companies/companies/:id/administrators', { username: 'planted.admin', password: userPassword });
  bodies.set('PUT /companies/companies/:id', { name: 'Renamed by B' });
  bodies.set('POST /configurations/ldap-configurations/:id/test', {});

  const [user] = (await server.request('GET', '/users/users?search=admin', { token })).body.results;
  const groups = (await server.request('GET', '/users/groups?size=100', { token })).body.results;
  return {
    ids, bodies, discoveryId, jiraConnectionId: jiraRow.id, reportId,
    savedQueryId: ids.get('/queries/queries') as number, chartId: ids.get('/dashboards/charts') as number, dashboardId: ids.get('/dashboards/dashboards') as number,
    userId: user.id, groupId: groups[0].id,
  };
}
