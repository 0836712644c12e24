// Turns a raw HTTP answer into the `response` templates see: parsed body, lower-case headers, Link relations,
// Content-Range numbers and cookies.
import type { RawResponse } from './transport.js';
import { parseXmlBody, XmlBodyError } from './xmlBody.js';

export type ResponseScope = {
  url: string;
  status: number;
  /** Size of the body as received, in bytes. */
  bytes: number;
  headers: Record<string, string>;
  body: unknown;
  links: Record<string, string>;
  content_range: { start?: number; end?: number; total?: number };
  cookies: Record<string, string>;
  /** Every cookie the answer set, as one Cookie header value (`a=1; b=2`): a session spread over several cookies. */
  cookie_header: string;
};

/** A body that is not what the manifest expects (truncated or invalid JSON): names the request and page. */
export class ResponseParseError extends Error {}

/**
 * RFC 8288 Link header → URL by relation.
 * Before: `<https://x/api/v1/users?after=00u2>; rel="next", <https://x/api/v1/users>; rel="self"`; after: `{next: "https://x/api/v1/users?after=00u2", self: "https://x/api/v1/users"}`.
 */
export function parseLinkHeader(header: string | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  if (!header) return links;
  for (const match of header.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(match[2])?.[1];
    if (rel) for (const name of rel.trim().split(/\s+/)) links[name.toLowerCase()] ??= match[1];
  }
  return links;
}

/** `Content-Range: 0-999/2500` (or `items 0-24/100`, `*\/0`) → `{start: 0, end: 999, total: 2500}`. */
export function parseContentRange(header: string | undefined): ResponseScope['content_range'] {
  const match = header ? /(?:(\d+)-(\d+)|\*)\s*\/\s*(\d+|\*)/.exec(header) : null;
  if (!match) return {};
  return {
    start: match[1] === undefined ? undefined : Number(match[1]),
    end: match[2] === undefined ? undefined : Number(match[2]),
    total: match[3] === '*' ? undefined : Number(match[3]),
  };
}

function parseCookies(setCookies: string[]): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const line of setCookies) {
    const pair = line.split(';', 1)[0];
    const equals = pair.indexOf('=');
    if (equals > 0) cookies[pair.slice(0, equals).trim()] = pair.slice(equals + 1).trim();
  }
  return cookies;
}

export type BodyFormat = 'json' | 'text' | 'xml';

/** How a body is read beyond its format: XML elements that are always lists, text written before the JSON. */
export type BodyOptions = { xmlLists?: readonly string[]; xmlStripPrefixes?: boolean; jsonPrefix?: string };

function parseBody(text: string, format: BodyFormat, options: BodyOptions): unknown {
  if (format === 'text') return text;
  if (text.trim() === '') return null;
  if (format === 'xml') return parseXmlBody(text, options.xmlLists ?? [], { stripPrefixes: options.xmlStripPrefixes });
  const start = text.trimStart();
  const json = options.jsonPrefix && start.startsWith(options.jsonPrefix) ? start.slice(options.jsonPrefix.length) : text;
  return json.trim() === '' ? null : JSON.parse(json);
}

/** Parses the body as JSON or XML (or keeps text); `label` names the request and page in the error. */
export function toResponseScope(raw: RawResponse, format: BodyFormat, label: string, options: BodyOptions = {}): ResponseScope {
  let body: unknown;
  try {
    body = parseBody(raw.body.toString('utf8'), format, options);
  } catch (error) {
    const where = `the answer to ${label} (${raw.body.length} bytes, status ${raw.status})`;
    if (error instanceof XmlBodyError) throw new ResponseParseError(`${where}: ${error.message}`);
    throw new ResponseParseError(`invalid or truncated JSON in ${where}: ${(error as Error).message}`);
  }
  const cookies = parseCookies(raw.setCookies);
  return {
    url: raw.url,
    status: raw.status,
    bytes: raw.body.length,
    headers: raw.headers,
    body,
    links: parseLinkHeader(raw.headers.link),
    content_range: parseContentRange(raw.headers['content-range']),
    cookies,
    cookie_header: Object.entries(cookies)
      .map(([name, value]) => `${name}=${value}`)
      .join('; '),
  };
}

/** A short vendor message from an error answer, for the administrator (never the whole body). */
export function vendorMessage(raw: RawResponse): string {
  const text = raw.body.toString('utf8', 0, Math.min(raw.body.length, 2000)).trim();
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const candidates = [parsed.message, parsed.error_description, parsed.errorSummary, (parsed.error as Record<string, unknown>)?.message, parsed.error, (parsed.errors as Record<string, unknown>[])?.[0]?.message];
    const found = candidates.find((candidate) => typeof candidate === 'string' && candidate);
    if (found) return (found as string).slice(0, 200);
  } catch {
    // Not JSON: fall back to the start of the text.
  }
  return text.replace(/\s+/g, ' ').slice(0, 200);
}
