import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { CatalogueAdapter } from '../../adapters/catalogue.js';
import { adapterForCompany } from '../../adapters/custom/customCatalogue.js';
import { removeUpload, sniffLocal } from '../../adapters/files/fileSource.js';
import { openSecrets, sealSecrets } from '../../adapters/secretFields.js';
import type { AppContext } from '../../context.js';
import { detailError, fieldError, fieldErrorsFromAjv, HttpError, notFound } from '../errors.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { validatorFor } from '../validators.js';
import { mayUseAdapter } from './adapters.js';

/** The largest file one upload may hold (the engines stream it, so the bound is about disk, not memory). */
export const uploadLimitBytes = 1024 ** 3;

/** What each file engine's upload must look like, checked by content, never by the file's name. */
export const expectedContent: Record<string, { extension: string; describe: string; matches: (head: Buffer) => boolean }> = {
  csv: { extension: 'csv', describe: 'CSV text', matches: (head) => !head.includes(0) || isUtf16(head) },
  json: { extension: 'json', describe: 'JSON text', matches: (head) => /^(\uFEFF)?\s*[[{]/.test(head.toString('utf8')) },
  xlsx: { extension: 'xlsx', describe: 'an XLSX workbook (a ZIP archive)', matches: (head) => head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) },
};

function isUtf16(head: Buffer): boolean {
  return head[0] === 0xff && head[1] === 0xfe;
}

/** A file name safe to show back: no path, no control characters, bounded. */
export function cleanFileName(name: string | undefined, extension: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = basename((name ?? '').replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return cleaned || `upload.${extension}`;
}

type ExpectedContent = (typeof expectedContent)[string];

/** The contents a connection of this adapter takes as uploads (a custom adapter's: CSV or XLSX); none when it reads no file. */
export const uploadKindsOf = (adapter: Pick<CatalogueAdapter, 'custom' | 'engine'> | undefined): ExpectedContent[] =>
  adapter?.custom ? [expectedContent.xlsx, expectedContent.csv] : adapter?.engine && expectedContent[adapter.engine] ? [expectedContent[adapter.engine]] : [];

/**
 * Streams one uploaded file to `uploads/` in the data folder under a random name and checks it by content against
 * the kinds the connection reads (the first that matches names the file); a file that fails is removed.
 */
export async function storeUpload(dataDir: string, file: NodeJS.ReadableStream & { truncated?: boolean }, kinds: ExpectedContent[], limitBytes = uploadLimitBytes): Promise<{ reference: string; expected: ExpectedContent }> {
  await mkdir(join(dataDir, 'uploads'), { recursive: true, mode: 0o700 });
  const partial = join(dataDir, `uploads/${randomUUID()}.partial`);
  try {
    await pipeline(file, createWriteStream(partial, { mode: 0o600 }));
    if (file.truncated) throw detailError(413, `The file is larger than the upload limit of ${limitBytes / 1024 ** 2} MB.`);
    const head = await sniffLocal(partial, 512);
    if (!head.length) throw fieldError('file', 'The file is empty.');
    const expected = kinds.find((kind) => kind.matches(head));
    if (!expected) throw fieldError('file', `The file is not ${kinds.map((kind) => kind.describe).join(' or ')}: its content was checked, whatever its name says.`);
    const reference = `uploads/${randomUUID()}.${expected.extension}`;
    await rename(partial, join(dataDir, reference));
    return { reference, expected };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * Registers `POST /adapters/connections/{id}/file`: a multipart upload of the file a CSV, JSON or XLSX connection
 * reads. The file is streamed to `uploads/` in the data folder under a random name, checked by content, and the
 * connection's file source is pointed at it (the previous upload is deleted).
 */
export async function registerConnectionFileRoutes(app: FastifyInstance, routes: RouteCatalogue, context: AppContext): Promise<void> {
  await app.register(fastifyMultipart, { limits: { fileSize: uploadLimitBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12 } });

  routes.add({
    method: 'POST', url: '/adapters/connections/:id/file', name: 'connections.upload_file', summary: 'Upload the file a CSV, JSON or XLSX connection reads (multipart, field "file")',
    access: 'adapters.change_connection', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const id = (request.params as { id: number }).id;
      const [row] = await context.db.query<{ adapter: string; config: Record<string, unknown> }>('select adapter, config from connections where id = $1 and company_id = $2', [id, caller.companyId]);
      if (!row || !mayUseAdapter(caller, row.adapter)) throw notFound();
      const adapter = await adapterForCompany(context.db, context.adapters, caller.companyId, row.adapter);
      // A custom adapter's connection takes its files as CSV or XLSX, told apart by content.
      const kinds = uploadKindsOf(adapter);
      if (!adapter || !kinds.length) throw detailError(400, 'This connection does not read a file: only CSV, JSON and XLSX file connections take uploads.');
      if (!request.isMultipart()) throw detailError(415, 'Send the file as multipart/form-data, in a field named "file".');

      const part = await request.file();
      if (!part || part.fieldname !== 'file') throw fieldError('file', 'No file was sent: send it in a multipart field named "file".');
      const { reference, expected } = await storeUpload(context.config.dataDir, part.file, kinds);
      const fileName = cleanFileName(part.filename, expected.extension);
      const config = openSecrets(context.keys.secretsKey, row.config, adapter.secretFields);
      const previous = (config.source as { source_type?: string; file?: string } | undefined) ?? {};
      const updated = { ...config, source: { source_type: 'upload', file: reference, file_name: fileName } };
      const validate = validatorFor(adapter.connectionSchemaId);
      if (!validate(updated)) {
        await rm(join(context.config.dataDir, reference), { force: true });
        throw new HttpError(400, fieldErrorsFromAjv(validate.errors ?? []));
      }
      await context.db.query('update connections set config = $2, updated_at = now() where id = $1', [id, JSON.stringify(sealSecrets(context.keys.secretsKey, updated, adapter.secretFields))]);
      // The file the connection read before is no longer referenced: remove it, never anything but an upload.
      if (previous.file !== reference) await removeUpload(context.config.dataDir, previous);
      const bytes = (part.file as unknown as { bytesRead: number }).bytesRead;
      return { id, file_name: fileName, size: bytes, source: updated.source };
    },
  });
}
