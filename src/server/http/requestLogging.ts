import type { FastifyRequest } from 'fastify';
import { redactedValue } from '../activities/secretRedaction.js';

// Query parameters that grant access on their own (the signature of an e-mailed report download link): whoever
// reads a log line must not be able to replay the URL.
const secretQueryParameter = /([?&]signature=)[^&#]*/gi;

/** A request URL as logs print it: `/reports/runs/7/files/pdf/signed?company=1&expires=…&signature=[redacted]`. */
export const loggedUrl = (url: string) => url.replace(secretQueryParameter, `$1${redactedValue}`);

/** Fastify's own request serializer (pino-http's fields), with the URL's secret parameters redacted. */
export const requestLogSerializer = (request: FastifyRequest) => ({
  method: request.method,
  url: loggedUrl(request.url),
  version: request.headers?.['accept-version'] as string | undefined,
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket?.remotePort,
});
