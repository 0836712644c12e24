import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { adapterForCompany } from '../../adapters/custom/customCatalogue.js';
import { removeUpload } from '../../adapters/files/fileSource.js';
import { cleanFileName, storeUpload, uploadKindsOf, uploadLimitBytes, uploadLimitOf } from '../../adapters/files/uploads.js';
import { openSecrets, sealSecrets } from '../../auth/secretFields.js';
import type { AppContext } from '../../context.js';
import { detailError, fieldError, fieldErrorsFromAjv, HttpError, notFound } from '../errors.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { validatorFor } from '../validators.js';
import { mayUseAdapter } from './adapters.js';

/**
 * Registers `POST /adapters/connections/{id}/file`: a multipart upload of the file a CSV, JSON, XLSX or SBOM connection
 * reads. The file is streamed to `uploads/` in the data folder under a random name, checked by content, and the
 * connection's file source is pointed at it (the previous upload is deleted).
 */
export async function registerConnectionFileRoutes(app: FastifyInstance, routes: RouteCatalogue, context: AppContext): Promise<void> {
  await app.register(fastifyMultipart, { limits: { fileSize: uploadLimitBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12 } });

  routes.add({
    method: 'POST', url: '/adapters/connections/:id/file', name: 'connections.upload_file', summary: 'Upload the file a CSV, JSON, XLSX or SBOM connection reads (multipart, field "file")',
    access: 'adapters.change_connection', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const id = (request.params as { id: number }).id;
      const [row] = await context.db.query<{ adapter: string; config: Record<string, unknown> }>('select adapter, config from connections where id = $1 and company_id = $2', [id, caller.companyId]);
      if (!row || !mayUseAdapter(caller, row.adapter)) throw notFound();
      const adapter = await adapterForCompany(context.db, context.adapters, caller.companyId, row.adapter);
      // A custom adapter's connection takes its files as CSV or XLSX, told apart by content.
      const kinds = uploadKindsOf(adapter);
      if (!adapter || !kinds.length) throw detailError(400, 'This connection does not read a file: only CSV, JSON, XLSX and SBOM file connections take uploads.');
      if (!request.isMultipart()) throw detailError(415, 'Send the file as multipart/form-data, in a field named "file".');

      // An SBOM connection takes smaller files than the others (its engine reads one whole): the stream stops there.
      const limit = uploadLimitOf(kinds);
      const part = await request.file({ limits: { fileSize: limit } });
      if (!part || part.fieldname !== 'file') throw fieldError('file', 'No file was sent: send it in a multipart field named "file".');
      const { reference, expected } = await storeUpload(context.config.dataDir, part.file, kinds, limit);
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
