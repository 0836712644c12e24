// The manifest format's TypeScript shape (schemas/adapters/manifest.meta.json is the authority) and its loading.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validatorsById } from '../../../generated/validators.js';
import type { EntityKind } from '../engine.js';

export const manifestSchemaId = 'cartograph:adapters/manifest-meta';

export type TemplateMap = Record<string, string | number | boolean | (string | number)[]>;

export type RequestSpec = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: TemplateMap;
  query?: TemplateMap;
  body?: unknown;
  /** `xml`: the body is one template text (a SOAP envelope), sent as text/xml; values in it go through `| xml`. */
  body_format?: 'json' | 'form' | 'xml';
  basic?: { username: string; password: string };
  response_format?: 'json' | 'text' | 'xml';
  xml_lists?: string[];
  /** Read XML element names without their namespace prefix (`s:Envelope` → `Envelope`): servers choose prefixes freely (WS-Management). */
  xml_strip_prefixes?: boolean;
  /** Text before the JSON body that is not JSON (Trellix ePO's `OK:` line), removed before parsing. */
  json_prefix?: string;
  success_statuses?: number[];
  empty_statuses?: number[];
  error_when?: { condition: string; message: string }[];
  /** OAuth2 scope of the token this request carries, when it differs from the authenticator's (Azure: ARM and Graph). */
  token_scope?: string;
  /** AWS SigV4 scope of this request (aws_sigv4 authenticator). */
  signing?: { region?: string; service?: string };
};

/** AWS Signature Version 4, optionally after sts:AssumeRole (see awsCredentials.ts). */
export type AwsSigV4Spec = {
  type: 'aws_sigv4';
  access_key_id: string;
  secret_access_key: string;
  session_token?: string;
  region?: string;
  service: string;
  assume_role?: { role_arn: string; external_id?: string; url?: string; region?: string };
};

export type AuthenticatorSpec = { when?: string } & (
  | { type: 'none' }
  | { type: 'bearer'; token: string }
  | { type: 'basic'; username: string; password: string }
  | { type: 'header'; headers: TemplateMap; query?: TemplateMap }
  | {
      type: 'oauth2_client_credentials';
      token_url: string;
      client_id: string;
      client_secret: string;
      scope?: string;
      grant_type?: string | null;
      client_auth?: 'body' | 'basic';
      extra?: TemplateMap;
      success_statuses?: number[];
      token?: string;
      expires_in?: string;
      headers?: TemplateMap;
    }
  | { type: 'session'; login: RequestSpec; exchange?: RequestSpec | RequestSpec[]; token: string; expires_in?: string; headers?: TemplateMap; values?: TemplateMap; logout?: RequestSpec }
  | AwsSigV4Spec
  /** Absolute Secure Endpoint: every request described in a JWS signed with the API token (absoluteJws.ts). */
  | { type: 'absolute_jws'; token_id: string; secret_key: string }
  | { type: 'duo_hmac'; integration_key: string; secret_key: string; algorithm?: 'sha512' | 'sha1' }
  | { type: 'chef_signature'; client_name: string; private_key: string; server_api_version?: string }
  /** Zscaler ZIA: POST <base URL>/authenticatedSession with the obfuscated API key, then its JSESSIONID cookie (zscalerApiKey.ts). */
  | { type: 'zscaler_api_key'; username: string; password: string; api_key: string }
  /** Oracle Cloud Infrastructure: every request signed with the user's API key (ociSignature.ts). */
  | { type: 'oci_signature'; tenancy_ocid: string; user_ocid: string; fingerprint: string; private_key: string }
  /** Alibaba Cloud RPC APIs: every request's query signed with HMAC-SHA1 (alibabaSignature.ts). */
  | { type: 'alibaba_rpc_signature'; access_key_id: string; access_key_secret: string }
  /** Windows integrated sign-in, NTLMv2 over one kept-alive connection (ntlmHandshake.ts). */
  | { type: 'ntlm'; username: string; password: string; domain?: string; workstation?: string }
  | {
      type: 'oauth2_jwt_bearer';
      token_url: string;
      issuer: string;
      private_key: string;
      subject?: string;
      scope?: string;
      audience?: string;
      key_id?: string;
      success_statuses?: number[];
      token?: string;
      expires_in?: string;
      headers?: TemplateMap;
    }
);

/** Every kind of authenticator the engine knows (tests iterate it: a new kind is covered by the credential tests). */
export const authenticatorTypes = ['none', 'bearer', 'basic', 'header', 'oauth2_client_credentials', 'session', 'aws_sigv4', 'absolute_jws', 'duo_hmac', 'chef_signature', 'oauth2_jwt_bearer', 'zscaler_api_key', 'oci_signature', 'alibaba_rpc_signature', 'ntlm'] as const;
// A kind added to AuthenticatorSpec but not to the list above fails to compile here.
const everyAuthenticatorListed: Record<AuthenticatorSpec['type'], true> = Object.fromEntries(authenticatorTypes.map((type) => [type, true])) as Record<(typeof authenticatorTypes)[number], true>;
void everyAuthenticatorListed;

/** What to do when the vendor says a cursor expired: start the chain again, skipping records already handed over. */
export type RestartSpec = { when: string; key: string; checkpoint?: string; max_restarts?: number };

export type PaginatorSpec = { max_pages?: number } & (
  | { type: 'none' }
  | { type: 'page'; start_page?: number; page_size: number; total_pages?: string; total?: string }
  | { type: 'offset'; start_offset?: number; limit: number; total?: string }
  | { type: 'cursor'; cursor: string; stop_when?: string; page_size?: number; restart?: RestartSpec }
  | { type: 'next_url'; next_url: string; page_size?: number; restart?: RestartSpec }
  | { type: 'link'; page_size?: number }
);

export type RetrieverSpec = { request: RequestSpec; paginator?: PaginatorSpec; records: string };

/** An asynchronous export job: started once, polled until done, its chunks downloaded by the stream's request. */
export type ExportSpec = {
  start: { request: RequestSpec; job_id: string };
  poll: { request: RequestSpec; done: string; failed?: string; status?: string; chunks?: string; interval_seconds?: number; max_interval_seconds?: number; max_wait_seconds?: number };
};
export type ChildrenSpec = RetrieverSpec & { batch_size?: number; children?: ChildrenSpec };
/** Reference records fetched for the keys a stream's records name, joined into the mapping as `lookup.<name>[key]`. */
export type LookupSpec = RetrieverSpec & { name: string; keys: string; key: string; batch_size?: number; keep?: string[] };

export type StreamSpec = RetrieverSpec & {
  name: string;
  entity: EntityKind;
  when?: string;
  for_each?: string;
  export?: ExportSpec;
  children?: ChildrenSpec;
  expand?: string;
  lookups?: LookupSpec[];
  /** What is kept as the raw vendor record (default the record, or the entry with expand). */
  raw?: string | Record<string, unknown>;
  mapping: Record<string, string | string[]>;
};

export type Manifest = {
  version: 1;
  base_url?: string;
  headers?: TemplateMap;
  auth?: AuthenticatorSpec | AuthenticatorSpec[];
  retry?: { max_attempts?: number; statuses?: number[]; base_delay_ms?: number; max_delay_seconds?: number; reset_header?: string };
  max_response_bytes?: number;
  max_record_bytes?: number;
  check: { request: RequestSpec; detail?: string };
  streams: StreamSpec[];
};

const adaptersFolder = fileURLToPath(new URL('../../../../schemas/adapters', import.meta.url));

/** Validation errors of a manifest as readable lines (empty when valid). */
export function manifestErrors(candidate: unknown): string[] {
  const validate = validatorsById[manifestSchemaId];
  if (!validate) throw new Error(`No precompiled validator for ${manifestSchemaId}: run npm run codegen`);
  if (validate(candidate)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}

/** Reads and validates schemas/adapters/<slug>/manifest.json; an invalid manifest is a programming error. */
export function loadManifest(slug: string, folder = adaptersFolder): Manifest | null {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug)) throw new Error(`Invalid adapter slug ${slug}`);
  const file = `${folder}/${slug}/manifest.json`;
  if (!existsSync(file)) return null;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const errors = manifestErrors(manifest);
  if (errors.length) throw new Error(`Invalid manifest for ${slug}: ${errors.slice(0, 5).join('; ')}`);
  return manifest as Manifest;
}
