import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button, Dialog, EmptyState, Table, TextInput, type TableColumn } from '../../ui';
import type { InventoryKind } from './inventoryKinds';
import { savedQueryListQuery, type SavedQueryResponse } from './savedQueriesApi';

type LoadQueryDialogProps = { kind: InventoryKind; onLoad: (query: string) => void; onClose: () => void };

/** The inventory's saved queries, searchable, each loaded into the list in one click; a link leads to their page. */
export function LoadQueryDialog({ kind, onLoad, onClose }: LoadQueryDialogProps) {
  const [search, setSearch] = useState('');
  const list = useQuery(savedQueryListQuery({ type: kind.queryType, page: 1, size: 50, search, ordering: 'name' }));
  const columns: TableColumn<SavedQueryResponse>[] = [
    { id: 'name', header: t('inventories.name'), cell: (row) => row.name },
    { id: 'text', header: t('inventories.query'), cell: (row) => <code>{row.text}</code> },
    { id: 'load', header: t('inventories.actions'), cell: (row) => <Button variant="link" aria-label={t('inventories.loadNamedQuery', { name: row.name })} onClick={() => onLoad(row.text)}>{t('inventories.load')}</Button> },
  ];
  return (
    <Dialog
      open
      onClose={onClose}
      size="large"
      title={t('inventories.loadSavedQuery')}
      footer={
        <>
          <Link className="ui-button ui-button--secondary ui-button--medium" to={`${kind.basePath}/saved-queries`}>{t('inventories.savedQueries')}</Link>
          <Button variant="secondary" onClick={onClose}>{t('inventories.cancel')}</Button>
        </>
      }
    >
      <TextInput label={t('inventories.searchSavedQueries')} type="search" value={search} debounce={300} onValueChange={setSearch} />
      <Table
        caption={t('inventories.savedQueries')}
        columns={columns}
        rows={list.data?.results ?? []}
        rowKey={(row) => row.id}
        loading={list.isFetching}
        empty={<EmptyState title={search ? t('inventories.noSavedQueryMatches') : t('inventories.noSavedQueryYet')} />}
      />
    </Dialog>
  );
}
