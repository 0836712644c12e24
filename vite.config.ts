import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { VitePWA } from 'vite-plugin-pwa';
import { adapterIconsPlugin } from './codegen/adapterIconsPlugin.js';
import { buildManifestPlugin } from './codegen/buildManifestPlugin.js';
import { pwaOptions } from './codegen/pwaOptions.js';

const projectRoot = fileURLToPath(new URL('.', import.meta.url));

// The console is built from src/web into dist/web; hash routing needs relative asset paths (base './').
export default defineConfig({
  root: 'src/web',
  base: './',
  plugins: [react(), adapterIconsPlugin(`${projectRoot}schemas/adapters`), buildManifestPlugin(), VitePWA(pwaOptions)],
  build: { outDir: '../../dist/web', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: Object.fromEntries(['/api', '/users', '/companies', '/configurations', '/adapters', '/healthz'].map((path) => [path, 'http://127.0.0.1:8080'])) },
  test: {
    root: projectRoot,
    reporters: ['default', './tests/support/slowestFilesReporter.ts'],
    // Two test files at a time on the 2-core machines: a server test's file is one process (Fastify and PGlite in it)
    // waiting on PostgreSQL half the time, so vitest's default (cores − 1, here one file at a time) leaves a core idle.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          root: projectRoot,
          environment: 'node',
          include: ['tests/unit/**/*.test.ts', 'tests/conformance/**/*.test.ts', 'tests/server/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          root: projectRoot,
          environment: 'happy-dom',
          include: ['src/web/**/*.test.tsx', 'tests/web/**/*.test.tsx', 'stories/**/*.test.tsx'],
          setupFiles: ['tests/web/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          root: projectRoot,
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
