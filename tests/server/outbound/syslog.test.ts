import { loopbackAllowed } from '../../support/outbound.js';
import { afterEach, describe, expect, it } from 'vitest';
import { formatCef, formatRfc5424, sendSyslog, type SyslogEvent } from '../../../src/server/outbound/syslog.js';
import { issueCertificate } from '../../support/testCertificates.js';
import { startSyslogReceiver, type TestSyslogReceiver } from '../../support/syslogReceiver.js';

const time = new Date('2026-11-25T10:00:00.000Z');
const signIn: SyslogEvent = { severity: 5, eventId: 'user.signin', message: 'admin signed in', time, fields: { user: 'admin', source_ip: '10.0.0.5', result: 'success' } };

describe('syslog formats', () => {
  it('writes RFC 5424 with structured data, escaping what the grammar reserves', () => {
    const line = formatRfc5424({ ...signIn, fields: { note: 'a "quoted" ] \\ value', empty: null } }, 'console-1');
    expect(line).toMatch(/^<133>1 2026-11-25T10:00:00\.000Z console-1 cartograph \d+ user\.signin \[cartograph@32473 note="a \\"quoted\\" \\] \\\\ value"\] admin signed in$/);
  });

  it('writes CEF with escaped header and extension values and an inverted severity', () => {
    const line = formatCef({ severity: 2, eventId: 'action|run', message: 'ssh = done', time, fields: { 'host name': 'a=b\nc' } }, 'console-1');
    expect(line).toBe(`<130>2026-11-25T10:00:00.000Z console-1 CEF:0|Cartograph|Cartograph|0.1|action\\|run|ssh = done|9|rt=${time.getTime()} dvchost=console-1 host_name=a\\=b\\nc`);
  });
});

describe('syslog transports', () => {
  let receiver: TestSyslogReceiver | null = null;
  afterEach(async () => { await receiver?.close(); receiver = null; });

  it('sends one datagram per event over UDP', async () => {
    receiver = await startSyslogReceiver('udp');
    await sendSyslog({ host: '127.0.0.1', port: receiver.port, transport: 'udp', format: 'rfc5424' }, [signIn, { ...signIn, eventId: 'user.signout' }], loopbackAllowed);
    expect((await receiver.waitFor(2)).map((line) => line.split(' ')[5])).toEqual(['user.signin', 'user.signout']);
  });

  it('frames events by octet count over TCP so a line break stays inside its message', async () => {
    receiver = await startSyslogReceiver('tcp');
    await sendSyslog({ host: '127.0.0.1', port: receiver.port, transport: 'tcp', format: 'cef' }, [{ ...signIn, message: 'first\nline' }, signIn], loopbackAllowed);
    const lines = await receiver.waitFor(2);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('CEF:0|Cartograph');
  });

  it('verifies the receiver against the configured CA over TLS', async () => {
    const authority = issueCertificate({ commonName: 'Syslog CA', isCa: true }, null);
    receiver = await startSyslogReceiver('tls', issueCertificate({ commonName: 'localhost', altNames: ['DNS:localhost'] }, authority));
    await sendSyslog({ host: 'localhost', port: receiver.port, transport: 'tls', format: 'rfc5424', ca_certificate: authority.cert }, [signIn], loopbackAllowed);
    expect(await receiver.waitFor(1)).toHaveLength(1);
    await expect(sendSyslog({ host: 'localhost', port: receiver.port, transport: 'tls', format: 'rfc5424' }, [signIn], loopbackAllowed)).rejects.toThrow(/certificate/i);
  });

  it('fails clearly when nothing listens', async () => {
    await expect(sendSyslog({ host: '127.0.0.1', port: 9, transport: 'tcp', format: 'rfc5424' }, [signIn], loopbackAllowed)).rejects.toThrow(/ECONNREFUSED/);
  });
});
