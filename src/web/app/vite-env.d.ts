/// <reference types="vite/client" />

/** The build's id, set by the build-manifest plugin (codegen/buildManifestPlugin.ts); absent under tests and dev. */
declare const __CARTOGRAPH_BUILD_ID__: string | undefined;
