import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/** A message as a real SMTP server on loopback received it: the envelope and the raw RFC 5322 text. */
export type ReceivedMail = { from: string; to: string[]; raw: string; user?: string };

export type TestSmtpServer = { port: number; messages: ReceivedMail[]; close(): Promise<void> };

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
      if (options.refuse?.includes(address.address)) callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: session.user as string | undefined,
        });
        callback();
      });
    },
  });
  // A client that gives up mid-handshake (a test of certificate refusal) is the client's failure, not the server's.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
