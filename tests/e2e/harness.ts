import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { seedMigratedPgliteFolder } from '../support/databaseTemplates';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
export const defaultAdminPassword = 'Cartograph-e2e-Pass-42!';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Builds the console once when dist/web is missing (the server serves whatever is there). */
export function ensureConsoleBuilt(): void {
  if (existsSync(join(projectRoot, 'dist/web/index.html'))) return;
  const build = spawnSync('npx', ['vite', 'build'], { cwd: projectRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('vite build failed');
}

export type RunningServer = { baseUrl: string; stdout: () => string; stop: () => Promise<void> };

type ServerOptions = { adminPassword?: string | null; env?: Record<string, string> };

/**
 * Starts the real server on a free port with a fresh data folder; resolves once /api/ping answers. The folder starts
 * from a template (tests/support/databaseTemplates.ts): the migrated database, or for the demo with the usual
 * password, the demo after its first discovery (see demoTemplate).
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  ensureConsoleBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-e2e-data-'));
  const demo = options.env?.CARTOGRAPH_DEMO === '1' && Object.keys(options.env).length === 1 && options.adminPassword === undefined;
  if (demo) cpSync(await demoTemplate(), dataDir, { recursive: true });
  else await seedMigratedPgliteFolder(dataDir);
  const running = await launchServer(dataDir, options).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  return { ...running, stop: async () => { await running.stop(); rmSync(dataDir, { recursive: true, force: true }); } };
}

/**
 * A data folder holding the demo after its first discovery, made once (by a server started with CARTOGRAPH_DEMO=1, as
 * the demo journeys start theirs) and copied for each of them. It is named by the day (the demo's dates are relative
 * to it) and by the server's code and schemas, so a change to either makes a new one.
 */
async function demoTemplate(): Promise<string> {
  const hash = createHash('sha256');
  for (const folder of ['src/server', 'src/core', 'schemas']) {
    for (const file of (readdirSync(join(projectRoot, folder), { recursive: true }) as string[]).sort()) {
      const path = join(projectRoot, folder, file);
      if (statSync(path).isFile()) hash.update(file).update(readFileSync(path));
    }
  }
  const folder = join(tmpdir(), `cartograph-e2e-demo-${new Date().toISOString().slice(0, 10)}-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(folder)) return folder;
  const building = `${folder}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building);
  await seedMigratedPgliteFolder(building);
  const running = await launchServer(building, { env: { CARTOGRAPH_DEMO: '1' } });
  try {
    await waitForLastDiscovery(running.baseUrl, await signInThroughApi(running.baseUrl, 'admin', defaultAdminPassword), 300_000);
  } finally {
    await running.stop();
  }
  renameSync(building, folder);
  return folder;
}

/** Runs the server on `dataDir` until `stop` (which leaves the folder). */
async function launchServer(dataDir: string, options: ServerOptions): Promise<RunningServer> {
  const port = await freePort();
  // The replay servers and receivers listen on loopback: this install allows calls to it (the provider's choice).
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', CARTOGRAPH_DATA_DIR: dataDir, CARTOGRAPH_OUTBOUND_ALLOW_LOOPBACK: '1' };
  delete env.CARTOGRAPH_ADMIN_PASSWORD;
  delete env.DATABASE_URL;
  delete env.CARTOGRAPH_DEMO;
  const adminPassword = options.adminPassword === undefined ? defaultAdminPassword : options.adminPassword;
  if (adminPassword) env.CARTOGRAPH_ADMIN_PASSWORD = adminPassword;
  // Extra settings of one test file (CARTOGRAPH_DEMO=1, ...) win over the inherited environment.
  Object.assign(env, options.env);
  // `node --import tsx` is what `npx tsx` runs, minus the wrapper processes: the server itself receives SIGTERM and
  // shuts down cleanly. It leads its own process group so nothing it starts can outlive the test.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  // Generous: several journeys start a server at once, on a machine shared with the rest of the suite.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    if (output.includes('Cartograph is ready')) {
      const answer = await fetch(`${baseUrl}/api/ping`).catch(() => null);
      if (answer?.ok) break;
    }
    if (Date.now() > deadline) {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      throw new Error(`server did not answer /api/ping:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    baseUrl,
    stdout: () => output,
    stop: async () => {
      if (child.exitCode === null && child.pid !== undefined) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(-child.pid, 'SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
      }
    },
  };
}

const chromiumPaths = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

export type Browser = { context: BrowserContext; close: () => Promise<void> };

/**
 * Debian's Chromium through playwright-core, in a fresh profile (nothing is downloaded); `serviceWorkers: 'block'`
 * plays a browser that allows the site no service worker.
 */
export async function launchBrowser(options: { serviceWorkers?: 'allow' | 'block' } = {}): Promise<Browser> {
  const executablePath = chromiumPaths.find((path) => existsSync(path));
  if (!executablePath) throw new Error('Chromium is missing: apt-get install -y chromium');
  const profile = mkdtempSync(join(tmpdir(), 'cartograph-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    serviceWorkers: options.serviceWorkers ?? 'allow',
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Console errors and uncaught exceptions of a page. Chromium also logs every HTTP answer >= 400 as
 * "Failed to load resource"; those are the API's answers (some provoked on purpose), kept apart in `failedLoads`.
 */
export function watchConsole(page: Page): { errors: string[]; failedLoads: string[] } {
  const watched = { errors: [] as string[], failedLoads: [] as string[] };
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (message.text().startsWith('Failed to load resource')) watched.failedLoads.push(`${message.location().url}: ${message.text()}`);
    else watched.errors.push(message.text());
  });
  page.on('pageerror', (error) => watched.errors.push(`pageerror: ${error.message}`));
  return watched;
}

/** Calls the API directly (test set-up), answering the parsed body. */
export async function api<T>(baseUrl: string, path: string, options: { method?: string; body?: unknown; token?: string } = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const answer = await fetch(`${baseUrl}${path}`, { method: options.method ?? 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await answer.text();
  return { status: answer.status, body: (text ? JSON.parse(text) : null) as T };
}

export async function signInThroughApi(baseUrl: string, username: string, password: string): Promise<string> {
  const answer = await api<{ access?: string }>(baseUrl, '/api/token', { method: 'POST', body: { username, password } });
  if (!answer.body.access) throw new Error(`sign-in of ${username} failed: ${answer.status}`);
  return answer.body.access;
}

/** Fills the login form and submits it. */
export async function signInThroughForm(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export type SignedInConsole = { server: RunningServer; browser: Browser; page: Page; adminToken: string; watched: ReturnType<typeof watchConsole> };

/** A server and a browser page signed in as the default administrator through the login form, its console watched. */
export async function openSignedInConsole(): Promise<SignedInConsole> {
  const server = await startServer();
  const browser = await launchBrowser();
  const adminToken = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  const page = await browser.context.newPage();
  page.setDefaultTimeout(60_000);
  const watched = watchConsole(page);
  await page.goto(`${server.baseUrl}/#/login`);
  await signInThroughForm(page, 'admin', defaultAdminPassword);
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
  return { server, browser, page, adminToken, watched };
}

/** The console path after `#` (path and query). */
export const consolePath = (page: Page): string => decodeURIComponent(new URL(page.url()).hash.replace(/^#/, ''));

/** Waits until the latest discovery is done (the demo's first one runs at boot); fails with its state otherwise. */
export async function waitForLastDiscovery(baseUrl: string, token: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await api<{ state?: string }>(baseUrl, '/discoveries/last', { token });
    if (last.status === 200 && last.body.state === 'done') return;
    if (last.status === 200 && last.body.state === 'error') throw new Error(`the discovery failed: ${JSON.stringify(last.body).slice(0, 1000)}`);
    if (Date.now() > deadline) throw new Error(`the discovery did not finish: ${JSON.stringify(last.body).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
