// `npx tsx tests/bench/actions.ts`: the action center's figures as JSON — a webhook action over 10,000 assets (one
// call per asset, concurrency 20) against a loopback receiver, and an SSH command on 50 targets of one local sshd.
import { createServer } from 'node:http';
import { startSshd } from '../support/sshd.js';
import { createAction, runAction, startLabServer } from '../server/actions/actionFixtures.js';

const assets = 10_000;

async function main() {
  let calls = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      calls += 1;
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const sshd = await startSshd();
  const labStarted = Date.now();
  // Even lab hosts are Linux: twice the assets gives 10,000 in scope.
  const server = await startLabServer('pglite', assets * 2);
  const token = server.adminToken;
  try {
    const labSeconds = (Date.now() - labStarted) / 1000;
    await server.request('PUT', '/actions/settings', { token, body: { concurrency: 20, target_timeout_seconds: 30, retries: 2, history_days: 90, allowed_destinations: ['127.0.0.1/32'] } });
    const webhook = await createAction(server, { name: 'Bench webhook', trigger: 'manual', scope: { entity: 'device', query: 'OS.Type = Linux' }, type: 'webhook', parameters: { url, body_template: '{"asset": "{{PrimaryKey}}", "host": "{{Hostname}}", "ip": "{{IpAddresses}}"}', batch_size: 1, signing_secret: 'bench' } });
    const started = Date.now();
    const { run } = await runAction(server, webhook);
    const webhookSeconds = (Date.now() - started) / 1000;

    const credential = await server.request('POST', '/actions/ssh-credentials', { token, body: { name: 'Bench key', username: sshd.username, port: sshd.port, auth_method: 'private_key', private_key: sshd.privateKey, passphrase: sshd.passphrase, known_host_fingerprints: [sshd.hostFingerprint] } });
    const ssh = await createAction(server, { name: 'Bench SSH', trigger: 'manual', scope: { entity: 'device', query: 'OS.Type = Linux AND Hostname = host-000*' }, type: 'ssh_command', parameters: { credential: credential.body.id, command_template: 'uname -n' } });
    const sshStarted = Date.now();
    const sshRun = await runAction(server, ssh);
    const sshSeconds = (Date.now() - sshStarted) / 1000;
    console.log(JSON.stringify({
      lab_discovery_seconds: labSeconds,
      webhook: { targets: run.targets, succeeded: run.succeeded, calls_received: calls, concurrency: 20, wall_seconds: webhookSeconds, calls_per_second: Math.round(calls / webhookSeconds) },
      ssh: { targets: sshRun.run.targets, succeeded: sshRun.run.succeeded, concurrency: 20, wall_seconds: sshSeconds },
    }, null, 2));
  } finally {
    await server.stop();
    await sshd.stop();
    receiver.close();
  }
}

await main();
