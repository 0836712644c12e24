// NTLM version 2 as a client speaks it over HTTP ([MS-NLMP]): the NEGOTIATE message (type 1), the reading of the
// server's CHALLENGE (type 2) and the AUTHENTICATE message (type 3) with its NTLMv2 response. Only authentication:
// HTTP needs no signing or sealing, so no session key is exchanged (the MIC is keyed with the session base key).
// Checked against the NTLMv2 example of [MS-NLMP] section 4.2.4 (tests/server/adapters/http/ntlm.test.ts).
import { createHmac, randomBytes } from 'node:crypto';
import { md4 } from './md4.js';

/** NegotiateFlags bits ([MS-NLMP] 2.2.2.5) this client sends or reads. */
export const ntlmFlags = {
  unicode: 0x00000001,
  oem: 0x00000002,
  requestTarget: 0x00000004,
  ntlm: 0x00000200,
  alwaysSign: 0x00008000,
  extendedSessionSecurity: 0x00080000,
  targetInfo: 0x00800000,
  version: 0x02000000,
  bits128: 0x20000000,
  keyExchange: 0x40000000,
  bits56: 0x80000000,
} as const;

/** What this client asks for: Unicode, NTLM with extended session security, target info, 128/56-bit, a version. */
export const clientNegotiateFlags = (ntlmFlags.unicode | ntlmFlags.oem | ntlmFlags.requestTarget | ntlmFlags.ntlm | ntlmFlags.alwaysSign | ntlmFlags.extendedSessionSecurity | ntlmFlags.targetInfo | ntlmFlags.version | ntlmFlags.bits128 | ntlmFlags.bits56) >>> 0;

/** AV_PAIR ids ([MS-NLMP] 2.2.2.1). */
export const avId = { eol: 0, nbComputerName: 1, nbDomainName: 2, dnsComputerName: 3, dnsDomainName: 4, dnsTreeName: 5, flags: 6, timestamp: 7, targetName: 9 } as const;

export type AvPair = { id: number; value: Buffer };
export type NtlmCredentials = { domain: string; username: string; password: string; workstation: string };
export type ChallengeMessage = { flags: number; targetName: string; serverChallenge: Buffer; targetInfo: Buffer; bytes: Buffer };

const signature = Buffer.from('NTLMSSP\0', 'latin1');
/** The VERSION structure this client reports: Windows 10.0, NTLM revision 15 (informational only). */
const clientVersion = Buffer.from([10, 0, 0, 0, 0, 0, 0, 0x0f]);
/** Seconds between 1601-01-01 (FILETIME's epoch) and 1970-01-01. */
const fileTimeEpochOffsetMs = 11_644_473_600_000n;

/** An NTLM message the server sent that cannot be read (not NTLMSSP, wrong type, a field outside the message). */
export class NtlmMessageError extends Error {}

export const utf16 = (text: string): Buffer => Buffer.from(text, 'utf16le');
export const hmacMd5 = (key: Buffer, ...parts: Buffer[]): Buffer => parts.reduce((hmac, part) => hmac.update(part), createHmac('md5', key)).digest();

/**
 * The account an administrator typed, as NTLM names it: `CORP\jdoe` → domain CORP, user jdoe; a UPN `jdoe@corp.example.com`
 * stays the user name with an empty domain (the domain controller resolves it); an explicit domain wins.
 */
export function ntlmAccount(username: string, password: string, domain = '', workstation = ''): NtlmCredentials {
  const slash = username.indexOf('\\');
  if (!domain && slash > 0) return { domain: username.slice(0, slash), username: username.slice(slash + 1), password, workstation };
  return { domain, username, password, workstation };
}

/** NTOWFv2 = LMOWFv2 ([MS-NLMP] 3.3.2): HMAC-MD5 under the NT hash of the upper-cased user name and the domain. */
export function ntowfv2(password: string, username: string, domain: string): Buffer {
  return hmacMd5(md4(utf16(password)), utf16(username.toUpperCase() + domain));
}

/** Now as a FILETIME (100 ns ticks since 1601), 8 bytes little-endian. */
export function fileTime(nowMs = Date.now()): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE((BigInt(nowMs) + fileTimeEpochOffsetMs) * 10_000n);
  return bytes;
}

/** The AV pairs of a target info block, up to (not including) MsvAvEOL. */
export function readAvPairs(targetInfo: Buffer): AvPair[] {
  const pairs: AvPair[] = [];
  for (let offset = 0; offset + 4 <= targetInfo.length; ) {
    const id = targetInfo.readUInt16LE(offset);
    const length = targetInfo.readUInt16LE(offset + 2);
    if (id === avId.eol) return pairs;
    if (offset + 4 + length > targetInfo.length) throw new NtlmMessageError('the target information of the NTLM challenge is truncated');
    pairs.push({ id, value: targetInfo.subarray(offset + 4, offset + 4 + length) });
    offset += 4 + length;
  }
  throw new NtlmMessageError('the target information of the NTLM challenge has no end marker');
}

/** AV pairs as a target info block, ending with MsvAvEOL. */
export function writeAvPairs(pairs: AvPair[]): Buffer {
  const parts = pairs.flatMap(({ id, value }) => {
    const header = Buffer.alloc(4);
    header.writeUInt16LE(id, 0);
    header.writeUInt16LE(value.length, 2);
    return [header, value];
  });
  return Buffer.concat([...parts, Buffer.alloc(4)]);
}

/** The NEGOTIATE_MESSAGE: no domain or workstation supplied (the AUTHENTICATE message names them). */
export function negotiateMessage(flags = clientNegotiateFlags): Buffer {
  const message = Buffer.alloc(40);
  signature.copy(message, 0);
  message.writeUInt32LE(1, 8);
  message.writeUInt32LE(flags >>> 0, 12);
  // DomainNameFields and WorkstationFields: length 0 at the end of the fixed part.
  message.writeUInt32LE(40, 20);
  message.writeUInt32LE(40, 28);
  clientVersion.copy(message, 32);
  return message;
}

/** A (length, maximum length, offset) field of a message, bounds-checked. */
function payloadField(message: Buffer, at: number, name: string): Buffer {
  if (at + 8 > message.length) throw new NtlmMessageError(`the NTLM message is too short for its ${name}`);
  const length = message.readUInt16LE(at);
  const offset = message.readUInt32LE(at + 4);
  if (length && offset + length > message.length) throw new NtlmMessageError(`the ${name} of the NTLM message lies outside it`);
  return message.subarray(offset, offset + length);
}

/** Checks the NTLMSSP signature and message type of `bytes`. */
export function checkMessageType(bytes: Buffer, type: number): void {
  if (bytes.length < 12 || !bytes.subarray(0, 8).equals(signature)) throw new NtlmMessageError('the answer is not an NTLM message');
  if (bytes.readUInt32LE(8) !== type) throw new NtlmMessageError(`expected an NTLM message of type ${type}, got type ${bytes.readUInt32LE(8)}`);
}

/** Reads the server's CHALLENGE_MESSAGE ([MS-NLMP] 2.2.1.2). */
export function parseChallengeMessage(bytes: Buffer): ChallengeMessage {
  checkMessageType(bytes, 2);
  if (bytes.length < 48) throw new NtlmMessageError('the NTLM challenge is too short');
  const flags = bytes.readUInt32LE(20);
  const targetName = payloadField(bytes, 12, 'target name');
  return {
    flags,
    targetName: flags & ntlmFlags.unicode ? targetName.toString('utf16le') : targetName.toString('latin1'),
    serverChallenge: Buffer.from(bytes.subarray(24, 32)),
    targetInfo: flags & ntlmFlags.targetInfo ? Buffer.from(payloadField(bytes, 40, 'target information')) : Buffer.alloc(0),
    bytes,
  };
}

/**
 * The NTLMv2 responses ([MS-NLMP] 3.3.2): `temp` is the client's blob (time, client challenge, the AV pairs in
 * `serverName`), NTProofStr the HMAC of the server challenge and `temp` under NTOWFv2.
 */
export function ntlmv2Responses(input: { responseKeyNT: Buffer; serverChallenge: Buffer; clientChallenge: Buffer; time: Buffer; serverName: Buffer }) {
  const temp = Buffer.concat([Buffer.from([1, 1]), Buffer.alloc(6), input.time, input.clientChallenge, Buffer.alloc(4), input.serverName, Buffer.alloc(4)]);
  const ntProofStr = hmacMd5(input.responseKeyNT, input.serverChallenge, temp);
  const lmv2Response = Buffer.concat([hmacMd5(input.responseKeyNT, input.serverChallenge, input.clientChallenge), input.clientChallenge]);
  return { temp, ntProofStr, ntChallengeResponse: Buffer.concat([ntProofStr, temp]), lmv2Response, sessionBaseKey: hmacMd5(input.responseKeyNT, ntProofStr) };
}

export type AuthenticateFields = {
  flags: number;
  domain: string;
  username: string;
  workstation: string;
  lmChallengeResponse: Buffer;
  ntChallengeResponse: Buffer;
  encryptedRandomSessionKey?: Buffer;
  version?: Buffer;
  /** Leave 16 zero bytes for the MIC (filled in once the whole message is known). */
  withMic?: boolean;
};

/** Lays out an AUTHENTICATE_MESSAGE ([MS-NLMP] 2.2.1.3); the payload in the order Windows writes it. */
export function authenticateMessage(fields: AuthenticateFields): Buffer {
  const header = Buffer.alloc(fields.withMic ? 88 : 72);
  signature.copy(header, 0);
  header.writeUInt32LE(3, 8);
  const payloads: [number, Buffer][] = [
    [28, utf16(fields.domain)],
    [36, utf16(fields.username)],
    [44, utf16(fields.workstation)],
    [12, fields.lmChallengeResponse],
    [20, fields.ntChallengeResponse],
    [52, fields.encryptedRandomSessionKey ?? Buffer.alloc(0)],
  ];
  let offset = header.length;
  for (const [at, value] of payloads) {
    header.writeUInt16LE(value.length, at);
    header.writeUInt16LE(value.length, at + 2);
    header.writeUInt32LE(offset, at + 4);
    offset += value.length;
  }
  header.writeUInt32LE(fields.flags >>> 0, 60);
  (fields.version ?? clientVersion).copy(header, 64);
  return Buffer.concat([header, ...payloads.map(([, value]) => value)]);
}

/**
 * The AUTHENTICATE_MESSAGE answering `challenge` for `credentials`. The AV pairs the server sent come back with
 * the SPN (`HTTP/<host>`) added; when the server sent a timestamp ([MS-NLMP] 3.1.5.1.2) that time is used, the LM
 * response is zeros and a MIC over the three messages is included and announced in MsvAvFlags.
 */
export function authenticate(negotiate: Buffer, challenge: ChallengeMessage, credentials: NtlmCredentials, options: { spn?: string; clientChallenge?: Buffer; nowMs?: number } = {}): Buffer {
  const serverPairs = readAvPairs(challenge.targetInfo);
  const timestamp = serverPairs.find((pair) => pair.id === avId.timestamp)?.value;
  const withMic = timestamp !== undefined;
  const pairs = serverPairs.filter((pair) => pair.id !== avId.flags && pair.id !== avId.targetName);
  const serverFlags = serverPairs.find((pair) => pair.id === avId.flags)?.value.readUInt32LE(0) ?? 0;
  if (withMic || serverFlags) {
    const flags = Buffer.alloc(4);
    flags.writeUInt32LE((serverFlags | (withMic ? 0x2 : 0)) >>> 0);
    pairs.push({ id: avId.flags, value: flags });
  }
  if (options.spn) pairs.push({ id: avId.targetName, value: utf16(options.spn) });

  const clientChallenge = options.clientChallenge ?? randomBytes(8);
  const responseKeyNT = ntowfv2(credentials.password, credentials.username, credentials.domain);
  const responses = ntlmv2Responses({ responseKeyNT, serverChallenge: challenge.serverChallenge, clientChallenge, time: timestamp ?? fileTime(options.nowMs), serverName: writeAvPairs(pairs) });
  const message = authenticateMessage({
    flags: (challenge.flags & clientNegotiateFlags & ~ntlmFlags.oem) | ntlmFlags.unicode,
    domain: credentials.domain,
    username: credentials.username,
    workstation: credentials.workstation,
    lmChallengeResponse: withMic ? Buffer.alloc(24) : responses.lmv2Response,
    ntChallengeResponse: responses.ntChallengeResponse,
    withMic,
  });
  // No key exchange: the exported session key is the session base key, which keys the MIC.
  if (withMic) hmacMd5(responses.sessionBaseKey, negotiate, challenge.bytes, message).copy(message, 72);
  return message;
}
