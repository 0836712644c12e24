// NTLMv2 against the published examples: MD4 against RFC 1320's test suite, and the client's messages and
// responses against [MS-NLMP] section 4.2.4 (NTLMv2 Authentication, with the common values of 4.2.1: user "User",
// domain "Domain", password "Password", server challenge 0123456789abcdef, client challenge aa×8, time 0, the
// server "Server" and the workstation "COMPUTER"). The replay server's acceptor is held to the same bytes.
import { describe, expect, it } from 'vitest';
import { md4 } from '../../../../src/server/adapters/http/md4.js';
import { authenticate, authenticateMessage, negotiateMessage, ntlmAccount, ntlmv2Responses, ntowfv2, parseChallengeMessage, readAvPairs } from '../../../../src/server/adapters/http/ntlm.js';
import { challengeMessage, NtlmAcceptor, parseAuthenticateMessage } from '../../../../tools/adapterKit/ntlmAcceptor.js';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

// [MS-NLMP] 4.2.4: the server's AV pairs (NetBIOS domain "Domain", NetBIOS computer "Server", end).
const targetInfo = hex('02000c00 44006f006d00610069006e00 01000c00 53006500720076006500 7200 00000000');
const serverChallenge = hex('0123456789abcdef');
const clientChallenge = hex('aaaaaaaaaaaaaaaa');
// 4.2.4.3: the CHALLENGE_MESSAGE and AUTHENTICATE_MESSAGE of the example, byte for byte.
const publishedChallenge = hex(`4e544c4d53535000 02000000 0c000c00 38000000 33828ae2 0123456789abcdef 0000000000000000
  24002400 44000000 060070170000000f 530065007200760065007200 ${targetInfo.toString('hex')}`);
const publishedAuthenticate = hex(`4e544c4d53535000 03000000 18001800 6c000000 54005400 84000000 0c000c00 48000000
  08000800 54000000 10001000 5c000000 10001000 d8000000 358288e2 0501280a0000000f
  44006f006d00610069006e00 5500730065007200 43004f004d0050005500540045005200
  86c35097ac9cec102554764a57cccc19 aaaaaaaaaaaaaaaa
  68cd0ab851e51c96aabc927bebef6a1c 0101000000000000 0000000000000000 aaaaaaaaaaaaaaaa 00000000 ${targetInfo.toString('hex')} 00000000
  c5dad2544fc9799094ce1ce90bc9d03e`);

describe('MD4 (RFC 1320)', () => {
  it.each([
    ['', '31d6cfe0d16ae931b73c59d7e0c089c0'],
    ['a', 'bde52cb31de33e46245e05fbdbd6fb24'],
    ['abc', 'a448017aaf21d8525fc10ae87aa6729d'],
    ['message digest', 'd9130a8164549fe818874806e1c7014b'],
    ['abcdefghijklmnopqrstuvwxyz', 'd79e1c308aa5bbcdeea8ed63df412da9'],
    ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', '043f8582f241db351ce627e153e7f0e4'],
    ['12345678901234567890123456789012345678901234567890123456789012345678901234567890', 'e33b4ddc9c38f2199c3e7b164fcc0536'],
  ])('digests %j to its test-suite value', (message, digest) => {
    expect(md4(Buffer.from(message, 'latin1')).toString('hex')).toBe(digest);
  });

  it('gives the NT hash of [MS-NLMP] 4.2.2.1.2 for "Password" in UTF-16LE', () => {
    expect(md4(Buffer.from('Password', 'utf16le')).toString('hex')).toBe('a4f49c406510bdcab6824ee7c30fd852');
  });
});

describe('NTLMv2 ([MS-NLMP] 4.2.4)', () => {
  const responseKeyNT = ntowfv2('Password', 'User', 'Domain');
  const responses = ntlmv2Responses({ responseKeyNT, serverChallenge, clientChallenge, time: Buffer.alloc(8), serverName: targetInfo });

  it('computes NTOWFv2 (4.2.4.1.1)', () => {
    expect(responseKeyNT.toString('hex')).toBe('0c868a403bfd7a93a3001ef22ef02e3f');
  });

  it('computes the session base key (4.2.4.1.2), the LMv2 response (4.2.4.2.1) and NTProofStr (4.2.4.2.2)', () => {
    expect(responses.sessionBaseKey.toString('hex')).toBe('8de40ccadbc14a82f15cb0ad0de95ca3');
    expect(responses.lmv2Response.toString('hex')).toBe('86c35097ac9cec102554764a57cccc19aaaaaaaaaaaaaaaa');
    expect(responses.ntProofStr.toString('hex')).toBe('68cd0ab851e51c96aabc927bebef6a1c');
    expect(responses.ntChallengeResponse).toHaveLength(84);
  });

  it('reads the published CHALLENGE_MESSAGE', () => {
    const challenge = parseChallengeMessage(publishedChallenge);
    expect(challenge).toMatchObject({ flags: 0xe28a8233, targetName: 'Server' });
    expect(challenge.serverChallenge.equals(serverChallenge)).toBe(true);
    expect(challenge.targetInfo.equals(targetInfo)).toBe(true);
    expect(readAvPairs(challenge.targetInfo).map((pair) => [pair.id, pair.value.toString('utf16le')])).toEqual([[2, 'Domain'], [1, 'Server']]);
  });

  it('lays out the published AUTHENTICATE_MESSAGE byte for byte from its fields', () => {
    const message = authenticateMessage({
      flags: 0xe2888235,
      domain: 'Domain',
      username: 'User',
      workstation: 'COMPUTER',
      lmChallengeResponse: responses.lmv2Response,
      ntChallengeResponse: responses.ntChallengeResponse,
      // The example exchanges a session key (RC4-encrypted; HTTP sign-in needs none): its bytes are placed as given.
      encryptedRandomSessionKey: hex('c5dad2544fc9799094ce1ce90bc9d03e'),
      version: hex('0501280a0000000f'),
    });
    expect(message.toString('hex')).toBe(publishedAuthenticate.toString('hex'));
  });

  it('refuses a challenge that is not an NTLM type 2 message, or whose fields lie outside it', () => {
    expect(() => parseChallengeMessage(negotiateMessage())).toThrow(/type 2/);
    expect(() => parseChallengeMessage(Buffer.from('<html>401</html>'))).toThrow(/not an NTLM message/);
    const truncated = Buffer.from(publishedChallenge.subarray(0, 70));
    expect(() => parseChallengeMessage(truncated)).toThrow(/outside/);
  });

  it('names the account the way NTLM does', () => {
    expect(ntlmAccount('CORP\\svc-cartograph', 'pw')).toMatchObject({ domain: 'CORP', username: 'svc-cartograph' });
    expect(ntlmAccount('svc-cartograph@corp.example.com', 'pw')).toMatchObject({ domain: '', username: 'svc-cartograph@corp.example.com' });
    expect(ntlmAccount('svc-cartograph', 'pw', 'CORP')).toMatchObject({ domain: 'CORP', username: 'svc-cartograph' });
  });
});

describe("the replay server's NTLM acceptor", () => {
  const acceptor = new NtlmAcceptor({ accounts: [{ domain: 'Domain', username: 'User', password: 'Password' }], computer: 'Server', domain: 'Domain', dns_domain: 'domain.example' });

  it('lays out the published CHALLENGE_MESSAGE byte for byte', () => {
    const message = challengeMessage({ flags: 0xe28a8233, targetName: 'Server', serverChallenge, targetInfo, version: hex('060070170000000f') });
    expect(message.toString('hex')).toBe(publishedChallenge.toString('hex'));
  });

  it('reads the published AUTHENTICATE_MESSAGE and accepts it for the password "Password" only', () => {
    expect(parseAuthenticateMessage(publishedAuthenticate)).toMatchObject({ domain: 'Domain', username: 'User', workstation: 'COMPUTER', mic: null });
    const pending = { negotiate: Buffer.alloc(0), challenge: publishedChallenge, serverChallenge };
    expect(acceptor.verify(pending, publishedAuthenticate)).toMatchObject({ username: 'User' });
    const other = new NtlmAcceptor({ accounts: [{ domain: 'Domain', username: 'User', password: 'Passw0rd' }], computer: 'Server', domain: 'Domain', dns_domain: 'domain.example' });
    expect(other.verify(pending, publishedAuthenticate)).toBe('wrong password for Domain\\User');
  });

  it("accepts the client's own AUTHENTICATE message with its timestamp and MIC, and refuses it altered", () => {
    const negotiate = negotiateMessage();
    const timestamp = hex('0090d336b734c301');
    const info = Buffer.concat([targetInfo.subarray(0, -4), hex('07000800'), timestamp, hex('00000000')]);
    const challenge = challengeMessage({ flags: 0xe28a8233, targetName: 'Domain', serverChallenge, targetInfo: info, version: hex('0a0063450000000f') });
    const message = authenticate(negotiate, parseChallengeMessage(challenge), ntlmAccount('Domain\\User', 'Password'), { spn: 'HTTP/cm01.domain.example' });
    const parsed = parseAuthenticateMessage(message);
    expect(parsed.mic).not.toBeNull();
    expect(parsed.lmChallengeResponse.equals(Buffer.alloc(24))).toBe(true);
    const pending = { negotiate, challenge, serverChallenge, timestamp };
    expect(acceptor.verify(pending, message)).toMatchObject({ username: 'User' });
    // The MIC covers the three messages: another NEGOTIATE, or a flipped flag, is caught.
    expect(acceptor.verify({ ...pending, negotiate: negotiateMessage(0x00000201) }, message)).toBe('the MIC does not match the three messages');
    const flipped = Buffer.from(message);
    flipped[60] ^= 0x01;
    expect(acceptor.verify(pending, flipped)).toBe('the MIC does not match the three messages');
    expect(acceptor.verify({ ...pending, timestamp: hex('0000000000000001') }, message)).toBe('the response does not carry the challenge timestamp');
  });
});
