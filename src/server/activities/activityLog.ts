import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.js';
import { activityForwarderOf } from './activityForwarder.js';
import { storableValue } from './activityChanges.js';

const mutatingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function attemptedUsername(request: FastifyRequest): string {
  const body = request.body as { username?: unknown } | undefined;
  return typeof body?.username === 'string' ? body.username.slice(0, 150) : '';
}

/**
 * Records every mutation and every sign-in attempt (who, what, target, when, source address, result) once its
 * answer is sent. Sign-ins record the username typed; no body value other than that is ever stored. A mutation that
 * succeeded also keeps what its handler noted it changed (activityChanges.ts), secrets redacted.
 */
export function recordActivities(app: FastifyInstance, db: Queryable): void {
  app.decorateRequest('activityChange', null);
  app.addHook('onResponse', async (request, reply) => {
    const action = request.routeOptions.config.routeName;
    if (!action || !mutatingMethods.has(request.method)) return;
    // A remote connector's polls and record batches are machine traffic, shown on its connector page, not activities.
    if (action.startsWith('connector_api.')) return;
    const caller = request.caller;
    const params = request.params as { id?: unknown } | undefined;
    const change = reply.statusCode < 400 ? request.activityChange : null;
    const targetId = change?.targetId ?? params?.id;
    try {
      await recordActivity(db, {
        // A sign-in has no caller yet: it is the activity of the company whose username was typed.
        companyId: caller?.companyId ?? null,
        userId: caller?.userId ?? null,
        username: caller?.username ?? attemptedUsername(request),
        action,
        targetType: request.routeOptions.url?.split('/').filter(Boolean).slice(0, 2).join('/') ?? '',
        targetId: targetId === undefined ? '' : String(targetId).slice(0, 100),
        sourceIp: request.ip,
        statusCode: reply.statusCode,
        before: change?.before,
        after: change?.after,
      });
    } catch (error) {
      request.log.error({ err: error }, 'could not record activity');
    }
  });
}

/** One activity: who (the company is the username's when there is no caller, as for a sign-in), what, and the change. */
export type NewActivity = {
  companyId: number | null; userId: number | null; username: string; action: string; targetType: string; targetId: string; sourceIp: string; statusCode: number;
  before?: unknown; after?: unknown;
};

/** Writes an activity (a request's, or work's such as an action run) and sends it to the company's syslog receiver. */
export async function recordActivity(db: Queryable, activity: NewActivity): Promise<void> {
  forwardActivity(db, activity);
  const [before, after] = [storableValue(activity.before), storableValue(activity.after)];
  await db.query(
    `insert into activities (company_id, user_id, username, action, target_type, target_id, source_ip, result, status_code, value_before, value_after)
     values (coalesce($1, (select company_id from users where lower(username) = lower($3))), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      activity.companyId, activity.userId, activity.username, activity.action, activity.targetType, activity.targetId, activity.sourceIp,
      activity.statusCode < 400 ? 'success' : 'failure', activity.statusCode,
      before === null ? null : JSON.stringify(before), after === null ? null : JSON.stringify(after),
    ],
  );
}

export type SystemLogLevel = 'info' | 'warning' | 'error';

/** Writes a system event (start-up, migrations, lockouts) to the system log. */
export async function logSystemEvent(db: Queryable, level: SystemLogLevel, event: string, message: string, detail: object = {}): Promise<void> {
  await db.query('insert into system_log (level, event, message, detail) values ($1, $2, $3, $4)', [level, event, message, JSON.stringify(detail)]);
  forwardSystemEvent(db, level, event, message, detail);
}

// Syslog severities: 3 error, 4 warning, 6 informational.
const severityOfStatus = (status: number) => (status >= 500 ? 3 : status >= 400 ? 4 : 6);
const severityOfLevel: Record<SystemLogLevel, number> = { error: 3, warning: 4, info: 6 };

/** Sends a recorded activity to its company's syslog receiver, in the background: the request never waits for it. */
function forwardActivity(db: Queryable, activity: NewActivity): void {
  const forwarder = activityForwarderOf(db);
  if (!forwarder) return;
  const result = activity.statusCode < 400 ? 'success' : 'failure';
  const target = [activity.targetType, activity.targetId].filter(Boolean).join('/');
  // A sign-in has no caller yet: it belongs to the company of the username typed (or the provider's, for unknown names).
  const company = activity.companyId !== null
    ? Promise.resolve(activity.companyId)
    : db.query<{ company_id: number }>('select company_id from users where lower(username) = lower($1)', [activity.username]).then((rows) => rows[0]?.company_id ?? providerCompany(db));
  void company.then((companyId) => companyId === null ? undefined : forwarder.forward(companyId, {
    severity: severityOfStatus(activity.statusCode),
    eventId: activity.action,
    message: `${activity.username || 'anonymous'} ${activity.action}${target ? ` ${target}` : ''}: ${result}`,
    fields: { user: activity.username, action: activity.action, target_type: activity.targetType, target_id: activity.targetId, source_ip: activity.sourceIp, result, status_code: activity.statusCode, company_id: companyId },
  })).catch(() => undefined);
}

async function providerCompany(db: Queryable): Promise<number | null> {
  const [row] = await db.query<{ id: number }>('select id from companies where is_constant order by id limit 1');
  return row?.id ?? null;
}

/** System events go to the company they name (`company_id` in the detail), or else to the provider company's receiver. */
function forwardSystemEvent(db: Queryable, level: SystemLogLevel, event: string, message: string, detail: object): void {
  const forwarder = activityForwarderOf(db);
  if (!forwarder) return;
  const named = (detail as { company_id?: unknown }).company_id;
  const company = typeof named === 'number' ? Promise.resolve(named) : providerCompany(db);
  const fields = Object.fromEntries(Object.entries(detail).filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))) as Record<string, string | number | boolean>;
  void company
    .then((companyId) => companyId === null ? undefined : forwarder.forward(companyId, { severity: severityOfLevel[level], eventId: event, message, fields: { ...fields, level } }))
    .catch(() => undefined);
}
