import { writeFileSync } from 'node:fs';
import { loopbackAllowed } from '../../../support/outbound.js';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { issueCertificate } from '../../../support/testCertificates.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileEngines } from '../../../../src/server/adapters/files/fileEngines.js';
import { fetchAll, pathSource, scratchFolder } from './helpers.js';

const folder = scratchFolder();
const engines = createFileEngines({ dataDir: folder.path, importRoots: [folder.path] });
afterAll(() => folder.remove());

describe('the CSV engine', () => {
  it('maps common headers to Cartograph fields, splits list cells, drops junk values and keeps the row raw', async () => {
    writeFileSync(folder.file('devices.csv'), '\uFEFFComputer Name,IP Address,Serial,MAC,Operating System,Owner\nWS-0042,"10.1.2.3; 10.1.2.4",C02XK1,00:1a:2b:3c:4d:5e,Windows,jdoe\nWS-0043,10.1.2.5,N/A,,Linux,\n');
    const { records, warnings } = await fetchAll(engines.csv, { source: pathSource(folder.file('devices.csv')), entity: 'device', delimiter: ',', encoding: 'utf-8' });
    expect(warnings).toEqual([]);
    expect(records).toEqual([
      {
        entity: 'device',
        fields: { Hostname: 'WS-0042', IpAddresses: ['10.1.2.3', '10.1.2.4'], SerialNumber: 'C02XK1', MacAddresses: ['00:1a:2b:3c:4d:5e'], 'OS.Type': 'Windows', LastUsedUsers: ['jdoe'] },
        raw: { 'Computer Name': 'WS-0042', 'IP Address': '10.1.2.3; 10.1.2.4', Serial: 'C02XK1', MAC: '00:1a:2b:3c:4d:5e', 'Operating System': 'Windows', Owner: 'jdoe' },
      },
      expect.objectContaining({ fields: { Hostname: 'WS-0043', IpAddresses: ['10.1.2.5'], 'OS.Type': 'Linux' } }),
    ]);
  });

  it('follows the connection\'s own column mapping before the defaults, for users too', async () => {
    writeFileSync(folder.file('people.csv'), 'Login;Mail;Name;Badge\njdoe;jane.doe@example.com;Jane Doe;100423\n');
    const { records } = await fetchAll(engines.csv, {
      source: pathSource(folder.file('people.csv')), entity: 'user', delimiter: ';', encoding: 'utf-8', column_map: { badge: 'EmployeeId', Name: 'DisplayName' },
    });
    expect(records.map((record) => [record.entity, record.fields])).toEqual([['user', { Username: 'jdoe', Email: 'jane.doe@example.com', DisplayName: 'Jane Doe', EmployeeId: '100423' }]]);
  });

  it('reads an account\'s Enabled column (Get-ADUser writes True or False) as a yes or no', async () => {
    writeFileSync(folder.file('accounts.csv'), 'sAMAccountName,Enabled\njdoe,True\nleaver,False\nodd,maybe\n');
    const { records } = await fetchAll(engines.csv, { source: pathSource(folder.file('accounts.csv')), entity: 'user', delimiter: ',', encoding: 'utf-8', column_map: { Enabled: 'Enabled' } });
    expect(records.map((record) => record.fields.Enabled)).toEqual([true, false, 'maybe']);
  });

  it('skips a malformed line with a warning naming it, counts all skipped lines, and keeps every good row', async () => {
    const lines = ['hostname,ip', 'good-1,10.0.0.1', 'bad,10.0.0.2,extra', 'good-2,10.0.0.3', 'lonely', 'good-3,10.0.0.4'];
    writeFileSync(folder.file('broken.csv'), `${lines.join('\n')}\n`);
    const { records, warnings } = await fetchAll(engines.csv, { source: pathSource(folder.file('broken.csv')), entity: 'device', delimiter: ',', encoding: 'utf-8' });
    expect(records.map((record) => record.fields.Hostname)).toEqual(['good-1', 'good-2', 'good-3']);
    expect(warnings).toEqual([
      expect.stringMatching(/^Line 3 of .*broken\.csv was skipped: Invalid Record Length/),
      expect.stringMatching(/^Line 5 of .*broken\.csv was skipped/),
      '2 malformed lines skipped in total.',
    ]);
  });

  it('names only the first twenty malformed lines but counts every one', async () => {
    const rows = Array.from({ length: 50 }, (_, index) => (index % 2 ? `host-${index},10.0.0.${index}` : `broken-${index}`));
    writeFileSync(folder.file('many-broken.csv'), `hostname,ip\n${rows.join('\n')}\n`);
    const { records, warnings } = await fetchAll(engines.csv, { source: pathSource(folder.file('many-broken.csv')), entity: 'device', delimiter: ',', encoding: 'utf-8' });
    expect(records).toHaveLength(25);
    expect(warnings).toHaveLength(21);
    expect(warnings.at(-1)).toBe('25 malformed lines skipped in total (the first 20 are listed).');
  });

  it('reports an unterminated quote instead of losing the rest of the file silently', async () => {
    writeFileSync(folder.file('quote.csv'), 'hostname,ip\nok-1,10.0.0.1\n"never closed,10.0.0.2\nok-2,10.0.0.3\n');
    const { records, warnings } = await fetchAll(engines.csv, { source: pathSource(folder.file('quote.csv')), entity: 'device', delimiter: ',', encoding: 'utf-8' });
    expect(records.map((record) => record.fields.Hostname)).toEqual(['ok-1']);
    expect(warnings).toEqual([expect.stringMatching(/^Line \d+ of .*quote\.csv was skipped: Quote Not Closed/)]);
  });

  it('decodes windows-1252 and reads files without a header as column_1, column_2…', async () => {
    writeFileSync(folder.file('latin.csv'), Buffer.from('Jos\xe9-PC|10.9.9.9\n', 'latin1'));
    const { records } = await fetchAll(engines.csv, {
      source: pathSource(folder.file('latin.csv')), entity: 'device', delimiter: '|', encoding: 'windows-1252', has_header: false, column_map: { column_1: 'Hostname', column_2: 'IpAddresses' },
    });
    expect(records.map((record) => record.fields)).toEqual([{ Hostname: 'José-PC', IpAddresses: ['10.9.9.9'] }]);
  });

  it('checks the content, not the name: a ZIP archive called .csv is refused', async () => {
    writeFileSync(folder.file('workbook.csv'), Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 1)]));
    await expect(fetchAll(engines.csv, { source: pathSource(folder.file('workbook.csv')), entity: 'device', delimiter: ',', encoding: 'utf-8' })).rejects.toThrow(
      'The file is a ZIP archive (an Excel .xlsx workbook?), not CSV text.',
    );
  });

  it('warns when a file has a header but no data rows', async () => {
    writeFileSync(folder.file('header-only.csv'), 'hostname,ip\n');
    const { records, warnings } = await fetchAll(engines.csv, { source: pathSource(folder.file('header-only.csv')), entity: 'device', delimiter: ',', encoding: 'utf-8' });
    expect(records).toEqual([]);
    expect(warnings).toEqual([`${folder.file('header-only.csv')} has no data rows.`]);
  });

  it('reads a file sent inline as a data: URL', async () => {
    const file = `data:text/csv;base64,${Buffer.from('email,username\nbob@example.com,bob\n').toString('base64')}`;
    const { records } = await fetchAll(engines.csv, { source: { source_type: 'upload', file, file_name: 'people.csv' }, entity: 'user', delimiter: ',', encoding: 'utf-8' });
    expect(records[0].fields).toEqual({ Email: 'bob@example.com', Username: 'bob' });
  });

  it('refuses server paths outside the import folders, and all of them when none is configured', async () => {
    const config = { source: pathSource('/etc/passwd'), entity: 'device', delimiter: ':', encoding: 'utf-8' };
    await expect(fetchAll(engines.csv, config)).rejects.toThrow(/outside the folders this server may import from/);
    const closed = createFileEngines({ dataDir: folder.path, importRoots: [] });
    expect(await closed.csv.test({ adapter: 'csvfile', config: { ...config, source: pathSource(folder.file('devices.csv')) }, signal: AbortSignal.timeout(5000), outbound: loopbackAllowed })).toEqual({
      ok: false, reason: 'invalid_config', detail: 'Reading files from the server is turned off: the administrator lists the allowed folders in CARTOGRAPH_IMPORT_DIRS.',
    });
    await expect(fetchAll(engines.csv, { ...config, source: pathSource(`${folder.path}/../${folder.path.split('/').at(-1)}-other/x.csv`) })).rejects.toThrow(/outside/);
  });

  it('says so when no file was uploaded yet, or the reference was not made by an upload', async () => {
    const check = (source: object) => engines.csv.test({ adapter: 'csvfile', config: { source, entity: 'device' }, signal: AbortSignal.timeout(5000), outbound: loopbackAllowed });
    expect(await check({ source_type: 'upload' })).toMatchObject({ ok: false, detail: 'No file has been uploaded for this connection yet.' });
    expect(await check({ source_type: 'upload', file: 'uploads/../secret.key' })).toMatchObject({ ok: false, detail: expect.stringMatching(/not one Cartograph made/) });
  });

  describe('from a URL', () => {
    let server: Server;
    let base = '';
    beforeAll(async () => {
      server = createServer((request, response) => {
        if (request.headers.authorization !== 'Bearer export-token') {
          response.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end('{"error":"unauthorized"}');
          return;
        }
        response.writeHead(200, { 'content-type': 'text/csv' });
        response.end('hostname,serial\nweb-01,SRV123\n');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('downloads the file with the configured authorization, and reports a 401 as unauthorized', async () => {
      const source = { source_type: 'url', file_url: `${base}/export.csv`, authorization_header: 'Bearer export-token' };
      const { records } = await fetchAll(engines.csv, { source, entity: 'device', delimiter: ',', encoding: 'utf-8' });
      expect(records.map((record) => record.fields)).toEqual([{ Hostname: 'web-01', SerialNumber: 'SRV123' }]);
      const refused = await engines.csv.test({ adapter: 'csvfile', config: { source: { ...source, authorization_header: 'Bearer wrong' }, entity: 'device' }, signal: AbortSignal.timeout(5000), outbound: loopbackAllowed });
      expect(refused).toMatchObject({ ok: false, reason: 'unauthorized' });
    });

    it('downloads over HTTPS from a private CA only when that CA is configured (or verification is off)', async () => {
      const authority = issueCertificate({ commonName: 'Exports Root CA', isCa: true }, null);
      const leaf = issueCertificate({ commonName: 'localhost', altNames: ['DNS:localhost', 'IP:127.0.0.1'] }, authority);
      const secure = createHttpsServer({ key: leaf.key, cert: leaf.cert }, (_request, response) => response.writeHead(200).end('hostname\nsecure-01\n'));
      secure.on('tlsClientError', () => undefined);
      await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
      try {
        const source = { source_type: 'url', file_url: `https://127.0.0.1:${(secure.address() as { port: number }).port}/export.csv` };
        const config = { source, entity: 'device', delimiter: ',', encoding: 'utf-8' };
        expect(await engines.csv.test({ adapter: 'csvfile', config, signal: AbortSignal.timeout(5000), outbound: loopbackAllowed })).toMatchObject({ ok: false, reason: 'tls' });
        const trusted = await fetchAll(engines.csv, { ...config, custom_ca: authority.cert });
        expect(trusted.records.map((record) => record.fields)).toEqual([{ Hostname: 'secure-01' }]);
        expect(await engines.csv.test({ adapter: 'csvfile', config: { ...config, verify_ssl: false }, signal: AbortSignal.timeout(5000), outbound: loopbackAllowed })).toMatchObject({ ok: true });
      } finally {
        await new Promise<void>((resolve) => secure.close(() => resolve()));
      }
    });
  });
});
