import { describe, expect, it } from 'vitest';
import { maxChangeBytes, savesSettingsDocument, storableValue, type TruncatedValue } from '../../src/server/activities/activityChanges.js';
import { redactSecrets, secretFieldNames } from '../../src/server/activities/secretRedaction.js';
import { encryptSecret } from '../../src/server/auth/secretBox.js';

describe('the values an activity keeps of a change', () => {
  it('knows the secret fields of every schema: x-secret, writeOnly and format password, and the fixed list', () => {
    const names = secretFieldNames();
    for (const name of ['password', 'token', 'otp', 'bind_password', 'client_secret', 'api_key']) expect(names, name).toContain(name);
    expect(names).not.toContain('host');
    expect(names).not.toContain('username');
  });

  it('redacts secrets at any depth and sealed values under any name, and leaves blanks blank', () => {
    const sealed = encryptSecret(Buffer.alloc(32, 7), 'webhook-secret');
    const document = {
      host: 'smtp.example.test', password: 'hunter2', empty: { password: '' },
      parameters: { url: 'https://hooks.example.test', signing_key_of_this_type: sealed, headers: [{ name: 'x', token: 'abc' }] },
    };
    expect(redactSecrets(document)).toEqual({
      host: 'smtp.example.test', password: '[redacted]', empty: { password: '' },
      parameters: { url: 'https://hooks.example.test', signing_key_of_this_type: '[redacted]', headers: [{ name: 'x', token: '[redacted]' }] },
    });
    // A version string is not mistaken for a sealed value.
    expect(redactSecrets({ version: 'v1.2.3' })).toEqual({ version: 'v1.2.3' });
  });

  it('keeps a value over 64 kB as a marker with its size and the start of its redacted JSON', () => {
    expect(storableValue(undefined)).toBeNull();
    expect(storableValue({ name: 'small' })).toEqual({ name: 'small' });
    const large = { password: 'in-the-large-one', rows: Array.from({ length: 5000 }, (_, index) => `row ${index} of a long list`) };
    const kept = storableValue(large) as TruncatedValue;
    expect(kept.$truncated).toBe(true);
    expect(kept.size_bytes).toBeGreaterThan(maxChangeBytes);
    expect(kept.preview.length).toBeLessThan(maxChangeBytes);
    expect(kept.preview).toContain('"password":"[redacted]"');
    expect(JSON.stringify(kept)).not.toContain('in-the-large-one');
  });

  it('recognises the routes that save a settings document of the caller', () => {
    expect(savesSettingsDocument({ method: 'PUT', url: '/configurations/smtp-configuration', body: 'cartograph:settings/smtp-configuration' })).toBe(true);
    expect(savesSettingsDocument({ method: 'PUT', url: '/configurations/ldap-configurations/:id', body: 'cartograph:settings/ldap-configuration' })).toBe(false);
    expect(savesSettingsDocument({ method: 'POST', url: '/configurations/ldap-configurations', body: 'cartograph:settings/ldap-configuration' })).toBe(false);
    expect(savesSettingsDocument({ method: 'PUT', url: '/users/users/:id', body: 'cartograph:entities/user' })).toBe(false);
  });
});
