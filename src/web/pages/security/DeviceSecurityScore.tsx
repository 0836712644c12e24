import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../app/http';
import { Badge, EmptyState, ErrorState, Spinner } from '../../ui';
import { deviceScoreQuery } from './securityApi';
import { ScoreBadge } from './scoreParts';

const shown = (values: unknown[]) => (values.length ? values.map(String).join(', ') : 'no value');

/** The device detail's security-score panel: the score, the formula, and every policy that applied with the values that decided. */
export function DeviceSecurityScore({ deviceId, discoveryId }: { deviceId: string; discoveryId: number }) {
  const explained = useQuery(deviceScoreQuery(deviceId, discoveryId));
  if (explained.isPending) return <Spinner label="Loading the security score" />;
  if (explained.isError) return explained.error instanceof ApiError && explained.error.status === 404 ? <EmptyState title="Not scored" /> : <ErrorState message={explained.error.message} onRetry={() => void explained.refetch()} />;
  const data = explained.data;
  if (data.score === null) return <EmptyState title="Not scored in this snapshot" description="No enabled security policy applied to this device when the snapshot was published." />;
  return (
    <div className="security-page">
      <p>Security score <ScoreBadge score={data.score} /> {data.profiles.length > 0 && <>in {data.profiles.map((profile) => `${profile.name} (criticality ${profile.criticality})`).join(', ')}</>}</p>
      <p className="security-muted">{data.formula}</p>
      <table className="ui-table">
        <caption>Policies that applied</caption>
        <thead><tr><th scope="col">Policy</th><th scope="col">Result</th><th scope="col">Weight</th><th scope="col">Values that decided</th></tr></thead>
        <tbody>
          {data.policies.map((policy) => (
            <tr key={policy.id}>
              <td>{policy.name}{policy.cis_safeguard && <span className="security-muted"> (CIS {policy.cis_safeguard})</span>}<br /><code>{policy.query}</code></td>
              <td>{policy.passed ? <Badge tone="success">Passed</Badge> : <Badge tone="danger">Failed</Badge>}{!policy.passed && policy.remediation && <p>{policy.remediation}</p>}</td>
              <td>{policy.weight} × {policy.criticality} = {policy.effective_weight}</td>
              <td><ul className="security-values">{policy.values.map((value) => <li key={value.field}><code>{value.field}</code>: {shown(value.values)}</li>)}</ul></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
