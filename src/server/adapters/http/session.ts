// One fetch (or check) against one connection: the dispatcher, the chosen authenticator and its cached token, and
// `call`, which renders a request spec, signs it, sends it and checks the answer.
import type { KeyObject } from 'node:crypto';
import type { OutboundPolicy } from '../../outbound/guard.js';
import type { GuardedDispatcher } from '../../outbound/http.js';
import type { ConnectionConfig } from '../engine.js';
import { accessKeyOf, assumeRoleRequest, temporaryCredentialsOf, type TemporaryCredentials } from './awsCredentials.js';
import { signAbsoluteRequest } from './absoluteJws.js';
import { signAwsRequest, type AwsCredentials } from './awsSignature.js';
import { signChefRequest } from './chefSignature.js';
import { signDuoRequest } from './duoSignature.js';
import { obfuscateZscalerApiKey } from './zscalerApiKey.js';
import { signOciRequest } from './ociSignature.js';
import { signAlibabaRequest } from './alibabaSignature.js';
import { jwtAssertion, jwtBearerGrantType, privateKeyOf } from './jwtAssertion.js';
import { accountOf, NtlmHandshake } from './ntlmHandshake.js';
import type { AuthenticatorSpec, Manifest, RequestSpec, TemplateMap } from './manifest.js';
import { toResponseScope, vendorMessage, type BodyFormat, type BodyOptions, type ResponseScope } from './response.js';
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

/** A session's token and the further values its login answer gave (`auth.<name>` in templates). */
type Token = { value: string; expiresAt: number; values: Record<string, string> };

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

export function transportOptionsFor(manifest: Manifest, config: ConnectionConfig, outbound: OutboundPolicy): TransportOptions {
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
    outbound,
  };
}

export class HttpSession {
  readonly dispatcher: GuardedDispatcher;
  readonly authenticator: AuthenticatorSpec;
  /** Tokens by the scope they were asked for ('' = the authenticator's own scope). */
  private readonly tokens = new Map<string, Token>();
  private assumedRole: TemporaryCredentials | null = null;
  // The RSA key of a signing authenticator (Chef, OCI), parsed once per session.
  private signingKey: KeyObject | undefined;
  private readonly baseUrl: string;
  /** The NTLM handshake of an `ntlm` authenticator, which owns the one connection it authenticated. */
  private readonly ntlm: NtlmHandshake | undefined;

  constructor(
    readonly manifest: Manifest,
    readonly config: ConnectionConfig,
    readonly signal: AbortSignal,
    readonly warn: (message: string) => void,
    readonly options: TransportOptions,
  ) {
    const candidates = manifest.auth === undefined ? [{ type: 'none' as const }] : [manifest.auth].flat();
    const chosen = candidates.find((candidate) => candidate.when === undefined || truthy(render(candidate.when, { config })));
    if (!chosen) throw new ConfigurationError('no authentication method of this adapter matches the connection settings');
    this.authenticator = chosen;
    this.baseUrl = manifest.base_url ? toText(render(manifest.base_url, { config })).replace(/\/+$/, '') : '';
    this.dispatcher = createDispatcher(this.options, chosen.type === 'ntlm');
    if (chosen.type === 'ntlm') this.ntlm = new NtlmHandshake(() => accountOf(chosen, { config }), (outgoing) => send(outgoing, this.dispatcher, this.options, this.signal, this.warn));
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
    return { config: this.config, auth: this.authScope(), ...extra };
  }

  /** What templates see as `auth`: the token and the session's further values. */
  private authScope(token = this.tokens.get('')): Record<string, string | undefined> {
    return { ...token?.values, token: token?.value };
  }

  /** The token scope a request asks for (`token_scope`, OAuth2 only): '' means the authenticator's own. */
  private tokenScopeOf(spec: RequestSpec | undefined, scope: Scope): string {
    return spec?.token_scope && this.authenticator.type === 'oauth2_client_credentials' ? toText(render(spec.token_scope, scope)) : '';
  }

  /** The token for `tokenScope`, fetched (or fetched again once it nears expiry) when needed. */
  private async acquireToken(tokenScope: string): Promise<Token> {
    const cached = this.tokens.get(tokenScope);
    if (cached && cached.expiresAt > Date.now()) return cached;
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
      Object.assign(form, tokenScope ? { scope: tokenScope } : spec.scope ? { scope: spec.scope } : {}, spec.extra);
      const login: RequestSpec = { method: 'POST', url: spec.token_url, body: form, body_format: 'form', basic, success_statuses: spec.success_statuses ?? [200, 201] };
      response = await this.call(login, scope, 'the token request', false);
      tokenTemplate = spec.token ?? '{{ response.body.access_token }}';
      expiresTemplate = spec.expires_in ?? '{{ response.body.expires_in }}';
    } else if (spec.type === 'oauth2_jwt_bearer') {
      const tokenUrl = toText(render(spec.token_url, scope));
      const claims = { issuer: toText(render(spec.issuer, scope)), subject: toText(render(spec.subject ?? '', scope)), scope: toText(render(spec.scope ?? '', scope)), audience: toText(render(spec.audience ?? '', scope)) || this.resolveUrl(tokenUrl, {}), keyId: toText(render(spec.key_id ?? '', scope)) };
      if (!claims.issuer) throw new ConfigurationError('the issuer (client e-mail) of the JWT bearer grant is missing');
      const assertion = jwtAssertion(claims, privateKeyOf(toText(render(spec.private_key, scope))));
      // The assertion reaches the body through the scope, so nothing in it is read as a template.
      const login: RequestSpec = { method: 'POST', url: spec.token_url, body: { grant_type: jwtBearerGrantType, assertion: '{{ assertion }}' }, body_format: 'form', success_statuses: spec.success_statuses ?? [200] };
      response = await this.call(login, { ...scope, assertion }, 'the token request', false);
      tokenTemplate = spec.token ?? '{{ response.body.access_token }}';
      expiresTemplate = spec.expires_in ?? '{{ response.body.expires_in }}';
    } else if (spec.type === 'zscaler_api_key') {
      const timestamp = Date.now();
      const apiKey = obfuscateZscalerApiKey(toText(render(spec.api_key, scope)), timestamp);
      // The obfuscated key reaches the body through the scope, like the JWT assertion above.
      const login: RequestSpec = { method: 'POST', url: '/authenticatedSession', body: { apiKey: '{{ apiKey }}', username: spec.username, password: spec.password, timestamp: '{{ timestamp }}' }, success_statuses: [200] };
      response = await this.call(login, { ...scope, apiKey, timestamp }, 'the login request', false);
      tokenTemplate = '{{ response.cookies.JSESSIONID }}';
    } else if (spec.type === 'session') {
      response = await this.call(spec.login, scope, 'the login request', false);
      // Some vendors answer the login with a grant that further calls trade for the session token (Forcepoint DLP:
      // refresh token → access token; Aruba Central: session cookie → authorization code → token). Each step sees the
      // login's answer as `login` and the answer just before it as `previous`.
      const login = response;
      const steps = spec.exchange === undefined ? [] : Array.isArray(spec.exchange) ? spec.exchange : [spec.exchange];
      for (const [index, step] of steps.entries()) response = await this.call(step, { ...scope, login, previous: response }, `the token exchange request ${index + 1}`, false);
      tokenTemplate = spec.token;
      expiresTemplate = spec.expires_in;
    } else throw new Error(`authenticator ${spec.type} has no token`);
    const value = toText(render(tokenTemplate, { ...scope, response }));
    if (!value) throw new HttpStatusError(`the sign-in answer of ${new URL(response.url).pathname} holds no token`, 401, new URL(response.url).host, '');
    const expiresIn = expiresTemplate ? Number(render(expiresTemplate, { ...scope, response })) : Number.NaN;
    const lifetimeMs = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : spec.type === 'session' ? Number.POSITIVE_INFINITY : 3600_000;
    const values = spec.type === 'session' ? (renderMap(spec.values, { ...scope, response }) as Record<string, string>) : {};
    const token = { value, expiresAt: Date.now() + Math.max(lifetimeMs - tokenSafetyMarginMs, lifetimeMs / 2), values };
    this.tokens.set(tokenScope, token);
    return token;
  }

  /** Headers and query parameters the authenticator adds to a request, and the token (with its scope) it used. */
  private async credentials(request?: RequestSpec): Promise<{ headers: Record<string, string>; query: Record<string, string | string[]>; token?: Token; tokenScope?: string }> {
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
      case 'absolute_jws':
      case 'duo_hmac':
      case 'chef_signature':
      case 'oci_signature':
      case 'alibaba_rpc_signature':
      case 'ntlm':
        // Signed in `call` once the whole request (URL, headers, body) is known.
        return { headers: {}, query: {} };
      default: {
        const tokenScope = this.tokenScopeOf(request, scope);
        const token = await this.acquireToken(tokenScope);
        const headers = ('headers' in spec ? spec.headers : undefined) ?? (spec.type === 'zscaler_api_key' ? { Cookie: 'JSESSIONID={{ auth.token }}' } : { Authorization: 'Bearer {{ auth.token }}' });
        return { headers: renderMap(headers, { ...scope, auth: this.authScope(token) }) as Record<string, string>, query: {}, token, tokenScope };
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
      const credentials = signed === true ? await this.credentials(spec) : { headers: {}, query: {} };
      const requestScope = { ...scope, auth: this.authScope(credentials.token ?? this.tokens.get('')) };
      const query = urlOverride ? {} : { ...renderMap(spec.query, requestScope), ...credentials.query };
      const url = urlOverride ? this.resolveUrl(urlOverride, credentials.query) : this.resolveUrl(toText(render(spec.url, requestScope)), query);
      const headers: Record<string, string> = { 'user-agent': 'Cartograph', accept: spec.response_format === 'xml' ? 'application/xml, text/xml' : 'application/json', ...lower(renderMap(this.manifest.headers, requestScope)), ...lower(credentials.headers), ...lower(renderMap(spec.headers, requestScope)) };
      if (spec.basic) headers.authorization = basicHeader(render(spec.basic.username, requestScope), render(spec.basic.password, requestScope));
      const outgoing: OutgoingRequest = { method: spec.method ?? 'GET', url, headers };
      if (spec.body !== undefined) {
        const body = renderDeep(spec.body, requestScope);
        if (spec.body_format === 'xml') {
          outgoing.body = toText(body);
          headers['content-type'] ??= 'text/xml; charset=utf-8';
        } else if (spec.body_format === 'form') {
          outgoing.body = new URLSearchParams(Object.entries((body ?? {}) as Record<string, unknown>).filter(([, value]) => value !== undefined && value !== null && value !== '').map(([key, value]) => [key, toText(value)])).toString();
          headers['content-type'] = 'application/x-www-form-urlencoded';
        } else {
          outgoing.body = JSON.stringify(body);
          headers['content-type'] ??= 'application/json';
        }
      }
      if (signed && this.authenticator.type === 'aws_sigv4') await this.signAws(outgoing, spec, requestScope, signed);
      if (signed && this.authenticator.type === 'absolute_jws') this.signAbsolute(outgoing);
      if (signed && this.authenticator.type === 'duo_hmac') this.signDuo(outgoing);
      if (signed && this.authenticator.type === 'chef_signature') this.signChef(outgoing);
      if (signed && this.authenticator.type === 'oci_signature') this.signOci(outgoing);
      if (signed && this.authenticator.type === 'alibaba_rpc_signature') this.signAlibaba(outgoing);
      const method = outgoing.method;
      const path = new URL(url).pathname;
      const raw = signed && this.ntlm ? await this.ntlm.request(outgoing) : await send(outgoing, this.dispatcher, this.options, this.signal, this.warn);
      const tokenBased = ['session', 'oauth2_client_credentials', 'oauth2_jwt_bearer', 'zscaler_api_key'].includes(this.authenticator.type);
      if (raw.status === 401 && signed && tokenBased && attempt === 0) {
        this.tokens.delete(credentials.tokenScope ?? '');
        continue;
      }
      if (spec.empty_statuses?.includes(raw.status)) return { ...toResponseScope({ ...raw, body: Buffer.alloc(0) }, 'json', label), body: null };
      const ok = spec.success_statuses ? spec.success_statuses.includes(raw.status) : raw.status >= 200 && raw.status < 300;
      const format = spec.response_format ?? 'json';
      const bodyOptions = { xmlLists: spec.xml_lists, xmlStripPrefixes: spec.xml_strip_prefixes, jsonPrefix: spec.json_prefix };
      if (intercept) {
        const seen = ok ? toResponseScope(raw, format, `${method} ${path} (${label})`, bodyOptions) : lenientResponseScope(raw, format, bodyOptions);
        if (intercept(seen)) return seen;
      }
      if (!ok) {
        const message = vendorMessage(raw);
        throw new HttpStatusError(`${raw.status} from ${method} ${path} (${label})${message ? `: ${message}` : ''}`, raw.status, new URL(url).host, message);
      }
      const response = toResponseScope(raw, format, `${method} ${path} (${label})`, bodyOptions);
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

  /** Replaces the request by the POST of the JWS describing it (Absolute API v3). */
  private signAbsolute(outgoing: OutgoingRequest): void {
    const spec = this.authenticator;
    if (spec.type !== 'absolute_jws') return;
    const scope = this.scope();
    const credentials = { tokenId: toText(render(spec.token_id, scope)), secretKey: toText(render(spec.secret_key, scope)) };
    if (!credentials.tokenId || !credentials.secretKey) throw new ConfigurationError('the Absolute token id or secret key is missing');
    const signed = signAbsoluteRequest(outgoing, credentials);
    delete outgoing.headers['content-type'];
    Object.assign(outgoing, { method: signed.method, url: signed.url, body: signed.body });
    Object.assign(outgoing.headers, signed.headers);
  }

  /** Signs an outgoing request the way Duo's APIs check it (a fresh Date on every attempt). */
  private signDuo(outgoing: OutgoingRequest): void {
    const spec = this.authenticator;
    if (spec.type !== 'duo_hmac') return;
    const scope = this.scope();
    const integrationKey = toText(render(spec.integration_key, scope));
    const secretKey = toText(render(spec.secret_key, scope));
    if (!integrationKey || !secretKey) throw new ConfigurationError('the Duo integration key or secret key is missing');
    Object.assign(outgoing.headers, signDuoRequest({ method: outgoing.method, url: outgoing.url, integrationKey, secretKey, algorithm: spec.algorithm }, outgoing.body));
  }

  /** Signs an outgoing request the way Chef Infra Server checks it (a fresh timestamp on every attempt). */
  private signChef(outgoing: OutgoingRequest): void {
    const spec = this.authenticator;
    if (spec.type !== 'chef_signature') return;
    const scope = this.scope();
    const clientName = toText(render(spec.client_name, scope));
    if (!clientName) throw new ConfigurationError('the Chef client name is missing');
    this.signingKey ??= privateKeyOf(toText(render(spec.private_key, scope)));
    const serverApiVersion = spec.server_api_version ? toText(render(spec.server_api_version, scope)) : undefined;
    Object.assign(outgoing.headers, signChefRequest({ method: outgoing.method, url: outgoing.url, body: outgoing.body, clientName, serverApiVersion }, this.signingKey));
  }

  /** Signs an outgoing request the way OCI checks it (a fresh Date on every attempt). */
  private signOci(outgoing: OutgoingRequest): void {
    const spec = this.authenticator;
    if (spec.type !== 'oci_signature') return;
    const scope = this.scope();
    const keyId = [spec.tenancy_ocid, spec.user_ocid, spec.fingerprint].map((part) => toText(render(part, scope)).trim());
    if (keyId.some((part) => !part)) throw new ConfigurationError('the OCI tenancy OCID, user OCID or key fingerprint is missing');
    this.signingKey ??= privateKeyOf(toText(render(spec.private_key, scope)));
    Object.assign(outgoing.headers, signOciRequest({ method: outgoing.method, url: outgoing.url, body: outgoing.body, contentType: outgoing.headers['content-type'] }, keyId.join('/'), this.signingKey));
  }

  /** Signs an outgoing request's query the way Alibaba Cloud's RPC APIs check it (a fresh nonce on every attempt). */
  private signAlibaba(outgoing: OutgoingRequest): void {
    const spec = this.authenticator;
    if (spec.type !== 'alibaba_rpc_signature') return;
    const scope = this.scope();
    const credentials = { accessKeyId: toText(render(spec.access_key_id, scope)), accessKeySecret: toText(render(spec.access_key_secret, scope)) };
    if (!credentials.accessKeyId || !credentials.accessKeySecret) throw new ConfigurationError('the Alibaba Cloud AccessKey ID or secret is missing');
    outgoing.url = signAlibabaRequest(outgoing.method, outgoing.url, credentials);
  }

  /** Ends the session: the vendor logout (errors ignored), then the connection pool. */
  async close(): Promise<void> {
    const spec = this.authenticator;
    const logout: RequestSpec | undefined = spec.type === 'session' ? spec.logout : spec.type === 'zscaler_api_key' ? { method: 'DELETE', url: '/authenticatedSession' } : undefined;
    if (logout && this.tokens.has('')) {
      await this.call(logout, this.scope(), 'logout').catch(() => undefined);
    }
    await this.dispatcher.close().catch(() => undefined);
  }
}

/** An error answer as templates see it: its body parsed when it can be, else kept as text. */
function lenientResponseScope(raw: RawResponse, format: BodyFormat, options: BodyOptions): ResponseScope {
  try {
    return toResponseScope(raw, format, 'an error answer', options);
  } catch {
    return toResponseScope(raw, 'text', 'an error answer');
  }
}

function lower(headers: Record<string, string | string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = toText(value);
  return out;
}
