import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest test files `npm test` names at its end. */
const shown = 15;

/**
 * Names the slowest test files after the run, with their import and test time, so that where the suite's minutes
 * go is in front of everyone who waits for it, not found out by hand.
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      return { file: relative(process.cwd(), module.moduleId), project: module.project.name, seconds: (diagnostic.collectDuration + diagnostic.duration) / 1000 };
    });
    timed.sort((one, other) => other.seconds - one.seconds);
    if (!timed.length) return;
    const lines = timed.slice(0, shown).map(({ file, project, seconds }) => `  ${seconds.toFixed(1).padStart(7)} s  ${project.padEnd(5)} ${file}`);
    console.log(`\nThe ${Math.min(shown, timed.length)} slowest test files (import and tests):\n${lines.join('\n')}\n`);
  }
}
