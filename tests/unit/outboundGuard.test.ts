import { describe, expect, it } from 'vitest';
import { checkDestination, checkLiteralHost, classifyAddress, OutboundRefusedError, refusalOf, type OutboundPolicy } from '../../src/server/outbound/guard.js';
import { redirectedRequest, sameOrigin } from '../../src/server/outbound/redirects.js';

const everything: OutboundPolicy = { loopback: true, privateRanges: true };
const defaults: OutboundPolicy = { loopback: false, privateRanges: true };
const resolvesTo = (...addresses: string[]) => async () => addresses;

describe('the outbound guard', () => {
  it('classifies addresses: metadata and link-local, unspecified, loopback, private, public', () => {
    for (const address of ['169.254.169.254', '169.254.0.1', 'fe80::1', 'fd00:ec2::254', '[fd00:ec2::254]', '::ffff:169.254.169.254', '100.100.100.200']) expect(classifyAddress(address), address).toBe('metadata');
    for (const address of ['0.0.0.0', '::']) expect(classifyAddress(address), address).toBe('unspecified');
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(classifyAddress(address), address).toBe('loopback');
    for (const address of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', 'fd12::1', 'fc00::1']) expect(classifyAddress(address), address).toBe('private');
    for (const address of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2001:db8::1', '169.255.0.1']) expect(classifyAddress(address), address).toBe('public');
  });

  it('always refuses link-local and metadata, even when loopback, private and a list allow everything', () => {
    const open: OutboundPolicy = { ...everything, onlyListed: ['0.0.0.0/0', '::/0', '169.254.169.254'] };
    expect(refusalOf('169.254.169.254', '169.254.169.254', open)).toBe('169.254.169.254 is a link-local or cloud-metadata address; Cartograph never calls it.');
    expect(refusalOf('fd00:ec2::254', 'fd00:ec2::254', open)).toMatch(/cloud-metadata/);
    expect(() => checkLiteralHost('metadata.google.internal', open)).toThrow(OutboundRefusedError);
    expect(() => checkLiteralHost('Metadata.', open)).toThrow(/cloud-metadata host name/);
    expect(() => checkLiteralHost('[::ffff:169.254.169.254]', open)).toThrow(/link-local or cloud-metadata/);
  });

  it('judges every address a name resolves to (a rebinding name answering a metadata address is refused)', async () => {
    await expect(checkDestination('inventory.example.com', everything, resolvesTo('93.184.216.34', '169.254.169.254'))).rejects.toThrow('inventory.example.com (169.254.169.254) is a link-local or cloud-metadata address');
    await expect(checkDestination('rebound.example.com', everything, resolvesTo('::ffff:169.254.169.254'))).rejects.toThrow(OutboundRefusedError);
    await expect(checkDestination('inventory.example.com', defaults, resolvesTo('93.184.216.34'))).resolves.toBe('93.184.216.34');
  });

  it('refuses loopback unless the provider allows it, and private ranges when the provider forbids them', async () => {
    await expect(checkDestination('localhost', defaults, resolvesTo('127.0.0.1'))).rejects.toThrow(/loopback address; this installation does not allow/);
    await expect(checkDestination('localhost', everything, resolvesTo('127.0.0.1'))).resolves.toBe('127.0.0.1');
    await expect(checkDestination('cmdb.corp', defaults, resolvesTo('10.0.0.5'))).resolves.toBe('10.0.0.5');
    await expect(checkDestination('cmdb.corp', { loopback: false, privateRanges: false }, resolvesTo('10.0.0.5'))).rejects.toThrow(/private address; the provider does not allow this company/);
    expect(() => checkLiteralHost('0.0.0.0', everything)).toThrow(/unspecified/);
  });

  it('narrows loopback and private addresses to a list when one is given, by range or host name', async () => {
    const listed: OutboundPolicy = { ...everything, onlyListed: ['10.0.0.0/24', 'cmdb.corp'] };
    await expect(checkDestination('10.0.0.9', listed)).resolves.toBe('10.0.0.9');
    await expect(checkDestination('10.0.1.9', listed)).rejects.toThrow(/allowed destinations/);
    await expect(checkDestination('cmdb.corp', listed, resolvesTo('192.168.4.4'))).resolves.toBe('192.168.4.4');
    await expect(checkDestination('www.example.com', listed, resolvesTo('93.184.216.34'))).resolves.toBe('93.184.216.34');
    // A listed private range never lifts the provider's refusal.
    await expect(checkDestination('10.0.0.9', { ...listed, privateRanges: false })).rejects.toThrow(/provider does not allow/);
  });
});

describe('redirects', () => {
  const request = { url: 'https://api.example.com/v1/items', method: 'GET', headers: { authorization: 'Bearer x', cookie: 'sid=1', 'x-api-key': 'k', accept: 'application/json', 'user-agent': 'Cartograph' } };

  it('keep every header on the same origin and only harmless ones on another', () => {
    expect(redirectedRequest(request, 302, '/v2/items').headers).toEqual(request.headers);
    expect(redirectedRequest(request, 302, 'https://cdn.example.net/items')).toEqual({ url: 'https://cdn.example.net/items', method: 'GET', headers: { accept: 'application/json', 'user-agent': 'Cartograph' } });
    expect(sameOrigin('https://api.example.com/a', 'https://api.example.com:443/b')).toBe(true);
    expect(sameOrigin('https://api.example.com/a', 'https://api.example.com:8443/b')).toBe(false);
  });

  it('never change scheme, and turn a 303 into a GET without body', () => {
    expect(() => redirectedRequest(request, 301, 'http://api.example.com/v1/items')).toThrow(/another scheme/);
    const post = { ...request, method: 'POST', body: '{}', headers: { ...request.headers, 'content-type': 'application/json' } };
    expect(redirectedRequest(post, 303, '/done')).toMatchObject({ method: 'GET', url: 'https://api.example.com/done' });
    expect(redirectedRequest(post, 303, '/done')).not.toHaveProperty('body');
    expect(redirectedRequest(post, 307, '/again')).toMatchObject({ method: 'POST', body: '{}' });
    expect(() => redirectedRequest(post, 307, 'https://elsewhere.example.com/')).toThrow(/with a body to another origin/);
  });
});
