// `npm run adapter -- new <slug>`: a new adapter folder whose files have the right shape but hold placeholder text
// (carrying `scaffoldMarker`), so `check` fails until each is written for the real vendor API.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adapterMetadata, connectionSchema, instructions } from '../../codegen/adapterCatalogue/render.js';
import { tokenAuth } from '../../codegen/adapterCatalogue/auth.js';
import { url, type AdapterSource } from '../../codegen/adapterCatalogue/model.js';
import { monogramSvg } from '../../codegen/adapterMonogram.js';
import { adapterFiles, adaptersFolder, has, slugPattern } from './adapterFolder.js';

/** Text every placeholder carries; `check` reports any file still holding it. */
export const scaffoldMarker = 'SCAFFOLD: replace';

export class ScaffoldError extends Error {}

function titleOf(slug: string): string {
  return slug
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

function sourceOf(slug: string): AdapterSource {
  const name = titleOf(slug);
  const say = (what: string) => `${scaffoldMarker} with ${what}.`;
  return {
    slug,
    name,
    vendor: name,
    website: 'https://example.com',
    docs_url: 'https://example.com/api',
    description: say('one sentence: what the adapter reads from which system'),
    groups: ['itam'],
    categories: ['device'],
    engine: null,
    beta: true,
    location: [url('base_url', 'API URL', say('where the API answers'), 'https://api.example.com')],
    auth: [tokenAuth({ title: 'API token', description: say('how the token is sent'), fieldTitle: 'API token', fieldDescription: say('where the administrator creates the token'), example: 'example-token' })],
    guide: {
      prerequisites: [say('the licence, version and network access needed')],
      grant: [say('the role or scopes to grant, in the vendor console words')],
      collects: [say('each endpoint read and the fields kept')],
      troubleshooting: [[say('an error administrators meet'), say('its cause and fix')]],
    },
  };
}

function manifestOf(slug: string): Record<string, unknown> {
  return {
    version: 1,
    $comment: `${scaffoldMarker} with the vendor API reference page and the endpoints read (${slug}).`,
    base_url: '{{ config.base_url }}',
    headers: { Accept: 'application/json' },
    auth: { type: 'bearer', token: '{{ config.auth.api_token }}' },
    check: { request: { url: '/devices', query: { limit: 1 } }, detail: 'The API answered.' },
    streams: [
      {
        name: 'devices',
        entity: 'device',
        request: { url: '/devices', query: { limit: '{{ page.limit }}', offset: '{{ page.offset }}' } },
        paginator: { type: 'offset', limit: 100 },
        records: '{{ response.body.items }}',
        mapping: { Hostname: '{{ record.hostname }}', SerialNumber: '{{ record.serial }}', LastSeen: '{{ record.last_seen | date }}' },
      },
    ],
  };
}

function fixtureOf(): Record<string, unknown> {
  return {
    description: `${scaffoldMarker} with what the fixture shows: sign-in, two pages of the real paging, one documented failure.`,
    config: { base_url: '{{replay_url}}', auth: { auth_type: 'api_token', api_token: 'replay-token' } },
    exchanges: [],
    expected: { count: 0, records: [] },
  };
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Writes the folder; refuses a slug the catalogue rules reject or one whose folder exists. Answers the files written. */
export function scaffoldAdapter(slug: string, root = adaptersFolder): string[] {
  if (!slugPattern.test(slug) || slug.length > 64) throw new ScaffoldError(`"${slug}" is not a valid slug: use lower-case letters and digits in words joined by single hyphens, at most 64 characters`);
  const files = adapterFiles(slug, root);
  if (has(files.folder)) throw new ScaffoldError(`the adapter ${slug} already exists (${files.folder})`);
  const source = sourceOf(slug);
  mkdirSync(join(files.folder, 'fixtures'), { recursive: true });
  const written: Array<[string, string]> = [
    [files.adapter, json(adapterMetadata(source))],
    [files.connection, json(connectionSchema(source))],
    [files.manifest, json(manifestOf(slug))],
    [files.fixture, json(fixtureOf())],
    [files.instructions, instructions(source)],
    [files.icon, monogramSvg(slug, source.name)],
  ];
  for (const [path, content] of written) writeFileSync(path, content);
  return written.map(([path]) => path);
}
