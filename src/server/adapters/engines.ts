import type { AdapterEngine } from './engine.js';

/** Every fetch engine by the name adapter.json uses in its `engine` field. */
export const fetchEngines: Record<string, AdapterEngine> = {};
