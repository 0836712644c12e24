// Duo's signature version 2 against the vectors of Duo's client library (duo_client_python tests/test_client.py):
// the same date, host, method, path, parameters and secret key, and the signatures it publishes for HMAC-SHA1 and
// HMAC-SHA512.
import { describe, expect, it } from 'vitest';
import { duoAuthorization, duoCanonicalParams, duoCanonicalRequest, duoDate, signDuoRequest } from '../../../../src/server/adapters/http/duoSignature.js';

const params: [string, string][] = [
  ['\u469a\u287b\u35d0\u8ef3\u6727\u502a\u0810\ud091\xc8\uc170', '\u0f45\u1a76\u341a\u654c\uc23f\u9b09\uabe2\u8343\u1b27\u60d0'],
  ['\u7449\u7e4b\uccfb\u59ff\ufe5f\u83b7\uadcc\u900c\ucfd1\u7813', '\u8db7\u5022\u92d3\u42ef\u207d\u8730\uacfe\u5617\u0946\u4e30'],
  ['\u7470\u9314\u901c\u9eae\u40d8\u4201\u82d8\u8c70\u1d31\ua042', '\u17d9\u0ba8\u9358\uaadf\ua42a\u48be\ufb96\u6fe9\ub7ff\u32f3'],
  ['\uc2c5\u2c1d\u2620\u3617\u96b3F\u8605\u20e8\uac21\u5934', '\ufba9\u41aa\ubd83\u840b\u2615\u3e6e\u652d\ua8b5\ud56bU'],
];
const canonical = duoCanonicalRequest('Fri, 07 Dec 2012 17:18:00 -0000', 'PoSt', 'foO.BAr52.cOm', '/Foo/BaR2/qux', params);
const secretKey = 'gtdfxv9YgVBYcF6dl2Eq17KUQJN2PLM2ODVTkvoT';
const basic = (signature: string) => `Basic ${Buffer.from(`test_ikey:${signature}`).toString('base64')}`;

describe("Duo's request signature", () => {
  it('encodes and sorts parameters as the reference does', () => {
    expect(duoCanonicalParams([['username', 'root'], ['realname', 'First Last']])).toBe('realname=First%20Last&username=root');
    expect(duoCanonicalParams([['foo_bar', '2'], ['foo', '1']])).toBe('foo=1&foo_bar=2');
    expect(duoCanonicalParams([['punctuation', '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~']])).toBe('punctuation=%21%22%23%24%25%26%27%28%29%2A%2B%2C-.%2F%3A%3B%3C%3D%3E%3F%40%5B%5C%5D%5E_%60%7B%7C%7D~');
    expect(duoCanonicalParams([])).toBe('');
  });

  it('builds the version 2 canonical text: date, method, host, path, parameters', () => {
    expect(canonical.split('\n').slice(0, 4)).toEqual(['Fri, 07 Dec 2012 17:18:00 -0000', 'POST', 'foo.bar52.com', '/Foo/BaR2/qux']);
    expect(canonical.split('\n')[4]).toMatch(/^%E4%9A%9A%E2%A1%BB.*%ED%95%ABU$/);
  });

  it('signs with HMAC-SHA1 to the published signature', () => {
    expect(duoAuthorization(canonical, 'test_ikey', secretKey, 'sha1')).toBe(basic('f01811cbbf9561623ab45b893096267fd46a5178'));
  });

  it('signs with HMAC-SHA512 (the default) to the published signature', () => {
    expect(duoAuthorization(canonical, 'test_ikey', secretKey)).toBe(basic('0508065035a03b2a1de2f453e629e791d180329e157f65df6b3e0f08299d4321e1c5c7a7c7ee6b9e5fc80d1fb6fbf3ad5eb7c44dd3b3985a02c37aca53ec3698'));
  });

  it('signs a GET over its query and sends the date it signed', () => {
    const at = new Date('2012-12-07T17:18:00Z');
    const headers = signDuoRequest({ method: 'GET', url: 'https://api-1a2b3c4d.duosecurity.com/admin/v1/users?offset=0&limit=300', integrationKey: 'test_ikey', secretKey }, undefined, at);
    expect(headers.date).toBe(duoDate(at));
    expect(headers.date).toBe('Fri, 07 Dec 2012 17:18:00 -0000');
    const expected = duoAuthorization(duoCanonicalRequest(headers.date, 'GET', 'api-1a2b3c4d.duosecurity.com', '/admin/v1/users', [['limit', '300'], ['offset', '0']]), 'test_ikey', secretKey);
    expect(headers.authorization).toBe(expected);
  });
});
