// The `ntlm` authenticator end to end: the engine signs in to a local Windows-like server (the replay server's NTLM
// acceptor recomputes every NTProofStr from the account's password) and reads two pages over the one connection it
// authenticated; a wrong password is refused with 401; a connection the server closes is authenticated again.
import { afterEach, describe, expect, it } from 'vitest';
import { challengeMessage, NtlmAcceptor } from '../../../../tools/adapterKit/ntlmAcceptor.js';
import { startReplayServer, type ReplayExchange, type ReplayServer } from '../../../../tools/adapterKit/replayServer.js';
import { check, collect, manifest, startServer, type TestServer } from './helpers.js';

const windows = { accounts: [{ domain: 'CORP', username: 'svc-cartograph', password: 'S3cret-for-NTLM!' }], computer: 'CM01', domain: 'CORP', dns_domain: 'corp.example.com' };
const servers: (ReplayServer | TestServer)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const listing = manifest({
  base_url: '{{ config.base_url }}',
  auth: { type: 'ntlm', username: '{{ config.username }}', password: '{{ config.password }}' },
  check: { request: { url: '/AdminService/wmi/SMS_Site' } },
  streams: [{ name: 'systems', entity: 'device', request: { url: '/AdminService/wmi/SMS_R_System' }, paginator: { type: 'next_url', next_url: "{{ response.body['@odata.nextLink'] }}" }, records: '{{ response.body.value }}', mapping: { Hostname: '{{ record.Name }}' } }],
});

/** Two pages of systems; `closeAfterFirst` makes the server close the connection after page 1 (keep-alive ends). */
function pages(closeAfterFirst = false): ReplayExchange[] {
  return [
    { request: { method: 'GET', path: '/AdminService/wmi/SMS_Site' }, response: { status: 200, body: { value: [{ SiteCode: 'PS1' }] } } },
    { request: { method: 'GET', path: '/AdminService/wmi/SMS_R_System', query: { $skip: '1' } }, response: { status: 200, body: { value: [{ Name: 'WS-0002' }] } } },
    { request: { method: 'GET', path: '/AdminService/wmi/SMS_R_System' }, response: { status: 200, headers: closeAfterFirst ? { connection: 'close' } : {}, body: { value: [{ Name: 'WS-0001' }], '@odata.nextLink': '{{replay_url}}/AdminService/wmi/SMS_R_System?$skip=1' } } },
  ];
}

async function windowsServer(exchanges: ReplayExchange[]) {
  const server = await startReplayServer(exchanges, { ntlm: windows });
  servers.push(server);
  return server;
}

const authorizations = (server: ReplayServer) => server.received.map((request) => String(request.headers.authorization ?? '').slice(0, 21));

describe('NTLM sign-in', () => {
  it('authenticates the connection once and reads every page over it', async () => {
    const server = await windowsServer(pages());
    const { records } = await collect(listing, { base_url: server.url, username: 'CORP\\svc-cartograph', password: 'S3cret-for-NTLM!' });
    expect(records.map((record) => record.fields.Hostname)).toEqual(['WS-0001', 'WS-0002']);
    expect(server.ntlm!.signIns).toEqual(['CORP\\svc-cartograph']);
    // NEGOTIATE and AUTHENTICATE travel on the first request; page 2 goes over the authenticated connection bare.
    expect(authorizations(server)).toEqual(['NTLM TlRMTVNTUAABAAAA', 'NTLM TlRMTVNTUAADAAAA', '']);
    expect(server.received.map((request) => request.query.$skip ?? '')).toEqual(['', '', '1']);
  });

  it('refuses a wrong password with 401: the connectivity check says unauthorized', async () => {
    const server = await windowsServer(pages());
    const result = await check(listing, { base_url: server.url, username: 'CORP\\svc-cartograph', password: 'not-the-password' });
    expect(result).toMatchObject({ ok: false, reason: 'unauthorized' });
    expect(server.ntlm!.refusals).toEqual(['wrong password for CORP\\svc-cartograph']);
    expect(server.ntlm!.signIns).toEqual([]);
  });

  it('refuses an account the server does not know', async () => {
    const server = await windowsServer(pages());
    expect(await check(listing, { base_url: server.url, username: 'CORP\\someone-else', password: 'S3cret-for-NTLM!' })).toMatchObject({ ok: false, reason: 'unauthorized' });
    expect(server.ntlm!.refusals).toEqual(['no account CORP\\someone-else']);
  });

  it('authenticates the new connection when the server closed the old one', async () => {
    const server = await windowsServer(pages(true));
    const { records } = await collect(listing, { base_url: server.url, username: 'CORP\\svc-cartograph', password: 'S3cret-for-NTLM!' });
    expect(records).toHaveLength(2);
    expect(server.ntlm!.signIns).toHaveLength(2);
    // Page 2 is first sent bare on the new connection, answered 401, then sent again through the handshake.
    expect(authorizations(server).slice(2)).toEqual(['', 'NTLM TlRMTVNTUAABAAAA', 'NTLM TlRMTVNTUAADAAAA']);
  });

  it('leads every request with the handshake once a server refuses bare requests twice in a row', async () => {
    const server = await startReplayServer(
      [
        { request: { method: 'GET', path: '/AdminService/wmi/SMS_R_System', query: { $skip: '3' } }, response: { status: 200, body: { value: [{ Name: 'WS-0004' }] } } },
        ...[2, 1].map((skip) => ({ request: { method: 'GET', path: '/AdminService/wmi/SMS_R_System', query: { $skip: String(skip) } }, response: { status: 200, body: { value: [{ Name: `WS-000${skip + 1}` }], '@odata.nextLink': `{{replay_url}}/AdminService/wmi/SMS_R_System?$skip=${skip + 1}` } } })),
        ...pages().slice(2),
      ],
      { ntlm: { ...windows, per_request: true } },
    );
    servers.push(server);
    const { records } = await collect(listing, { base_url: server.url, username: 'CORP\\svc-cartograph', password: 'S3cret-for-NTLM!' });
    expect(records.map((record) => record.fields.Hostname)).toEqual(['WS-0001', 'WS-0002', 'WS-0003', 'WS-0004']);
    const [negotiate, authenticate] = ['NTLM TlRMTVNTUAABAAAA', 'NTLM TlRMTVNTUAADAAAA'];
    expect(authorizations(server)).toEqual([negotiate, authenticate, '', negotiate, authenticate, '', negotiate, authenticate, negotiate, authenticate]);
    expect(server.ntlm!.signIns).toHaveLength(4);
  });

  it('answers no challenge that comes from where a redirect led', async () => {
    const elsewhere = await startServer((_request, response) => {
      const challenge = challengeMessage({ flags: 0xe28a8233, targetName: 'EVIL', serverChallenge: Buffer.alloc(8, 7), targetInfo: Buffer.alloc(4), version: Buffer.alloc(8) });
      response.writeHead(401, { 'www-authenticate': `NTLM ${challenge.toString('base64')}` }).end();
    }, '127.0.0.2');
    const seenAtHome: string[] = [];
    const home = await startServer((request, response) => {
      seenAtHome.push(String(request.headers.authorization ?? '').slice(0, 21));
      response.writeHead(302, { location: `${elsewhere.url}/AdminService/wmi/SMS_Site` }).end();
    });
    servers.push(elsewhere, home);
    expect(await check(listing, { base_url: home.url, username: 'CORP\\svc-cartograph', password: 'S3cret-for-NTLM!' })).toMatchObject({ ok: false, reason: 'unauthorized' });
    expect(seenAtHome).toEqual(['NTLM TlRMTVNTUAABAAAA']);
  });

  it('signs in with a user principal name and no domain', async () => {
    const server = await windowsServer(pages());
    expect(await check(listing, { base_url: server.url, username: 'svc-cartograph@corp.example.com', password: 'S3cret-for-NTLM!' })).toMatchObject({ ok: true });
    expect(server.ntlm!.signIns).toEqual(['CORP\\svc-cartograph']);
  });

  it('speaks NTLM under Negotiate to a server that offers Negotiate alone', async () => {
    const acceptor = new NtlmAcceptor(windows);
    const seen: string[] = [];
    const server = await startServer((request, response) => {
      const scheme = String(request.headers.authorization ?? '').split(' ')[0];
      seen.push(scheme);
      if (scheme === 'NTLM') return response.writeHead(401, { 'www-authenticate': 'Negotiate' }).end();
      const gate = acceptor.gate(request.socket, request.headers.authorization);
      if ('status' in gate) {
        const offered = [gate.headers['www-authenticate']].flat().filter((value) => value !== 'NTLM');
        return response.writeHead(401, { ...gate.headers, 'www-authenticate': offered }).end(gate.body);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"value":[]}');
    });
    servers.push(server);
    expect(await check(listing, { base_url: server.url, username: 'CORP\\svc-cartograph', password: 'S3cret-for-NTLM!' })).toMatchObject({ ok: true });
    expect(seen).toEqual(['NTLM', 'Negotiate', 'Negotiate']);
  });
});
