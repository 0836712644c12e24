import { openSecrets } from '../../auth/secretFields.js';
import type { ActionRunner, RunEnvironment, TargetResult } from '../actionTypes.js';
import { allTargets, messageOf } from '../actionTypes.js';
import { mapBounded } from '../bounded.js';
import { callWithRetries, outboundAgents, type OutboundAgents } from '../httpCall.js';
import { renderText, type Target } from '../template.js';

type TicketParameters = { connection: number; project_key?: string; issue_type?: string; table?: string; summary_template: string; description_template: string };
type ConnectionConfig = { base_url: string; auth: Record<string, string> };

export const ticketAdapters = ['jira', 'servicenow'];
// Ticketing systems are reached as their adapter connection reaches them in discoveries (the company's outbound
// policy, without the action center's list): the connection was set up by an administrator, not typed into an action.

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

/**
 * Claims the asset's ticket for this run's attempt before the ticketing system is asked: the (action, asset) key is
 * taken in the database, so of two runs at once one opens the ticket; a superseded attempt claims nothing. Answers
 * the target's result when it must not be opened (opened earlier, or being opened), null when the claim is this run's.
 */
async function claimTicket(environment: RunEnvironment, asset: Target): Promise<TargetResult | null> {
  const { context, actionId, runId, attempt } = environment;
  const [claimed] = await context.db.query(
    `insert into action_tickets (action_id, asset_id, ticket, run_id)
     select $1, $2, null, $3 where exists (select 1 from action_runs where id = $3 and attempt = $4 and status = 'running')
     on conflict do nothing returning 1`,
    [actionId, asset.assetId, runId, attempt],
  );
  if (claimed) return null;
  const [existing] = await context.db.query<{ ticket: string | null; run_id: number | null }>('select ticket, run_id from action_tickets where action_id = $1 and asset_id = $2', [actionId, asset.assetId]);
  if (!existing) return { status: 'skipped', detail: 'Not opened: the run was taken over by another process.' };
  if (existing.ticket !== null) return { status: 'skipped', detail: `Ticket ${existing.ticket} was opened earlier.` };
  // Whether a stopped process's call reached the ticketing system is unknown: not opening another is the safe side.
  if (existing.run_id === runId) return { status: 'skipped', detail: 'Not opened again: the process running an earlier attempt of this run stopped while it opened this ticket; look for it in the ticketing system.' };
  return { status: 'skipped', detail: `Not opened: run ${existing.run_id ?? '(deleted)'} is opening this asset's ticket, or stopped while it did.` };
}

async function openTicket(environment: RunEnvironment, adapter: string, config: ConnectionConfig, agents: OutboundAgents, asset: Target): Promise<TargetResult> {
  const { context, actionId, actionName, settings, runId } = environment;
  if (environment.signal.aborted) return { status: 'skipped', detail: 'Not opened: the run was taken over by another process.' };
  const parameters = environment.parameters as TicketParameters;
  const extras = { action: actionName };
  const request = ticketRequest(adapter, config, parameters, renderText(parameters.summary_template, asset, extras), renderText(parameters.description_template, asset, extras), asset);
  const headers = { authorization: authorization(config.auth), accept: 'application/json' };
  const refused = await claimTicket(environment, asset);
  if (refused) return refused;
  // A call that failed gives the claim back, so a later run may open the ticket.
  const release = () => context.db.query('delete from action_tickets where action_id = $1 and asset_id = $2 and run_id = $3 and ticket is null', [actionId, asset.assetId, runId]);
  let answer: Awaited<ReturnType<typeof callWithRetries>>;
  try {
    answer = await callWithRetries(request.url, JSON.stringify(request.body), { timeoutMs: settings.target_timeout_seconds * 1000, retries: settings.retries, headers }, agents);
  } catch (error) {
    await release();
    throw error;
  }
  if (answer.status < 200 || answer.status >= 300) {
    await release();
    return { status: 'failed', detail: `HTTP ${answer.status}`, output: answer.body.slice(0, 2000) };
  }
  // The ticket is open from here on: an answer that cannot be read still keeps the claim.
  let key = 'unknown';
  try {
    key = request.keyOf(JSON.parse(answer.body)) ?? key;
  } catch {
    // Kept as unknown.
  }
  await context.db.query('update action_tickets set ticket = $4 where action_id = $1 and asset_id = $2 and run_id = $3', [actionId, asset.assetId, runId, key]);
  return { status: 'succeeded', detail: `Opened ${key}` };
}

/** One ticket per asset in Jira or ServiceNow, through a connection's credentials; never twice for one asset. */
export const ticketRunner: ActionRunner = {
  entities: null,
  // Each asset's ticket is claimed in the database before it is opened: a takeover skips what was claimed.
  resumable: true,
  async run(environment, targets) {
    const { context, companyId, settings, outbound } = environment;
    const { connection: connectionId } = environment.parameters as TicketParameters;
    const [connection] = await context.db.query<{ adapter: string; config: Record<string, unknown> }>('select adapter, config from connections where id = $1 and company_id = $2', [connectionId, companyId]);
    const adapter = connection && context.adapters.catalogue.get(connection.adapter);
    if (!connection || !adapter || !ticketAdapters.includes(connection.adapter)) return allTargets(targets, { status: 'failed', detail: `Connection ${connectionId} is not a Jira or ServiceNow connection of this company.` });
    const config = openSecrets(context.keys.secretsKey, connection.config, adapter.secretFields) as ConnectionConfig;
    const agents = outboundAgents(outbound, settings.concurrency);
    try {
      return await mapBounded(targets, settings.concurrency, (asset) => openTicket(environment, connection.adapter, config, agents, asset).catch((error) => ({ status: 'failed' as const, detail: messageOf(error) })));
    } finally {
      agents.close();
    }
  },
};
