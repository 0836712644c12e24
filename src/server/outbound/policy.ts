// Where one company's outbound calls may go: the install's loopback choice (the operator's environment) and the
// provider company's outbound settings (whether tenant companies may reach private ranges).
import type { ServerConfig } from '../config.js';
import type { Queryable } from '../db/database.js';
import type { OutboundPolicy } from './guard.js';

export const outboundPolicyKind = 'cartograph:settings/outbound-policy';

/** The provider company's outbound settings page as stored (`cartograph:settings/outbound-policy`). */
export type OutboundPolicyDocument = { tenants_reach_private_ranges: boolean };

export const defaultOutboundPolicyDocument: OutboundPolicyDocument = { tenants_reach_private_ranges: true };

/** The provider company's outbound settings (defaults until it saves them). */
export async function loadOutboundPolicyDocument(db: Queryable): Promise<OutboundPolicyDocument> {
  const [row] = await db.query<{ document: Partial<OutboundPolicyDocument> }>(
    'select r.document from resources r join companies c on c.id = r.company_id where c.is_constant and r.kind = $1 order by r.id limit 1',
    [outboundPolicyKind],
  );
  return { ...defaultOutboundPolicyDocument, ...(row?.document ?? {}) };
}

/**
 * The policy the calls made for `companyId` pass. Private ranges stay open to the provider company itself: on a
 * hosted install it is the operator, and its own systems live there.
 */
export async function outboundPolicyFor(db: Queryable, config: Pick<ServerConfig, 'outboundAllowLoopback'>, companyId: number): Promise<OutboundPolicy> {
  const [company] = await db.query<{ is_constant: boolean }>('select is_constant from companies where id = $1', [companyId]);
  const privateRanges = company?.is_constant ? true : (await loadOutboundPolicyDocument(db)).tenants_reach_private_ranges;
  return { loopback: config.outboundAllowLoopback, privateRanges };
}

/** The policy of calls made for the whole install (the shared vulnerability feeds): the provider company's own. */
export function installPolicy(config: Pick<ServerConfig, 'outboundAllowLoopback'>): OutboundPolicy {
  return { loopback: config.outboundAllowLoopback, privateRanges: true };
}
