import { openSecrets } from '../../adapters/secretFields.js';
import type { ActionRunner, RunEnvironment, TargetResult } from '../actionTypes.js';
import { allTargets, messageOf } from '../actionTypes.js';
import { mapBounded } from '../bounded.js';
import { callWithRetries, outboundAgents, type OutboundAgents } from '../httpCall.js';
import { renderText, type Target } from '../template.js';

type TicketParameters = { connection: number; project_key?: string; issue_type?: string; table?: string; summary_template: string; description_template: string };
type ConnectionConfig = { base_url: string; auth: Record<string, string> };

export const ticketAdapters = ['jira', 'servicenow'];
// Ticketing systems are reached as their adapter connection reaches them in discoveries, on-premises addresses
// included: the connection was set up by an administrator, not typed into an action.
const anyDestination = ['0.0.0.0/0', '::/0'];

function authorization(auth: Record<string, string>): string {
  if (auth.auth_type === 'cloud_api_token') return `Basic ${Buffer.from(`${auth.email}:${auth.api_token}`).toString('base64')}`;
  if (auth.auth_type === 'personal_access_token') return `Bearer ${auth.access_token}`;
  if (auth.auth_type === 'basic') return `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
  throw new Error(`Tickets cannot be opened with the connection's "${auth.auth_type}" sign-in; use an API token or a basic user.`);
}

/** The ticket's request for the connection's system, and how to read the new ticket's key from its answer. */
function ticketRequest(adapter: string, config: ConnectionConfig, parameters: TicketParameters, summary: string, description: string, asset: Target) {
  const base = config.base_url.replace(/\/+$/, '');
  if (adapter === 'jira') {
    return {
      url: `${base}/rest/api/2/issue`,
      body: { fields: { project: { key: parameters.project_key }, issuetype: { name: parameters.issue_type || 'Task' }, summary, description, labels: ['cartograph'] } },
      keyOf: (answer: { key?: string }) => answer.key,
    };
  }
  return {
    url: `${base}/api/now/table/${parameters.table || 'incident'}`,
    body: { short_description: summary, description, correlation_id: `cartograph:${asset.assetId}`, correlation_display: 'Cartograph' },
    keyOf: (answer: { result?: { number?: string; sys_id?: string } }) => answer.result?.number ?? answer.result?.sys_id,
  };
}

async function openTicket(environment: RunEnvironment, adapter: string, config: ConnectionConfig, agents: OutboundAgents, asset: Target): Promise<TargetResult> {
  const { context, actionId, actionName, settings } = environment;
  const parameters = environment.parameters as TicketParameters;
  const [existing] = await context.db.query<{ ticket: string }>('select ticket from action_tickets where action_id = $1 and asset_id = $2', [actionId, asset.assetId]);
  if (existing) return { status: 'skipped', detail: `Ticket ${existing.ticket} was opened earlier.` };
  const extras = { action: actionName };
  const request = ticketRequest(adapter, config, parameters, renderText(parameters.summary_template, asset, extras), renderText(parameters.description_template, asset, extras), asset);
  const answer = await callWithRetries(request.url, JSON.stringify(request.body), {
    timeoutMs: settings.target_timeout_seconds * 1000, retries: settings.retries, headers: { authorization: authorization(config.auth), accept: 'application/json' },
  }, agents, anyDestination);
  if (answer.status < 200 || answer.status >= 300) return { status: 'failed', detail: `HTTP ${answer.status}`, output: answer.body.slice(0, 2000) };
  const key = request.keyOf(JSON.parse(answer.body)) ?? 'unknown';
  await context.db.query('insert into action_tickets (action_id, asset_id, ticket) values ($1, $2, $3) on conflict do nothing', [actionId, asset.assetId, key]);
  return { status: 'succeeded', detail: `Opened ${key}` };
}

/** One ticket per asset in Jira or ServiceNow, through a connection's credentials; never twice for one asset. */
export const ticketRunner: ActionRunner = {
  entities: null,
  async run(environment, targets) {
    const { context, companyId, settings } = environment;
    const { connection: connectionId } = environment.parameters as TicketParameters;
    const [connection] = await context.db.query<{ adapter: string; config: Record<string, unknown> }>('select adapter, config from connections where id = $1 and company_id = $2', [connectionId, companyId]);
    const adapter = connection && context.adapters.catalogue.get(connection.adapter);
    if (!connection || !adapter || !ticketAdapters.includes(connection.adapter)) return allTargets(targets, { status: 'failed', detail: `Connection ${connectionId} is not a Jira or ServiceNow connection of this company.` });
    const config = openSecrets(context.keys.secretsKey, connection.config, adapter.secretFields) as ConnectionConfig;
    const agents = outboundAgents(anyDestination, settings.concurrency);
    try {
      return await mapBounded(targets, settings.concurrency, (asset) => openTicket(environment, connection.adapter, config, agents, asset).catch((error) => ({ status: 'failed' as const, detail: messageOf(error) })));
    } finally {
      agents.close();
    }
  },
};
