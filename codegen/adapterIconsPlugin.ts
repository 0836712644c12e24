import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

const slugPattern = /^[a-z0-9][a-z0-9-]*$/;

/**
 * Serves every adapter's icon at `images/adapters/<slug>.svg` (the path spec §3 gives derived fields): emitted into
 * the console build, and answered by the dev server, straight from schemas/adapters/<slug>/icon.svg.
 */
export function adapterIconsPlugin(adaptersFolder: string): Plugin {
  const iconOf = (slug: string) => `${adaptersFolder}/${slug}/icon.svg`;
  return {
    name: 'cartograph-adapter-icons',
    configureServer(server) {
      server.middlewares.use('/images/adapters', (request, response, next) => {
        const slug = /^\/([^/]+)\.svg$/.exec(request.url ?? '')?.[1];
        if (!slug || !slugPattern.test(slug) || !existsSync(iconOf(slug))) return next();
        response.setHeader('content-type', 'image/svg+xml');
        response.end(readFileSync(iconOf(slug)));
      });
    },
    generateBundle() {
      for (const slug of readdirSync(adaptersFolder).filter((name) => slugPattern.test(name) && existsSync(iconOf(name)))) {
        this.emitFile({ type: 'asset', fileName: `images/adapters/${slug}.svg`, source: readFileSync(iconOf(slug)) });
      }
    },
  };
}
