// `npm run connector -- --url https://cartograph.example.com --token cgc_…`: a remote connector. It polls the server
// for the fetch jobs of the connections assigned to it, runs them here with the server's own fetch engines, and
// streams the records back. See the README's "Remote connectors" section.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { fetchEngines } from '../server/adapters/engines.js';
import { createAdapterRuntime } from '../server/adapters/runtime.js';
import { ConnectorClient, TokenRefusedError, type Hello } from './connectorClient.js';
import { runJob } from './runJob.js';
import { ConnectorSetupError, serverAddress } from './serverAddress.js';

const version: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
const heartbeatMilliseconds = 15_000;

const log = (line: string) => process.stdout.write(`${new Date().toISOString()} connector: ${line}\n`);

function readOptions() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      ca: { type: 'string' },
      jobs: { type: 'string', default: '2' },
    },
    strict: true,
  });
  if (!values.url) throw new ConnectorSetupError('--url is required: the address of the Cartograph console, e.g. --url https://cartograph.example.com');
  // The environment is the better place for the token: command lines are visible to every user of the machine.
  const token = values.token ?? process.env.CARTOGRAPH_CONNECTOR_TOKEN;
  if (!token) throw new ConnectorSetupError('A token is required: --token cgc_… or CARTOGRAPH_CONNECTOR_TOKEN (shown once when the connector is created or its token rotated).');
  const jobs = Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 16) throw new ConnectorSetupError('--jobs must be a whole number from 1 to 16.');
  return { base: serverAddress(values.url), token, ca: values.ca ? readFileSync(values.ca, 'utf8') : undefined, jobs };
}

async function main(): Promise<void> {
  const options = readOptions();
  const client = new ConnectorClient(options.base, options.token, options.ca);
  const runtime = createAdapterRuntime(fetchEngines);
  const hello: Hello = { version, host: hostname().slice(0, 255) };
  const running = new Map<number, AbortController>();
  const stopping = new AbortController();
  let fatal: Error | null = null;
  const stop = (error?: Error) => {
    fatal ??= error ?? null;
    stopping.abort();
    for (const controller of running.values()) controller.abort();
  };
  process.once('SIGTERM', () => stop());
  process.once('SIGINT', () => stop());

  // Refused here, the token is wrong from the start: say so and stop.
  await client.heartbeat(hello);
  log(`connector started (version ${version}), polling ${options.base.origin}`);
  const beat = setInterval(() => {
    const asked = [...running.keys()];
    client.heartbeat({ ...hello, running: asked }).then(
      (answer) => {
        // A job the server no longer lists was given up by its discovery: stop spending the source's time on it.
        // Only jobs the heartbeat named: one leased while it was under way is not in the answer, and is not gone.
        const held = new Set(answer.jobs.map((job) => job.id));
        for (const id of asked) if (!held.has(id)) running.get(id)?.abort();
      },
      (error: Error) => (error instanceof TokenRefusedError ? stop(error) : log(`heartbeat failed: ${error.message}`)),
    );
  }, heartbeatMilliseconds);

  while (!stopping.signal.aborted) {
    let pollSeconds = 5;
    if (running.size < options.jobs) {
      try {
        const answer = await client.lease(hello);
        pollSeconds = answer.poll_seconds;
        const job = answer.job;
        if (job) {
          const controller = new AbortController();
          running.set(job.id, controller);
          void runJob(client, runtime, job, AbortSignal.any([controller.signal, stopping.signal]), log).finally(() => running.delete(job.id));
          continue;
        }
      } catch (error) {
        if (error instanceof TokenRefusedError) {
          stop(error);
          break;
        }
        log(`poll failed: ${(error as Error).message}`);
      }
    }
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, pollSeconds * 1000);
      stopping.signal.addEventListener('abort', () => (clearTimeout(timer), resolve(undefined)), { once: true });
    });
  }
  clearInterval(beat);
  while (running.size) await new Promise((resolve) => setTimeout(resolve, 100));
  await client.close();
  if (fatal) throw fatal;
  log('connector stopped');
}

main().catch((error: Error) => {
  if (error instanceof TokenRefusedError) log(`the server refused this connector's token: ${error.message} Create a new token on the connector's page.`);
  else if (error instanceof ConnectorSetupError) log(error.message);
  else log(`stopped on an error: ${error.message}`);
  process.exit(error instanceof ConnectorSetupError ? 2 : 1);
});
