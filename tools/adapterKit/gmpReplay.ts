// Replays an engine adapter's GMP fixture (Greenbone): a real TLS server on 127.0.0.1, with a certificate made for
// the run by openssl, answers each XML command with the first unused exchange whose `request` texts it all contains
// (once all are used, the last match repeats), and the real GMP engine fetches from it with that certificate as its
// custom CA. The conformance test and the kit's `check` both replay through here.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';
import type { AdapterEngine, ConnectivityResult, FetchedRecord } from '../../src/server/adapters/engine.js';
import { isWholeDocument } from '../../src/server/adapters/greenbone/gmpSession.js';
import { changedConfig, loopbackAllowed, type ReplayResult } from './fixtureReplay.js';

export type GmpExchange = { request: string[]; response: string };

export type GmpFixture = {
  description: string;
  /** `gmp`: the exchanges are GMP commands (texts each must contain) and XML answers. */
  protocol: 'gmp';
  config: Record<string, unknown>;
  exchanges: GmpExchange[];
  expected: { count: number; records: { entity: string; fields: Record<string, unknown> }[] };
  /** A documented failure: the config changes that bring it and the connectivity reason it must give. */
  failure?: { config: Record<string, unknown>; reason: string };
};

type GmpServer = { host: string; port: number; ca: string; received: string[]; unmatched: string[]; close: () => Promise<void> };

/** A self-signed certificate for 127.0.0.1, made once per process (openssl takes a moment). */
let certificate: { key: string; cert: string } | null = null;
function loopbackCertificate(): { key: string; cert: string } {
  if (certificate) return certificate;
  const directory = mkdtempSync(join(tmpdir(), 'cartograph-gmp-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-subj', '/CN=gvmd replay', '-addext', 'subjectAltName=IP:127.0.0.1'], { cwd: directory, stdio: 'ignore' });
    certificate = { key: readFileSync(join(directory, 'key.pem'), 'utf8'), cert: readFileSync(join(directory, 'cert.pem'), 'utf8') };
    return certificate;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

export async function startGmpReplayServer(exchanges: GmpExchange[]): Promise<GmpServer> {
  const { key, cert } = loopbackCertificate();
  const used = new Set<number>();
  const received: string[] = [];
  const unmatched: string[] = [];
  const server = createServer({ key, cert }, (socket) => {
    socket.setEncoding('utf8');
    let pending = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      pending += chunk;
      if (!isWholeDocument(pending)) return;
      const command = pending;
      pending = '';
      received.push(command);
      const matches = exchanges.flatMap((exchange, index) => (exchange.request.every((text) => command.includes(text)) ? [index] : []));
      const chosen = matches.find((index) => !used.has(index)) ?? matches[matches.length - 1];
      if (chosen === undefined) {
        unmatched.push(command.slice(0, 200));
        // gvmd's answer to a command it does not know.
        socket.write('<gmp_response status="400" status_text="No replay exchange for this command"/>');
        return;
      }
      used.add(chosen);
      socket.write(exchanges[chosen].response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const sockets = new Set<import('node:net').Socket>();
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return {
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    ca: cert,
    received,
    unmatched,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const replayTimeoutMs = 20_000;

/** The fixture's config pointed at the replay server, trusting its certificate (verification stays on). */
function replayConfig(fixture: GmpFixture, server: GmpServer, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return changedConfig({ ...fixture.config, host: server.host, port: server.port, custom_ca: server.ca, verify_ssl: true }, changes);
}

/** Fetches through `engine` against the fixture's exchanges; a failing fetch is reported, not thrown. */
export async function replayGmpFixture(slug: string, fixture: GmpFixture, engine: AdapterEngine): Promise<ReplayResult> {
  const server = await startGmpReplayServer(fixture.exchanges);
  const warnings: string[] = [];
  const records: FetchedRecord[] = [];
  try {
    for await (const record of engine.fetch({ adapter: slug, config: replayConfig(fixture, server), signal: AbortSignal.timeout(replayTimeoutMs), warn: (message) => warnings.push(message), outbound: loopbackAllowed })) records.push(record);
    return { records, warnings, unmatched: server.unmatched };
  } catch (error) {
    return { records, warnings, unmatched: server.unmatched, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await server.close();
  }
}

/** The engine's connectivity check against a fresh replay, with the fixture's config changed by `changes`. */
export async function replayGmpConnectivityCheck(slug: string, fixture: GmpFixture, engine: AdapterEngine, changes?: Record<string, unknown>): Promise<ConnectivityResult> {
  const server = await startGmpReplayServer(fixture.exchanges);
  try {
    return await engine.test({ adapter: slug, config: replayConfig(fixture, server, changes), signal: AbortSignal.timeout(replayTimeoutMs), outbound: loopbackAllowed });
  } finally {
    await server.close();
  }
}
