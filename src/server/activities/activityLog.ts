import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.js';

const mutatingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function attemptedUsername(request: FastifyRequest): string {
  const body = request.body as { username?: unknown } | undefined;
  return typeof body?.username === 'string' ? body.username.slice(0, 150) : '';
}

/**
 * Records every mutation and every sign-in attempt (who, what, target, when, source address, result) once its
 * answer is sent. Sign-ins record the username typed; no body value other than that is ever stored.
 */
export function recordActivities(app: FastifyInstance, db: Queryable): void {
  app.addHook('onResponse', async (request, reply) => {
    const action = request.routeOptions.config.routeName;
    if (!action || !mutatingMethods.has(request.method)) return;
    const caller = request.caller;
    const params = request.params as { id?: unknown } | undefined;
    const targetType = request.routeOptions.url?.split('/').filter(Boolean).slice(0, 2).join('/') ?? '';
    try {
      await db.query(
        `insert into activities (company_id, user_id, username, action, target_type, target_id, source_ip, result, status_code)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          caller?.companyId ?? null,
          caller?.userId ?? null,
          caller?.username ?? attemptedUsername(request),
          action,
          targetType,
          params?.id === undefined ? '' : String(params.id).slice(0, 100),
          request.ip,
          reply.statusCode < 400 ? 'success' : 'failure',
          reply.statusCode,
        ],
      );
    } catch (error) {
      request.log.error({ err: error }, 'could not record activity');
    }
  });
}

export type SystemLogLevel = 'info' | 'warning' | 'error';

/** Writes a system event (start-up, migrations, lockouts) to the system log. */
export async function logSystemEvent(db: Queryable, level: SystemLogLevel, event: string, message: string, detail: object = {}): Promise<void> {
  await db.query('insert into system_log (level, event, message, detail) values ($1, $2, $3, $4)', [level, event, message, JSON.stringify(detail)]);
}
