import { it } from 'vitest';
import { consoleFiles, parseConsoleFile } from '../tests/unit/i18n/consoleSources';
import { visibleStringsIn } from '../tests/unit/i18n/visibleStrings';
it('lists', () => {
  const files = consoleFiles(['.ts', '.tsx']).filter((f) => f.startsWith('pages/settings/') || f.startsWith('pages/reports/'));
  const found = files.flatMap((f) => visibleStringsIn(parseConsoleFile(f)).map((x) => `${f}:${x.line} ${x.where}: ${x.text}`));
  console.log(found.length, found.slice(0, 30).join('\n'));
});
