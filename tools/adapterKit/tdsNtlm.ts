// Windows sign-in (NTLMv2, MS-NLMP) for the TDS test server: the CHALLENGE it sends in an SSPI token and the check of
// the client's AUTHENTICATE message against the account's real password, so a wrong password fails as it does on a
// domain-joined SQL Server. MD4 (the NT hash) is written out here: OpenSSL 3 no longer offers it to Node.
import { createHmac, randomBytes } from 'node:crypto';

const rotateLeft = (value: number, shift: number) => (value << shift) | (value >>> (32 - shift));

/** MD4 (RFC 1320): the NT password hash is MD4 over the UTF-16LE password. */
export function md4(message: Buffer): Buffer {
  const padded = Buffer.alloc((((message.length + 8) >>> 6) + 1) * 64);
  message.copy(padded);
  padded[message.length] = 0x80;
  padded.writeUInt32LE((message.length * 8) >>> 0, padded.length - 8);
  padded.writeUInt32LE(Math.floor((message.length * 8) / 2 ** 32), padded.length - 4);
  let [a, b, c, d] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
  const rounds: [(x: number, y: number, z: number) => number, number, number[], number[]][] = [
    [(x, y, z) => (x & y) | (~x & z), 0, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], [3, 7, 11, 19]],
    [(x, y, z) => (x & y) | (x & z) | (y & z), 0x5a827999, [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15], [3, 5, 9, 13]],
    [(x, y, z) => x ^ y ^ z, 0x6ed9eba1, [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15], [3, 9, 11, 15]],
  ];
  for (let block = 0; block < padded.length; block += 64) {
    const words = Array.from({ length: 16 }, (_, index) => padded.readUInt32LE(block + index * 4));
    const start = [a, b, c, d];
    for (const [mix, constant, order, shifts] of rounds) {
      for (let step = 0; step < 16; step += 1) {
        const next = rotateLeft((a + mix(b, c, d) + words[order[step]] + constant) | 0, shifts[step % 4]);
        [a, b, c, d] = [d, next, b, c];
      }
    }
    [a, b, c, d] = [(a + start[0]) | 0, (b + start[1]) | 0, (c + start[2]) | 0, (d + start[3]) | 0];
  }
  const digest = Buffer.alloc(16);
  [a, b, c, d].forEach((word, index) => digest.writeUInt32LE(word >>> 0, index * 4));
  return digest;
}

const hmacMd5 = (key: Buffer, data: Buffer) => createHmac('md5', key).update(data).digest();
const ucs2 = (text: string) => Buffer.from(text, 'ucs2');

/** An AV pair of the target information: id, length, UTF-16LE value. */
function avPair(id: number, value: string): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt16LE(id);
  header.writeUInt16LE(value.length * 2, 2);
  return Buffer.concat([header, ucs2(value)]);
}

/** A CHALLENGE message (type 2) for `domain`, with a fresh server challenge. */
export function ntlmChallenge(domain: string): { message: Buffer; serverChallenge: Buffer } {
  const serverChallenge = randomBytes(8);
  const targetName = ucs2(domain);
  // NetBIOS domain (2) and computer (1) names, then the end of the list (0).
  const targetInfo = Buffer.concat([avPair(2, domain), avPair(1, 'SQL01'), Buffer.alloc(4)]);
  const header = Buffer.alloc(56);
  header.write('NTLMSSP\0', 0, 'latin1');
  header.writeUInt32LE(2, 8);
  header.writeUInt16LE(targetName.length, 12);
  header.writeUInt16LE(targetName.length, 14);
  header.writeUInt32LE(56, 16);
  // Unicode, request target, NTLM, always sign, target type domain, extended session security, target info.
  header.writeUInt32LE(0x00898205, 20);
  serverChallenge.copy(header, 24);
  header.writeUInt16LE(targetInfo.length, 40);
  header.writeUInt16LE(targetInfo.length, 42);
  header.writeUInt32LE(56 + targetName.length, 44);
  header.set([10, 0, 0x61, 0x4a, 0, 0, 0, 15], 48);
  return { message: Buffer.concat([header, targetName, targetInfo]), serverChallenge };
}

/** A security buffer of the AUTHENTICATE message: length at `at`, offset at `at + 4`. */
function field(message: Buffer, at: number): { offset: number; length: number } {
  return { length: message.readUInt16LE(at), offset: message.readUInt32LE(at + 4) };
}

/**
 * Checks an AUTHENTICATE message (type 3) against the account: NTProofStr = HMAC-MD5(NTOWFv2, server challenge +
 * blob), NTOWFv2 = HMAC-MD5(MD4(password), UPPER(user) + domain). Answers the DOMAIN\user it names and whether it proved
 * the password. Some clients declare only the 16-byte proof and append the blob after it; both layouts are read.
 */
export function verifyNtlm(message: Buffer, serverChallenge: Buffer, password: string): { account: string; valid: boolean } {
  if (message.subarray(0, 8).toString('latin1') !== 'NTLMSSP\0' || message.readUInt32LE(8) !== 3) return { account: '', valid: false };
  const text = ({ offset, length }: { offset: number; length: number }) => message.subarray(offset, offset + length).toString('ucs2');
  const domain = text(field(message, 28));
  const user = text(field(message, 36));
  const nt = field(message, 20);
  if (nt.length < 16) return { account: `${domain}\\${user}`, valid: false };
  const proof = message.subarray(nt.offset, nt.offset + 16);
  const blob = nt.length > 16 ? message.subarray(nt.offset + 16, nt.offset + nt.length) : message.subarray(nt.offset + 16);
  const key = hmacMd5(md4(ucs2(password)), ucs2(user.toUpperCase() + domain));
  return { account: `${domain}\\${user}`, valid: hmacMd5(key, Buffer.concat([serverChallenge, blob])).equals(proof) };
}
