// One fetch (or check) against one connection: the dispatcher, the chosen authenticator and its cached token, and
// `call`, which renders a request spec, signs it, sends it and checks the answer.
import type { Dispatcher } from 'undici';
import type { ConnectionConfig } from '../engine.js';
import { accessKeyOf, assumeRoleRequest, temporaryCredentialsOf, type TemporaryCredentials } from './awsCredentials.js';
import { signAwsRequest, type AwsCredentials } from './awsSignature.js';
import type { AuthenticatorSpec, Manifest, RequestSpec, TemplateMap } from './manifest.js';
import { toResponseScope, vendorMessage, type BodyFormat, type ResponseScope } from './response.js';
import { render, renderDeep, toText, truthy, type Scope } from './template.js';
import { createDispatcher, send, type OutgoingRequest, type RawResponse, type TransportOptions } from './transport.js';

/** A non-success HTTP status from the vendor; `vendorMessage` is a short excerpt safe to show. */
export class HttpStatusError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly host: string,
    readonly vendorMessage: string,
  ) {
    super(message);
  }
}

/** The connection settings cannot make a request (missing base URL, bad template, no matching authenticator). */
export class ConfigurationError extends Error {}

type Token = { value: string; expiresAt: number };

const tokenSafetyMarginMs = 60_000;
const defaultMaxResponseBytes = 64 * 1024 * 1024;

function basicHeader(username: unknown, password: unknown): string {
  return `Basic ${Buffer.from(`${toText(username)}:${toText(password)}`, 'utf8').toString('base64')}`;
}

/** Renders a name → template map, leaving out empty values; a list value stays a list (repeated query parameters). */
export function renderMap(map: TemplateMap | undefined, scope: Scope): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, template] of Object.entries(map ?? {})) {
    const value = Array.isArray(template) ? template.flatMap((item) => [renderDeep(item, scope)].flat()) : renderDeep(template, scope);
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      const items = value.filter((item) => item !== undefined && item !== null && item !== '').map(toText);
      if (items.length) out[name] = items;
    } else out[name] = toText(value);
  }
  return out;
}

export function transportOptionsFor(manifest: Manifest, config: ConnectionConfig): TransportOptions {
  const timeoutSeconds = Number(config.timeout_seconds);
  return {
    verifySsl: config.verify_ssl !== false,
    customCa: typeof config.custom_ca === 'string' && config.custom_ca.trim() ? config.custom_ca : undefined,
    proxy: typeof config.proxy === 'string' && config.proxy.trim() ? config.proxy.trim() : undefined,
    timeoutMs: Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds * 1000 : 60_000,
    maxResponseBytes: manifest.max_response_bytes ?? defaultMaxResponseBytes,
    maxAttempts: manifest.retry?.max_attempts ?? 4,
    retryStatuses: manifest.retry?.statuses ?? [429, 500, 502, 503, 504],
    baseDelayMs: manifest.retry?.base_delay_ms ?? 500,
    maxDelaySeconds: manifest.retry?.max_delay_seconds ?? 120,
    resetHeader: manifest.retry?.reset_header,
  };
}

export class HttpSession {
  readonly dispatcher: Dispatcher;
  readonly authenticator: AuthenticatorSpec;
  private token: Token | null = null;
  private assumedRole: TemporaryCredentials | null = null;
  private readonly baseUrl: string;

  constructor(
    readonly manifest: Manifest,
    readonly config: ConnectionConfig,
    readonly signal: AbortSignal,
    readonly warn: (message: string) => void,
    readonly options: TransportOptions = transportOptionsFor(manifest, config),
  ) {
    const candidates = manifest.auth === undefined ? [{ type: 'none' as const }] : [manifest.auth].flat();
    const chosen = candidates.find((candidate) => candidate.when === undefined || truthy(render(candidate.when, { config })));
    if (!chosen) throw new ConfigurationError('no authentication method of this adapter matches the connection settings');
    this.authenticator = chosen;
    this.baseUrl = manifest.base_url ? toText(render(manifest.base_url, { config })).replace(/\/+$/, '') : '';
    this.dispatcher = createDispatcher(this.options);
  }

  /** The absolute URL of a rendered `url` (a path is appended to base_url as text) with the query added. */
  resolveUrl(rendered: string, query: Record<string, string | string[]>): string {
    const absolute = /^https?:\/\//i.test(rendered) ? rendered : `${this.baseUrl}${rendered.startsWith('/') || !rendered ? '' : '/'}${rendered}`;
    let url: URL;
    try {
      url = new URL(absolute);
    } catch {
      throw new ConfigurationError(`the API URL is missing or invalid (${this.baseUrl ? 'check the base URL' : 'no base URL configured'})`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigurationError('the API URL must start with http:// or https://');
    for (const [name, value] of Object.entries(query)) for (const item of [value].flat()) url.searchParams.append(name, item);
    return url.href;
  }

  /** Template scope shared by every request: the config and the current token. */
  scope(extra: Scope = {}): Scope {
    return { config: this.config, auth: { token: this.token?.value }, ...extra };
  }

  private async acquireToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    const spec = this.authenticator;
    const scope = this.scope();
    let response: ResponseScope;
    let expiresTemplate: string | undefined;
    let tokenTemplate: string;
    if (spec.type === 'oauth2_client_credentials') {
      // The body holds templates (rendered once by `call`), so a secret containing "{{" is never interpreted.
      const basic = spec.client_auth === 'basic' ? { username: spec.client_id, password: spec.client_secret } : undefined;
      const form: Record<string, unknown> = { ...(spec.grant_type === null ? {} : { grant_type: spec.grant_type ?? 'client_credentials' }) };
      if (!basic) Object.assign(form, { client_id: spec.client_id, client_secret: spec.client_secret });
      Object.assign(form, spec.scope ? { scope: spec.scope } : {}, spec.extra);
      const login: RequestSpec = { method: 'POST', url: spec.token_url, body: form, body_format: 'form', basic, success_statuses: spec.success_statuses ?? [200, 201] };
      response = await this.call(login, scope, 'the token request', false);
      tokenTemplate = spec.token ?? '{{ response.body.access_token }}';
      expiresTemplate = spec.expires_in ?? '{{ response.body.expires_in }}';
    } else if (spec.type === 'session') {
      response = await this.call(spec.login, scope, 'the login request', false);
      tokenTemplate = spec.token;
      expiresTemplate = spec.expires_in;
    } else throw new Error(`authenticator ${spec.type} has no token`);
    const value = toText(render(tokenTemplate, { ...scope, response }));
    if (!value) throw new HttpStatusError(`the sign-in answer of ${new URL(response.url).pathname} holds no token`, 401, new URL(response.url).host, '');
    const expiresIn = expiresTemplate ? Number(render(expiresTemplate, { ...scope, response })) : Number.NaN;
    const lifetimeMs = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : spec.type === 'session' ? Number.POSITIVE_INFINITY : 3600_000;
    this.token = { value, expiresAt: Date.now() + Math.max(lifetimeMs - tokenSafetyMarginMs, lifetimeMs / 2) };
    return value;
  }

  /** Headers and query parameters the authenticator adds to a request. */
  private async credentials(): Promise<{ headers: Record<string, string>; query: Record<string, string | string[]> }> {
    const spec = this.authenticator;
    const scope = this.scope();
    switch (spec.type) {
      case 'none':
        return { headers: {}, query: {} };
      case 'bearer':
        return { headers: { authorization: `Bearer ${toText(render(spec.token, scope))}` }, query: {} };
      case 'basic':
        return { headers: { authorization: basicHeader(render(spec.username, scope), render(spec.password, scope)) }, query: {} };
      case 'header':
        return { headers: renderMap(spec.headers, scope) as Record<string, string>, query: renderMap(spec.query, scope) };
      case 'aws_sigv4':
        // Signed in `call` once the whole request (URL, headers, body) is known.
        return { headers: {}, query: {} };
      default: {
        await this.acquireToken();
        const headers = spec.headers ?? { Authorization: 'Bearer {{ auth.token }}' };
        return { headers: renderMap(headers, this.scope()) as Record<string, string>, query: {} };
      }
    }
  }

  /** The keys an aws_sigv4 request is signed with: the assumed role's while they last, else the access key. */
  private async awsCredentials(): Promise<AwsCredentials> {
    const spec = this.authenticator;
    if (spec.type !== 'aws_sigv4') throw new Error('not an AWS authenticator');
    const scope = this.scope();
    const assume = assumeRoleRequest(spec, scope);
    if (!assume) return accessKeyOf(spec, scope);
    if (!this.assumedRole || this.assumedRole.expiresAt <= Date.now()) {
      const response = await this.call(assume, scope, 'the sts:AssumeRole request', 'access_key');
      this.assumedRole = temporaryCredentialsOf(response);
    }
    return this.assumedRole.credentials;
  }

  /**
   * Sends one request spec. `label` names it in errors (e.g. `GET /api/v1/users (stream users, page 3)` is built by
   * the caller); `signed` false skips the authenticator (token and login calls), `'access_key'` signs an AWS request
   * with the connection's own key (the AssumeRole call). A 401 on a token-based
   * authenticator logs in again once. Empty statuses answer a null body. `intercept` sees every answer first
   * (an error status's body read leniently): when it returns true the answer is handed back as it is, neither
   * checked against the success statuses nor error_when (how a paginator notices an expired cursor).
   */
  async call(spec: RequestSpec, scope: Scope, label: string, signed: boolean | 'access_key' = true, urlOverride?: string, intercept?: (response: ResponseScope) => boolean): Promise<ResponseScope> {
    for (let attempt = 0; ; attempt += 1) {
      const credentials = signed === true ? await this.credentials() : { headers: {}, query: {} };
      const requestScope = { ...scope, auth: { token: this.token?.value } };
      const query = urlOverride ? {} : { ...renderMap(spec.query, requestScope), ...credentials.query };
      const url = urlOverride ? this.resolveUrl(urlOverride, credentials.query) : this.resolveUrl(toText(render(spec.url, requestScope)), query);
      const headers: Record<string, string> = { 'user-agent': 'Cartograph', accept: spec.response_format === 'xml' ? 'application/xml, text/xml' : 'application/json', ...lower(renderMap(this.manifest.headers, requestScope)), ...lower(credentials.headers), ...lower(renderMap(spec.headers, requestScope)) };
      if (spec.basic) headers.authorization = basicHeader(render(spec.basic.username, requestScope), render(spec.basic.password, requestScope));
      const outgoing: OutgoingRequest = { method: spec.method ?? 'GET', url, headers };
      if (spec.body !== undefined) {
        const body = renderDeep(spec.body, requestScope);
        if (spec.body_format === 'form') {
          outgoing.body = new URLSearchParams(Object.entries((body ?? {}) as Record<string, unknown>).filter(([, value]) => value !== undefined && value !== null && value !== '').map(([key, value]) => [key, toText(value)])).toString();
          headers['content-type'] = 'application/x-www-form-urlencoded';
        } else {
          outgoing.body = JSON.stringify(body);
          headers['content-type'] ??= 'application/json';
        }
      }
      if (signed && this.authenticator.type === 'aws_sigv4') await this.signAws(outgoing, spec, requestScope, signed);
      const method = outgoing.method;
      const path = new URL(url).pathname;
      const raw = await send(outgoing, this.dispatcher, this.options, this.signal, this.warn);
      const tokenBased = this.authenticator.type === 'session' || this.authenticator.type === 'oauth2_client_credentials';
      if (raw.status === 401 && signed && tokenBased && attempt === 0) {
        this.token = null;
        continue;
      }
      if (spec.empty_statuses?.includes(raw.status)) return { ...toResponseScope({ ...raw, body: Buffer.alloc(0) }, 'json', label), body: null };
      const ok = spec.success_statuses ? spec.success_statuses.includes(raw.status) : raw.status >= 200 && raw.status < 300;
      const format = spec.response_format ?? 'json';
      if (intercept) {
        const seen = ok ? toResponseScope(raw, format, `${method} ${path} (${label})`, spec.xml_lists) : lenientResponseScope(raw, format, spec.xml_lists);
        if (intercept(seen)) return seen;
      }
      if (!ok) {
        const message = vendorMessage(raw);
        throw new HttpStatusError(`${raw.status} from ${method} ${path} (${label})${message ? `: ${message}` : ''}`, raw.status, new URL(url).host, message);
      }
      const response = toResponseScope(raw, format, `${method} ${path} (${label})`, spec.xml_lists);
      for (const rule of spec.error_when ?? []) {
        const ruleScope = { ...requestScope, response };
        if (truthy(render(rule.condition, ruleScope))) throw new HttpStatusError(`${method} ${path} (${label}) answered an error: ${toText(render(rule.message, ruleScope)).slice(0, 300)}`, raw.status, new URL(url).host, '');
      }
      return response;
    }
  }

  /** Signs an outgoing request with SigV4 for the request's (else the authenticator's) region and service. */
  private async signAws(outgoing: OutgoingRequest, spec: RequestSpec, scope: Scope, signed: true | 'access_key'): Promise<void> {
    const authenticator = this.authenticator;
    if (authenticator.type !== 'aws_sigv4') return;
    const credentials = signed === 'access_key' ? accessKeyOf(authenticator, this.scope()) : await this.awsCredentials();
    if (!credentials.accessKeyId || !credentials.secretAccessKey) throw new ConfigurationError('the AWS access key id or secret access key is missing');
    const region = toText(render(spec.signing?.region ?? authenticator.region ?? 'us-east-1', scope)).trim();
    const service = toText(render(spec.signing?.service ?? authenticator.service, scope)).trim();
    if (!region || !service) throw new ConfigurationError('the AWS region or service of a request is missing');
    const signedRequest = signAwsRequest({ method: outgoing.method, url: outgoing.url, headers: outgoing.headers, body: outgoing.body, region, service }, credentials);
    outgoing.url = signedRequest.url;
    Object.assign(outgoing.headers, signedRequest.headers);
  }

  /** Ends the session: the vendor logout (errors ignored), then the connection pool. */
  async close(): Promise<void> {
    const spec = this.authenticator;
    if (spec.type === 'session' && spec.logout && this.token) {
      await this.call(spec.logout, this.scope(), 'logout').catch(() => undefined);
    }
    await this.dispatcher.close().catch(() => undefined);
  }
}

/** An error answer as templates see it: its body parsed when it can be, else kept as text. */
function lenientResponseScope(raw: RawResponse, format: BodyFormat, xmlLists: readonly string[] | undefined): ResponseScope {
  try {
    return toResponseScope(raw, format, 'an error answer', xmlLists);
  } catch {
    return toResponseScope(raw, 'text', 'an error answer');
  }
}

function lower(headers: Record<string, string | string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = toText(value);
  return out;
}
