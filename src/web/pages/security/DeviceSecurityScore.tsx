import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../app/http';
import { Badge, EmptyState, ErrorState, Spinner } from '../../ui';
import { deviceScoreQuery } from './securityApi';
import { ScoreBadge } from './scoreParts';

const shown = (values: unknown[]) => (values.length ? values.map(String).join(', ') : t('security.noValue'));

/** The device detail's security-score panel: the score, the formula, and every policy that applied with the values that decided. */
export function DeviceSecurityScore({ deviceId, discoveryId }: { deviceId: string; discoveryId: number }) {
  const explained = useQuery(deviceScoreQuery(deviceId, discoveryId));
  if (explained.isPending) return <Spinner label={t('security.loadingSecurityScore')} />;
  if (explained.isError) return explained.error instanceof ApiError && explained.error.status === 404 ? <EmptyState title={t('security.notScored')} /> : <ErrorState message={explained.error.message} onRetry={() => void explained.refetch()} />;
  const data = explained.data;
  if (data.score === null) return <EmptyState title={t('security.notScoredSnapshot')} description={t('security.noEnabledSecurityPolicy')} />;
  return (
    <div className="security-page">
      <p>{t('security.securityScore')}{' '}<ScoreBadge score={data.score} /> {data.profiles.length > 0 && <>{t('security.in')}{' '}{data.profiles.map((profile) => `${profile.name} (criticality ${profile.criticality})`).join(', ')}</>}</p>
      <p className="security-muted">{data.formula}</p>
      <table className="ui-table">
        <caption>{t('security.policiesThatApplied')}</caption>
        <thead><tr><th scope="col">{t('security.policy')}</th><th scope="col">{t('security.result')}</th><th scope="col">{t('security.weight')}</th><th scope="col">{t('security.valuesThatDecided')}</th></tr></thead>
        <tbody>
          {data.policies.map((policy) => (
            <tr key={policy.id}>
              <td>{policy.name}{policy.cis_safeguard && <span className="security-muted">{' '}{t('security.cisCisSafeguard', { cis_safeguard: policy.cis_safeguard })}</span>}<br /><code>{policy.query}</code></td>
              <td>{policy.passed ? <Badge tone="success">{t('security.passed')}</Badge> : <Badge tone="danger">{t('security.failed')}</Badge>}{!policy.passed && policy.remediation && <p>{policy.remediation}</p>}</td>
              <td>{policy.weight} × {policy.criticality} = {policy.effective_weight}</td>
              <td><ul className="security-values">{policy.values.map((value) => <li key={value.field}><code>{value.field}</code>: {shown(value.values)}</li>)}</ul></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
