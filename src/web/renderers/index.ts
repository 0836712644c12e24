// The generic pages of schemas/routes.json (`generic:list`, `generic:detail`, `generic:form`), loaded lazily by
// src/web/app/pageModules.ts, and the schema helpers pages may reuse.
export { GenericListPage } from './list/GenericListPage';
export { GenericDetailPage } from './detail/GenericDetailPage';
export { GenericFormPage } from './form/GenericFormPage';
export { SchemaList, type SchemaListProps } from './list/SchemaList';
export { SchemaDetail, type SchemaDetailProps } from './detail/SchemaDetail';
export { entityLinks, hrefOf, type EntityLinks } from './list/entityRoutes';
export { listColumns, rowKeyOf } from './list/listColumns';
export { defaultPageSize, listParams, pageSizes, resourceItemQuery, resourceListQuery, type ListQueryParams, type PageResponse } from './list/listQuery';
export { entitySchemaQuery, loadEntitySchema, schemaFileKey, type EntitySchema, type PropertySchema, type ResourceSchema } from './schema/entitySchema';
export { detailFields, fieldTitle, groupedFields, labelOf, listFields, orderedFields, pluralTitle, sortableFields, type SchemaField } from './schema/fields';
export { emptyText, formatValue, secretText } from './schema/formatValue';
