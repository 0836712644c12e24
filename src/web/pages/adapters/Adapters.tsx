import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { t } from '../../app/i18n/messages';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { hasPermission, useSession, type Adapter } from '../../app/session/session';
import { AdapterStatusBadge, EmptyState, PageHeader, Tabs, TextInput } from '../../ui';
import { AdapterCapability, canFetch } from './AdapterCapability';
import { adapterCategories, adapterImage, categoryLabel, fuzzySearch } from './adapterSearch';
import './adapters.css';

const allCategories = 'all';
// A custom adapter reads files of its own shape: it wears the file adapter's icon.
const customAdapterIcon = 'csvfile';

function AdapterCard({ adapter }: { adapter: Adapter }) {
  // Built-in pseudo-adapters (status 6) have no connections or instructions of their own.
  const builtIn = adapter.status === 6;
  // An adapter Cartograph cannot fetch from yet offers its instructions only: no connection can be added.
  const available = canFetch(adapter);
  return (
    <li className="adapter-card">
      <img className="adapter-card__icon" src={adapterImage(adapter.custom ? customAdapterIcon : adapter.slug)} alt="" width={40} height={40} loading="lazy" />
      <div className="adapter-card__body">
        <span className="adapter-card__name">{adapter.name}</span>
        {available && !builtIn ? <AdapterStatusBadge status={adapter.status} /> : null}
        {builtIn ? null : <AdapterCapability adapter={adapter} />}
        {adapter.custom && (
          // A custom adapter's connections take its data files through the upload page; it has no setup instructions.
          <span className="adapter-card__links">
            <Link to="/adapters/connections" search={{ adapter: adapter.slug }}>{t('adapters.connections')}</Link>
            <Link to="/settings/custom-adapter/upload/initial-data" search={{ adapter: adapter.id }}>{t('customAdapters.card.uploadData')}</Link>
          </span>
        )}
        {!builtIn && !adapter.custom && (
          <span className="adapter-card__links">
            {available ? (
              <>
                <Link to="/adapters/connections" search={{ adapter: adapter.slug }}>{t('adapters.connections')}</Link>
                {hasPermission('adapters.add_connection') && <Link to="/adapters/connection/create/$id" params={{ id: adapter.slug }}>{t('adapters.addConnection')}</Link>}
              </>
            ) : null}
            <Link to="/adapters/connections/components/instructions/$tool" params={{ tool: adapter.slug }}>{t('adapters.instructions')}</Link>
          </span>
        )}
      </div>
    </li>
  );
}

/** `/adapters`: every adapter the user may use, by category, with fuzzy search and each one's status. */
export function Adapters() {
  const { adapters } = useSession();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string>(allCategories);
  useEffect(() => setBreadcrumb([{ label: t('adapters.adapters') }]), []);

  const found = useMemo(() => fuzzySearch(adapters, search), [adapters, search]);
  const inCategory = (name: string) => (name === allCategories ? found : found.filter((adapter) => adapter.categories.includes(name)));
  const configured = adapters.filter((adapter) => adapter.status === 1 || adapter.status === 2 || adapter.status === 3).length;
  const grid = (name: string) => {
    const shown = inCategory(name);
    return shown.length ? (
      <ul className="adapter-grid">{shown.map((adapter) => <AdapterCard key={adapter.slug} adapter={adapter} />)}</ul>
    ) : (
      <EmptyState description={search ? t('adapters.noAdapterMatchesSearch', { search }) : t('adapters.noAdapterCategoryOpen')} />
    );
  };

  return (
    <section className="adapters-page">
      <PageHeader title={t('adapters.adapters')} description={t('adapters.lengthAdaptersConfiguredConfigured', { length: adapters.length, configured })} />
      <TextInput label={t('adapters.searchAdapters')} type="search" value={search} onValueChange={setSearch} placeholder={t('adapters.nameOrSlug')} />
      <Tabs
        label={t('adapters.adapterCategories')}
        value={category}
        onValueChange={setCategory}
        tabs={[allCategories, ...adapterCategories].map((name) => ({
          id: name,
          label: name === allCategories ? t('adapters.allCount', { count: inCategory(name).length }) : `${categoryLabel(name)} (${inCategory(name).length})`,
          content: grid(name),
        }))}
      />
    </section>
  );
}
