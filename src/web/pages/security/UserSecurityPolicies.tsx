import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { schemaMessageKey } from '../../../core/schemaMessages';
import { ApiError } from '../../app/http';
import { Badge, EmptyState, ErrorState, Spinner } from '../../ui';
import { userPoliciesQuery } from './securityApi';

const shown = (values: unknown[]) => (values.length ? values.map(String).join(', ') : t('security.noValue'));

/**
 * The user detail's security-policies panel: every enabled policy on users evaluated in the snapshot, those the user
 * fails first (with their remediation), and the user's values of the fields each condition reads. Users have no score.
 */
export function UserSecurityPolicies({ userId, discoveryId }: { userId: string; discoveryId: number }) {
  const explained = useQuery(userPoliciesQuery(userId, discoveryId));
  if (explained.isPending) return <Spinner label={t('security.loadingUserPolicies')} />;
  if (explained.isError) return explained.error instanceof ApiError && explained.error.status === 404 ? <EmptyState title={t('security.noUserPolicies')} /> : <ErrorState message={explained.error.message} onRetry={() => void explained.refetch()} />;
  const { policies } = explained.data;
  if (!policies.length) return <EmptyState title={t('security.noUserPolicies')} description={t('security.noUserPoliciesDescription')} />;
  const failed = policies.filter((policy) => !policy.passed).length;
  return (
    <div className="security-page">
      <p>{failed ? t('security.userFailsPolicies', { failed, total: policies.length }) : t('security.userPassesPolicies', { total: policies.length })}</p>
      <table className="ui-table">
        <caption>{t('security.policiesOnUsers')}</caption>
        <thead><tr><th scope="col">{t('security.policy')}</th><th scope="col">{t('security.result')}</th><th scope="col">{t('security.severity')}</th><th scope="col">{t('security.valuesThatDecided')}</th></tr></thead>
        <tbody>
          {policies.map((policy) => (
            <tr key={policy.id}>
              <td>{policy.name}{policy.cis_safeguard && <span className="security-muted">{' '}{t('security.cisCisSafeguard', { cis_safeguard: policy.cis_safeguard })}</span>}<br /><code>{policy.query}</code></td>
              <td>{policy.passed ? <Badge tone="success">{t('security.passed')}</Badge> : <Badge tone="danger">{t('security.failed')}</Badge>}{!policy.passed && policy.remediation && <p>{policy.remediation}</p>}</td>
              <td>{t(schemaMessageKey('cartograph:entities/security-policy', '/properties/severity', `enum.${policy.severity}`), {}, policy.severity)}</td>
              <td><ul className="security-values">{policy.values.map((value) => <li key={value.field}><code>{value.field}</code>: {shown(value.values)}</li>)}</ul></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
