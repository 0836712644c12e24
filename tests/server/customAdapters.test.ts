import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorClient } from '../../src/connector/connectorClient.js';
import { runJob } from '../../src/connector/runJob.js';
import { fetchEngines } from '../../src/server/adapters/engines.js';
import { createFileEngines } from '../../src/server/adapters/files/fileEngines.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';

const boundary = '----cartograph-custom-adapter';

/** A multipart/form-data body with one file field, as a browser sends it. */
function multipart(fileName: string, content: Buffer | string): { body: Buffer; headers: Record<string, string> } {
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const sampleCsv = [
  'Asset Name,Serial,IP,MAC,Cores,Price,Managed,Purchased,Room,Tag',
  'fac-ws-1,FAC-0001,10.40.0.1,00-1A-2B-3C-4D-01,4,1299.90,yes,2024-03-01,B-12,007',
  'fac-ws-2,FAC-0002,10.40.0.2; 10.40.1.2,00:1a:2b:3c:4d:02,8,899,no,24.11.2025,C-01,',
  'fac-ws-3,FAC-0003,,00:1A:2B:3C:4D:03,16,1500.5,true,2023-12-31T08:30:00Z,-,042',
].join('\n');

const dataCsv = [
  'Asset Name,Serial,IP,MAC,Cores,Price,Managed,Purchased,Room,Tag',
  'fac-srv-1,FAC-1001,10.41.0.1,00:1a:2b:3c:5d:01,32,9000,yes,2022-05-05,DC-1,101',
  'fac-srv-2,FAC-1002,10.41.0.2,00:1a:2b:3c:5d:02,64,12000,no,2022-06-06,DC-2,102',
].join('\n');

const definition = {
  name: 'Facilities register', description: 'Asset register of the facilities team', entity: 'device',
  fields: [
    { column: 'Asset Name', type: 'string', field: 'Hostname', identifier: true },
    { column: 'Serial', type: 'string', field: 'SerialNumber', identifier: true },
    { column: 'IP', type: 'ip', field: 'IpAddresses' },
    { column: 'MAC', type: 'mac', field: 'MacAddresses' },
    { column: 'Cores', type: 'integer', field: null },
    { column: 'Price', type: 'number', field: null },
    { column: 'Managed', type: 'boolean', field: null },
    { column: 'Purchased', type: 'date', field: 'FirstSeen' },
    { column: 'Room', type: 'string', field: null },
    { column: 'Tag', type: 'string', field: null },
  ],
};

describe.each(engines)('custom adapters on %s', (engine) => {
  let server: TestServer;
  let dataDir: string;
  let otherAdmin: string;

  const sample = (fileName: string, content: Buffer | string, token = server.adminToken, entity = 'device') => {
    const { body, headers } = multipart(fileName, content);
    return server.request('POST', `/customs/adapters/fields?entity=${entity}`, { token, body, headers });
  };
  const uploadData = (id: number, fileName: string, content: Buffer | string, token = server.adminToken) => {
    const { body, headers } = multipart(fileName, content);
    return server.request('POST', `/customs/adapters/${id}/data`, { token, body, headers });
  };
  const uploadedFiles = () => (existsSync(join(dataDir, 'uploads')) ? readdirSync(join(dataDir, 'uploads')) : []);
  const groupWith = async (name: string, codenames: string[]) => {
    const permissions = await server.request('GET', '/users/permissions?size=1000', { token: server.adminToken });
    const ids = permissions.body.results.filter((permission: { app: string; codename: string }) => codenames.includes(`${permission.app}.${permission.codename}`)).map((permission: { id: number }) => permission.id);
    expect(ids).toHaveLength(codenames.length);
    await server.request('POST', '/users/groups', { token: server.adminToken, body: { name, permissions: ids, adapters: ['*'] } });
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cartograph-custom-'));
    const adapters = createAdapterRuntime({ ...fetchEngines, ...createFileEngines({ dataDir, importRoots: [] }) });
    server = await startTestServer(engine, {}, { adapters, dataDir });
    const company = await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: 'Neighbour company' } });
    await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token: server.adminToken, body: { username: 'neighbour.admin', password: userPassword } });
    otherAdmin = await server.signIn('neighbour.admin', userPassword);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads a CSV sample: column types inferred from its rows, fields suggested from its header, the first rows', async () => {
    const answer = await sample('register.csv', sampleCsv);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ file_name: 'register.csv', file_type: 'csv', delimiter: ',', entity: 'device', rows_read: 3 });
    expect(answer.body.columns).toEqual([
      { column: 'Asset Name', type: 'string', field: 'Hostname', identifier: true },
      { column: 'Serial', type: 'string', field: 'SerialNumber', identifier: true },
      { column: 'IP', type: 'ip', field: 'IpAddresses', identifier: true },
      { column: 'MAC', type: 'mac', field: 'MacAddresses', identifier: true },
      { column: 'Cores', type: 'integer', field: null, identifier: false },
      { column: 'Price', type: 'number', field: null, identifier: false },
      { column: 'Managed', type: 'boolean', field: null, identifier: false },
      { column: 'Purchased', type: 'date', field: null, identifier: false },
      { column: 'Room', type: 'string', field: null, identifier: false },
      // "007" and "042" are identifiers written with leading zeros, not numbers.
      { column: 'Tag', type: 'string', field: null, identifier: false },
    ]);
    expect(answer.body.preview[1]).toEqual({ 'Asset Name': 'fac-ws-2', Serial: 'FAC-0002', IP: '10.40.0.2; 10.40.1.2', MAC: '00:1a:2b:3c:4d:02', Cores: '8', Price: '899', Managed: 'no', Purchased: '24.11.2025', Room: 'C-01', Tag: '' });
  });

  it('reads an XLSX sample with typed cells, and a semicolon-separated CSV', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Users');
    sheet.addRow(['Login', 'Mail', 'Admin', 'Badge', 'Hired']);
    sheet.addRow(['jdoe', 'jdoe@corp.example', true, 1201, new Date('2021-02-03T00:00:00Z')]);
    sheet.addRow(['asmith', 'asmith@corp.example', false, 1202.5, new Date('2022-04-05T00:00:00Z')]);
    const xlsx = await sample('users.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()), server.adminToken, 'user');
    expect(xlsx.status, JSON.stringify(xlsx.body)).toBe(200);
    expect(xlsx.body.file_type).toBe('xlsx');
    expect(xlsx.body.columns.map((column: { column: string; type: string; field: string | null }) => [column.column, column.type, column.field])).toEqual([
      ['Login', 'string', 'Username'], ['Mail', 'string', 'Email'], ['Admin', 'boolean', 'AdminStatus'], ['Badge', 'number', null], ['Hired', 'date', null],
    ]);
    const semicolons = await sample('eu.csv', 'host;ip\nws-1;10.0.0.1\n');
    expect(semicolons.body).toMatchObject({ delimiter: ';', columns: [{ column: 'host', type: 'string', field: 'Hostname' }, { column: 'ip', type: 'ip', field: 'IpAddresses' }] });
  });

  it('refuses samples it cannot define fields from, naming the column or line', async () => {
    expect((await sample('dup.csv', 'Name,IP,name\na,10.0.0.1,b\n')).body).toEqual({ file: ['The column "name" appears twice in the header (line 1): columns 1 and 3. Column names must be unique.'] });
    expect((await sample('blank.csv', 'Name,,IP\na,b,10.0.0.1\n')).body).toEqual({ file: ['Column 2 of the header (line 1) has no name: every column needs one.'] });
    expect((await sample('empty.csv', '')).body).toEqual({ file: ['The file is empty.'] });
    expect((await sample('header.csv', 'Name,IP\n')).body).toEqual({ file: ['The file has a header but no data rows: the types of its columns are read from its rows.'] });
    const broken = await sample('broken.csv', 'Name,IP\na,10.0.0.1\nb,10.0.0.2,extra\n');
    expect(broken.status).toBe(400);
    expect(broken.body.file[0]).toMatch(/^Line 3 of the file cannot be read/);
    expect((await sample('binary.csv', Buffer.from([0x41, 0x00, 0x42, 0x0a]))).body.file[0]).toMatch(/binary data/);
    const oversized = await sample('huge.csv', `Name\n${'x'.repeat(11 * 1024 ** 2)}\n`);
    expect(oversized.status).toBe(413);
    expect(oversized.body.detail).toMatch(/larger than 10 MB/);
    expect((await server.request('POST', '/customs/adapters/fields', { token: server.adminToken, body: { file: 'x' } })).status).toBe(415);
  });

  it('defines an adapter from the mapping, listed with custom true and status done, and refuses mappings it could not use', async () => {
    const bad = async (body: object) => (await server.request('POST', '/customs/adapters', { token: server.adminToken, body: { ...definition, ...body } })).body;
    expect(await bad({ fields: [{ column: 'A', type: 'string', field: 'Hostname', identifier: true }, { column: 'a', type: 'string' }] })).toEqual({ fields: ['The column "a" appears twice: column names must be unique.'] });
    expect(await bad({ fields: [{ column: 'A', type: 'string', field: 'Hostname' }] })).toEqual({ fields: [expect.stringMatching(/^Choose at least one identifier column/)] });
    expect(await bad({ fields: [{ column: 'A', type: 'string', field: 'Username', identifier: true }] })).toEqual({ fields: ['The column "A" is mapped to Username, which is not a field of the device entity.'] });
    expect(await bad({ fields: [{ column: 'A', type: 'string', field: 'DeviceModel', identifier: true }] })).toEqual({ fields: [expect.stringMatching(/^The column "A" cannot identify a device/)] });
    expect(await bad({ fields: [{ column: 'A', type: 'text', field: 'Hostname' }] })).toHaveProperty(['fields.0.type']);
    expect(await bad({ slug: 'csvfile' })).toEqual({ slug: ['"csvfile" is the slug of a built-in adapter: choose another.'] });
    expect((await server.request('GET', '/customs/adapters', { token: server.adminToken })).body.count).toBe(0);

    const created = await server.request('POST', '/customs/adapters', { token: server.adminToken, body: definition });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ slug: 'facilities-register', custom: true, status: 1, categories: ['device'], entity: 'device', connection_count: 0 });
    expect((await server.request('POST', '/customs/adapters', { token: server.adminToken, body: definition })).body).toEqual({ name: ['A custom adapter with this name (slug "facilities-register") already exists: choose another name.'] });
    expect((await server.request('POST', '/customs/adapters', { token: server.adminToken, body: { ...definition, name: 'Other', slug: 'facilities-register' } })).body).toEqual({ slug: ['A custom adapter with the slug "facilities-register" already exists.'] });
    const listed = await server.request('GET', '/customs/adapters?page=1&size=1000', { token: server.adminToken });
    expect(listed.body.results).toEqual([expect.objectContaining({ id: created.body.id, name: 'Facilities register', custom: true, status: 1 })]);

    // The adapter answers like a catalogue adapter, its connections using the CSV file connection's form.
    const asAdapter = await server.request('GET', '/adapters/adapters/facilities-register', { token: server.adminToken });
    expect(asAdapter.body).toMatchObject({ slug: 'facilities-register', custom: true, status: 1, can_fetch: true, engine: 'custom-file', connection_schema: 'csvfile' });

    const renamed = await server.request('PUT', `/customs/adapters/${created.body.id}`, { token: server.adminToken, body: { ...definition, name: 'Facilities asset register' } });
    expect(renamed.body).toMatchObject({ name: 'Facilities asset register', slug: 'facilities-register' });
    expect((await server.request('PUT', `/customs/adapters/${created.body.id}`, { token: server.adminToken, body: { ...definition, slug: 'other' } })).body).toEqual({ slug: [expect.stringMatching(/keeps its slug/)] });
  });

  it('imports a data file through a connection of the adapter into the inventory, mapped fields typed, unmapped columns kept raw', async () => {
    const [adapter] = (await server.request('GET', '/customs/adapters', { token: server.adminToken })).body.results;
    const before = uploadedFiles();
    const wrongShape = await uploadData(adapter.id, 'other.csv', 'Hostname,IP\nx,10.0.0.1\n');
    expect(wrongShape.body).toEqual({ file: ['The file lacks the identifier columns "Asset Name", "Serial" of Facilities asset register: its header has "Hostname", "IP".'] });
    const duplicated = await uploadData(adapter.id, 'dup.csv', 'Asset Name,Serial,serial\nx,1,2\n');
    expect(duplicated.body.file[0]).toMatch(/"serial" appears twice/);
    // Nothing is saved half-way: no connection, no file left behind.
    expect((await server.request('GET', `/adapters/connections?adapter=${adapter.slug}`, { token: server.adminToken })).body.count).toBe(0);
    expect(uploadedFiles()).toEqual(before);

    const uploaded = await uploadData(adapter.id, 'servers.csv', dataCsv);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body).toMatchObject({ adapter: adapter.id, created: true, file_name: 'servers.csv', columns: definition.fields.map((field) => field.column) });
    const connection = await server.request('GET', `/adapters/connections/${uploaded.body.connection}`, { token: server.adminToken });
    expect(connection.body).toMatchObject({ adapter: 'facilities-register', adapter_name: 'Facilities asset register', name: 'Facilities asset register data' });
    expect((await server.request('POST', `/adapters/test/${uploaded.body.connection}`, { token: server.adminToken })).body).toEqual({ success: true, detail: 'servers.csv can be read.' });

    const started = await server.request('POST', '/discoveries/discoveries', { token: server.adminToken });
    expect(started.status).toBe(202);
    let last: { status: number; progress: { connections: { id: number; state: string; records: number }[] } } | null = null;
    for (let attempt = 0; attempt < 300 && (!last || last.status === 1); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = (await server.request('GET', '/discoveries/last', { token: server.adminToken })).body;
    }
    expect(last!.progress.connections.find((item) => item.id === uploaded.body.connection)).toMatchObject({ state: 'done', records: 2 });
    const devices = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { fields: ['Hostname', 'SerialNumber', 'IpAddresses', 'MacAddresses'], ordering: [{ field: 'Hostname' }] } });
    expect(devices.body.results.map((row: Record<string, unknown[]>) => [row.Hostname[0], row.SerialNumber[0], row.IpAddresses, row.MacAddresses])).toEqual([
      ['fac-srv-1', 'FAC-1001', ['10.41.0.1'], ['00:1a:2b:3c:5d:01']],
      ['fac-srv-2', 'FAC-1002', ['10.41.0.2'], ['00:1a:2b:3c:5d:02']],
    ]);
    const [record] = await server.context.db.query<{ fields: Record<string, unknown[]> }>("select fields from snapshot_records where adapter = 'facilities-register' order by record_key limit 1");
    expect(record.fields).toMatchObject({ FirstSeen: ['2022-05-05T00:00:00.000Z'], 'Specifics.facilities-register.Room': ['DC-1'], 'Specifics.facilities-register.Cores': ['32'] });
    expect(record.fields).not.toHaveProperty('Room');

    // A second upload goes to the same connection and replaces its file.
    const again = await uploadData(adapter.id, 'servers-2.csv', dataCsv);
    expect(again.body).toMatchObject({ connection: uploaded.body.connection, created: false });
    expect(uploadedFiles().filter((file) => !before.includes(file))).toEqual([expect.stringMatching(/\.csv$/)]);
  });

  it('checks each permission', async () => {
    await groupWith('Custom viewers', ['customs.view_data']);
    const viewer = await createUserWithGroups(server, server.adminToken, 'custom.viewer', ['Custom viewers']);
    const [adapter] = (await server.request('GET', '/customs/adapters', { token: viewer.token })).body.results;
    expect(adapter.slug).toBe('facilities-register');
    expect((await server.request('GET', `/customs/adapters/${adapter.id}`, { token: viewer.token })).status).toBe(200);
    expect((await server.request('POST', '/customs/adapters', { token: viewer.token, body: { ...definition, name: 'Viewer made' } })).status).toBe(403);
    expect((await server.request('PUT', `/customs/adapters/${adapter.id}`, { token: viewer.token, body: definition })).status).toBe(403);
    expect((await server.request('DELETE', `/customs/adapters/${adapter.id}`, { token: viewer.token })).status).toBe(403);
    expect((await sample('s.csv', sampleCsv, viewer.token)).status).toBe(403);
    expect((await uploadData(adapter.id, 'd.csv', dataCsv, viewer.token)).status).toBe(403);

    await groupWith('Custom samplers', ['customs.upload_custom_fields_file']);
    const sampler = await createUserWithGroups(server, server.adminToken, 'custom.sampler', ['Custom samplers']);
    expect((await sample('s.csv', sampleCsv, sampler.token)).status).toBe(200);
    expect((await server.request('GET', '/customs/adapters', { token: sampler.token })).status).toBe(403);
  });

  it('keeps every company to its own custom adapters', async () => {
    const [adapter] = (await server.request('GET', '/customs/adapters', { token: server.adminToken })).body.results;
    expect((await server.request('GET', '/customs/adapters', { token: otherAdmin })).body.count).toBe(0);
    expect((await server.request('GET', `/customs/adapters/${adapter.id}`, { token: otherAdmin })).status).toBe(404);
    expect((await server.request('PUT', `/customs/adapters/${adapter.id}`, { token: otherAdmin, body: definition })).status).toBe(404);
    expect((await server.request('DELETE', `/customs/adapters/${adapter.id}`, { token: otherAdmin })).status).toBe(404);
    expect((await uploadData(adapter.id, 'd.csv', dataCsv, otherAdmin)).status).toBe(404);
    expect((await server.request('GET', '/adapters/adapters/facilities-register', { token: otherAdmin })).status).toBe(404);
    // The same slug is free in another company, and a connection cannot name a neighbour's custom adapter.
    expect((await server.request('POST', '/customs/adapters', { token: otherAdmin, body: definition })).status).toBe(201);
    const theirs = await server.request('POST', '/adapters/connections', {
      token: otherAdmin, body: { adapter: 'facilities-register', name: 'Theirs', option_connections: [{ name: 'source', typed_value: { source_type: 'upload' } }, { name: 'entity', typed_value: 'device' }, { name: 'delimiter', typed_value: ',' }, { name: 'encoding', typed_value: 'utf-8' }] },
    });
    expect(theirs.status).toBe(201);
    const mine = await server.request('GET', '/adapters/connections?adapter=facilities-register', { token: server.adminToken });
    expect(mine.body.results.map((row: { name: string }) => row.name)).toEqual(['Facilities asset register data']);
  });

  it('deletes an adapter with its connections and their files', async () => {
    const [adapter] = (await server.request('GET', '/customs/adapters', { token: server.adminToken })).body.results;
    const files = uploadedFiles().length;
    expect((await server.request('DELETE', `/customs/adapters/${adapter.id}`, { token: server.adminToken })).status).toBe(204);
    expect((await server.request('GET', '/customs/adapters', { token: server.adminToken })).body.count).toBe(0);
    expect((await server.request('GET', '/adapters/connections?adapter=facilities-register', { token: server.adminToken })).body.count).toBe(0);
    expect(uploadedFiles()).toHaveLength(files - 1);
  });

  it('imports XLSX data files too, and adapters of users, each column read as its type', async () => {
    const created = await server.request('POST', '/customs/adapters', {
      token: server.adminToken,
      body: { name: 'Badge system', entity: 'user', fields: [{ column: 'Login', type: 'string', field: 'Username', identifier: true }, { column: 'Badge', type: 'integer', field: 'EmployeeId' }, { column: 'Floor', type: 'integer', field: null }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.categories).toEqual(['user']);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Badges');
    sheet.addRow(['Login', 'Badge', 'Floor']);
    sheet.addRow(['jdoe', 1201, 3]);
    sheet.addRow(['asmith', '1202', 4]);
    const uploaded = await uploadData(created.body.id, 'badges.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body).toMatchObject({ created: true, columns: ['Login', 'Badge', 'Floor'] });
    expect((await server.request('POST', '/discoveries/discoveries', { token: server.adminToken })).status).toBe(202);
    let last: { status: number; progress: { connections: { id: number; state: string; records: number }[] } } | null = null;
    for (let attempt = 0; attempt < 300 && (!last || last.status === 1); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = (await server.request('GET', '/discoveries/last', { token: server.adminToken })).body;
    }
    expect(last!.progress.connections.find((item) => item.id === uploaded.body.connection)).toMatchObject({ state: 'done', records: 2 });
    const records = await server.context.db.query<{ fields: Record<string, unknown[]> }>("select fields from snapshot_records where adapter = 'badge-system' order by record_key");
    expect(records.map((record) => [record.fields.Username, record.fields.EmployeeId, record.fields['Specifics.badge-system.Floor']])).toEqual([
      [['asmith'], [1202], [4]],
      [['jdoe'], [1201], [3]],
    ]);
  });

  it('fetches a custom adapter connection through a remote connector, which gets the adapter\'s mapping with its job', async () => {
    const adapter = await server.request('POST', '/customs/adapters', {
      token: server.adminToken, body: { name: 'Plant register', entity: 'device', fields: [{ column: 'Asset', type: 'string', field: 'Hostname', identifier: true }, { column: 'Hall', type: 'integer', field: null }] },
    });
    expect(adapter.status, JSON.stringify(adapter.body)).toBe(201);
    const connector = await server.request('POST', '/connectors/connectors', { token: server.adminToken, body: { name: 'Plant collector', description: 'in the plant' } });
    expect(connector.status, JSON.stringify(connector.body)).toBe(201);
    const file = `data:text/csv;base64,${Buffer.from('Asset,Hall\nplant-pc-1,7\nplant-pc-2,8\n').toString('base64')}`;
    const option = (name: string, value: unknown) => ({ name, typed_value: value });
    const connection = await server.request('POST', '/adapters/connections', {
      token: server.adminToken,
      body: { adapter: 'plant-register', name: 'Plant export', connector: connector.body.id, option_connections: [option('source', { source_type: 'upload', file, file_name: 'plant.csv' }), option('entity', 'device'), option('delimiter', ','), option('encoding', 'utf-8')] },
    });
    expect(connection.status, JSON.stringify(connection.body)).toBe(201);

    expect((await server.request('POST', '/discoveries/discoveries', { token: server.adminToken })).status).toBe(202);
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const address = server.app.server.address() as { port: number };
    const client = new ConnectorClient(new URL(`http://127.0.0.1:${address.port}`), connector.body.token);
    try {
      let job = null;
      for (let attempt = 0; attempt < 200 && !job; attempt += 1) {
        job = (await client.lease({ version: '9.9.9', host: 'plant-collector' })).job;
        if (!job) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(job).toMatchObject({ connection: { id: connection.body.id, adapter: 'plant-register' }, custom_adapter: { slug: 'plant-register', entity: 'device' } });
      const logged: string[] = [];
      await runJob(client, server.context.adapters, job!, new AbortController().signal, (line) => logged.push(line));
      expect(logged.at(-1)).toMatch(/^finished connection \d+ \(plant-register\): 2 records$/);
    } finally {
      await client.close();
    }
    let last: { status: number; progress: { connections: { id: number; state: string; records: number }[] } } | null = null;
    for (let attempt = 0; attempt < 300 && (!last || last.status === 1); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = (await server.request('GET', '/discoveries/last', { token: server.adminToken })).body;
    }
    expect(last!.progress.connections.find((item) => item.id === connection.body.id)).toMatchObject({ state: 'done', records: 2 });
    const records = await server.context.db.query<{ fields: Record<string, unknown[]> }>("select fields from snapshot_records where adapter = 'plant-register' order by record_key");
    expect(records.map((record) => [record.fields.Hostname, record.fields['Specifics.plant-register.Hall']])).toEqual([[['plant-pc-1'], ['7']], [['plant-pc-2'], ['8']]]);
  });
});
