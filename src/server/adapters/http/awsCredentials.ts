// The credentials an aws_sigv4 authenticator signs with: the connection's access key, or the temporary credentials
// of a role it assumes first with sts:AssumeRole (an organisation member account's read-only role).
import type { AwsCredentials } from './awsSignature.js';
import type { AwsSigV4Spec, RequestSpec } from './manifest.js';
import type { ResponseScope } from './response.js';
import { render, toText, type Scope } from './template.js';

/** Assumed-role credentials are renewed this long before AWS says they expire. */
const renewalMarginMs = 5 * 60_000;
const roleSessionSeconds = 3600;

export type TemporaryCredentials = { credentials: AwsCredentials; expiresAt: number };

/** The connection's own access key. */
export function accessKeyOf(spec: AwsSigV4Spec, scope: Scope): AwsCredentials {
  const sessionToken = spec.session_token ? toText(render(spec.session_token, scope)) : '';
  return { accessKeyId: toText(render(spec.access_key_id, scope)).trim(), secretAccessKey: toText(render(spec.secret_access_key, scope)), ...(sessionToken && { sessionToken }) };
}

/** The sts:AssumeRole request of the Query API, or null when no role is configured. */
export function assumeRoleRequest(spec: AwsSigV4Spec, scope: Scope): RequestSpec | null {
  const role = spec.assume_role;
  if (!role || !toText(render(role.role_arn, scope)).trim()) return null;
  return {
    url: role.url ?? 'https://sts.amazonaws.com/',
    query: { Action: 'AssumeRole', Version: '2011-06-15', RoleArn: role.role_arn, RoleSessionName: 'cartograph', DurationSeconds: roleSessionSeconds, ...(role.external_id && { ExternalId: role.external_id }) },
    response_format: 'xml',
    signing: { region: role.region ?? 'us-east-1', service: 'sts' },
  };
}

/** The temporary credentials of an AssumeRole answer (`AssumeRoleResponse/AssumeRoleResult/Credentials`). */
export function temporaryCredentialsOf(response: ResponseScope, now = Date.now()): TemporaryCredentials {
  const body = response.body as { AssumeRoleResponse?: { AssumeRoleResult?: { Credentials?: Record<string, unknown> } } } | null;
  const granted = body?.AssumeRoleResponse?.AssumeRoleResult?.Credentials;
  const accessKeyId = toText(granted?.AccessKeyId);
  const secretAccessKey = toText(granted?.SecretAccessKey);
  if (!accessKeyId || !secretAccessKey) throw new Error('the sts:AssumeRole answer holds no credentials');
  const expiration = Date.parse(toText(granted?.Expiration));
  const expiresAt = Number.isFinite(expiration) ? expiration : now + roleSessionSeconds * 1000;
  return { credentials: { accessKeyId, secretAccessKey, sessionToken: toText(granted?.SessionToken) || undefined }, expiresAt: Math.max(expiresAt - renewalMarginMs, now + (expiresAt - now) / 2) };
}
