import { describe, expect, it } from 'vitest';
import { consoleFiles, parseConsoleFile, parseSource } from './consoleSources';
import { visibleStringsIn } from './visibleStrings';

describe('the user-visible strings of the console', () => {
  it('come from the message file in every console source file (a translation is then a file)', () => {
    const files = consoleFiles(['.ts', '.tsx']);
    expect(files.length).toBeGreaterThan(100);
    const written = files.flatMap((file) => visibleStringsIn(parseConsoleFile(file)).map((found) => `${file}:${found.line} ${found.where}: ${found.text}`));
    expect(written).toEqual([]);
  });

  it('are found as JSX text, in visible props, as literal children, in column and option labels and in notifications, but not in other props or in keys', () => {
    const source = parseSource(
      'Sample.tsx',
      `export const Sample = ({ busy, name }) => (
        <section className="sample" aria-labelledby="sample-heading">
          <h1 id="sample-heading">Devices</h1>
          <input type="search" placeholder="Search devices" aria-label={busy ? 'Loading' : t('sample.search')} />
          <img alt={\`Icon of \${name}\`} src="./icon.svg" />
          <p>{busy && 'Please wait'}{t('sample.count', { count: 2 })}</p>
          <span title={name ?? '—'}>—</span>
          <span>{' · '}</span>
        </section>
      );
      const columns = [{ id: 'name', header: 'Name', align: 'end' }, { id: 'os', header: t('sample.os') }];
      const saved = () => notify('success', 'Saved.', { title: t('sample.done') });`,
    );
    expect(visibleStringsIn(source).map(({ where, text }) => `${where}: ${text}`)).toEqual([
      'text: Devices',
      'placeholder: Search devices',
      'aria-label: Loading',
      'alt: Icon of',
      'child: Please wait',
      'header: Name',
      'notify: Saved.',
    ]);
  });
});
