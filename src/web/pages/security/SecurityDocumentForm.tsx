import { t } from '../../app/i18n/messages';
import { formatNumber } from '../../../core/format/numbers';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { apiFetch, useFieldErrors } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { formModelOf, shownFieldsOf, initialValuesOf, type EntitySchema, type FormModel } from '../../renderers/form/formSchema';
import { SchemaForm } from '../../renderers/form/SchemaForm';
import { LivePreview, useSettled } from '../../renderers/preview/LivePreview';
import { Button, Card, ErrorState, PageHeader, Spinner } from '../../ui';
import { previewQuery, type PolicyInventory, type Preview } from './securityApi';
import { DeviceLink, UserLink } from './scoreParts';
import { localizedSchema } from '../../renderers/schema/localizedSchema';

type Values = Record<string, unknown>;

export type SecurityFormProps = {
  kind: 'profile' | 'policy';
  schema: unknown;
  path: string;
  listPath: '/security-manager/asset-profile' | '/security-manager/security-policy';
  listLabel: string;
  /** The record edited (null: a new one). */
  id: number | null;
  /** Adapts the schema's form to the inventory chosen (a policy's profile choices, which only devices have). */
  adaptModel?: (model: FormModel, inventory: PolicyInventory) => FormModel;
  /** Shown under the form when editing (a profile's members). */
  children?: ReactNode;
};

/** What a policy being edited checks (a profile, devices). */
const inventoryOf = (kind: 'profile' | 'policy', values: Values): PolicyInventory => (kind === 'policy' && values.inventory === 'user' ? 'user' : 'device');

/**
 * The preview of the text being typed, after a pause: how many devices (or, for a policy on users, users) match,
 * apply and fail on the latest snapshot, with some of those that fail.
 */
function SecurityPreview({ kind, values }: { kind: 'profile' | 'policy'; values: Values }) {
  const settled = useSettled(values);
  const text = String(settled.query ?? '');
  const inventory = inventoryOf(kind, settled);
  const profileIds = inventory === 'device' ? ((settled.profile_ids as number[] | undefined) ?? []) : [];
  return (
    <LivePreview
      title={t('security.previewLatestSnapshot')}
      query={text.trim() ? previewQuery(kind, text, profileIds, inventory) : null}
      idle={t('security.writeQuerySeeWhich')}
      countingLabel={inventory === 'user' ? t('security.countingUsers') : t('security.countingDevices')}
    >
      {(data) => (
        <>
          {kind === 'profile' ? (
            <p><strong>{formatNumber(data.matching)}</strong>{' '}{t('security.deviceSLatestSnapshot')}</p>
          ) : (
            <p>{t('security.appliesTo')}{' '}<strong>{formatNumber(data.applicable)}</strong>{' '}{data.inventory === 'user' ? t('security.userS') : t('security.deviceS')}{' '}<strong>{formatNumber(data.passing)}</strong>{' '}{t('security.pass')}{' '}<strong>{formatNumber(data.failing)}</strong>{' '}{t('security.fail')}</p>
          )}
          {data.sample.length > 0 && (
            <>
              <p className="security-muted">{kind === 'profile' ? t('security.forExample') : t('security.failingForExample')}</p>
              <ul>
                {data.sample.map((asset) => (
                  <li key={asset.asset_id}>{data.inventory === 'user' ? <UserLink assetId={asset.asset_id} indexId={data.index_id} names={asset} /> : <DeviceLink assetId={asset.asset_id} indexId={data.index_id} name={asset.hostname ?? null} />}</li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </LivePreview>
  );
}

/** The create and edit forms of profiles and policies: schema-rendered, with the live preview beside them. */
export function SecurityDocumentForm({ kind, schema, path, listPath, listLabel, id, adaptModel, children }: SecurityFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const existing = useQuery({ queryKey: [kind === 'profile' ? 'asset-profiles' : 'security-policies', 'one', id], queryFn: () => apiFetch<Values>(`${path}/${id}`), enabled: id !== null });
  const base = useMemo(() => formModelOf(schema as EntitySchema, id === null ? 'create' : 'edit'), [schema, id]);
  const initial = useMemo(() => (existing.data ? initialValuesOf(base, existing.data) : {}), [existing.data, base]);
  const [values, setValues] = useState<Values>(initial);
  useEffect(() => setValues(initial), [initial]);
  // The form follows the inventory chosen: a policy on users has no asset profiles to choose.
  const inventory = inventoryOf(kind, values);
  const model = useMemo(() => (adaptModel ? adaptModel(base, inventory) : base), [base, adaptModel, inventory]);
  const callPath = id === null ? path : `${path}/${id}`;
  const serverErrors = useFieldErrors(callPath, shownFieldsOf(model));
  const name = existing.data?.name as string | undefined;
  useEffect(() => setBreadcrumb([{ label: t('security.securityManager'), to: '/security-manager' }, { label: listLabel, to: listPath }, { label: id === null ? t('security.new') : (name ?? String(id)) }]), [id, name, listLabel, listPath]);

  if (existing.isError) return <ErrorState message={existing.error.message} onRetry={() => void existing.refetch()} />;
  if (id !== null && existing.isPending) return <Spinner label={t('security.loading')} />;
  const save = async (body: Values) => {
    // Profiles ticked before the inventory became users are hidden and not meant: a user policy applies to every user.
    await apiFetch(callPath, { method: id === null ? 'POST' : 'PUT', body: inventoryOf(kind, body) === 'user' && 'profile_ids' in body ? { ...body, profile_ids: [] } : body });
    notify('success', t('security.stringWasSavedApplies', { String: String(body.name) }));
    await queryClient.invalidateQueries({ queryKey: [kind === 'profile' ? 'asset-profiles' : 'security-policies'] });
    void navigate({ to: listPath });
  };
  const title = id !== null ? t('security.editName', { name: name ?? '' }) : kind === 'profile' ? t('security.newAssetProfile') : t('security.newSecurityPolicy');
  return (
    <section className="security-page">
      <PageHeader title={title} description={localizedSchema(schema as EntitySchema).description} />
      <div className="security-grid">
        <Card>
          <SchemaForm
            key={String(existing.dataUpdatedAt)}
            model={model}
            initialValues={initial}
            serverErrors={serverErrors}
            onSubmit={save}
            onValuesChange={setValues}
            actions={<Button variant="secondary" onClick={() => void navigate({ to: listPath })}>{t('security.cancel')}</Button>}
          />
        </Card>
        <SecurityPreview kind={kind} values={values} />
      </div>
      {children}
    </section>
  );
}
