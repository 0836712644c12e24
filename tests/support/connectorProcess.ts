// `npm run connector` as a child process, for the tests that prove records travel through a real connector.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export type ConnectorProcess = {
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
  /**
   * Resolves once it has printed `line` (within 10 s): what it logs after answering the server may reach this
   * process's pipe after the server's own answer reached the test.
   */
  printed: (line: string) => Promise<void>;
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
  const printed = (line: string, timeoutMs = 10_000) => new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`the connector did not print "${line}" within ${timeoutMs} ms: ${output.slice(-2000)}`)), timeoutMs);
    const check = () => {
      if (output.includes(line)) finish();
    };
    const finish = (error?: Error) => {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      if (error) reject(error);
      else resolve();
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    void exited.then((code) => finish(new Error(`the connector exited (${code}) before printing "${line}": ${output.slice(-2000)}`)));
    check();
  });
  // Starting may take long on a busy machine (tsx compiles the connector first).
  if (waitFor) await printed(waitFor, 120_000);
  return {
    child,
    output: () => output,
    printed,
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
