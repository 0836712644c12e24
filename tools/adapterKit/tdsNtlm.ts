// Windows sign-in (NTLMv2, MS-NLMP) for the TDS test server: the CHALLENGE it sends in an SSPI token and the check of
// the client's AUTHENTICATE message against the account's real password, so a wrong password fails as it does on a
// domain-joined SQL Server. The message layouts and hashes are the HTTP engine's and its NTLM acceptor's; what differs
// is the TDS client (tedious), which sends no MIC and may declare only the proof's 16 bytes (read below).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { avId, hmacMd5, ntlmFlags, ntowfv2, utf16, writeAvPairs } from '../../src/server/adapters/http/ntlm.js';
import { challengeMessage } from './ntlmAcceptor.js';

/** Windows Server 2019's VERSION structure, as SQL Server's host answers. */
const serverVersion = Buffer.from([10, 0, 0x61, 0x4a, 0, 0, 0, 15]);
const targetTypeDomain = 0x00010000;

/** A CHALLENGE message (type 2) for `domain`, with a fresh server challenge. */
export function ntlmChallenge(domain: string): { message: Buffer; serverChallenge: Buffer } {
  const serverChallenge = randomBytes(8);
  const targetInfo = writeAvPairs([{ id: avId.nbDomainName, value: utf16(domain) }, { id: avId.nbComputerName, value: utf16('SQL01') }]);
  const flags = (ntlmFlags.unicode | ntlmFlags.requestTarget | ntlmFlags.ntlm | ntlmFlags.alwaysSign | ntlmFlags.extendedSessionSecurity | ntlmFlags.targetInfo | targetTypeDomain) >>> 0;
  return { message: challengeMessage({ flags, targetName: domain, serverChallenge, targetInfo, version: serverVersion }), serverChallenge };
}

/** A security buffer of the AUTHENTICATE message: length at `at`, offset at `at + 4`. */
function field(message: Buffer, at: number): { offset: number; length: number } {
  return { length: message.readUInt16LE(at), offset: message.readUInt32LE(at + 4) };
}

/**
 * Checks an AUTHENTICATE message (type 3) against the account: NTProofStr = HMAC-MD5(NTOWFv2, server challenge +
 * blob). Answers the DOMAIN\user it names and whether it proved the password. Some clients declare only the 16-byte
 * proof and append the blob after it; both layouts are read.
 */
export function verifyNtlm(message: Buffer, serverChallenge: Buffer, password: string): { account: string; valid: boolean } {
  if (message.length < 64 || message.subarray(0, 8).toString('latin1') !== 'NTLMSSP\0' || message.readUInt32LE(8) !== 3) return { account: '', valid: false };
  const text = ({ offset, length }: { offset: number; length: number }) => message.subarray(offset, offset + length).toString('utf16le');
  const domain = text(field(message, 28));
  const user = text(field(message, 36));
  const nt = field(message, 20);
  if (nt.length < 16) return { account: `${domain}\\${user}`, valid: false };
  const proof = message.subarray(nt.offset, nt.offset + 16);
  const blob = nt.length > 16 ? message.subarray(nt.offset + 16, nt.offset + nt.length) : message.subarray(nt.offset + 16);
  const expected = hmacMd5(ntowfv2(password, user, domain), serverChallenge, blob);
  return { account: `${domain}\\${user}`, valid: proof.length === 16 && timingSafeEqual(expected, proof) };
}
