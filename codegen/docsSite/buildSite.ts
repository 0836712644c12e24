import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { Marked, type Tokens } from 'marked';
import { schemaReference } from './schemaReference.js';

/** A page of the site: where its Markdown lives in the repository (real or generated) and its title in the menu. */
type Page = { source: string; markdown: string; title: string };

/**
 * Where a repository file lands in the site: the README is the home page, `docs/x.md` is `x.html`, the rest of
 * `docs/` keeps its place. Anything outside the site answers null, and a link to it counts as broken.
 * Before: `docs/images/device.png`; after: `images/device.png`.
 */
export function sitePath(repositoryPath: string): string | null {
  if (repositoryPath === 'README.md') return 'index.html';
  if (!repositoryPath.startsWith('docs/')) return null;
  return repositoryPath.slice('docs/'.length).replace(/\.md$/, '.html');
}

/** GitHub's heading anchors, so a link that works on the forge works on the site: `Backup and restore` → `backup-and-restore`. */
export const headingId = (text: string) => text.toLowerCase().trim().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-');

const titleOf = (markdown: string) => /^# (.+)$/m.exec(markdown)?.[1] ?? 'Cartograph';

function pagesOf(root: string): Page[] {
  const read = (source: string): Page => {
    const markdown = readFileSync(join(root, source), 'utf8');
    return { source, markdown, title: titleOf(markdown) };
  };
  const generated = (source: string, markdown: string): Page => ({ source, markdown, title: titleOf(markdown) });
  const docs = readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md')).sort();
  return [
    read('README.md'),
    ...docs.map((file) => read(`docs/${file}`)),
    generated('docs/reference/entities.md', schemaReference(join(root, 'schemas/entities'), 'Reference: entities',
      'Every entity Cartograph stores or inventories, field by field, generated from `schemas/entities/`. Queries name fields by their key.')),
    generated('docs/reference/settings.md', schemaReference(join(root, 'schemas/settings'), 'Reference: settings pages',
      'Every settings page, field by field, generated from `schemas/settings/`.')),
  ];
}

function renderer(page: Page): Marked {
  const here = posix.dirname(page.source);
  const from = posix.dirname(sitePath(page.source) as string);
  // A relative link names a repository file; the site names it by its own path, relative to the page.
  const rewrite = (href: string) => {
    if (/^([a-z]+:|#)/i.test(href)) return href;
    const [path, anchor] = href.split('#');
    const target = sitePath(posix.normalize(posix.join(here, path)));
    if (target === null) return href;
    const relative = posix.relative(from, target) || posix.basename(target);
    return anchor === undefined ? relative : `${relative}#${anchor}`;
  };
  return new Marked({
    gfm: true,
    walkTokens: (token) => {
      if (token.type === 'link' || token.type === 'image') (token as Tokens.Link | Tokens.Image).href = rewrite((token as Tokens.Link).href);
    },
    renderer: {
      heading({ tokens, depth, text }) {
        return `<h${depth} id="${headingId(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
}

const style = `body{font:16px/1.6 system-ui,sans-serif;margin:0;display:flex;color:#1d2430}nav{width:15rem;padding:1.5rem;background:#f3f5f8;min-height:100vh;box-sizing:border-box}
nav a{display:block;color:#1d2430;text-decoration:none;padding:.2rem 0}nav a[aria-current]{font-weight:600}main{max-width:60rem;padding:1.5rem 2.5rem;overflow-x:auto}
table{border-collapse:collapse;font-size:.9rem}td,th{border:1px solid #d5dae1;padding:.3rem .5rem;vertical-align:top}img{max-width:100%;border:1px solid #d5dae1}
pre{background:#f3f5f8;padding:.8rem;overflow-x:auto}code{font-size:.9em}`;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

function layout(page: Page, pages: Page[], body: string): string {
  const from = posix.dirname(sitePath(page.source) as string);
  const menu = pages.map((other) => {
    const target = sitePath(other.source) as string;
    const current = other === page ? ' aria-current="page"' : '';
    return `<a href="${posix.relative(from, target) || posix.basename(target)}"${current}>${escapeHtml(other.title)}</a>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(page.title)} · Cartograph</title><style>${style}</style></head>
<body><nav>${menu.join('')}</nav><main>${body}</main></body></html>\n`;
}

/**
 * The documentation site, in memory: site path → HTML page or copied file. The README is its home page, each
 * `docs/*.md` a page, `docs/images/` its pictures, and the entity and settings reference is generated from
 * `schemas/`. Nothing is fetched: the site builds offline and works from the file system.
 */
export function buildDocsSite(root: string): Map<string, string | Buffer> {
  const pages = pagesOf(root);
  const files = new Map<string, string | Buffer>();
  for (const page of pages) files.set(sitePath(page.source) as string, layout(page, pages, renderer(page).parse(page.markdown) as string));
  const images = join(root, 'docs/images');
  if (existsSync(images)) for (const file of readdirSync(images)) files.set(`images/${file}`, readFileSync(join(images, file)));
  return files;
}
