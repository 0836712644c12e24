import { describe, expect, it } from 'vitest';
import { keepUnchangedSecrets, maskedSecret } from '../../src/server/auth/secretFields.js';
import { destinationKey, isDestinationField, secretRuleOf } from '../../src/server/auth/secretRule.js';
import { refusalAnswer } from '../../src/server/http/errors.js';

const schema = {
  type: 'object',
  properties: {
    base_url: { type: 'string', format: 'uri' },
    port: { type: 'integer', default: 443 },
    page_size: { type: 'integer' },
    auth: { type: 'object', properties: { username: { type: 'string' }, password: { type: 'string', title: 'Password', 'x-secret': true }, api_key: { type: 'string', title: 'API key', 'x-secret': true } } },
  },
};
const rule = secretRuleOf(schema);
const stored = { base_url: 'https://inventory.example.com/api', port: 443, page_size: 100, auth: { username: 'svc', password: 'p1' } };

function refusal(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    const answer = refusalAnswer(error);
    if (answer) return answer;
    throw error;
  }
  return null;
}

describe('where a destination field is', () => {
  it('finds URLs, hosts, ports, tenants, regions, proxies by name or format, and what x-destination marks', () => {
    for (const name of ['base_url', 'host', 'hostname', 'port', 'domain', 'subdomain', 'tenant_id', 'region', 'proxy', 'file_url', 'server', 'sql_server', 'api_hostname', 'issuer']) {
      expect(isDestinationField(name, {}), name).toBe(true);
    }
    for (const name of ['username', 'page_size', 'client_id', 'query', 'timeout_seconds']) expect(isDestinationField(name, {}), name).toBe(false);
    expect(isDestinationField('portal', { format: 'uri' })).toBe(true);
    expect(isDestinationField('company', { 'x-destination': true })).toBe(true);
    expect([...rule.destinationFields]).toEqual([['base_url', undefined], ['port', 443]]);
    expect(rule.secretTitles.get('api_key')).toBe('API key');
  });

  it('compares URLs by scheme, host and port: case, default port, trailing slash and path do not move them', () => {
    expect(destinationKey('HTTPS://Acme.Okta.com:443/api/')).toBe('https://acme.okta.com:443');
    expect(destinationKey('https://acme.okta.com')).toBe(destinationKey('https://ACME.okta.com./other/path?x=1'));
    expect(destinationKey('ldaps://dc1.corp:636')).toBe(destinationKey('ldaps://DC1.corp'));
    expect(destinationKey('https://acme.okta.com')).not.toBe(destinationKey('http://acme.okta.com'));
    expect(destinationKey('https://acme.okta.com')).not.toBe(destinationKey('https://acme.okta.com:8443'));
    expect(destinationKey('https://acme.okta.com')).not.toBe(destinationKey('https://acme.okta.com.evil.test'));
    expect(destinationKey('Mail.Example.com.')).toBe('mail.example.com');
    expect(destinationKey(['b.example', 'a.example'])).toBe(destinationKey(['A.example', 'b.example']));
  });
});

describe('keepUnchangedSecrets and the destination', () => {
  it('keeps a masked secret while the destination stays, and refuses it on a new one', () => {
    const kept = keepUnchangedSecrets({ ...stored, base_url: 'https://Inventory.example.com/', page_size: 50, auth: { username: 'svc2', password: maskedSecret } }, stored, rule);
    expect(kept.auth).toEqual({ username: 'svc2', password: 'p1' });
    const moved = refusal(() => keepUnchangedSecrets({ ...stored, base_url: 'https://evil.example.test', auth: { username: 'svc', password: maskedSecret } }, stored, rule));
    expect(moved).toEqual({ status: 400, body: { 'auth.password': ['Re-enter the password to send it to a new address.'] } });
    // A port left out means its default: the same place as the stored 443; another port is another place.
    const { port: _port, ...withoutPort } = stored;
    expect(keepUnchangedSecrets({ ...withoutPort, auth: { username: 'svc', password: maskedSecret } }, stored, rule).auth).toEqual({ username: 'svc', password: 'p1' });
    expect(refusal(() => keepUnchangedSecrets({ ...stored, port: 8443, auth: { username: 'svc', password: maskedSecret } }, stored, rule))).not.toBeNull();
  });

  it('accepts a new destination with the secret typed again, and a masked secret with nothing stored', () => {
    expect(keepUnchangedSecrets({ ...stored, base_url: 'https://new.example.com', auth: { username: 'svc', password: 'typed' } }, stored, rule).auth).toEqual({ username: 'svc', password: 'typed' });
    // Nothing stored for the API key: the mask is no secret, it becomes empty as before.
    expect(keepUnchangedSecrets({ ...stored, base_url: 'https://new.example.com', auth: { api_key: maskedSecret } }, stored, rule).auth).toEqual({ api_key: '' });
    expect(keepUnchangedSecrets({ base_url: 'https://x.example', auth: { password: maskedSecret } }, null, rule).auth).toEqual({ password: '' });
  });

  it('refuses every masked secret when another connector would run the settings', () => {
    const moved = refusal(() => keepUnchangedSecrets({ ...stored, auth: { username: 'svc', password: maskedSecret } }, stored, rule, { movedElsewhere: true }));
    expect(moved).toEqual({ status: 400, body: { 'auth.password': ['Re-enter the password to send it to a new address.'] } });
  });

  it('treats a secret that is its own address as the stored one while masked', () => {
    const chat = secretRuleOf({ properties: { webhook_url: { type: 'string', format: 'uri', 'x-secret': true, title: 'Webhook URL' }, heading: { type: 'string' } } });
    const storedChat = { webhook_url: 'https://hooks.slack.com/services/T0/B0/x', heading: 'a' };
    expect(keepUnchangedSecrets({ webhook_url: maskedSecret, heading: 'b' }, storedChat, chat)).toEqual({ ...storedChat, heading: 'b' });
  });

  it('counts every field that is not a secret when a hand-built rule names no destination', () => {
    const bare = { secretFields: new Set(['password']) };
    expect(refusal(() => keepUnchangedSecrets({ host: 'a', note: 'changed', password: maskedSecret }, { host: 'a', note: 'x', password: 'p' }, bare))).toEqual({
      status: 400, body: { password: ['Re-enter the password to send it to a new address.'] },
    });
    expect(keepUnchangedSecrets({ host: 'a', password: maskedSecret }, { host: 'a', password: 'p' }, bare)).toEqual({ host: 'a', password: 'p' });
  });
});
