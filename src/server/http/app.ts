import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { errorCodes, type FastifyError, type FastifyInstance } from 'fastify';
import type { ErrorObject } from 'ajv';
import { recordActivities } from '../activities/activityLog.js';
import { alwaysSecretFields, redactedValue } from '../activities/secretRedaction.js';
import type { AppContext } from '../context.js';
import { samlCallbackPath } from '../sso/samlClient.js';
import { registerGenericResources } from '../resources/genericResources.js';
import { registerAccountRoutes } from './areas/account.js';
import { registerUserSecondFactorRoutes } from './areas/userSecondFactor.js';
import { registerAdapterRoutes } from './areas/adapters.js';
import { registerConnectionRoutes } from './areas/connections.js';
import { registerConnectionFileRoutes } from './areas/connectionFiles.js';
import { registerConnectorRoutes } from './areas/connectors.js';
import { registerCustomAdapterRoutes } from './areas/customAdapters.js';
import { registerDiscoveryRoutes } from './areas/discoveries.js';
import { registerInventoryRoutes } from './areas/inventory.js';
import { registerMergeRoutes } from './areas/mergeRecommendations.js';
import { registerCompanyRoutes } from './areas/companies.js';
import { registerDomainRoutes } from './areas/domains.js';
import { registerConfigurationRoutes } from './areas/configurations.js';
import { registerDashboardRoutes } from './areas/dashboards.js';
import { registerReportRoutes } from './areas/reports.js';
import { registerReportScheduleRoutes } from './areas/reportSchedules.js';
import { registerAvmSettingsRoutes } from './areas/avmSettings.js';
import { registerEnrichmentRoutes } from './areas/enrichments.js';
import { registerGroupRoutes } from './areas/groups.js';
import { registerOpenApiRoute } from './areas/openapi.js';
import { registerOutboundSettingsRoutes } from './areas/outboundSettings.js';
import { registerLdapConfigurationRoutes } from './areas/ldapConfigurations.js';
import { registerActivityRoutes } from './areas/activities.js';
import { registerSessionRoutes } from './areas/session.js';
import { registerSsoRoutes } from './areas/sso.js';
import { registerUserRoutes } from './areas/users.js';
import { registerSecurityManagerRoutes } from '../security/routes.js';
import { registerActionRoutes } from './areas/actions.js';
import { registerSshCredentialRoutes } from './areas/sshCredentials.js';
import { detailError, fieldErrorsFromAjv, refusalAnswer } from './errors.js';
import { requestLogSerializer } from './requestLogging.js';
import { RouteCatalogue } from './routes.js';
import { addSecurityHeaders } from './securityHeaders.js';
import { bodyValidatorFor, textPartValidatorFor } from './validators.js';

const consoleFolder = fileURLToPath(new URL('../../../dist/web', import.meta.url));
export const bodyLimitBytes = 1024 * 1024;

// Paths (and fields) pino must never print: tokens, passwords and anything marked secret.
const redactedPaths = ['req.headers.authorization', 'req.headers.cookie', ...alwaysSecretFields.map((field) => `*.${field}`)];

export type CartographApp = FastifyInstance & { routeCatalogue: RouteCatalogue };

function handleError(error: FastifyError & { validation?: ErrorObject[] }, app: FastifyInstance) {
  const refusal = refusalAnswer(error);
  if (refusal) return refusal;
  if (error.validation) return { status: 400, body: fieldErrorsFromAjv(error.validation) };
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own 4xx messages (malformed JSON, body too large, wrong media type, rate limit) hold no internals.
    return { status, body: { detail: error.message.replace(/^FST_\w+: /, '') } };
  }
  app.log.error({ err: error }, 'unhandled error');
  return { status: 500, body: { detail: 'Internal server error.' } };
}

/** The HTTP application: API routes, the built console, security headers, validation, errors and activities. */
export type AppOptions = { logger?: boolean; logStream?: { write: (line: string) => void } };

export async function buildApp(context: AppContext, options: AppOptions = {}): Promise<CartographApp> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: context.config.logLevel, redact: { paths: redactedPaths, censor: redactedValue }, serializers: { req: requestLogSerializer },
            ...(options.logStream && { stream: options.logStream }),
          },
    bodyLimit: bodyLimitBytes,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { maxParamLength: 200 },
  });
  // Validators are precompiled by codegen: nothing is compiled (no `new Function`) while serving.
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyValidatorFor : textPartValidatorFor)((schema as { $id: string }).$id));
  app.decorateRequest('caller', null);
  // The API speaks JSON only: a text body is refused with 415 instead of reaching a handler as a string.
  app.removeContentTypeParser('text/plain');
  // The one form the API takes: a SAML provider posts its answer as an HTML form (HTTP-POST binding) from the browser.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    if (request.routeOptions.url !== samlCallbackPath) return done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE('application/x-www-form-urlencoded'), undefined);
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const { status, body } = handleError(error, app);
    return reply.code(status).send(body);
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not found.' }));
  addSecurityHeaders(app);
  recordActivities(app, context.db);
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, limit) => detailError(429, `Too many requests. Try again in ${Math.ceil(limit.ttl / 1000)} seconds.`, 'throttled'),
  });

  const catalogue = new RouteCatalogue(app, context);
  catalogue.add({ method: 'GET', url: '/healthz', name: 'health', summary: 'Liveness and database check', access: 'public', handler: async () => {
    await context.db.query('select 1');
    return { status: 'ok' };
  } });
  registerSessionRoutes(catalogue, context);
  registerAccountRoutes(catalogue, context);
  registerUserRoutes(catalogue, context);
  registerUserSecondFactorRoutes(catalogue, context);
  registerGroupRoutes(catalogue, context);
  registerCompanyRoutes(catalogue, context);
  registerDomainRoutes(catalogue, context);
  registerConfigurationRoutes(catalogue, context);
  registerAdapterRoutes(catalogue, context);
  registerConnectionRoutes(catalogue, context);
  await registerConnectionFileRoutes(app, catalogue, context);
  registerConnectorRoutes(catalogue, context);
  registerCustomAdapterRoutes(catalogue, context);
  registerEnrichmentRoutes(catalogue, context);
  registerAvmSettingsRoutes(catalogue, context);
  registerDiscoveryRoutes(catalogue, context);
  registerInventoryRoutes(catalogue, context);
  registerMergeRoutes(catalogue, context);
  registerDashboardRoutes(catalogue, context);
  registerSecurityManagerRoutes(catalogue, context);
  registerReportRoutes(catalogue, context);
  registerReportScheduleRoutes(catalogue, context);
  registerGenericResources(catalogue, context);
  registerSsoRoutes(catalogue, context);
  registerActionRoutes(catalogue, context);
  registerSshCredentialRoutes(catalogue, context);
  registerOutboundSettingsRoutes(catalogue, context);
  registerLdapConfigurationRoutes(catalogue, context);
  registerActivityRoutes(catalogue, context);
  registerOpenApiRoute(catalogue, context);

  if (existsSync(`${consoleFolder}/index.html`)) {
    await app.register(fastifyStatic, { root: consoleFolder, prefix: '/', wildcard: true, index: ['index.html'] });
  }
  return Object.assign(app, { routeCatalogue: catalogue }) as unknown as CartographApp;
}
