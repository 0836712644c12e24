import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDocsSite } from './buildSite.js';
import { brokenLinks } from './links.js';

// `npm run docs`: the documentation site into dist/docs, refused when a link leads nowhere.
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const site = buildDocsSite(root);
const broken = brokenLinks(site);
if (broken.length) {
  for (const { page, target } of broken) console.error(`docs: ${page} links to ${target}, which the site does not have`);
  process.exit(1);
}
const out = join(root, 'dist/docs');
rmSync(out, { recursive: true, force: true });
for (const [path, content] of site) {
  mkdirSync(dirname(join(out, path)), { recursive: true });
  writeFileSync(join(out, path), content);
}
console.log(`docs: ${site.size} files in dist/docs (open dist/docs/index.html)`);
