import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { definitionOf, type CustomAdapterRow } from '../../adapters/custom/customCatalogue.js';
import { customConnectionSchemaId } from '../../adapters/custom/customEngine.js';
import { readDataHeader, readSample, sampleLimitBytes, SampleError } from '../../adapters/custom/sampleFile.js';
import type { EntityKind } from '../../adapters/engine.js';
import { removeUpload } from '../../adapters/files/fileSource.js';
import { cleanFileName, expectedContent, storeUpload } from '../../adapters/files/uploads.js';
import { openSecrets, sealSecrets } from '../../auth/secretFields.js';
import type { AppContext } from '../../context.js';
import type { Caller } from '../../identity/callers.js';
import { detailError, fieldError, fieldErrorsFromAjv, HttpError } from '../errors.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { validatorFor } from '../validators.js';

type LoadAdapter = (caller: Caller, id: number) => Promise<CustomAdapterRow>;

/** The one file of a multipart request, in the field named "file". */
async function filePart(request: FastifyRequest, limitBytes?: number): Promise<MultipartFile> {
  if (!request.isMultipart()) throw detailError(415, 'Send the file as multipart/form-data, in a field named "file".');
  const part = await request.file(limitBytes ? { limits: { fileSize: limitBytes } } : undefined);
  if (!part || part.fieldname !== 'file') throw fieldError('file', 'No file was sent: send it in a multipart field named "file".');
  return part;
}

const asFileError = (error: unknown) => (error instanceof SampleError ? fieldError('file', error.message) : error);

/**
 * `POST /customs/adapters/fields` reads a sample to define a custom adapter from (nothing is stored: the form sends
 * the fields back when it saves); `POST /customs/adapters/{id}/data` stores a data file for a connection of the
 * adapter, creating the adapter's first connection when it has none, all or nothing.
 */
export function registerCustomAdapterUploadRoutes(routes: RouteCatalogue, context: AppContext, load: LoadAdapter): void {
  const { db } = context;

  routes.add({
    method: 'POST', url: '/customs/adapters/fields', name: 'custom_adapters.upload_fields',
    summary: 'Read the columns of a CSV or XLSX sample: names, inferred types, suggested fields and the first rows (multipart, field "file")',
    access: 'customs.upload_custom_fields_file', query: 'cartograph:api/custom-adapter-sample-query',
    handler: async (request) => {
      const { entity } = request.query as { entity: EntityKind };
      const part = await filePart(request, sampleLimitBytes);
      const content = await part.toBuffer().catch((error: Error & { code?: string }) => {
        if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw detailError(413, `The sample is larger than ${sampleLimitBytes / 1024 ** 2} MB: a sample needs only its header and some rows.`);
        throw error;
      });
      const shape = await readSample(content, entity).catch((error: unknown) => {
        throw asFileError(error);
      });
      return { file_name: cleanFileName(part.filename, shape.file_type), entity, ...shape };
    },
  });

  routes.add({
    method: 'POST', url: '/customs/adapters/:id/data', name: 'custom_adapters.upload_data',
    summary: 'Upload a data file of a custom adapter into one of its connections (multipart, field "file"); its first connection is created when it has none',
    access: 'customs.upload_custom_data_file', params: 'cartograph:api/id-params', query: 'cartograph:api/custom-adapter-data-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const adapter = definitionOf(await load(caller, (request.params as { id: number }).id));
      const requested = (request.query as { connection?: number }).connection ?? null;
      const [connection] = await db.query<{ id: number; config: Record<string, unknown> }>(
        'select id, config from connections where company_id = $1 and adapter = $2 and ($3::int is null or id = $3) order by id limit 1',
        [caller.companyId, adapter.slug, requested],
      );
      if (requested !== null && !connection) throw fieldError('connection', `Invalid pk "${requested}" - no connection of ${adapter.name} has it.`);
      const part = await filePart(request);
      const { reference, expected } = await storeUpload(context.config.dataDir, part.file, [expectedContent.xlsx, expectedContent.csv]);
      const path = join(context.config.dataDir, reference);
      try {
        // A file of another shape is refused now, not at the next discovery: it must hold the identifier columns.
        const header = await readDataHeader(path, expected.extension as 'csv' | 'xlsx', adapter.delimiter).catch((error: unknown) => {
          throw asFileError(error);
        });
        const present = new Set(header.map((column) => column.toLowerCase()));
        const missing = adapter.fields.filter((field) => field.identifier && !present.has(field.column.toLowerCase())).map((field) => `"${field.column}"`);
        if (missing.length) throw fieldError('file', `The file lacks the identifier column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${adapter.name}: its header has ${header.map((column) => `"${column}"`).join(', ')}.`);

        const fileName = cleanFileName(part.filename, expected.extension);
        const source = { source_type: 'upload', file: reference, file_name: fileName };
        const stored = connection ? openSecrets(context.keys.secretsKey, connection.config, new Set(['authorization_header'])) : null;
        const config = { ...(stored ?? { entity: adapter.entity, delimiter: adapter.delimiter, encoding: 'utf-8' }), source };
        const validate = validatorFor(customConnectionSchemaId);
        if (!validate(config)) throw new HttpError(400, fieldErrorsFromAjv(validate.errors ?? []));
        const sealed = JSON.stringify(sealSecrets(context.keys.secretsKey, config, new Set(['authorization_header'])));
        const id = await db.transaction(async (transaction) => {
          if (connection) {
            await transaction.query('update connections set config = $2, updated_at = now() where id = $1', [connection.id, sealed]);
            return connection.id;
          }
          const [connector] = await transaction.query<{ id: number }>('select id from connectors where company_id = $1 and is_default', [caller.companyId]);
          if (!connector) throw detailError(409, 'The company has no default connector to attach the connection to.');
          const [created] = await transaction.query<{ id: number }>(
            'insert into connections (company_id, adapter, name, description, connector_id, enabled, config) values ($1, $2, $3, $4, $5, true, $6) returning id',
            [caller.companyId, adapter.slug, `${adapter.name} data`, `Data files of the custom adapter ${adapter.name}.`, connector.id, sealed],
          );
          return created.id;
        });
        // The file the connection read before is no longer referenced: remove it, never anything but an upload.
        if (stored) await removeUpload(context.config.dataDir, stored.source);
        const bytes = (part.file as unknown as { bytesRead: number }).bytesRead;
        return { adapter: adapter.id, connection: id, created: !connection, file_name: fileName, size: bytes, columns: header };
      } catch (error) {
        await rm(path, { force: true });
        throw error;
      }
    },
  });
}
