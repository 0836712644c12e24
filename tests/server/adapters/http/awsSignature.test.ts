// The SigV4 signer against the published AWS Signature Version 4 test suite: its example credentials, timestamp,
// region and service, and the signatures the suite publishes for each request.
import { describe, expect, it } from 'vitest';
import { canonicalQuery, signAwsRequest, signingKey } from '../../../../src/server/adapters/http/awsSignature.js';

const suite = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const at = new Date('2015-08-30T12:36:00Z');
const scope = 'AKIDEXAMPLE/20150830/us-east-1/service/aws4_request';

function sign(method: string, url: string, headers: Record<string, string> = {}, body?: string) {
  return signAwsRequest({ method, url, headers, body, region: 'us-east-1', service: 'service' }, suite, at);
}

describe('AWS Signature Version 4 test suite', () => {
  it('get-vanilla', () => {
    const signed = sign('GET', 'https://example.amazonaws.com/');
    expect(signed.headers['x-amz-date']).toBe('20150830T123600Z');
    expect(signed.headers.authorization).toBe(`AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31`);
  });

  it('get-vanilla-query-order-key-case: the query is sorted before signing, and sent sorted', () => {
    const signed = sign('GET', 'https://example.amazonaws.com/?Param2=value2&Param1=value1');
    expect(signed.headers.authorization).toMatch(/Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500$/);
    expect(signed.url).toBe('https://example.amazonaws.com/?Param1=value1&Param2=value2');
  });

  it('get-utf8: a path outside ASCII is signed percent-encoded', () => {
    expect(sign('GET', 'https://example.amazonaws.com/ሴ').headers.authorization).toMatch(/Signature=8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85$/);
  });

  it('post-vanilla and post-vanilla-empty-query-value', () => {
    expect(sign('POST', 'https://example.amazonaws.com/').headers.authorization).toMatch(/SignedHeaders=host;x-amz-date, Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b$/);
    expect(sign('POST', 'https://example.amazonaws.com/?Param1=value1').headers.authorization).toMatch(/Signature=28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11$/);
  });

  it('post-x-www-form-urlencoded: the content type and the body are signed', () => {
    const signed = sign('POST', 'https://example.amazonaws.com/', { 'Content-Type': 'application/x-www-form-urlencoded' }, 'Param1=value1');
    expect(signed.headers.authorization).toBe(`AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=content-type;host;x-amz-date, Signature=ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a`);
  });

  it('a session token is sent and signed; another secret, day or region gives another signature', () => {
    const signed = signAwsRequest({ method: 'GET', url: 'https://example.amazonaws.com/', headers: {}, region: 'us-east-1', service: 'service' }, { ...suite, sessionToken: 'FQoGZXIvYXdzEXAMPLE' }, at);
    expect(signed.headers['x-amz-security-token']).toBe('FQoGZXIvYXdzEXAMPLE');
    expect(signed.headers.authorization).toContain('SignedHeaders=host;x-amz-date;x-amz-security-token,');
    const key = signingKey(suite.secretAccessKey, '20150830', 'us-east-1', 'service').toString('hex');
    expect(signingKey(suite.secretAccessKey, '20150831', 'us-east-1', 'service').toString('hex')).not.toBe(key);
    expect(signingKey(suite.secretAccessKey, '20150830', 'eu-west-1', 'service').toString('hex')).not.toBe(key);
    expect(signingKey(`${suite.secretAccessKey}x`, '20150830', 'us-east-1', 'service').toString('hex')).not.toBe(key);
  });

  it('query values are RFC 3986 encoded (space as %20, reserved characters escaped)', () => {
    expect(canonicalQuery('?b=a+b&a=x%2Fy&c=(1)*')).toBe('a=x%2Fy&b=a%20b&c=%281%29%2A');
  });
});
