import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useCallback } from 'react';
import policySchema from '../../../../schemas/entities/security-policy.json';
import type { FormModel } from '../../renderers/form/formSchema';
import { Spinner } from '../../ui';
import { policiesPath, profileListQuery, type PolicyInventory } from './securityApi';
import { SecurityDocumentForm } from './SecurityDocumentForm';

/**
 * `/security-manager/security-policy/create` and `/edit/{id}`: the inventory it checks (devices or users) is chosen
 * first; a device policy's profiles are chosen by name, a user policy has none (profiles hold devices).
 */
export function SecurityPolicyForm() {
  const params = useParams({ strict: false }) as { id?: string };
  const id = params.id ? Number(params.id) : null;
  const profiles = useQuery(profileListQuery({ page: 1, size: 500, ordering: 'name' }));
  const adaptModel = useCallback(
    (model: FormModel, inventory: PolicyInventory): FormModel => {
      const choices = inventory === 'device' ? (profiles.data?.results ?? []) : [];
      const property = (model.schema.properties?.profile_ids ?? {}) as Record<string, unknown>;
      const items = choices.length ? { type: 'integer', oneOf: choices.map((profile) => ({ const: profile.id, title: profile.name })) } : property.items;
      return {
        ...model,
        schema: { ...model.schema, properties: { ...model.schema.properties, profile_ids: { ...property, items } as never } },
        uiSchema: { ...model.uiSchema, profile_ids: { ...(model.uiSchema.profile_ids as object), ...(choices.length ? { 'ui:widget': 'checkboxes' } : { 'ui:widget': 'hidden' }), 'ui:description': t('security.noneChosenEveryDevice') } },
      };
    },
    [profiles.data],
  );
  if (profiles.isPending) return <Spinner label={t('security.loadingProfiles')} />;
  return <SecurityDocumentForm kind="policy" schema={policySchema} path={policiesPath} listPath="/security-manager/security-policy" listLabel={t('security.securityPolicies')} id={id} adaptModel={adaptModel} />;
}
