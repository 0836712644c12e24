// The aws adapter through a local HTTP server: its replay fixture is fetched by the real engine, and every request the
// server received must carry a SigV4 signature that is valid for what was sent (method, path, query, signed headers,
// body) under the scope AWS expects for it (ec2 per region, iam and sts in us-east-1, acm in the certificate's region).
// The verifier below is written from the AWS documentation, as an AWS endpoint checks a request, not with the signer.
import { createHash, createHmac } from 'node:crypto';
import { loopbackAllowed } from '../../../support/outbound.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fetchManifest, testManifest } from '../../../../src/server/adapters/http/httpEngine.js';
import type { Manifest } from '../../../../src/server/adapters/http/manifest.js';
import { startReplayServer, withReplayUrl, type ReceivedRequest, type ReplayFixture } from '../../../support/replayServer.js';

const manifest = JSON.parse(readFileSync('schemas/adapters/aws/manifest.json', 'utf8')) as Manifest;
const fixture = JSON.parse(readFileSync('schemas/adapters/aws/fixtures/replay.json', 'utf8')) as ReplayFixture;
const accessKey = 'AKIAIOSFODNN7EXAMPLE';
const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

type Verified = { accessKey: string; region: string; service: string; signedHeaders: string[]; valid: boolean; stamp: string };

/** Checks a received request's Authorization header with the secret, as AWS would. */
function verify(request: ReceivedRequest, secretKey: string): Verified {
  const authorization = String(request.headers.authorization ?? '');
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(authorization);
  if (!match) throw new Error(`not a SigV4 Authorization header: ${authorization}`);
  const [, key, day, region, service, signed, signature] = match;
  const names = signed.split(';');
  const query = Object.entries(request.query)
    .flatMap(([name, value]) => [value].flat().map((item) => [encode(name), encode(item)]))
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headers = names.map((name) => `${name}:${String(request.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonical = [request.method, request.path, query, headers, signed, createHash('sha256').update(request.body).digest('hex')].join('\n');
  const stamp = String(request.headers['x-amz-date'] ?? '');
  const toSign = ['AWS4-HMAC-SHA256', stamp, `${day}/${region}/${service}/aws4_request`, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const keyOfDay = hmac(hmac(hmac(hmac(`AWS4${secretKey}`, day), region), service), 'aws4_request');
  return { accessKey: key, region, service, signedHeaders: names, stamp, valid: stamp.startsWith(day) && createHmac('sha256', keyOfDay).update(toSign).digest('hex') === signature };
}

/** What a request is, for the scope it must be signed with. */
function operation(request: ReceivedRequest): string {
  return String(request.query.Action ?? request.headers['x-amz-target'] ?? '?');
}

async function run(config: Record<string, unknown>, exchanges = fixture.exchanges) {
  const server = await startReplayServer(exchanges);
  try {
    const withUrl = withReplayUrl(config, server.url);
    const check = await testManifest(manifest, { adapter: 'aws', config: withUrl, signal: AbortSignal.timeout(15_000), outbound: loopbackAllowed });
    const records = [];
    for await (const record of fetchManifest(manifest, { adapter: 'aws', config: withUrl, signal: AbortSignal.timeout(15_000), warn: () => undefined, outbound: loopbackAllowed })) records.push(record);
    return { check, records, received: server.received, unmatched: server.unmatched };
  } finally {
    await server.close();
  }
}

describe('the aws adapter', () => {
  it('signs every request validly, for the region and service it goes to', async () => {
    const { check, records, received, unmatched } = await run(fixture.config);
    expect(check).toEqual({ ok: true, detail: 'AWS answered for account 123456789012 (arn:aws:iam::123456789012:user/cartograph).' });
    expect(unmatched).toEqual([]);
    expect(records).toHaveLength(fixture.expected.count);
    const scopes = received.map((request) => {
      const verified = verify(request, secret);
      expect(verified.valid, `signature of ${operation(request)}`).toBe(true);
      expect(verified.accessKey).toBe(accessKey);
      expect(verified.signedHeaders).toEqual(expect.arrayContaining(['host', 'x-amz-date']));
      expect(Math.abs(Date.parse(verified.stamp.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z')) - Date.now())).toBeLessThan(5 * 60_000);
      return `${operation(request)} ${verified.service}/${verified.region}`;
    });
    expect(scopes).toEqual([
      'GetCallerIdentity sts/us-east-1',
      'DescribeRegions ec2/us-east-1',
      'DescribeInstances ec2/us-east-1',
      'DescribeInstances ec2/us-east-1',
      'DescribeInstances ec2/eu-west-1',
      'ListUsers iam/us-east-1',
      'ListUsers iam/us-east-1',
      'DescribeRegions ec2/us-east-1',
      'CertificateManager.ListCertificates acm/us-east-1',
      'CertificateManager.DescribeCertificate acm/us-east-1',
      'CertificateManager.GetCertificate acm/us-east-1',
      'CertificateManager.ListCertificates acm/eu-west-1',
      'CertificateManager.DescribeCertificate acm/eu-west-1',
      'CertificateManager.GetCertificate acm/eu-west-1',
      'CertificateManager.DescribeCertificate acm/eu-west-1',
      'CertificateManager.GetCertificate acm/eu-west-1',
    ]);
    // The JSON 1.1 calls sign their target and content type, so neither can be changed on the way.
    const acm = received.find((request) => request.headers['x-amz-target'] === 'CertificateManager.ListCertificates')!;
    expect(verify(acm, secret).signedHeaders).toEqual(['content-type', 'host', 'x-amz-date', 'x-amz-target']);
    expect(acm.headers['content-type']).toBe('application/x-amz-json-1.1');
    // A verifier holding another secret refuses every request: the check above is not vacuous.
    expect(received.every((request) => !verify(request, `${secret}X`).valid)).toBe(true);
  });

  it('assumes the configured role and signs with its temporary credentials and token', async () => {
    const assumeRole = {
      request: { method: 'GET', path: '/', query: { Action: 'AssumeRole', RoleArn: 'arn:aws:iam::210987654321:role/CartographReadOnly', ExternalId: 'cartograph-7f3a', RoleSessionName: 'cartograph' } },
      response: {
        status: 200,
        headers: { 'content-type': 'text/xml' },
        body: `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>ASIAIOSFODNN7TEMPKEY</AccessKeyId><SecretAccessKey>tempSecretKeyEXAMPLE0123456789abcdefghij</SecretAccessKey><SessionToken>IQoJb3JpZ2luX2VjEXAMPLETOKEN</SessionToken><Expiration>${new Date(Date.now() + 3600_000).toISOString()}</Expiration></Credentials><AssumedRoleUser><Arn>arn:aws:sts::210987654321:assumed-role/CartographReadOnly/cartograph</Arn><AssumedRoleId>AROA3XFRBF535PLBIFPI4:cartograph</AssumedRoleId></AssumedRoleUser></AssumeRoleResult></AssumeRoleResponse>`,
      },
    };
    const config = { ...fixture.config, fetch_certificates: false, auth: { ...(fixture.config.auth as object), role_arn: 'arn:aws:iam::210987654321:role/CartographReadOnly', external_id: 'cartograph-7f3a' } };
    const { check, records, received } = await run(config, [assumeRole, ...fixture.exchanges]);
    expect(check.ok).toBe(true);
    expect(records.filter((record) => record.entity === 'certificate')).toEqual([]);
    const [assume, ...rest] = received;
    expect(operation(assume)).toBe('AssumeRole');
    expect(verify(assume, secret)).toMatchObject({ valid: true, accessKey, service: 'sts', region: 'us-east-1' });
    expect(assume.headers['x-amz-security-token']).toBeUndefined();
    // The check and the fetch each assume the role once (a session each); every other request uses the role's keys.
    const others = rest.filter((request) => operation(request) !== 'AssumeRole');
    expect(rest.length - others.length).toBe(1);
    expect(others.length).toBeGreaterThan(5);
    for (const request of others) {
      expect(verify(request, 'tempSecretKeyEXAMPLE0123456789abcdefghij'), operation(request)).toMatchObject({ valid: true, accessKey: 'ASIAIOSFODNN7TEMPKEY' });
      expect(request.headers['x-amz-security-token']).toBe('IQoJb3JpZ2luX2VjEXAMPLETOKEN');
      expect(verify(request, 'tempSecretKeyEXAMPLE0123456789abcdefghij').signedHeaders).toContain('x-amz-security-token');
    }
  });

  it('reports a refused signature as an authentication failure', async () => {
    const refused = [{ request: { method: 'GET', path: '/', query: { Action: 'GetCallerIdentity' } }, response: { status: 403, headers: { 'content-type': 'text/xml' }, body: '<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided.</Message></Error></ErrorResponse>' } }];
    const server = await startReplayServer(refused);
    try {
      const result = await testManifest(manifest, { adapter: 'aws', config: withReplayUrl(fixture.config, server.url), signal: AbortSignal.timeout(15_000), outbound: loopbackAllowed });
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result)).toMatch(/403|denied|permission|forbidden/i);
    } finally {
      await server.close();
    }
  });
});
