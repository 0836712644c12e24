import { createSocket } from 'node:dgram';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';

export type TestSyslogReceiver = { port: number; lines: string[]; waitFor(count: number): Promise<string[]>; close(): Promise<void> };

/**
 * A syslog receiver on 127.0.0.1: one line per UDP datagram, or octet-counted frames (RFC 6587) over TCP or TLS,
 * parsed strictly so a sender that frames wrongly fails the test.
 */
export async function startSyslogReceiver(transport: 'udp' | 'tcp' | 'tls', tls?: { key: string; cert: string }): Promise<TestSyslogReceiver> {
  const lines: string[] = [];
  const waitFor = async (count: number) => {
    const deadline = Date.now() + 5_000;
    while (lines.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    return lines;
  };
  if (transport === 'udp') {
    const socket = createSocket('udp4');
    socket.on('message', (message) => lines.push(message.toString('utf8')));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return { port: socket.address().port, lines, waitFor, close: () => new Promise((resolve) => socket.close(() => resolve())) };
  }
  const sockets = new Set<Socket>();
  const onConnection = (socket: Socket) => {
    sockets.add(socket);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const space = pending.indexOf(0x20);
        if (space < 0) return;
        const length = Number(pending.subarray(0, space).toString('ascii'));
        if (!Number.isInteger(length) || length <= 0) throw new Error(`bad octet count: ${pending.subarray(0, space).toString()}`);
        if (pending.length < space + 1 + length) return;
        lines.push(pending.subarray(space + 1, space + 1 + length).toString('utf8'));
        pending = pending.subarray(space + 1 + length);
      }
    });
    socket.on('close', () => sockets.delete(socket));
  };
  const server: Server = transport === 'tls' ? createTlsServer({ key: tls?.key, cert: tls?.cert }, onConnection) : createTcpServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port, lines, waitFor,
    close: () => new Promise((resolve) => { for (const socket of sockets) socket.destroy(); server.close(() => resolve()); }),
  };
}
