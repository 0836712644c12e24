import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithGroups, engines, type TestServer } from '../harness.js';
import { startSshd, type SshdServer } from '../../support/sshd.js';
import { createAction, runAction, startLabServer } from './actionFixtures.js';

const otherFingerprint = 'SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU';

describe.each(engines)('SSH command actions against a real OpenSSH server on %s', (engine) => {
  let server: TestServer;
  let sshd: SshdServer;
  let token: string;
  let credential: number;
  const linux = { entity: 'device', query: 'OS.Type = Linux' };
  const settings = (timeout: number, concurrency = 10) => server.request('PUT', '/actions/settings', { token, body: { concurrency, target_timeout_seconds: timeout, retries: 0, history_days: 90, allowed_destinations: [] } });
  beforeAll(async () => {
    sshd = await startSshd();
    // 20 lab hosts, 10 of them Linux: each sign-in costs a key exchange, and the machine running the tests may be shared.
    server = await startLabServer(engine, 20);
    token = server.adminToken;
    const created = await server.request('POST', '/actions/ssh-credentials', { token, body: {
      name: 'Lab key', username: sshd.username, port: sshd.port, auth_method: 'private_key', private_key: sshd.privateKey, passphrase: sshd.passphrase, known_host_fingerprints: [`127.0.0.1 ${sshd.hostFingerprint}`],
    } });
    expect(created.status).toBe(201);
    credential = created.body.id;
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await sshd?.stop();
  });

  it('keeps the key and passphrase sealed and never answers them', async () => {
    const read = await server.request('GET', `/actions/ssh-credentials/${credential}`, { token });
    expect(read.body).toMatchObject({ private_key: '**********', passphrase: '**********', password: '' });
    const [row] = await server.context.db.query<{ document: Record<string, string> }>('select document from resources where id = $1', [credential]);
    expect(JSON.stringify(row.document)).not.toContain('PRIVATE KEY');
    expect(JSON.stringify(row.document)).not.toContain(sshd.passphrase);
    // The console's edit form sends what changed and the required fields: the key and passphrase stay.
    const renamed = await server.request('PUT', `/actions/ssh-credentials/${credential}`, { token, body: { name: 'Lab key', username: sshd.username, auth_method: 'private_key', known_host_fingerprints: [`127.0.0.1 ${sshd.hostFingerprint}`], port: sshd.port } });
    expect(renamed.body).toMatchObject({ name: 'Lab key' });
    const [kept] = await server.context.db.query<{ document: Record<string, string> }>('select document from resources where id = $1', [credential]);
    expect(kept.document.private_key).toMatch(/^v1\./);
    const unreadable = await server.request('POST', '/actions/ssh-credentials', { token, body: { name: 'Bad key', username: 'x', auth_method: 'private_key', private_key: sshd.privateKey, passphrase: 'wrong', known_host_fingerprints: [sshd.hostFingerprint] } });
    expect(unreadable).toMatchObject({ status: 400, body: { private_key: [expect.stringContaining('cannot be read')] } });
    const missing = await server.request('POST', '/actions/ssh-credentials', { token, body: { name: 'No key', username: 'x', auth_method: 'private_key', known_host_fingerprints: [sshd.hostFingerprint] } });
    expect(missing).toMatchObject({ status: 400, body: { private_key: [expect.any(String)] } });
  });

  it('runs a command on every host, capturing output and exit status, with values shell-quoted', async () => {
    // Generous: the machine running the tests may be shared, and each host's sign-in costs a key exchange.
    await settings(30);
    const id = await createAction(server, { name: 'Uname', trigger: 'manual', scope: linux, type: 'ssh_command', parameters: { credential, command_template: 'echo "ran on" {{Hostname}}; echo to-stderr >&2; test {{Hostname}} = host-00002 && exit 3; exit 0' } });
    const started = Date.now();
    const { run, results } = await runAction(server, id);
    expect(results.filter((result) => result.status === 'failed').map((result) => `${result.name} ${result.detail}`)).toEqual(['host-00002 127.0.0.1: Exit status 3']);
    expect(run).toMatchObject({ status: 'done', targets: 10, succeeded: 9, failed: 1 });
    const first = results.find((result) => result.name === 'host-00000')!;
    expect(first).toMatchObject({ status: 'succeeded', exit_code: 0 });
    expect(first.output).toContain('ran on host-00000');
    expect(first.output).toContain('to-stderr');
    expect(results.find((result) => result.name === 'host-00002')).toMatchObject({ status: 'failed', exit_code: 3, detail: '127.0.0.1: Exit status 3' });
    console.log(`ssh (${engine}): 10 targets on one sshd port, concurrency 10: ${Date.now() - started} ms`);
    const activities = await server.context.db.query("select 1 from activities where action = 'action.ssh_command' and target_id = $1", [String(run.id)]);
    expect(activities).toHaveLength(1);
  }, 120_000);

  it('stops a host at the per-target timeout and refuses a host whose key is not pinned', async () => {
    await settings(1);
    const slow = await createAction(server, { name: 'Slow', trigger: 'manual', scope: { entity: 'device', query: 'Hostname = host-00000' }, type: 'ssh_command', parameters: { credential, command_template: 'sleep 5' } });
    const timedOut = await runAction(server, slow);
    expect(timedOut.results).toEqual([expect.objectContaining({ status: 'failed', detail: expect.stringContaining('Timed out after 1 s') })]);
    await settings(10);
    const pinned = await server.request('POST', '/actions/ssh-credentials', { token, body: { name: 'Wrong pin', username: sshd.username, port: sshd.port, auth_method: 'private_key', private_key: sshd.privateKey, passphrase: sshd.passphrase, known_host_fingerprints: [otherFingerprint] } });
    const mismatch = await createAction(server, { name: 'Mismatch', trigger: 'manual', scope: { entity: 'device', query: 'Hostname = host-00000' }, type: 'ssh_command', parameters: { credential: pinned.body.id, command_template: 'touch /tmp/should-not-run' } });
    const refused = await runAction(server, mismatch);
    expect(refused.results).toEqual([expect.objectContaining({ status: 'failed', detail: expect.stringContaining('is not among the credential') })]);
    const password = await server.request('POST', '/actions/ssh-credentials', { token, body: { name: 'Password', username: sshd.username, port: sshd.port, auth_method: 'password', password: 'not the password', known_host_fingerprints: [sshd.hostFingerprint] } });
    const refusedPassword = await createAction(server, { name: 'Password sign-in', trigger: 'manual', scope: { entity: 'device', query: 'Hostname = host-00000' }, type: 'ssh_command', parameters: { credential: password.body.id, command_template: 'true' } });
    const denied = await runAction(server, refusedPassword);
    expect(denied.results).toEqual([expect.objectContaining({ status: 'failed', detail: expect.stringContaining('authentication') })]);
    expect(JSON.stringify(denied.results)).not.toContain('not the password');
  }, 120_000);

  it('needs its own permission to run SSH commands', async () => {
    const permissions = (await server.request('GET', '/users/permissions?size=1000', { token })).body.results as { id: number; codename: string; app: string }[];
    const wanted = permissions.filter((permission) => permission.app === 'workflows' && ['view_workflow', 'add_workflow', 'run_workflow', 'view_sshsettings'].includes(permission.codename)).map((permission) => permission.id);
    const group = await server.request('POST', '/users/groups', { token, body: { name: 'Runners', permissions: wanted } });
    expect(group.status).toBe(201);
    const runner = await createUserWithGroups(server, token, 'runner', ['Runners']);
    const id = await createAction(server, { name: 'Hostname', trigger: 'manual', scope: linux, type: 'ssh_command', parameters: { credential, command_template: 'hostname' } });
    expect((await server.request('POST', `/actions/actions/${id}/run`, { token: runner.token, body: {} })).status).toBe(403);
    expect((await server.request('POST', `/actions/actions/${id}/run`, { token: runner.token, body: { dry_run: true } })).status).toBe(202);
    expect((await server.request('POST', '/actions/actions', { token: runner.token, body: { name: 'Mine', trigger: 'manual', scope: linux, type: 'ssh_command', parameters: { credential, command_template: 'id' } } })).status).toBe(403);
  });
});
