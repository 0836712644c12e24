import type { StorybookConfig } from '@storybook/react-vite';
import { fileURLToPath } from 'node:url';
import { connectionFormIndexer, connectionFormStoriesPlugin } from '../stories/adapters/connectionFormStories.node.js';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const adaptersFolder = `${projectRoot}schemas/adapters`;

// Written by hand: create-storybook has no 10.6.7 release (DEPENDENCIES.md). Storybook is the catalogue of the design
// system and the generic renderers; stories live under stories/, mirroring src/web.
const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.@(ts|tsx)'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true },
  addons: [],
  // One story per catalogue adapter's connection form, generated (stories/adapters/connectionFormStories.node.ts).
  experimental_indexers: async (existing) => [connectionFormIndexer(adaptersFolder), ...(existing ?? [])],
  // Vite also reads the console's vite.config.ts (root src/web, output dist/web emptied first). Storybook builds from the
  // project root into storybook-static, where its manager is already written, so the root is reset and nothing is
  // emptied (these inline settings win over the config file's).
  viteFinal: async (viteConfig) => ({
    ...viteConfig,
    root: projectRoot,
    base: './',
    plugins: [...(viteConfig.plugins ?? []), connectionFormStoriesPlugin(adaptersFolder)],
    build: { ...viteConfig.build, emptyOutDir: false, chunkSizeWarningLimit: 2000 },
  }),
};

export default config;
