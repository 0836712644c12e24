// The server side of NTLMv2 over HTTP, for replay servers that stand in for a Windows web server (HTTP.sys, IIS,
// Configuration Manager's AdminService): it answers an unauthenticated request with 401 and `WWW-Authenticate:
// Negotiate` / `NTLM`, a NEGOTIATE message with a fresh CHALLENGE, and an AUTHENTICATE message by recomputing the
// NTProofStr from the account's known password (and the MIC, when announced). A connection that authenticated stays
// authenticated, as NTLM over HTTP authenticates the connection, not the request.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import { avId, checkMessageType, fileTime, hmacMd5, ntlmFlags, ntowfv2, readAvPairs, utf16, writeAvPairs, type AvPair } from '../../src/server/adapters/http/ntlm.js';

export type WindowsAccount = { domain: string; username: string; password: string };

/** A fixture's Windows sign-in: the accounts the server knows, and the names it gives itself in its challenge. */
export type NtlmServerOptions = {
  accounts: WindowsAccount[];
  computer: string;
  domain: string;
  dns_domain: string;
  /** Authenticate each request rather than the connection (.NET's HttpListener unless told otherwise). */
  per_request?: boolean;
};

/** What the server offers: NTLM with extended session security and target info, as Windows servers do. */
const serverFlags = (ntlmFlags.unicode | ntlmFlags.requestTarget | ntlmFlags.ntlm | ntlmFlags.alwaysSign | ntlmFlags.extendedSessionSecurity | ntlmFlags.targetInfo | ntlmFlags.version | ntlmFlags.bits128 | ntlmFlags.bits56) >>> 0;
const targetTypeDomain = 0x00010000;
/** The VERSION structure of the replayed server: Windows Server 2019 (10.0.17763), NTLM revision 15. */
const serverVersion = Buffer.from([10, 0, 0x63, 0x45, 0, 0, 0, 0x0f]);

/** HTTP.sys' own body for a 401, as the SMS Provider answers it. */
export const notAuthorizedBody = '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN""http://www.w3.org/TR/html4/strict.dtd">\r\n<HTML><HEAD><TITLE>Not Authorized</TITLE>\r\n<META HTTP-EQUIV="Content-Type" Content="text/html; charset=us-ascii"></HEAD>\r\n<BODY><h2>Not Authorized</h2>\r\n<hr><p>HTTP Error 401. The requested resource requires user authentication.</p>\r\n</BODY></HTML>\r\n';

/** Lays out a CHALLENGE_MESSAGE ([MS-NLMP] 2.2.1.2): target name, then target info, after the fixed part. */
export function challengeMessage(fields: { flags: number; targetName: string; serverChallenge: Buffer; targetInfo: Buffer; version: Buffer }): Buffer {
  const header = Buffer.alloc(56);
  Buffer.from('NTLMSSP\0', 'latin1').copy(header, 0);
  header.writeUInt32LE(2, 8);
  const name = utf16(fields.targetName);
  header.writeUInt16LE(name.length, 12);
  header.writeUInt16LE(name.length, 14);
  header.writeUInt32LE(56, 16);
  header.writeUInt32LE(fields.flags >>> 0, 20);
  fields.serverChallenge.copy(header, 24);
  header.writeUInt16LE(fields.targetInfo.length, 40);
  header.writeUInt16LE(fields.targetInfo.length, 42);
  header.writeUInt32LE(56 + name.length, 44);
  fields.version.copy(header, 48);
  return Buffer.concat([header, name, fields.targetInfo]);
}

export type ParsedAuthenticate = { flags: number; domain: string; username: string; workstation: string; lmChallengeResponse: Buffer; ntChallengeResponse: Buffer; mic: Buffer | null; bytes: Buffer };

function field(message: Buffer, at: number): Buffer {
  const length = message.readUInt16LE(at);
  const offset = message.readUInt32LE(at + 4);
  if (offset + length > message.length) throw new Error('a field of the AUTHENTICATE message lies outside it');
  return message.subarray(offset, offset + length);
}

/** The client's AV pairs inside an NTLMv2 response (after NTProofStr and the blob's 28 fixed bytes). */
export function clientAvPairs(ntChallengeResponse: Buffer): AvPair[] {
  return readAvPairs(ntChallengeResponse.subarray(16 + 28));
}

/** Reads an AUTHENTICATE_MESSAGE; its MIC is present when the client's AV pairs announce one (MsvAvFlags 0x2). */
export function parseAuthenticateMessage(bytes: Buffer): ParsedAuthenticate {
  checkMessageType(bytes, 3);
  if (bytes.length < 72) throw new Error('the AUTHENTICATE message is too short');
  const ntChallengeResponse = field(bytes, 20);
  const flagsPair = ntChallengeResponse.length > 24 ? clientAvPairs(ntChallengeResponse).find((pair) => pair.id === avId.flags) : undefined;
  const announcesMic = flagsPair !== undefined && (flagsPair.value.readUInt32LE(0) & 0x2) !== 0;
  return {
    flags: bytes.readUInt32LE(60),
    lmChallengeResponse: field(bytes, 12),
    ntChallengeResponse,
    domain: field(bytes, 28).toString('utf16le'),
    username: field(bytes, 36).toString('utf16le'),
    workstation: field(bytes, 44).toString('utf16le'),
    mic: announcesMic && bytes.length >= 88 ? Buffer.from(bytes.subarray(72, 88)) : null,
    bytes,
  };
}

/** One handshake in progress on a connection: the messages the MIC covers and the challenge the response answers. */
type PendingHandshake = { negotiate: Buffer; challenge: Buffer; serverChallenge: Buffer; timestamp: Buffer };
type ConnectionState = { account?: WindowsAccount; pending?: PendingHandshake };

export type GateAnswer = { status: 401; headers: Record<string, string | string[]>; body: string; refused?: string };

export class NtlmAcceptor {
  private readonly connections = new WeakMap<Socket, ConnectionState>();
  /** Every account that authenticated a connection, in order, and every refusal with its reason (for assertions). */
  readonly signIns: string[] = [];
  readonly refusals: string[] = [];

  constructor(private readonly options: NtlmServerOptions) {}

  /** The account that authenticated `socket`, or the 401 to answer instead of the request. */
  gate(socket: Socket, authorization: string | undefined): { account: WindowsAccount } | GateAnswer {
    const state = this.connections.get(socket) ?? {};
    this.connections.set(socket, state);
    const [scheme, token] = (authorization ?? '').trim().split(/\s+/, 2);
    const ntlmScheme = /^(NTLM|Negotiate)$/i.test(scheme ?? '') && token ? scheme : null;
    if (!ntlmScheme) {
      if (state.account) return { account: state.account };
      return this.unauthorized();
    }
    const message = Buffer.from(token, 'base64');
    const type = message.length >= 12 ? message.readUInt32LE(8) : 0;
    if (type === 1) {
      state.account = undefined;
      return this.challenge(state, message, ntlmScheme);
    }
    const pending = state.pending;
    state.pending = undefined;
    if (type !== 3 || !pending) return this.unauthorized('an AUTHENTICATE message without a challenge on this connection');
    const verdict = this.verify(pending, message);
    if (typeof verdict === 'string') return this.unauthorized(verdict);
    if (!this.options.per_request) state.account = verdict;
    this.signIns.push(`${verdict.domain}\\${verdict.username}`);
    return { account: verdict };
  }

  private unauthorized(refused?: string): GateAnswer {
    if (refused) this.refusals.push(refused);
    return { status: 401, headers: { 'www-authenticate': ['Negotiate', 'NTLM'], 'content-type': 'text/html; charset=us-ascii' }, body: notAuthorizedBody, refused };
  }

  private challenge(state: ConnectionState, negotiate: Buffer, scheme: string): GateAnswer {
    const timestamp = fileTime();
    const pairs: AvPair[] = [
      { id: avId.nbDomainName, value: utf16(this.options.domain) },
      { id: avId.nbComputerName, value: utf16(this.options.computer) },
      { id: avId.dnsDomainName, value: utf16(this.options.dns_domain) },
      { id: avId.dnsComputerName, value: utf16(`${this.options.computer}.${this.options.dns_domain}`.toLowerCase()) },
      { id: avId.dnsTreeName, value: utf16(this.options.dns_domain) },
      { id: avId.timestamp, value: timestamp },
    ];
    const requested = negotiate.length >= 16 ? negotiate.readUInt32LE(12) : 0;
    const serverChallenge = randomBytes(8);
    const challenge = challengeMessage({ flags: ((serverFlags & requested) | ntlmFlags.ntlm | ntlmFlags.unicode | ntlmFlags.targetInfo | targetTypeDomain) >>> 0, targetName: this.options.domain, serverChallenge, targetInfo: writeAvPairs(pairs), version: serverVersion });
    state.pending = { negotiate, challenge, serverChallenge, timestamp };
    return { status: 401, headers: { 'www-authenticate': `${scheme} ${challenge.toString('base64')}`, 'content-type': 'text/html; charset=us-ascii' }, body: notAuthorizedBody };
  }

  private findAccount(username: string, domain: string): WindowsAccount | undefined {
    const same = (left: string, right: string) => left.toLowerCase() === right.toLowerCase();
    const domains = [this.options.domain, this.options.dns_domain];
    return this.options.accounts.find((account) => {
      if (same(username, account.username)) return same(domain, account.domain) || (domains.some((name) => same(name, account.domain)) && domains.some((name) => same(name, domain)));
      // A user principal name (jdoe@corp.example.com) with an empty domain.
      return domain === '' && same(username, `${account.username}@${this.options.dns_domain}`);
    });
  }

  /** The account an AUTHENTICATE message proves, or why it is refused. */
  verify(pending: { negotiate: Buffer; challenge: Buffer; serverChallenge: Buffer; timestamp?: Buffer }, bytes: Buffer): WindowsAccount | string {
    let message: ParsedAuthenticate;
    try {
      message = parseAuthenticateMessage(bytes);
    } catch (error) {
      return `unreadable AUTHENTICATE message: ${(error as Error).message}`;
    }
    if (message.ntChallengeResponse.length <= 24) return 'NTLMv1 responses are refused';
    const account = this.findAccount(message.username, message.domain);
    if (!account) return `no account ${message.domain}\\${message.username}`;
    // The domain controller recomputes the proof from the stored NT hash and the names as the client sent them.
    const responseKeyNT = ntowfv2(account.password, message.username, message.domain);
    const blob = message.ntChallengeResponse.subarray(16);
    const expected = hmacMd5(responseKeyNT, pending.serverChallenge, blob);
    if (!timingSafeEqual(expected, message.ntChallengeResponse.subarray(0, 16))) return `wrong password for ${message.domain}\\${message.username}`;
    if (pending.timestamp) {
      const echoed = clientAvPairs(message.ntChallengeResponse).find((pair) => pair.id === avId.timestamp)?.value;
      if (!echoed?.equals(pending.timestamp)) return 'the response does not carry the challenge timestamp';
      if (!message.mic) return 'no MIC although the challenge carried a timestamp';
    }
    if (message.mic) {
      const zeroed = Buffer.from(message.bytes);
      zeroed.fill(0, 72, 88);
      const mic = hmacMd5(hmacMd5(responseKeyNT, expected), pending.negotiate, pending.challenge, zeroed);
      if (!timingSafeEqual(mic, message.mic)) return 'the MIC does not match the three messages';
    }
    return account;
  }
}
