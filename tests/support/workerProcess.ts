// `npm run worker` as a child process, for the tests and the bench that share one discovery across processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export type WorkerProcess = {
  pid: number;
  /** How step rows name this worker (`discovery_steps.worker`). */
  name: string;
  /** The most resident memory the process has had, in MB (VmHWM), while it runs. */
  peakRssMb: () => number;
  /** Kills it at once, as a crash or an out-of-memory kill would. */
  kill: () => Promise<void>;
  /** Asks it to finish its work and stop. */
  stop: () => Promise<void>;
};

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts a worker on the given PostgreSQL database and resolves once it works the queues. */
export async function startWorker(options: { databaseUrl: string; secretKey: string; dataDir: string; fetchLanes?: number; environment?: Record<string, string> }): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/worker.ts'], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: options.databaseUrl, CARTOGRAPH_SECRET_KEY: options.secretKey, CARTOGRAPH_DATA_DIR: options.dataDir, LOG_LEVEL: 'info', CARTOGRAPH_OUTBOUND_ALLOW_LOOPBACK: '1', CARTOGRAPH_FETCH_LANES: String(options.fetchLanes ?? 4), ...options.environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('discovery worker started')) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => reject(new Error(`the worker exited before it started (${signal ?? code}): ${output.slice(-2000)}`)));
  });
  // Its log is not read any further, but must be drained or the worker blocks on a full pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  const pid = child.pid!;
  return {
    pid,
    name: `${hostname()}:${pid}`,
    peakRssMb: () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
    kill: async () => {
      process.off('exit', killOnExit);
      child.kill('SIGKILL');
      await exited(child);
    },
    stop: async () => {
      process.off('exit', killOnExit);
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}
