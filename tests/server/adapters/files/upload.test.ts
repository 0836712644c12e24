import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchEngines } from '../../../../src/server/adapters/engines.js';
import { createFileEngines } from '../../../../src/server/adapters/files/fileEngines.js';
import { createAdapterRuntime } from '../../../../src/server/adapters/runtime.js';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from '../../harness.js';

const boundary = '----cartograph-test-boundary';

/** A multipart/form-data body with one file field, as a browser sends it. */
function multipart(fileName: string, content: Buffer | string, field = 'file'): { body: Buffer; headers: Record<string, string> } {
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const devicesCsv = 'Computer Name,IP Address,Serial\nupload-ws-1,10.7.0.1,UPL-1\nupload-ws-2,10.7.0.2,UPL-2\nbroken line,with,too,many\nupload-ws-3,10.7.0.3,UPL-3\n';

describe.each(engines)('uploading the file of a file connection on %s', (engine) => {
  let server: TestServer;
  let dataDir: string;
  let csvConnection: number;

  const createConnection = async (adapter: string, name: string, options: Record<string, unknown>, token = server.adminToken) => {
    const answer = await server.request('POST', '/adapters/connections', {
      token, body: { adapter, name, option_connections: Object.entries(options).map(([option, value]) => ({ name: option, typed_value: value })) },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.id as number;
  };
  const upload = (id: number, fileName: string, content: Buffer | string, token = server.adminToken, field = 'file') => {
    const { body, headers } = multipart(fileName, content, field);
    return server.request('POST', `/adapters/connections/${id}/file`, { token, body, headers });
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cartograph-upload-'));
    const adapters = createAdapterRuntime({ ...fetchEngines, ...createFileEngines({ dataDir, importRoots: [] }) });
    server = await startTestServer(engine, {}, { adapters, dataDir });
    csvConnection = await createConnection('csvfile', 'Asset export', { source: { source_type: 'upload' }, entity: 'device', delimiter: ',', encoding: 'utf-8' });
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores the upload in the data folder, points the connection at it, and a discovery reads it', async () => {
    const read = async () => (await server.request('GET', `/adapters/connections/${csvConnection}`, { token: server.adminToken })).body;
    // New: not fetched yet (status 4), never tested, and a file connection takes uploads.
    expect(await read()).toMatchObject({ status: 4, last_checked_at: null, tested_at: null, test_ok: null, takes_upload: true });
    const before = await server.request('POST', `/adapters/test/${csvConnection}`, { token: server.adminToken });
    expect(before.body).toEqual({ success: false, reason: 'invalid_config', detail: 'No file has been uploaded for this connection yet.' });
    expect(await read()).toMatchObject({ status: 4, last_checked_at: null, test_ok: false, test_detail: 'No file has been uploaded for this connection yet.' });

    const answer = await upload(csvConnection, 'C:\\exports\\assets.csv', devicesCsv);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({ id: csvConnection, file_name: 'assets.csv', size: Buffer.byteLength(devicesCsv), source: { source_type: 'upload', file: expect.stringMatching(/^uploads\/[0-9a-f-]{36}\.csv$/), file_name: 'assets.csv' } });
    expect(readFileSync(join(dataDir, answer.body.source.file), 'utf8')).toBe(devicesCsv);
    const connection = await server.request('GET', `/adapters/connections/${csvConnection}`, { token: server.adminToken });
    expect(connection.body.option_connections).toContainEqual({ name: 'source', typed_value: answer.body.source, is_sensitive: false });
    expect((await server.request('POST', `/adapters/test/${csvConnection}`, { token: server.adminToken })).body).toEqual({ success: true, detail: 'assets.csv can be read.' });
    // A test that passes makes the connection reachable; only a fetch gives it a fetch status.
    expect(await read()).toMatchObject({ status: 4, last_checked_at: null, test_ok: true, test_detail: 'assets.csv can be read.', tested_at: expect.any(String) });

    const started = await server.request('POST', '/discoveries/discoveries', { token: server.adminToken });
    expect(started.status).toBe(202);
    let last: { status: number; progress: { connections: { id: number; state: string; records: number; warnings: string[] }[] } } | null = null;
    for (let attempt = 0; attempt < 300 && (!last || last.status === 1); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = (await server.request('GET', '/discoveries/last', { token: server.adminToken })).body;
    }
    expect(last!.progress.connections.find((item) => item.id === csvConnection)).toMatchObject({
      state: 'warning', records: 3, warnings: [expect.stringMatching(/^Line 4 of assets\.csv was skipped: Invalid Record Length/)],
    });
    const devices = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { fields: ['Hostname', 'SerialNumber'], ordering: [{ field: 'Hostname' }] } });
    expect(devices.body.results.map((row: { Hostname: string[] }) => row.Hostname[0])).toEqual(['upload-ws-1', 'upload-ws-2', 'upload-ws-3']);
    expect(await read()).toMatchObject({ status: 2, last_checked_at: expect.any(String), test_ok: true });
  });

  it('replaces the previous upload and deletes its file', async () => {
    const first = await upload(csvConnection, 'v1.csv', 'hostname\na\n');
    const second = await upload(csvConnection, 'v2.csv', 'hostname\nb\n');
    expect(second.status).toBe(200);
    expect(existsSync(join(dataDir, first.body.source.file))).toBe(false);
    expect(existsSync(join(dataDir, second.body.source.file))).toBe(true);
  });

  it('deletes the uploaded file with its connection', async () => {
    const id = await createConnection('csvfile', 'Short-lived export', { source: { source_type: 'upload' }, entity: 'device', delimiter: ',', encoding: 'utf-8' });
    const uploaded = await upload(id, 'once.csv', 'hostname\nc\n');
    expect(existsSync(join(dataDir, uploaded.body.source.file))).toBe(true);
    expect((await server.request('DELETE', `/adapters/connections/${id}`, { token: server.adminToken })).status).toBe(204);
    expect(existsSync(join(dataDir, uploaded.body.source.file))).toBe(false);
  });

  it('takes files far larger than the API\'s JSON body limit, streamed to disk', async () => {
    const rows = Array.from({ length: 80_000 }, (_, index) => `big-${index},10.8.${index >> 8 & 255}.${index & 255},SER${index}`);
    const content = `hostname,ip,serial\n${rows.join('\n')}\n`;
    expect(Buffer.byteLength(content)).toBeGreaterThan(2 * 1024 * 1024);
    const answer = await upload(csvConnection, 'big.csv', content);
    expect(answer).toMatchObject({ status: 200, body: { size: Buffer.byteLength(content) } });
  });

  it('checks the content, not the name, and leaves no file behind when it refuses one', async () => {
    const before = readdirSync(join(dataDir, 'uploads')).sort();
    const zip = await upload(csvConnection, 'looks-like.csv', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64)]));
    expect(zip).toMatchObject({ status: 400, body: { file: ['The file is not CSV text: its content was checked, whatever its name says.'] } });
    expect(await upload(csvConnection, 'empty.csv', '')).toMatchObject({ status: 400, body: { file: ['The file is empty.'] } });
    expect(await upload(csvConnection, 'devices.csv', 'hostname\nx\n', server.adminToken, 'attachment')).toMatchObject({ status: 400, body: { file: [expect.stringMatching(/field named "file"/)] } });
    expect(readdirSync(join(dataDir, 'uploads')).sort()).toEqual(before);

    const xlsxConnection = await createConnection('xlsxfile', 'Workbook', { source: { source_type: 'upload' }, entity: 'device' });
    expect(await upload(xlsxConnection, 'assets.xlsx', 'Hostname\nx\n')).toMatchObject({ status: 400, body: { file: [expect.stringMatching(/not an XLSX workbook/)] } });
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Assets').addRow(['Hostname']);
    expect((await upload(xlsxConnection, 'assets.xlsx', Buffer.from(await book.xlsx.writeBuffer()))).status).toBe(200);
  });

  it('refuses callers without the permission, connections of another company, and connections that read no file', async () => {
    const viewer = await createUserWithGroups(server, server.adminToken, 'upload.viewer', ['Viewers']);
    expect((await upload(csvConnection, 'x.csv', 'hostname\nx\n', viewer.token)).status).toBe(403);
    const company = await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: 'Upload Other Co' } });
    await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token: server.adminToken, body: { username: 'upload.other', password: userPassword } });
    const other = await server.signIn('upload.other', userPassword);
    expect((await upload(csvConnection, 'x.csv', 'hostname\nx\n', other)).status).toBe(404);
    const sql = await createConnection('sqladapter', 'CMDB database', {
      dialect: 'postgresql', host: '127.0.0.1', database: 'cmdb', auth: { auth_type: 'basic', username: 'u', password: 'p' }, queries: [{ entity: 'device', query: 'SELECT 1' }], tls_mode: 'disable',
    });
    expect(await upload(sql, 'x.csv', 'hostname\nx\n')).toMatchObject({ status: 400, body: { detail: expect.stringMatching(/does not read a file/) } });
    expect((await server.request('POST', `/adapters/connections/${csvConnection}/file`, { token: server.adminToken, body: { file: 'x' } })).status).toBe(415);
  });
});
