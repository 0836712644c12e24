import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildDocsSite, headingId, sitePath } from '../../codegen/docsSite/buildSite.js';
import { brokenLinks } from '../../codegen/docsSite/links.js';

describe('the documentation site', () => {
  const site = buildDocsSite('.');

  it('has no link that leads nowhere, README included', () => {
    expect(brokenLinks(site)).toEqual([]);
  });

  it('has a page for the README and each docs/*.md', () => {
    const docs = readdirSync('docs').filter((file) => file.endsWith('.md'));
    for (const source of ['README.md', ...docs.map((file) => `docs/${file}`)]) expect(site.has(sitePath(source) as string), source).toBe(true);
  });

  it('generates the reference of every entity and settings page from the schemas', () => {
    const entities = site.get('reference/entities.html') as string;
    const settings = site.get('reference/settings.html') as string;
    for (const file of readdirSync('schemas/entities')) {
      const schema = JSON.parse(readFileSync(`schemas/entities/${file}`, 'utf8')) as { properties: Record<string, unknown> };
      expect(entities, file).toContain(`<code>${file.replace(/\.json$/, '')}</code>`);
      for (const key of Object.keys(schema.properties)) expect(entities, `${file} ${key}`).toContain(`<code>${key}</code>`);
    }
    for (const file of readdirSync('schemas/settings')) expect(settings, file).toContain(`<code>${file.replace(/\.json$/, '')}</code>`);
  });

  it('keeps the README a front door of at most 150 lines with the two commands', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
  });
});

describe('the link check', () => {
  it('finds a missing page, a missing anchor and a missing picture, and follows good links', () => {
    const files = new Map<string, string>([
      ['index.html', '<a href="guide.html#start">ok</a><a href="guide.html#gone">anchor</a><a href="gone.html">page</a><img src="images/x.png"><a href="https://example.com">out</a>'],
      ['guide.html', '<h2 id="start">Start</h2><a href="index.html">home</a><a href="#start">here</a>'],
    ]);
    expect(brokenLinks(files)).toEqual([
      { page: 'index.html', target: 'guide.html#gone' },
      { page: 'index.html', target: 'gone.html' },
      { page: 'index.html', target: 'images/x.png' },
    ]);
  });

  it('gives headings the anchors the forge gives them', () => {
    expect(headingId('Backup and restore')).toBe('backup-and-restore');
    expect(headingId("Cartograph's own vulnerability management (`cartograph-avm`)")).toBe('cartographs-own-vulnerability-management-cartograph-avm');
  });
});
