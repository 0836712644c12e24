import { t } from '../../app/i18n/messages';
import { formatNumber } from '../../../core/format/numbers';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { apiFetch, useFieldErrors } from '../../app/http';
import { navigateTo } from '../../app/navigation';
import { notify } from '../../app/notifications/notifications';
import type { PageProps } from '../../app/pageModules';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { formModelOf, initialValuesOf, shownFieldsOf, type EntitySchema as FormEntitySchema } from '../../renderers/form/formSchema';
import { SchemaForm } from '../../renderers/form/SchemaForm';
import { entitySchemaQuery } from '../../renderers/schema/entitySchema';
import { Button, Card, Checkbox, ErrorState, PageHeader, Select, Spinner, TextInput, Textarea } from '../../ui';
import { LivePreview, useSettled } from '../../renderers/preview/LivePreview';
import { AssetLink } from '../inventories/assetLinks';
import { inventoryKindOfEntity } from '../inventories/inventoryKinds';
import { actionQuery, scopePreviewQuery, type ActionItem, type ScopePreview } from './actionApi';
import { actionCenterPath, actionTypes, parameterSchemaOf } from './actionPages';
import './actions.css';

type General = Omit<ActionItem, 'id' | 'parameters' | 'last_run'>;
type Values = Record<string, unknown>;

const maskedSecret = '**********';
const entities = ['device', 'user', 'software', 'vulnerability', 'certificate', 'service', 'license'].map((value) => ({ value, label: value }));
const triggers = [{ value: 'manual', get label() { return t('actions.byHand'); } }, { value: 'discovery', get label() { return t('actions.afterEveryDiscovery'); } }, { value: 'schedule', get label() { return t('actions.onASchedule'); } }];
// A new action runs by hand, so it starts off; choosing a trigger that runs it by itself turns it on (issue 36).
const blank: General = { name: '', description: '', enabled: false, trigger: 'manual', cron: '0 6 * * *', timezone: 'UTC', scope: { entity: 'device', query: '', only_new: false }, type: 'webhook' };

/** `{"parameters.url": [...], "name": [...]}` → the type form's errors (`url`) and the general fields' errors. */
function splitErrors(errors: Record<string, string[]>) {
  const parameters: Record<string, string[]> = {};
  const general: Record<string, string> = {};
  for (const [field, messages] of Object.entries(errors)) {
    if (field.startsWith('parameters.')) parameters[field.slice('parameters.'.length)] = messages;
    else general[field] = messages[0];
  }
  return { parameters, general };
}

/** How many assets the scope being typed matches on the latest snapshot, as the security policy editor shows. */
function ScopePreviewCard({ scope }: { scope: General['scope'] }) {
  const settled = useSettled(scope);
  const kind = inventoryKindOfEntity(settled.entity);
  return (
    <LivePreview
      title={t('actions.previewLatestSnapshot')}
      query={scopePreviewQuery(settled)}
      idle={null}
      countingLabel={t('actions.countingAssets')}
    >
      {(data) => (
        <>
          <p>{t('actions.assetsMatch', { count: formatNumber(data.matching) })}</p>
          {data.sample.length > 0 && kind ? (
            <>
              <p className="live-preview__muted">{t('actions.forExample')}</p>
              <ul>{data.sample.map((asset) => <li key={asset.asset_id}><AssetLink kind={kind} id={asset.asset_id} discoveryId={data.index_id} name={asset.name} /></li>)}</ul>
            </>
          ) : null}
        </>
      )}
    </LivePreview>
  );
}

function Editor({ stored }: { stored: ActionItem | null }) {
  const [general, setGeneral] = useState<General>(stored ? { ...blank, ...stored } : blank);
  const schemaQuery = useQuery(entitySchemaQuery(parameterSchemaOf(general.type)));
  const savedQueries = useQuery({ queryKey: ['saved-queries-for-actions'], queryFn: () => apiFetch<{ results: { id: number; name: string }[] }>('/queries/queries', { query: { size: 500 } }) });
  const editingSameType = stored !== null && stored.type === general.type;
  const model = useMemo(() => (schemaQuery.data ? formModelOf(schemaQuery.data as unknown as FormEntitySchema, editingSameType ? 'edit' : 'create') : null), [schemaQuery.data, editingSameType]);
  const callPath = stored ? `/actions/actions/${stored.id}` : '/actions/actions';
  const shown = ['name', 'description', 'scope.saved_query', 'scope.query', ...(general.trigger === 'schedule' ? ['cron', 'timezone'] : []), ...(model ? shownFieldsOf(model).map((field) => `parameters.${field}`) : [])];
  const errors = splitErrors(useFieldErrors(callPath, shown));
  const queryClient = useQueryClient();
  const change = (changes: Partial<General>) => setGeneral((current) => ({ ...current, ...changes }));
  const [enabledTouched, setEnabledTouched] = useState(stored !== null);
  const changeTrigger = (trigger: General['trigger']) => change(enabledTouched ? { trigger } : { trigger, enabled: trigger !== 'manual' });
  const changeScope = (changes: Partial<General['scope']>) => setGeneral((current) => ({ ...current, scope: { ...current.scope, ...changes } }));

  const save = async (parameters: Values) => {
    // A secret left empty while editing keeps its stored value (the server answers it masked and keeps it when sent back).
    const kept = editingSameType && model ? Object.fromEntries(model.secrets.filter((field) => !parameters[field]).map((field) => [field, maskedSecret])) : {};
    const { scope } = general;
    const body = {
      ...general,
      scope: { entity: scope.entity, query: scope.query ?? '', only_new: Boolean(scope.only_new), ...(scope.saved_query && { saved_query: scope.saved_query }) },
      parameters: { ...parameters, ...kept },
    };
    await apiFetch(callPath, { method: stored ? 'PUT' : 'POST', body });
    await queryClient.invalidateQueries({ queryKey: ['actions'] });
    notify('success', stored ? t('actions.changesSaved') : t('actions.actionCreatedDryRun'));
    navigateTo(actionCenterPath);
  };

  return (
    <div className="action-form">
      <Card>
        <div className="action-form__row">
          <TextInput label={t('actions.name')} required value={general.name} onValueChange={(name) => change({ name })} error={errors.general.name} />
          <Select label={t('actions.type')} value={general.type} onValueChange={(type) => change({ type })} options={actionTypes.map((entry) => ({ value: entry.type, label: entry.label }))} />
        </div>
        <Textarea label={t('actions.description')} rows={2} value={general.description ?? ''} onValueChange={(description) => change({ description })} error={errors.general.description} />
        <div className="action-form__row">
          <Select label={t('actions.runs')} value={general.trigger} onValueChange={(trigger) => changeTrigger(trigger as General['trigger'])} options={triggers} />
          {general.trigger === 'schedule' ? <TextInput label={t('actions.cronExpression')} value={general.cron ?? ''} onValueChange={(cron) => change({ cron })} error={errors.general.cron} message={t('actions.fiveFieldsMinuteHour')} /> : null}
          {general.trigger === 'schedule' ? <TextInput label={t('actions.timeZone')} value={general.timezone ?? 'UTC'} onValueChange={(timezone) => change({ timezone })} error={errors.general.timezone} /> : null}
        </div>
        <Checkbox label={t('actions.enabledRunsAfterDiscoveries')} checked={general.enabled !== false} onCheckedChange={(enabled) => { setEnabledTouched(true); change({ enabled }); }} />
      </Card>
      <Card>
        <div className="action-form__row">
          <Select label={t('actions.inventory')} value={general.scope.entity} onValueChange={(entity) => changeScope({ entity })} options={entities} />
          <Select label={t('actions.savedQuery')} placeholder={t('actions.none')} value={general.scope.saved_query ? String(general.scope.saved_query) : ''}
            onValueChange={(value) => changeScope({ saved_query: value ? Number(value) : undefined })}
            options={(savedQueries.data?.results ?? []).map((query) => ({ value: String(query.id), label: query.name }))} error={errors.general['scope.saved_query']} />
        </div>
        <Textarea label={t('actions.query')} rows={2} value={general.scope.query ?? ''} onValueChange={(query) => changeScope({ query })} error={errors.general['scope.query']}
          message={t('actions.assetsActsInventoryS')} />
        <Checkbox label={t('actions.onlyAssetsNewSince')} checked={Boolean(general.scope.only_new)} onCheckedChange={(only_new) => changeScope({ only_new })} />
      </Card>
      <ScopePreviewCard scope={general.scope} />
      <Card>
        <h2 className="actions-page__history-title">{schemaQuery.data?.title ?? t('actions.parameters')}</h2>
        {schemaQuery.data?.description ? <p>{schemaQuery.data.description}</p> : null}
        {schemaQuery.isError ? <ErrorState message={schemaQuery.error.message} /> : null}
        {model ? (
          <SchemaForm key={`${general.type}-${stored?.id ?? 'new'}`} model={model}
            initialValues={editingSameType && stored ? initialValuesOf(model, stored.parameters) : {}}
            serverErrors={errors.parameters} onSubmit={save} submitLabel={stored ? t('actions.save') : t('actions.create')}
            actions={<Button variant="secondary" onClick={() => navigateTo(actionCenterPath)}>{t('actions.cancel')}</Button>} />
        ) : <Spinner label={t('actions.loadingTypeSForm')} />}
      </Card>
    </div>
  );
}

/** `/action-center/create` and `/action-center/edit/{id}`: name, trigger, scope, and the type's parameters form. */
export function ActionForm(_props: PageProps) {
  const { id } = useParams({ strict: false }) as { id?: string };
  const numeric = id ? Number(id) : null;
  const stored = useQuery({ ...actionQuery(numeric ?? 0), enabled: numeric !== null });
  useEffect(() => setBreadcrumb([{ label: t('actions.actionCenter'), to: actionCenterPath }, { label: numeric === null ? t('actions.create') : stored.data?.name ?? String(numeric) }]), [numeric, stored.data?.name]);
  if (numeric !== null && stored.isPending) return <Spinner label={t('actions.loadingTheAction')} />;
  if (numeric !== null && stored.isError) return <ErrorState message={stored.error.message} onRetry={() => void stored.refetch()} />;
  return (
    <section className="actions-page">
      <PageHeader title={numeric === null ? t('actions.createAction') : t('actions.editName', { name: stored.data?.name ?? '' })} description={t('actions.whatActsWhenWhat')} />
      <Editor key={stored.data?.id ?? 'new'} stored={stored.data ?? null} />
    </section>
  );
}
