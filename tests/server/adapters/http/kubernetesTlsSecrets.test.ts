// Kubernetes TLS secrets as certificates: the replay fixture's kubernetes.io/tls secret gives its certificate, while
// the private key the API answers alongside (in data and in kubectl's last-applied-configuration annotation) is
// never part of the record kept; without the option the secrets are not even listed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { derOfReported } from '../../../../src/server/certificates/certificateInput.js';
import { factsOfDer } from '../../../../src/server/certificates/certificateFacts.js';
import type { Manifest } from '../../../../src/server/adapters/http/manifest.js';
import { startReplayServer, withReplayUrl, type ReplayFixture } from '../../../support/replayServer.js';
import { collect } from './helpers.js';

const manifest = JSON.parse(readFileSync('schemas/adapters/kubernetes/manifest.json', 'utf8')) as Manifest;
const fixture = JSON.parse(readFileSync('schemas/adapters/kubernetes/fixtures/replay.json', 'utf8')) as ReplayFixture;

async function fetchWith(config: Record<string, unknown>) {
  const server = await startReplayServer(fixture.exchanges);
  try {
    const { records } = await collect(manifest, withReplayUrl(config, server.url));
    return { records, received: server.received };
  } finally {
    await server.close();
  }
}

describe('Kubernetes TLS secrets', () => {
  it('become certificate records holding the certificate and never the key', async () => {
    const { records } = await fetchWith(fixture.config);
    const certificates = records.filter((record) => record.entity === 'certificate');
    expect(certificates).toHaveLength(1);
    const [certificate] = certificates;
    const der = derOfReported((certificate.fields.Pem as string) ?? '');
    expect(der).not.toBeNull();
    expect(factsOfDer(der!)).toMatchObject({ commonName: 'grafana.shop.svc', keyAlgorithm: 'rsa', keySize: 2048 });
    const kept = JSON.stringify(certificate);
    expect(kept).not.toMatch(/tls\.key|PRIVATE KEY|last-applied|LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0t/);
    expect(certificate.raw).toEqual({ namespace: 'shop', name: 'grafana-tls', uid: '5b1e7c2a-9d3f-4e61-8a0b-2c4d6e8f0a1b', creationTimestamp: '2026-11-25T11:02:39Z', labels: { 'app.kubernetes.io/name': 'grafana', 'controller.cert-manager.io/fao': 'true' }, issuer: 'internal-ca' });
  });

  it('are not listed unless the connection asks for them', async () => {
    const { records, received } = await fetchWith({ ...fixture.config, fetch_tls_certificates: false });
    expect(records.some((record) => record.entity === 'certificate')).toBe(false);
    expect(received.some((request) => request.path.endsWith('/secrets'))).toBe(false);
  });
});
