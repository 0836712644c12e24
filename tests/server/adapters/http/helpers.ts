// Shared helpers for the HTTP engine tests: a tiny real HTTP server with a custom handler, and running a manifest.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConnectivityResult, FetchedRecord } from '../../../../src/server/adapters/engine.js';
import { fetchManifest, testManifest } from '../../../../src/server/adapters/http/httpEngine.js';
import { manifestErrors, type Manifest } from '../../../../src/server/adapters/http/manifest.js';
import type { OutboundPolicy } from '../../../../src/server/outbound/guard.js';
import { loopbackAllowed } from '../../../support/outbound.js';

export type Handler = (request: IncomingMessage & { bodyText: string }, response: ServerResponse) => unknown;

export type TestServer = { url: string; server: Server; close: () => Promise<void> };

/** A real node:http server on 127.0.0.1 (or another loopback address), port 0, answering with `handler`. */
export async function startServer(handler: Handler, host = '127.0.0.1'): Promise<TestServer> {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    await handler(Object.assign(request, { bodyText: Buffer.concat(chunks).toString('utf8') }), response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** A manifest checked against manifest.meta.json, so tests only use the documented format. */
export function manifest(partial: Omit<Manifest, 'version' | 'check'> & Partial<Pick<Manifest, 'check'>>): Manifest {
  const complete = { version: 1, check: { request: { url: '/check' } }, ...partial } as Manifest;
  const errors = manifestErrors(complete);
  if (errors.length) throw new Error(`test manifest invalid: ${errors.join('; ')}`);
  return complete;
}

export type Collected = { records: FetchedRecord[]; warnings: string[] };

/** Runs a manifest's fetch to the end and collects what it yields and warns. */
export async function collect(target: Manifest, config: Record<string, unknown>, signal = AbortSignal.timeout(15_000), outbound: OutboundPolicy = loopbackAllowed): Promise<Collected> {
  const records: FetchedRecord[] = [];
  const warnings: string[] = [];
  for await (const record of fetchManifest(target, { adapter: 'test', config, signal, warn: (message) => warnings.push(message), outbound })) records.push(record);
  return { records, warnings };
}

export function check(target: Manifest, config: Record<string, unknown>, outbound: OutboundPolicy = loopbackAllowed): Promise<ConnectivityResult> {
  return testManifest(target, { adapter: 'test', config, signal: AbortSignal.timeout(15_000), outbound });
}
