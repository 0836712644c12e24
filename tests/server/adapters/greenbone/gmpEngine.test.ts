import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { greenboneEngine } from '../../../../src/server/adapters/greenbone/greenboneEngine.js';
import { isWholeDocument, xmlText } from '../../../../src/server/adapters/greenbone/gmpSession.js';
import { loopbackAllowed } from '../../../../tools/adapterKit/fixtureReplay.js';
import { startGmpReplayServer } from '../../../../tools/adapterKit/gmpReplay.js';

// The GMP engine against local servers: a TLS server replaying gvmd's documented XML (tools/adapterKit/gmpReplay.ts),
// and the failures an administrator meets: refused by the outbound policy, no TLS on the port, a broken answer.

const auth = { auth_type: 'basic', username: 'cartograph', password: 'secret' };
const accepted = { request: ['<authenticate>'], response: '<authenticate_response status="200" status_text="OK"><role>Observer</role><timezone>UTC</timezone></authenticate_response>' };

describe('GMP answers', () => {
  it('are whole once the root element closes, prolog or not, self-closing or not', () => {
    expect(isWholeDocument('<get_assets_response status="200"><asset id="a"><name>x</name></asset>')).toBe(false);
    expect(isWholeDocument('<get_assets_response status="200"><asset id="a"><name>x</name></asset></get_assets_response>\n')).toBe(true);
    expect(isWholeDocument('<?xml version="1.0"?><authenticate_response status="400" status_text="Authentication failed"/>')).toBe(true);
    expect(isWholeDocument('<authenticate_response status="200" status_text="OK"><role>User</role>')).toBe(false);
    expect(isWholeDocument('')).toBe(false);
  });

  it('escape credentials and filter terms put inside XML', () => {
    expect(xmlText(`p<a>ss&"w'rd`)).toBe('p&lt;a&gt;ss&amp;&quot;w&apos;rd');
  });
});

describe('the GMP engine', () => {
  let plain: Server;
  let plainPort = 0;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    plain = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    plainPort = (plain.address() as { port: number }).port;
  });
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => plain.close(() => resolve()));
  });

  const test = (config: Record<string, unknown>, outbound = loopbackAllowed) => greenboneEngine.test({ adapter: 'greenbone', config, signal: AbortSignal.timeout(10_000), outbound });

  it('is refused by the outbound guard before connecting where the policy forbids', async () => {
    expect(await test({ host: '127.0.0.1', port: plainPort, auth }, { loopback: false, privateRanges: false })).toMatchObject({ ok: false, reason: 'refused' });
  });

  it('says so when the port does not speak TLS', async () => {
    const result = await test({ host: '127.0.0.1', port: plainPort, auth, verify_ssl: false, timeout_seconds: 5 });
    expect(result.ok).toBe(false);
    expect(['tls', 'protocol']).toContain(!result.ok && result.reason);
  });

  it('fails on a certificate it does not trust while verification is on', async () => {
    const server = await startGmpReplayServer([accepted]);
    try {
      expect(await test({ host: server.host, port: server.port, auth })).toMatchObject({ ok: false, reason: 'tls' });
    } finally {
      await server.close();
    }
  });

  it('reports a malformed answer as a protocol failure, naming the command', async () => {
    const server = await startGmpReplayServer([accepted, { request: ['<get_assets'], response: '<get_assets_response status="200"><asset id="a"><name>x</nam></asset></get_assets_response>' }]);
    try {
      const result = await test({ host: server.host, port: server.port, auth, custom_ca: server.ca });
      expect(result).toMatchObject({ ok: false, reason: 'protocol' });
      expect(!result.ok && result.detail).toMatch(/get_assets_response/);
    } finally {
      await server.close();
    }
  });

  it('fails the whole fetch when gvmd refuses a command, with gvmd\'s status text', async () => {
    const server = await startGmpReplayServer([accepted, { request: ['<get_assets'], response: '<get_assets_response status="403" status_text="Permission denied"/>' }]);
    try {
      const fetching = async () => {
        for await (const record of greenboneEngine.fetch({ adapter: 'greenbone', config: { host: server.host, port: server.port, auth, custom_ca: server.ca }, signal: AbortSignal.timeout(10_000), warn: () => undefined, outbound: loopbackAllowed })) void record;
      };
      await expect(fetching()).rejects.toThrow(/403: Permission denied/);
    } finally {
      await server.close();
    }
  });
});
