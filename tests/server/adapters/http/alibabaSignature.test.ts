// Alibaba Cloud's RPC signature 1.0 against the DescribeRegions example of Alibaba's "RPC mechanism" page
// (AccessKey testid / testsecret, XML format, its nonce and timestamp).
import { describe, expect, it } from 'vitest';
import { alibabaCanonicalQuery, alibabaSignature, signAlibabaRequest } from '../../../../src/server/adapters/http/alibabaSignature.js';

const example: [string, string][] = [
  ['Timestamp', '2016-02-23T12:46:24Z'],
  ['Format', 'XML'],
  ['AccessKeyId', 'testid'],
  ['Action', 'DescribeRegions'],
  ['SignatureMethod', 'HMAC-SHA1'],
  ['SignatureNonce', '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf'],
  ['Version', '2014-05-26'],
  ['SignatureVersion', '1.0'],
];

describe("Alibaba Cloud's RPC request signature", () => {
  it('sorts and encodes the parameters as the example does', () => {
    expect(alibabaCanonicalQuery(example)).toBe('AccessKeyId=testid&Action=DescribeRegions&Format=XML&SignatureMethod=HMAC-SHA1&SignatureNonce=3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf&SignatureVersion=1.0&Timestamp=2016-02-23T12%3A46%3A24Z&Version=2014-05-26');
    expect(alibabaCanonicalQuery([['Tag', 'a b*c~']])).toBe('Tag=a%20b%2Ac~');
  });

  it('signs the DescribeRegions example', () => {
    expect(alibabaSignature('GET', example, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
  });

  it('adds the common parameters and the signature to a request URL', () => {
    const signed = new URL(signAlibabaRequest('GET', 'https://ecs.aliyuncs.com/?Action=DescribeRegions&Version=2014-05-26', { accessKeyId: 'testid', accessKeySecret: 'testsecret' }, new Date('2016-02-23T12:46:24Z'), '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf'));
    expect(Object.fromEntries(signed.searchParams)).toMatchObject({ AccessKeyId: 'testid', Format: 'JSON', SignatureMethod: 'HMAC-SHA1', SignatureVersion: '1.0', Timestamp: '2016-02-23T12:46:24Z' });
    const { Signature, ...params } = Object.fromEntries(signed.searchParams);
    expect(Signature).toBe(alibabaSignature('GET', Object.entries(params), 'testsecret'));
  });
});
