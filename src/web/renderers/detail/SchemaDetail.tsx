import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../ui/Badge/Badge';
import { ButtonLink } from '../../ui/Button/ButtonLink';
import { Card } from '../../ui/Card/Card';
import { ErrorState } from '../../ui/ErrorState/ErrorState';
import { PageHeader } from '../../ui/PageHeader/PageHeader';
import { Spinner } from '../../ui/Spinner/Spinner';
import type { EntitySchema } from '../schema/entitySchema';
import { detailFields, groupedFields, type SchemaField } from '../schema/fields';
import { formatValue } from '../schema/formatValue';
import { hrefOf, type EntityLinks } from '../list/entityRoutes';
import { resourceItemQuery } from '../list/listQuery';
import '../renderers.css';

export type SchemaDetailProps = { schema: EntitySchema; id: string | number; links: EntityLinks };
type Item = Record<string, unknown>;

function valueOf(field: SchemaField, item: Item) {
  const value = item[field.name];
  if (typeof value === 'boolean') return <Badge tone={value ? 'success' : 'neutral'}>{formatValue(value)}</Badge>;
  return formatValue(value, field.property);
}

/** The heading of an item: its name-like field, or the entity title and id. */
function headingOf(schema: EntitySchema, item: Item | undefined, id: string | number): string {
  for (const key of ['name', 'username', 'title', 'domain', 'slug']) {
    if (item && typeof item[key] === 'string' && item[key]) return item[key] as string;
  }
  return `${schema.title ?? t('renderers.item')} ${id}`;
}

/** One item of an entity, every readable field with its title, in the schema's `x-group` sections and `x-order`. */
export function SchemaDetail({ schema, id, links }: SchemaDetailProps) {
  const resource = schema['x-resource'];
  const item = useQuery({ ...resourceItemQuery<Item>(resource?.path ?? '', id), enabled: Boolean(resource) });
  if (!resource) return <ErrorState title={t('renderers.itemCannotShown')} message={t('renderers.titleHasNoApi', { title: schema.title ?? schema.$id })} />;
  if (item.isError) return <ErrorState message={item.error.message} onRetry={() => void item.refetch()} retrying={item.isFetching} />;
  if (!item.data) return <Spinner label={t('renderers.loadingTitle', { title: (schema.title ?? t('renderers.item')).toLowerCase() })} />;
  const data = item.data;
  const sections = groupedFields(detailFields(schema));
  return (
    <div className="generic-detail">
      <PageHeader
        title={headingOf(schema, data, id)}
        description={schema.title}
        actions={
          <>
            {links.list ? <ButtonLink variant="secondary" href={hrefOf(links.list)}>{t('renderers.backToList')}</ButtonLink> : null}
            {links.edit ? <ButtonLink href={hrefOf(links.edit(id))}>{t('renderers.edit')}</ButtonLink> : null}
          </>
        }
      />
      <div className="generic-detail__sections">
        {sections.map((section) => (
          <Card key={section.group} title={section.group}>
            <dl className="generic-detail__fields">
              {section.fields.map((field) => (
                <div key={field.name} style={{ display: 'contents' }}>
                  <dt>{field.title}</dt>
                  <dd>{valueOf(field, data)}</dd>
                </div>
              ))}
            </dl>
          </Card>
        ))}
      </div>
    </div>
  );
}
