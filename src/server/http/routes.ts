import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { verifyAccessToken } from '../auth/accessTokens.js';
import { runNotingChanges } from '../activities/activityChanges.js';
import type { AppContext } from '../context.js';
import { loadCaller, type Caller } from '../identity/callers.js';
import { detailError } from './errors.js';
import { enforceFormRules, schemaById } from './validators.js';

/**
 * Who may call a route: `public` (anyone), `account` (any signed-in user, even with an expired password:
 * the endpoints that let them fix it), `authenticated` (any signed-in user), or a permission string.
 */
export type Access = 'public' | 'account' | 'authenticated' | `${string}.${string}`;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RouteDefinition = {
  method: HttpMethod;
  url: string;
  /** Operation id in OpenAPI and the action recorded in activities, e.g. `users.create`. */
  name: string;
  summary: string;
  access: Access;
  body?: string;
  query?: string;
  params?: string;
  /** Requests per minute per address; used on the sign-in endpoints. */
  rateLimitPerMinute?: number;
  status?: number;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
};

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    routeName?: string;
  }
}

/** The caller of a route that is not public; handlers of such routes can rely on it. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw detailError(401, 'Authentication credentials were not provided.', 'not_authenticated');
  return request.caller;
}

async function authenticate(context: AppContext, request: FastifyRequest, access: Access): Promise<void> {
  const header = request.headers.authorization;
  if (!header || !/^Bearer\s+\S+$/i.test(header)) throw detailError(401, 'Authentication credentials were not provided.', 'not_authenticated');
  const claims = await verifyAccessToken(context.keys.tokenSigningKey, header.replace(/^Bearer\s+/i, ''));
  const caller = claims && (await loadCaller(context.db, claims.user_id, context.config.passwordExpiryDays));
  if (!claims || !caller || caller.companyId !== claims.company_id) {
    throw detailError(401, 'Given token not valid for any token type.', 'token_not_valid');
  }
  request.caller = caller;
  if (access === 'account') return;
  if (caller.passwordExpired) throw detailError(403, 'Your password has expired. Choose a new one to continue.', 'password_expired');
  if (access !== 'authenticated' && !caller.permissions.has(access)) {
    throw detailError(403, 'You do not have permission to perform this action.', 'permission_denied');
  }
}

/** Registers routes with their schemas and access checks, and remembers them for OpenAPI and the tests. */
export class RouteCatalogue {
  readonly definitions: RouteDefinition[] = [];

  constructor(
    private readonly app: FastifyInstance,
    private readonly context: AppContext,
  ) {}

  add(definition: RouteDefinition): void {
    this.definitions.push(definition);
    const { access, rateLimitPerMinute } = definition;
    this.app.route({
      method: definition.method,
      url: definition.url,
      schema: {
        ...(definition.body && { body: schemaById(definition.body) }),
        ...(definition.query && { querystring: schemaById(definition.query) }),
        ...(definition.params && { params: schemaById(definition.params) }),
      },
      config: { routeName: definition.name, ...(rateLimitPerMinute && { rateLimit: { max: rateLimitPerMinute, timeWindow: 60_000 } }) },
      // Authentication runs before validation: a caller without rights learns nothing about the body's shape.
      onRequest: access === 'public' ? undefined : (request) => authenticate(this.context, request, access),
      // After the schema's checks: the rules its form applies (x-rules), so an API client cannot save what it refuses.
      preHandler: definition.body ? (request) => enforceFormRules(definition.body!, request.body) : undefined,
      handler: async (request, reply) => {
        // The activity of a mutation keeps what it changed (settings documents before and after, a create's id).
        const result = await runNotingChanges(this.context.db, definition, request, () => definition.handler(request, reply));
        if (reply.sent) return reply;
        if (result === undefined) return reply.code(204).send();
        return reply.code(definition.status ?? 200).send(result);
      },
    });
  }

  /** Runs as the server starts closing, before it waits for requests in flight: held requests (long polls) end here. */
  onClose(hook: () => void): void {
    this.app.addHook('preClose', async () => hook());
  }
}
