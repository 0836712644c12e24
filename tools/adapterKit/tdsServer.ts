// A small SQL Server for tests: it speaks TDS 7.4 (MS-TDS) on 127.0.0.1 far enough for a real client (tedious) to sign
// in and read rows. PRELOGIN answers that encryption is not supported; LOGIN7 checks a SQL login's password (sent
// scrambled) or, for Windows accounts, runs NTLMv2 through SSPI tokens, and refuses a wrong one with SQL Server's
// error 18456; each SQL batch is answered by the caller (rows, an error, or nothing until the client's ATTENTION).
import { createServer, type Socket } from 'node:net';
import { ntlmChallenge, verifyNtlm } from './tdsNtlm.js';
import { collationChange, colMetadata, done, doneStatus, envChange, loginAck, message, row, sspi, type TdsColumn, type TdsMessage } from './tdsTokens.js';

export type { TdsColumn, TdsMessage, TdsType } from './tdsTokens.js';

/** A login the server accepts: a SQL login, or (with `domain`) a Windows account signed in through NTLM. */
export type TdsAccount = { username: string; password: string; domain?: string };

/** How the server answers one SQL batch: rows, a statement without rows, an error, or never (until ATTENTION). */
export type TdsAnswer = { columns: TdsColumn[]; rows: unknown[][] } | { statement: true } | { error: TdsMessage } | { hang: true };

export type TdsServerOptions = {
  accounts: TdsAccount[];
  /** Databases a login may open (the LOGIN7 database); others fail with error 4060. */
  databases: string[];
  answer: (sql: string) => TdsAnswer;
};

export type TdsServer = {
  host: string;
  port: number;
  /** Every SQL batch received after sign-in, in order. */
  batches: string[];
  /** Each sign-in: the login (or DOMAIN\user), whether it passed, and whether the client asked for encryption. */
  logins: { login: string; accepted: boolean; clientWantedEncryption: boolean }[];
  close: () => Promise<void>;
};

const packetType = { sqlBatch: 0x01, rpc: 0x03, reply: 0x04, attention: 0x06, transaction: 0x0e, login7: 0x10, sspi: 0x11, prelogin: 0x12 } as const;
const packetSize = 4096;
const headerSize = 8;

/** Writes one message as TDS packets of at most `packetSize` bytes, the last marked end-of-message. */
function send(socket: Socket, payload: Buffer, type: number = packetType.reply): void {
  let packetId = 1;
  for (let offset = 0; offset < payload.length || offset === 0; offset += packetSize - headerSize) {
    const chunk = payload.subarray(offset, offset + packetSize - headerSize);
    const header = Buffer.alloc(headerSize);
    header.writeUInt8(type, 0);
    header.writeUInt8(offset + chunk.length >= payload.length ? 0x01 : 0x00, 1);
    header.writeUInt16BE(headerSize + chunk.length, 2);
    header.writeUInt16BE(52, 4);
    header.writeUInt8(packetId++ % 256, 6);
    socket.write(Buffer.concat([header, chunk]));
    if (!payload.length) break;
  }
}

/** PRELOGIN answer: version 16.0.1000, encryption not supported (2), no instance, thread 0, MARS off. */
function preloginAnswer(): Buffer {
  const options: [number, Buffer][] = [[0x00, Buffer.from([16, 0, 0x03, 0xe8, 0, 0])], [0x01, Buffer.from([0x02])], [0x02, Buffer.from([0])], [0x03, Buffer.alloc(4)], [0x04, Buffer.from([0])]];
  const table = Buffer.alloc(options.length * 5 + 1);
  let dataOffset = table.length;
  options.forEach(([token, data], index) => {
    table.writeUInt8(token, index * 5);
    table.writeUInt16BE(dataOffset, index * 5 + 1);
    table.writeUInt16BE(data.length, index * 5 + 3);
    dataOffset += data.length;
  });
  table.writeUInt8(0xff, options.length * 5);
  return Buffer.concat([table, ...options.map(([, data]) => data)]);
}

/** Whether the client's PRELOGIN asked for encryption (ENCRYPT_ON or ENCRYPT_REQ). */
function wantsEncryption(payload: Buffer): boolean {
  for (let at = 0; at < payload.length && payload[at] !== 0xff; at += 5) {
    if (payload[at] === 0x01) return [0x01, 0x03].includes(payload[payload.readUInt16BE(at + 1)]);
  }
  return false;
}

/** LOGIN7's password is UTF-16LE with each byte's nibbles swapped and XORed with 0xA5 (MS-TDS 2.2.6.4). */
export function unscramblePassword(scrambled: Buffer): string {
  const bytes = Buffer.from(scrambled.map((byte) => {
    const plain = byte ^ 0xa5;
    return ((plain & 0x0f) << 4) | (plain >> 4);
  }));
  return bytes.toString('ucs2');
}

type Login7 = { username: string; password: string; database: string; integrated: boolean; sspi: Buffer };

/** The fields of a LOGIN7 message the server judges: offsets and character counts in its fixed 94-byte part. */
function parseLogin7(payload: Buffer): Login7 {
  const text = (at: number) => payload.subarray(payload.readUInt16LE(at), payload.readUInt16LE(at) + payload.readUInt16LE(at + 2) * 2);
  const sspiOffset = payload.readUInt16LE(78);
  return {
    username: text(40).toString('ucs2'),
    password: unscramblePassword(text(44)),
    database: text(68).toString('ucs2'),
    // OptionFlags2 fIntSecurity: Windows authentication, its SSPI data (an NTLM NEGOTIATE) beside the login.
    integrated: (payload[25] & 0x80) !== 0,
    sspi: payload.subarray(sspiOffset, sspiOffset + payload.readUInt16LE(80)),
  };
}

/** The tokens of a sign-in that passed: database, collation and language set, login acknowledged, packet size. */
function signedIn(database: string): Buffer {
  return Buffer.concat([
    envChange(1, database, 'master'), message('info', { number: 5701, message: `Changed database context to '${database}'.`, class: 0, state: 2 }),
    collationChange(), envChange(2, 'us_english', ''), message('info', { number: 5703, message: 'Changed language setting to us_english.', class: 0 }),
    loginAck(), envChange(4, String(packetSize), String(packetSize)), done(doneStatus.final, 0, 0),
  ]);
}

/** SQL Server's answer to a refused sign-in: error 18456, class 14 (and first 4060 when the database cannot be opened). */
function refused(login: string, database?: string): Buffer {
  const cannotOpen = database ? [message('error', { number: 4060, message: `Cannot open database "${database}" requested by the login. The login failed.`, class: 11 })] : [];
  return Buffer.concat([...cannotOpen, message('error', { number: 18456, message: `Login failed for user '${login}'.`, class: 14 }), done(doneStatus.error, 0, 0)]);
}

/** A SQL batch's text: after its ALL_HEADERS block (its total length first), UTF-16LE. */
const batchText = (payload: Buffer) => payload.subarray(payload.readUInt32LE(0)).toString('ucs2');

function answerBatch(answer: Exclude<TdsAnswer, { hang: true }>): Buffer {
  if ('error' in answer) return Buffer.concat([message('error', answer.error), done(doneStatus.error)]);
  if ('statement' in answer) return done(doneStatus.final, 0, 0);
  return Buffer.concat([colMetadata(answer.columns), ...answer.rows.map((values) => row(answer.columns, values)), done(doneStatus.count, answer.rows.length)]);
}

export async function startTdsServer(options: TdsServerOptions): Promise<TdsServer> {
  const batches: string[] = [];
  const logins: TdsServer['logins'] = [];
  const sockets = new Set<Socket>();
  const databases = new Set(options.databases.map((name) => name.toLowerCase()));

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    let messageType = 0;
    let parts: Buffer[] = [];
    let clientWantedEncryption = false;
    let ntlm: { serverChallenge: Buffer; database: string } | null = null;
    let hanging = false;

    const finishLogin = (login: string, accepted: boolean, database: string) => {
      logins.push({ login, accepted, clientWantedEncryption });
      if (accepted && databases.has(database.toLowerCase())) return send(socket, signedIn(database));
      send(socket, refused(login, accepted ? database : undefined));
      socket.end();
    };

    const handle = (type: number, payload: Buffer) => {
      if (type === packetType.prelogin) {
        clientWantedEncryption = wantsEncryption(payload);
        send(socket, preloginAnswer());
      } else if (type === packetType.login7) {
        const login = parseLogin7(payload);
        const database = login.database || 'master';
        if (login.integrated) {
          // The NEGOTIATE names no account: the CHALLENGE goes out, the AUTHENTICATE that answers it is judged below.
          const domain = options.accounts.find((account) => account.domain)?.domain ?? 'WORKGROUP';
          const challenge = ntlmChallenge(domain);
          ntlm = { serverChallenge: challenge.serverChallenge, database };
          send(socket, sspi(challenge.message));
          return;
        }
        const account = options.accounts.find((candidate) => !candidate.domain && candidate.username.toLowerCase() === login.username.toLowerCase());
        finishLogin(login.username, account?.password === login.password, database);
      } else if (type === packetType.sspi && ntlm) {
        const { serverChallenge, database } = ntlm;
        ntlm = null;
        const results = options.accounts.filter((account) => account.domain).map((expected) => ({ expected, ...verifyNtlm(payload, serverChallenge, expected.password) }));
        const accepted = results.some((result) => result.valid && result.account.toLowerCase() === `${result.expected.domain}\\${result.expected.username}`.toLowerCase());
        finishLogin(results[0]?.account || 'NT AUTHORITY\\ANONYMOUS LOGON', accepted, database);
      } else if (type === packetType.sqlBatch) {
        const sql = batchText(payload);
        batches.push(sql);
        const answer = options.answer(sql);
        hanging = 'hang' in answer;
        if (!('hang' in answer)) send(socket, answerBatch(answer));
      } else if (type === packetType.attention) {
        // The client cancelled the statement: the batch's answer ends (if it never began), then the acknowledgement
        // follows as its own message, a DONE with the attention bit, which the client reads before its next request.
        if (hanging) send(socket, done(doneStatus.final, 0, 0));
        hanging = false;
        send(socket, done(doneStatus.attention, 0, 0));
      } else {
        send(socket, Buffer.concat([message('error', { number: 50000, message: `The TDS test server does not answer packets of type 0x${type.toString(16)}.` }), done(doneStatus.error)]));
      }
    };

    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= headerSize && pending.length >= pending.readUInt16BE(2)) {
        const length = pending.readUInt16BE(2);
        if (!parts.length) messageType = pending[0];
        parts.push(pending.subarray(headerSize, length));
        const endOfMessage = (pending[1] & 0x01) !== 0;
        pending = pending.subarray(length);
        if (endOfMessage) {
          const payload = Buffer.concat(parts);
          parts = [];
          handle(messageType, payload);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: '127.0.0.1',
    port: (server.address() as { port: number }).port,
    batches,
    logins,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
