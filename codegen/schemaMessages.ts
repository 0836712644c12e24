import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { schemaMessagePrefix, schemaMessagesOf, type SchemaDocument } from '../src/core/schemaMessages.js';
import type { LoadedSchema } from './loadSchemas.js';

type Messages = Record<string, string>;
/** Which en-US file a schema's texts go to: the console's, or the adapters' connection forms' (fetched when one opens). */
export type SchemaMessageFile = 'console' | 'adapters';

// The request bodies a page renders as a form of its own (the other api/ schemas are never on screen).
const renderedRequestBodies = new Set(['api/company-administrator.json']);

/**
 * The message file of a schema the console renders, or null for one it never shows: entity, settings and action
 * schemas (lists, details, forms), the request bodies a page renders, and the adapters' connection forms.
 */
export function messageFileOf(file: string): SchemaMessageFile | null {
  const path = file.split('\\').join('/');
  if (/^adapters\/[^/]+\/connection\.schema\.json$/.test(path)) return 'adapters';
  if (/^(entities|settings|actions)\/[^/]+\.json$/.test(path) || renderedRequestBodies.has(path)) return 'console';
  return null;
}

/** The English of every text of the rendered schemas, by message file and key. */
export function renderedSchemaMessages(loaded: readonly LoadedSchema[]): Record<SchemaMessageFile, Messages> {
  const messages: Record<SchemaMessageFile, Messages> = { console: {}, adapters: {} };
  for (const { file, schema } of loaded) {
    const target = messageFileOf(file);
    if (target) Object.assign(messages[target], schemaMessagesOf(schema as SchemaDocument));
  }
  return messages;
}

const sorted = (messages: Messages): Messages => Object.fromEntries(Object.entries(messages).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)));
const serialized = (messages: Messages) => `${JSON.stringify(sorted(messages), null, 2)}\n`;

function writeIfChanged(path: string, text: string): boolean {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return false;
  writeFileSync(path, text);
  return true;
}

/**
 * Keeps the `schema.*` keys of the en-US message files in step with the schemas (the schemas are the English source):
 * en-US.json keeps its other keys as they are, en-US.adapters.json holds only schema texts. Keys are sorted, as the
 * message-file test wants. Answers the files it changed, which are committed with the schema change.
 */
export function writeSchemaMessages(loaded: readonly LoadedSchema[], localesFolder: string): string[] {
  const messages = renderedSchemaMessages(loaded);
  const consolePath = `${localesFolder}/en-US.json`;
  const existing = JSON.parse(readFileSync(consolePath, 'utf8')) as Messages;
  const kept = Object.fromEntries(Object.entries(existing).filter(([key]) => !key.startsWith(schemaMessagePrefix)));
  const changed: string[] = [];
  if (writeIfChanged(consolePath, serialized({ ...kept, ...messages.console }))) changed.push(consolePath);
  const adaptersPath = `${localesFolder}/en-US.adapters.json`;
  if (writeIfChanged(adaptersPath, serialized(messages.adapters))) changed.push(adaptersPath);
  return changed;
}
