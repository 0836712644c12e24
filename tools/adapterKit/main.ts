// The adapter kit: `npm run adapter -- new <slug>` scaffolds an adapter folder, `npm run adapter -- check <slug>`
// (or `check --all`) checks one or every adapter with a manifest and replays its fixture. Exits non-zero on any problem.
import { pathToFileURL } from 'node:url';
import { checkAdapter, slugsWithFileFixture, slugsWithManifest, slugsWithSocketFixture, type CheckReport } from './check.js';
import { ScaffoldError, scaffoldAdapter } from './scaffold.js';

const usage = 'usage: npm run adapter -- new <slug> | check <slug>... | check --all';

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** The report of one adapter as lines of text. */
export function formatReport(report: CheckReport): string[] {
  const lines = [`${report.problems.length ? 'FAIL' : 'ok  '} ${report.slug}`];
  const entities = Object.entries(report.entities);
  if (entities.length) lines.push(`  records: ${entities.map(([entity, count]) => `${entity} ${count}`).join(', ')}`);
  for (const [entity, shares] of Object.entries(report.identity)) {
    lines.push(`  ${entity} identity: ${Object.entries(shares).map(([field, share]) => `${field} ${percent(share)}`).join(', ')}`);
  }
  for (const warning of report.warnings) lines.push(`  warning: ${warning}`);
  for (const request of report.unmatched) lines.push(`  unmatched: ${request}`);
  for (const problem of report.problems) lines.push(`  problem: ${problem}`);
  return lines;
}

/** Runs the kit; `print` takes each line. Answers the exit code. */
export async function runAdapterKit(args: string[], print: (line: string) => void, root?: string): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'new' && rest.length === 1) {
    try {
      for (const path of scaffoldAdapter(rest[0], root)) print(`wrote ${path}`);
      print(`next: write the manifest and fixture from the vendor's API reference, then npm run adapter -- check ${rest[0]}`);
      return 0;
    } catch (error) {
      if (!(error instanceof ScaffoldError)) throw error;
      print(error.message);
      return 1;
    }
  }
  if (command === 'check' && rest.length) {
    const slugs = rest.includes('--all') ? [...slugsWithManifest(root), ...slugsWithSocketFixture(root), ...slugsWithFileFixture(root)] : rest;
    let failed = 0;
    for (const slug of slugs) {
      const report = await checkAdapter(slug, root);
      if (report.problems.length) failed += 1;
      for (const line of formatReport(report)) print(line);
    }
    print(`${slugs.length - failed} passed, ${failed} failed`);
    return failed ? 1 : 0;
  }
  print(usage);
  return 2;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await runAdapterKit(process.argv.slice(2), (line) => console.log(line));
}
