import { createServer, type Server, type Socket } from 'node:net';
import { loopbackAllowed } from '../../../support/outbound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionConfig, FetchedRecord } from '../../../../src/server/adapters/engine.js';
import { networkScannerEngine } from '../../../../src/server/adapters/scanners/networkScanner.js';

type Listener = { server: Server; port: number };

// A MySQL 8 handshake packet: 3-byte length, sequence 0, protocol 10, version, NUL, then the rest of the greeting.
function mysqlGreeting(version: string): Buffer {
  const body = Buffer.concat([Buffer.from([0x0a]), Buffer.from(`${version}\0`, 'latin1'), Buffer.from([1, 0, 0, 0]), Buffer.alloc(24, 0x41)]);
  const header = Buffer.alloc(4);
  header.writeUIntLE(body.length, 0, 3);
  return Buffer.concat([header, body]);
}

async function listen(onConnection: (socket: Socket) => void): Promise<Listener> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    // Reading (and discarding) is what lets the server see the scanner hang up.
    socket.resume();
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

async function closedPort(): Promise<number> {
  const { server, port } = await listen(() => undefined);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const listeners: Listener[] = [];
let ssh: Listener;
let smtp: Listener;
let mysql: Listener;
let silent: Listener;
let closed: number[];

beforeAll(async () => {
  ssh = await listen((socket) => socket.write('SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n'));
  smtp = await listen((socket) => socket.write('220 mail.corp.example ESMTP Postfix (Debian/GNU)\r\n'));
  mysql = await listen((socket) => socket.write(mysqlGreeting('8.0.36')));
  // Like an HTTP or TLS server: accepts and waits for the client to speak.
  silent = await listen(() => undefined);
  listeners.push(ssh, smtp, mysql, silent);
  closed = [await closedPort(), await closedPort()];
});

afterAll(async () => {
  await Promise.all(listeners.map(({ server }) => new Promise((resolve) => server.close(resolve))));
});

function scanConfig(overrides: Partial<ConnectionConfig> = {}): ConnectionConfig {
  const ports = [ssh.port, smtp.port, mysql.port, silent.port, ...closed].join(',');
  return { targets: '127.0.0.1', ports, rate: 1000, probe_timeout_ms: 1000, resolve_hostnames: false, ...overrides };
}

async function scan(config: ConnectionConfig, signal = new AbortController().signal): Promise<{ records: FetchedRecord[]; warnings: string[] }> {
  const records: FetchedRecord[] = [];
  const warnings: string[] = [];
  for await (const record of networkScannerEngine.fetch({ adapter: 'network-scanner', config, signal, warn: (message) => warnings.push(message), outbound: loopbackAllowed })) records.push(record);
  return { records, warnings };
}

describe('the network scanner', () => {
  it('turns a host with open ports into one device and one service per open port, skipping closed ports', async () => {
    const { records, warnings } = await scan(scanConfig());
    expect(warnings).toEqual([]);
    const devices = records.filter((record) => record.entity === 'device');
    const services = records.filter((record) => record.entity === 'service');
    expect(devices).toHaveLength(1);
    expect(devices[0].fields.IpAddresses).toEqual(['127.0.0.1']);
    const openPorts = (devices[0].fields.OpenPorts as Array<{ PortNumber: number }>).map((port) => port.PortNumber);
    expect(openPorts).toEqual([ssh.port, smtp.port, mysql.port, silent.port].sort((left, right) => left - right));
    expect(services).toHaveLength(4);
    const byPort = new Map(services.map((service) => [service.fields.Port, service.fields]));
    expect(byPort.get(ssh.port)).toMatchObject({ ServiceName: 'ssh', Product: 'OpenSSH', Version: '9.2p1', IdentifiedBy: 'banner', Banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3' });
    expect(byPort.get(smtp.port)).toMatchObject({ ServiceName: 'smtp', Product: 'Postfix', IdentifiedBy: 'banner' });
    expect(byPort.get(mysql.port)).toMatchObject({ ServiceName: 'mysql', Product: 'MySQL', Version: '8.0.36', IdentifiedBy: 'banner' });
    expect(byPort.get(silent.port)).toMatchObject({ ServiceName: 'unknown', Banner: null, IdentifiedBy: 'none' });
    for (const port of closed) expect(byPort.has(port)).toBe(false);
    expect((services[0].raw as { id: string }).id).toMatch(/^127\.0\.0\.1:\d+\/tcp$/);
  });

  it('reports only the addresses that answer across a range, and honours exclusions', async () => {
    // 127.0.0.2–4 are loopback too, but nothing listens on them: every probe is refused.
    const { records } = await scan(scanConfig({ targets: '127.0.0.1-127.0.0.4', ports: String(ssh.port) }));
    expect(records.filter((record) => record.entity === 'device').map((record) => record.fields.IpAddresses)).toEqual([['127.0.0.1']]);
    const excluded = await scan(scanConfig({ targets: '127.0.0.0/30', exclude: ['127.0.0.1'], ports: String(ssh.port) }));
    expect(excluded.records).toEqual([]);
  });

  it('refuses a range above the cap, with the counts, before probing anything', async () => {
    const result = await networkScannerEngine.test({ adapter: 'network-scanner', config: scanConfig({ targets: '10.0.0.0/8' }), signal: new AbortController().signal, outbound: loopbackAllowed });
    expect(result).toEqual({ ok: false, reason: 'invalid_config', detail: expect.stringContaining('16,777,214 addresses') });
    await expect(scan(scanConfig({ targets: '10.0.0.0/8' }))).rejects.toThrow(/at most 65,536/);
  });

  it('rejects malformed targets, ports and exclusions with the offending entry named', async () => {
    const check = (overrides: Partial<ConnectionConfig>) => networkScannerEngine.test({ adapter: 'network-scanner', config: scanConfig(overrides), signal: new AbortController().signal, outbound: loopbackAllowed });
    expect(await check({ targets: '10.0.0.300' })).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringContaining('10.0.0.300') });
    expect(await check({ ports: '22,99999' })).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringContaining('99999') });
    expect(await check({ exclude: ['printer.local'] })).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringContaining('printer.local') });
    expect(await check({ targets: '127.0.0.1', exclude: ['127.0.0.0/24'] })).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringContaining('excluded') });
  });

  it('summarises a valid configuration in its connectivity check', async () => {
    const result = await networkScannerEngine.test({ adapter: 'network-scanner', config: scanConfig({ targets: '10.0.0.0/24', ports: '22,80' }), signal: new AbortController().signal, outbound: loopbackAllowed });
    expect(result).toEqual({ ok: true, detail: expect.stringContaining('254 addresses × 2 ports = 508 probes') });
  });

  it('stops promptly and says so when the discovery is cancelled', async () => {
    const controller = new AbortController();
    // At 5 probes per second this scan would take almost two minutes.
    const running = scan(scanConfig({ targets: '127.0.0.0/24', ports: closed.join(','), rate: 5 }), controller.signal);
    setTimeout(() => controller.abort(), 300);
    const { records, warnings } = await running;
    expect(records).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('cancelled')]);
  });
});
