// `npm run connector` as a child process, for the tests that prove records travel through a real connector.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export type ConnectorProcess = {
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
  /** Resolves with its exit code once it exits by itself. */
  exited: Promise<number | null>;
  stop: () => Promise<void>;
};

/** Starts a connector; `waitFor` is a line it must print before this resolves (null: resolve at once). */
export async function startConnector(args: string[], env: Record<string, string>, waitFor: string | null = 'connector started'): Promise<ConnectorProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/connector/main.ts', ...args], {
    cwd: projectRoot,
    // The connector calls replay servers on loopback in the tests: its operator allows it.
    env: { ...process.env, CARTOGRAPH_OUTBOUND_ALLOW_LOOPBACK: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    process.off('exit', killOnExit);
    resolve(code);
  }));
  if (waitFor) {
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (output.includes(waitFor)) {
          child.stdout!.off('data', check);
          resolve();
        }
      };
      child.stdout!.on('data', check);
      void exited.then((code) => reject(new Error(`the connector exited (${code}) before printing "${waitFor}": ${output.slice(-2000)}`)));
    });
  }
  return {
    child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
