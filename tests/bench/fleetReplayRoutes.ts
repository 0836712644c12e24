// The discovery bench's replay server: answers the requests of the five real adapter manifests (Microsoft Graph for
// Entra ID and Intune, CrowdStrike Falcon, Qualys QPS, the ServiceNow Table API) with pages of a generated fleet,
// each page built when asked for. It checks the credentials each manifest sends, so a secret that did not survive
// the connection's encryption fails the bench instead of passing unnoticed.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { applicationsPage, softwareShape, vulnerabilitiesPage } from './fleetSoftware.js';
import { replayStreams, vendorPage, qualysFirstId, type ReplayStream, type ReplayStreams } from './fleetVendors.js';
import type { LabelledFleet } from '../../src/server/demo/fleet.js';

/** What the bench's connections sign in with. */
export const replayCredentials = {
  tenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47',
  clientId: '0c1a2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  clientSecret: 'bench-client-secret',
  username: 'svc.cartograph',
  password: 'bench-password',
};

const graphToken = 'graph-bench-token';
const falconToken = 'falcon-bench-token';
const basicAuthorization = `Basic ${Buffer.from(`${replayCredentials.username}:${replayCredentials.password}`).toString('base64')}`;

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

const unauthorized: Answer = { status: 401, body: { error: { code: 'InvalidAuthenticationToken', message: 'Access token is missing or invalid.' } } };
const cursorOf = (position: number) => Buffer.from(`position:${position}`).toString('base64url');
const positionOf = (cursor: string | null) => (cursor ? Number(Buffer.from(cursor, 'base64url').toString().split(':')[1]) || 0 : 0);

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A Graph collection page: `$top` records from the `$skiptoken` position, with the next link while more remain. */
function graphPage(stream: ReplayStream, url: URL, defaultTop: number): Answer {
  const top = Number(url.searchParams.get('$top')) || defaultTop;
  const start = positionOf(url.searchParams.get('$skiptoken'));
  const next = new URL(url);
  next.searchParams.set('$skiptoken', cursorOf(start + top));
  return {
    status: 200,
    body: {
      '@odata.context': `https://graph.microsoft.com/v1.0/$metadata#${url.pathname.split('/').pop()}`,
      ...(start + top < stream.records.length && { '@odata.nextLink': next.href }),
      value: vendorPage(stream, start, start + top),
    },
  };
}

/** A Table API page: `sysparm_limit` rows from `sysparm_offset`, the next page in the Link header. */
function tablePage(stream: ReplayStream, url: URL): Answer {
  const limit = Number(url.searchParams.get('sysparm_limit')) || 10_000;
  const offset = Number(url.searchParams.get('sysparm_offset')) || 0;
  const headers: Record<string, string> = { 'x-total-count': String(stream.records.length) };
  if (offset + limit < stream.records.length) {
    const next = new URL(url);
    next.searchParams.set('sysparm_offset', String(offset + limit));
    headers.link = `<${next.href}>;rel="next"`;
  }
  return { status: 200, headers, body: { result: vendorPage(stream, offset, offset + limit) } };
}

/** Falcon's scroll of host ids: `limit` ids after the opaque `offset` cursor; an empty page ends it. */
function falconScroll(stream: ReplayStream, url: URL): Answer {
  const limit = Number(url.searchParams.get('limit')) || 5000;
  const start = positionOf(url.searchParams.get('offset'));
  const ids = stream.records.slice(start, start + limit).map((record, index) => stream.idOf(record, start + index));
  return { status: 200, body: { meta: { pagination: { total: stream.records.length, offset: cursorOf(start + limit), expires_at: Date.now() * 1e6 + 12e10 }, powered_by: 'device-api' }, resources: ids, errors: [] } };
}

/** A Falcon combined-API page: `limit` records after the `after` cursor; an empty page ends it. */
function falconCombined(url: URL, total: number, page: (start: number, end: number) => unknown[]): Answer {
  const limit = Number(url.searchParams.get('limit')) || 100;
  const start = positionOf(url.searchParams.get('after'));
  return { status: 200, body: { meta: { pagination: { total, limit, after: cursorOf(start + limit) }, powered_by: 'spotlight' }, resources: page(start, start + limit), errors: [] } };
}

/** A Qualys QPS search page: hosts whose id is GREATER than the criteria's value, `limitResults` of them. */
function qualysPage(stream: ReplayStream, request: { ServiceRequest?: { preferences?: { limitResults?: number }; filters?: { Criteria?: { value?: string }[] } } }): Answer {
  const limit = Number(request.ServiceRequest?.preferences?.limitResults) || 100;
  const after = Number(request.ServiceRequest?.filters?.Criteria?.[0]?.value) || 0;
  const start = Math.max(0, after - qualysFirstId + 1);
  const data = vendorPage(stream, start, start + limit);
  const more = start + limit < stream.records.length;
  return { status: 200, body: { ServiceResponse: { responseCode: 'SUCCESS', count: data.length, hasMoreRecords: String(more), ...(data.length && { lastId: qualysFirstId + start + data.length - 1 }), data } } };
}

/** Installed software and findings of the EDR's hosts (per host), when the bench asks for them. */
type SoftwareShape = ReturnType<typeof softwareShape>;

/** The request router over one fleet's streams. */
function fleetRoutes(streams: ReplayStreams, software: SoftwareShape | null) {
  let falconPositions: Map<string | number, number> | null = null;
  const falconHosts = (ids: unknown[]) => {
    falconPositions ??= new Map(streams.falconHosts.records.map((record, position) => [streams.falconHosts.idOf(record, position), position]));
    return ids.flatMap((id) => {
      const position = falconPositions!.get(id as string);
      return position === undefined ? [] : vendorPage(streams.falconHosts, position, position + 1);
    });
  };
  return async (method: string, url: URL, authorization: string | undefined, request: IncomingMessage): Promise<Answer> => {
    const path = url.pathname;
    if (method === 'POST' && path === `/${replayCredentials.tenantId}/oauth2/v2.0/token`) {
      const form = new URLSearchParams(await readBody(request));
      if (form.get('client_id') !== replayCredentials.clientId || form.get('client_secret') !== replayCredentials.clientSecret) return { status: 401, body: { error: 'invalid_client' } };
      return { status: 200, body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: graphToken } };
    }
    if (method === 'POST' && path === '/oauth2/token') {
      const form = new URLSearchParams(await readBody(request));
      if (form.get('client_id') !== replayCredentials.clientId || form.get('client_secret') !== replayCredentials.clientSecret) return { status: 401, body: { errors: [{ code: 401, message: 'access denied, invalid client credentials' }] } };
      return { status: 201, body: { access_token: falconToken, token_type: 'bearer', expires_in: 1799 } };
    }
    if (path.startsWith('/v1.0/')) {
      if (authorization !== `Bearer ${graphToken}`) return unauthorized;
      if (path === '/v1.0/users') return graphPage(streams.entraUsers, url, 100);
      if (path === '/v1.0/devices') return graphPage(streams.entraDevices, url, 100);
      if (path === '/v1.0/deviceManagement/managedDevices') return graphPage(streams.intuneDevices, url, 1000);
    }
    if (path.startsWith('/devices/')) {
      if (authorization !== `Bearer ${falconToken}`) return unauthorized;
      if (method === 'GET' && path === '/devices/queries/devices-scroll/v1') return falconScroll(streams.falconHosts, url);
      if (method === 'POST' && path === '/devices/entities/devices/v2') {
        const { ids } = JSON.parse(await readBody(request)) as { ids: unknown[] };
        return { status: 200, body: { meta: { powered_by: 'device-api' }, resources: falconHosts(ids), errors: [] } };
      }
    }
    if (software && method === 'GET' && (path === '/discover/combined/applications/v1' || path === '/spotlight/combined/vulnerabilities/v1')) {
      if (authorization !== `Bearer ${falconToken}`) return unauthorized;
      const hosts = streams.falconHosts;
      if (path.startsWith('/discover/')) return falconCombined(url, hosts.records.length * software.appsPerHost, (start, end) => applicationsPage(hosts, software.appsPerHost, start, end));
      return falconCombined(url, hosts.records.length * software.findingsPerHost, (start, end) => vulnerabilitiesPage(hosts, software.findingsPerHost, start, end));
    }
    if (method === 'POST' && path === '/qps/rest/2.0/search/am/hostasset') {
      if (authorization !== basicAuthorization) return unauthorized;
      return qualysPage(streams.qualysHosts, JSON.parse(await readBody(request)));
    }
    if (method === 'GET' && path.startsWith('/api/now/table/')) {
      if (authorization !== basicAuthorization) return unauthorized;
      if (path === '/api/now/table/cmdb_ci_computer') return tablePage(streams.serviceNowComputers, url);
      if (path === '/api/now/table/sys_user') return tablePage(streams.serviceNowUsers, url);
    }
    return { status: 404, body: { error: `no replay route for ${method} ${path}` } };
  };
}

/**
 * Starts the replay server for a fleet on 127.0.0.1 (a free port), with the EDR's installed software and findings
 * when `withSoftware`; answers its URL, the records per collection and how to close it.
 */
export async function startFleetReplayServer(fleet: LabelledFleet, withSoftware = false): Promise<{ url: string; served: Record<string, number>; close: () => Promise<void> }> {
  const streams = replayStreams(fleet);
  const devices = new Set(fleet.truth.values()).size;
  const software = withSoftware ? softwareShape(devices, streams.falconHosts.records.length) : null;
  const route = fleetRoutes(streams, software);
  let baseUrl = '';
  const server = createServer((request: IncomingMessage, reply: ServerResponse) => {
    const url = new URL(request.url ?? '/', baseUrl);
    route(request.method ?? 'GET', url, request.headers.authorization, request).then(
      (answer) => reply.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers }).end(JSON.stringify(answer.body)),
      (error: Error) => reply.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: error.message })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    served: {
      ...Object.fromEntries(Object.entries(streams).map(([name, stream]) => [name, stream.records.length])),
      ...(software && { falconApplications: streams.falconHosts.records.length * software.appsPerHost, falconVulnerabilities: streams.falconHosts.records.length * software.findingsPerHost }),
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
