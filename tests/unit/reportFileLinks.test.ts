import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadServerKeys } from '../../src/server/auth/serverKeys.js';
import { loggedUrl } from '../../src/server/http/requestLogging.js';
import { deliveryMessage, linkExpiryText } from '../../src/server/reports/deliveryMessage.js';
import { checkFileLink, fileLinkOf, signedFileUrl, type FileLink } from '../../src/server/reports/fileLinks.js';

const key = randomBytes(32);
const expiresAt = new Date('2026-05-08T04:00:00Z');
const link: FileLink = { companyId: 1, runId: 7, format: 'pdf', expiresAt };

/** The link as it comes back: its fields read from the URL the server wrote. */
function presented(url: string) {
  const parsed = new URL(url);
  const [, runId, format] = /\/reports\/runs\/(\d+)\/files\/(\w+)\/signed$/.exec(parsed.pathname)!;
  const query = { company: Number(parsed.searchParams.get('company')), expires: Number(parsed.searchParams.get('expires')) };
  return { link: fileLinkOf(Number(runId), format as FileLink['format'], query), signature: parsed.searchParams.get('signature')! };
}

describe('signed report file links', () => {
  const url = signedFileUrl(key, 'https://cartograph.example.test', link);
  const before = new Date(expiresAt.getTime() - 1000);

  it('name the company, the run, the format and the expiry, and verify until they expire', () => {
    expect(url).toMatch(/^https:\/\/cartograph\.example\.test\/reports\/runs\/7\/files\/pdf\/signed\?company=1&expires=1778212800&signature=[\w-]{43}$/);
    const { link: back, signature } = presented(url);
    expect(back).toEqual(link);
    expect(checkFileLink(key, back, signature, before)).toBe('valid');
    expect(checkFileLink(key, back, signature, expiresAt)).toBe('expired');
    expect(checkFileLink(key, back, signature, new Date(expiresAt.getTime() + 1000))).toBe('expired');
  });

  it('are forged when any field, the signature or the key differs', () => {
    const { signature } = presented(url);
    for (const changed of [{ companyId: 2 }, { runId: 8 }, { format: 'xlsx' as const }, { expiresAt: new Date(expiresAt.getTime() + 86_400_000) }]) {
      expect(checkFileLink(key, { ...link, ...changed }, signature, before), JSON.stringify(changed)).toBe('forged');
    }
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    expect(checkFileLink(key, link, flipped, before)).toBe('forged');
    expect(checkFileLink(key, link, signature.slice(0, 20), before)).toBe('forged');
    expect(checkFileLink(randomBytes(32), link, signature, before)).toBe('forged');
  });

  it('are signed with a key of their own, derived from the master key', () => {
    const keys = loadServerKeys('master', '/nonexistent');
    expect(keys.reportLinksKey.equals(keys.secretsKey)).toBe(false);
    expect(keys.reportLinksKey.equals(Buffer.from(keys.tokenSigningKey))).toBe(false);
    expect(keys.reportLinksKey.equals(loadServerKeys('master', '/nonexistent').reportLinksKey)).toBe(true);
  });

  it('never reach a log line with their signature', () => {
    expect(loggedUrl('/reports/runs/7/files/pdf/signed?company=1&expires=1778212800&signature=abc_DEF-1')).toBe('/reports/runs/7/files/pdf/signed?company=1&expires=1778212800&signature=[redacted]');
    expect(loggedUrl('/reports/runs/7/files/pdf/signed?signature=abc&company=1')).toBe('/reports/runs/7/files/pdf/signed?signature=[redacted]&company=1');
    expect(loggedUrl('/api/me')).toBe('/api/me');
  });
});

describe('the e-mail of a scheduled run', () => {
  const file = (format: 'pdf' | 'csv', content: Uint8Array | null) => ({ format, filename: `Inventory.${format}`, content_type: 'application/octet-stream', size: 2_500_000, content });
  const message = (files: ReturnType<typeof file>[]) => deliveryMessage({
    publicUrl: 'https://cartograph.example.test', reportName: 'Inventory', body: '', limitMb: 1, files,
    linkOf: (format) => `https://cartograph.example.test/signed/${format}`, linkExpiry: linkExpiryText(expiresAt, 'Europe/Berlin'),
  });

  it('links a file over the limit, says until when the link works without signing in, and asks for no token', () => {
    const { text, attachments } = message([file('pdf', null), file('csv', new Uint8Array([65]))]);
    expect(attachments.map((attachment) => attachment.filename)).toEqual(['Inventory.csv']);
    expect(text).toContain('Inventory.pdf (2.4 MB) is over the 1 MB attachment limit; download it here: https://cartograph.example.test/signed/pdf');
    expect(text).toContain('The download link works without signing in until 8 May 2026 at 06:00 CEST.');
    expect(text).toContain('https://cartograph.example.test/#/reports');
    expect(text).not.toMatch(/token/i);
  });

  it('says nothing of links when every file is attached', () => {
    expect(message([file('csv', new Uint8Array([65]))]).text).toBe('The report "Inventory" is attached.');
  });
});
