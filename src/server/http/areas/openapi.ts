import type { AppContext } from '../../context.js';
import { product } from '../../../core/product.js';
import { allSchemas, schemaById } from '../validators.js';
import type { RouteCatalogue, RouteDefinition } from '../routes.js';

const componentName = (schemaId: string) => schemaId.replace(/^cartograph:/, '').replace(/[^A-Za-z0-9]+/g, '_');
const reference = (schemaId: string) => ({ $ref: `#/components/schemas/${componentName(schemaId)}` });
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: reference('cartograph:common/definitions') } } });

function parametersOf(definition: RouteDefinition) {
  const parts = [
    ...(definition.params ? [{ location: 'path', schemaId: definition.params }] : []),
    ...(definition.query ? [{ location: 'query', schemaId: definition.query }] : []),
  ];
  return parts.flatMap(({ location, schemaId }) => {
    const schema = schemaById(schemaId) as { properties?: Record<string, { description?: string }>; required?: string[] };
    return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
      name, in: location, required: location === 'path' || Boolean(schema.required?.includes(name)), description: property.description, schema: property,
    }));
  });
}

function operationOf(definition: RouteDefinition) {
  const secured = definition.access !== 'public';
  return {
    operationId: definition.name,
    summary: definition.summary,
    tags: [definition.url.split('/')[1]],
    ...(secured && { security: [{ bearer: [] }] }),
    ...(definition.access.includes('.') && { 'x-permission': definition.access }),
    parameters: parametersOf(definition),
    ...(definition.body && { requestBody: { required: true, content: { 'application/json': { schema: reference(definition.body.replace(/-patch$/, '')) } } } }),
    responses: {
      [String(definition.status ?? (definition.method === 'DELETE' ? 204 : 200))]: { description: 'Success' },
      ...(definition.body || definition.query || definition.params ? { 400: errorResponse('Invalid input: field errors') } : {}),
      ...(secured && { 401: errorResponse('Missing, invalid or expired access token'), 403: errorResponse('Missing permission') }),
    },
  };
}

/** The OpenAPI 3.1 document, generated from the route catalogue and the schemas that validate it. */
export function buildOpenApiDocument(routes: RouteCatalogue, version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const definition of routes.definitions) {
    const path = definition.url.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[definition.method.toLowerCase()] = operationOf(definition);
  }
  const schemas = Object.fromEntries(
    allSchemas()
      .filter((schema) => !schema.$id.startsWith('cartograph:adapters/'))
      .map(({ $id, ...schema }) => [componentName($id), schema]),
  );
  return {
    openapi: '3.1.0',
    info: { title: `${product.name} API`, version, description: `REST API of ${product.name}: sign in with POST /api/token, then send Authorization: Bearer <access>.` },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } }, schemas },
    paths,
  };
}

export function registerOpenApiRoute(routes: RouteCatalogue, context: AppContext): void {
  let document: ReturnType<typeof buildOpenApiDocument> | null = null;
  routes.add({
    method: 'GET', url: '/api/docs/openapi.json', name: 'openapi', summary: 'This API described in OpenAPI 3.1', access: 'public',
    handler: async () => (document ??= buildOpenApiDocument(routes, context.version)),
  });
}
