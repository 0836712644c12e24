import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A message as a real SMTP server on loopback received it: the envelope, the raw RFC 5322 text, and the message
 * parsed by mailparser (decoded text and attachments, so tests check content rather than names).
 */
export type ReceivedMail = { from: string; to: string[]; raw: string; parsed: ParsedMail; user?: string };

export type TestSmtpServer = {
  port: number;
  messages: ReceivedMail[];
  /** Recipients answered "451 try again later" while they are in this set (a server that refuses now, accepts later). */
  busy: Set<string>;
  /** Every recipient refused so far, permanently (550) or for now (451), in order. */
  refused: string[];
  close(): Promise<void>;
};

export type SmtpServerOptions = {
  /** Implicit TLS from the first byte (`tls` security) with this key and certificate; STARTTLS is offered otherwise when given. */
  tls?: { key: string; cert: string; implicit: boolean };
  /** Accept only this user and password (AUTH PLAIN/LOGIN); no authentication when absent. */
  credentials?: { username: string; password: string };
  /** Refuse these recipients with 550. */
  refuse?: string[];
};

/** Starts the `smtp-server` package on 127.0.0.1 and an ephemeral port; every accepted message is kept in `messages`. */
export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const busy = new Set<string>();
  const refused: string[] = [];
  const server = new SMTPServer({
    secure: options.tls?.implicit ?? false,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : { disabledCommands: ['STARTTLS'] }),
    authOptional: !options.credentials,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      const { credentials } = options;
      if (credentials && auth.username === credentials.username && auth.password === credentials.password) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (options.refuse?.includes(address.address)) {
        refused.push(address.address);
        callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      } else if (busy.has(address.address)) {
        refused.push(address.address);
        callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
      } else {
        callback();
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        // The message is kept only once parsed, so a test that finds it can read its attachments at once.
        simpleParser(raw).then((parsed) => {
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            raw: raw.toString('utf8'),
            parsed,
            user: session.user as string | undefined,
          });
          callback();
        }, (error: Error) => callback(error));
      });
    },
  });
  // A client that gives up mid-handshake (a test of certificate refusal) is the client's failure, not the server's.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, messages, busy, refused, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export type SilentServer = { port: number; connections: number; close(): Promise<void> };

/** A TCP server on loopback that accepts connections and never says a word: an SMTP server that hangs. */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const silent = { port: 0, connections: 0, close: async () => {} };
  const server = createServer((socket) => {
    silent.connections += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  silent.port = (server.address() as AddressInfo).port;
  silent.close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return silent;
}
