// The adapter kit (`npm run adapter -- new|check`): a scaffolded adapter fails its check until it is written, a known
// adapter passes with its records and identity shares, and a broken fixture fails naming what broke.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAdapterKit } from '../../tools/adapterKit/main.js';
import type { ReplayFixture } from '../../tools/adapterKit/replayServer.js';

const adaptersFolder = 'schemas/adapters';

/** Runs the kit against `root`, answering its exit code and printed text. */
async function kit(args: string[], root?: string) {
  const lines: string[] = [];
  const code = await runAdapterKit(args, (line) => lines.push(line), root);
  return { code, output: lines.join('\n') };
}

describe('the adapter kit', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'adapter-kit-'));
    for (const meta of ['adapter.meta.json', 'manifest.meta.json']) cpSync(join(adaptersFolder, meta), join(root, meta));
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('scaffolds a folder that fails its check until it is filled', async () => {
    const created = await kit(['new', 'acme-assets'], root);
    expect(created.code).toBe(0);
    for (const file of ['adapter.json', 'connection.schema.json', 'manifest.json', 'fixtures/replay.json', 'instructions.md', 'icon.svg']) expect(created.output).toContain(join(root, 'acme-assets', file));
    const checked = await kit(['check', 'acme-assets'], root);
    expect(checked.code).toBe(1);
    expect(checked.output).toContain('FAIL acme-assets');
    expect(checked.output).toContain('engine is null');
    expect(checked.output).toContain("still holds the scaffold's placeholder text");
    expect(checked.output).toContain('fixtures/replay.json has no exchanges');
    // The skeleton itself is well formed: its form compiles and its examples and adapter.json validate.
    expect(checked.output).not.toMatch(/does not compile|example \d|adapter\.json: \//);
  });

  it('refuses an existing slug and an invalid one', async () => {
    await kit(['new', 'acme-assets'], root);
    const again = await kit(['new', 'acme-assets'], root);
    expect(again).toMatchObject({ code: 1, output: expect.stringContaining('already exists') });
    for (const slug of ['Acme', 'acme--assets', '-acme', 'acme_assets', '../acme']) expect(await kit(['new', slug], root), slug).toMatchObject({ code: 1, output: expect.stringContaining('is not a valid slug') });
  });

  it('passes a known adapter and prints its records per entity and identity shares', async () => {
    const { code, output } = await kit(['check', 'okta']);
    expect(code, output).toBe(0);
    expect(output).toContain('ok   okta');
    expect(output).toContain('records: user 3, device 1');
    expect(output).toContain('device identity: Hostname 100%, SerialNumber 100%, MacAddresses 0%, IpAddresses 0%, cloud/agent id 100%');
    expect(output).toContain('warning: 429 from /api/v1/users');
    expect(output).toContain('1 passed, 0 failed');
  });

  it('fails a fixture that lacks an exchange, naming the unmatched request and the missing records', async () => {
    cpSync(join(adaptersFolder, 'okta'), join(root, 'okta'), { recursive: true });
    const fixtureFile = join(root, 'okta', 'fixtures', 'replay.json');
    const fixture = JSON.parse(readFileSync(fixtureFile, 'utf8')) as ReplayFixture;
    fixture.exchanges = fixture.exchanges.filter((exchange) => exchange.request.path !== '/api/v1/devices');
    writeFileSync(fixtureFile, JSON.stringify(fixture));
    const { code, output } = await kit(['check', 'okta'], root);
    expect(code).toBe(1);
    expect(output).toMatch(/unmatched: GET \/api\/v1\/devices\?limit=200&expand=user/);
    expect(output).toMatch(/problem: no exchange answers GET \/api\/v1\/devices/);
    expect(output).toContain('problem: no device record with');
  });

  it('fails a fixture that is not JSON, naming the file', async () => {
    cpSync(join(adaptersFolder, 'okta'), join(root, 'okta'), { recursive: true });
    writeFileSync(join(root, 'okta', 'fixtures', 'replay.json'), '{ "exchanges": [');
    const { code, output } = await kit(['check', 'okta'], root);
    expect(code).toBe(1);
    expect(output).toContain(`problem: ${join(root, 'okta', 'fixtures', 'replay.json')} is not valid JSON`);
  });

  it('replays a file engine adapter\'s files, and fails naming a file its fixture lists but lacks', async () => {
    const { code, output } = await kit(['check', 'sbom']);
    expect(code, output).toBe(0);
    expect(output).toContain('records: device 3, software 17');
    expect(output).toMatch(/warning: trivy-report\.json is a trivy JSON report, not an SBOM/);
    cpSync(join(adaptersFolder, 'sbom'), join(root, 'sbom'), { recursive: true });
    rmSync(join(root, 'sbom', 'fixtures', 'trivy-nginx.spdx.json'));
    const broken = await kit(['check', 'sbom'], root);
    expect(broken.code).toBe(1);
    expect(broken.output).toMatch(/problem: the fixture names trivy-nginx\.spdx\.json, which is not in /);
    expect(broken.output).toContain('problem: the replay handed over 13 records, the fixture expects 20');
  });

  it('exits non-zero from the command line for an adapter that does not exist', async () => {
    const run = promisify(execFile)('npx', ['tsx', 'tools/adapterKit/main.ts', 'check', 'no-such-adapter']);
    await expect(run).rejects.toMatchObject({ code: 1, stdout: expect.stringContaining('no adapter folder schemas/adapters/no-such-adapter') });
  });
});
