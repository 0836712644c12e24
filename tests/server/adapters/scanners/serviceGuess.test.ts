import { describe, expect, it } from 'vitest';
import { guessService, printableBanner } from '../../../../src/server/adapters/scanners/serviceGuess.js';

const banner = (text: string) => Buffer.from(text, 'latin1');

describe('service guesses', () => {
  it('prefers what the banner says over the port number', () => {
    expect(guessService(2222, banner('SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n'))).toEqual({ name: 'ssh', product: 'OpenSSH', version: '9.6p1', source: 'banner' });
    expect(guessService(80, banner('SSH-2.0-dropbear_2022.83\r\n'))).toMatchObject({ name: 'ssh', product: 'dropbear', version: '2022.83' });
  });

  it('tells FTP from SMTP greetings that both start with 220', () => {
    expect(guessService(21, banner('220 (vsFTPd 3.0.5)\r\n'))).toEqual({ name: 'ftp', product: 'vsFTPd', version: '3.0.5', source: 'banner' });
    expect(guessService(25, banner('220 mx.example.com ESMTP Exim 4.96 Mon, 01 Jan 2024\r\n'))).toMatchObject({ name: 'smtp', product: 'Exim', version: '4.96' });
    expect(guessService(587, banner('220 smtp.example.com ESMTP ready\r\n'))).toMatchObject({ name: 'submission' });
  });

  it('reads MariaDB behind its MySQL handshake', () => {
    const version = Buffer.from('5.5.5-10.11.6-MariaDB-0+deb12u1\0', 'latin1');
    const body = Buffer.concat([Buffer.from([0x0a]), version, Buffer.alloc(8)]);
    const packet = Buffer.concat([Buffer.from([body.length, 0, 0, 0]), body]);
    expect(guessService(3306, packet)).toEqual({ name: 'mysql', product: 'MariaDB', version: '10.11.6', source: 'banner' });
  });

  it('recognises mail retrieval, VNC and a TLS record sent first', () => {
    expect(guessService(143, banner('* OK [CAPABILITY IMAP4rev1 STARTTLS] Dovecot ready.\r\n')).name).toBe('imap');
    expect(guessService(110, banner('+OK Dovecot ready.\r\n')).name).toBe('pop3');
    expect(guessService(5901, banner('RFB 003.008\n'))).toMatchObject({ name: 'vnc', version: '003.008' });
    expect(guessService(4433, Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46])).name).toBe('tls');
  });

  it('falls back to the registered use of silent ports and says so', () => {
    expect(guessService(3389, Buffer.alloc(0))).toEqual({ name: 'rdp', product: null, version: null, source: 'port' });
    for (const [port, name] of [[445, 'smb'], [5432, 'postgresql'], [6379, 'redis'], [443, 'https'], [80, 'http']] as const) expect(guessService(port, Buffer.alloc(0)).name).toBe(name);
    expect(guessService(40000, Buffer.alloc(0))).toEqual({ name: 'unknown', product: null, version: null, source: 'none' });
  });

  it('keeps banners printable and short', () => {
    expect(printableBanner(Buffer.from([0x00, 0x41, 0x0d, 0x0a, 0x42, 0xff]))).toBe('A B');
    expect(printableBanner(Buffer.alloc(0))).toBeNull();
    expect(printableBanner(Buffer.alloc(500, 0x61))).toHaveLength(200);
  });
});
