import { isIP } from 'node:net';
import { factsOfDer, factsOfReported, daysToExpiry, expiryStatus, weaknessesOf, normalizeSerial, type CertificateFacts } from '../../certificates/certificateFacts.js';
import { derOfReported } from '../../certificates/certificateInput.js';
import type { Queryable } from '../../db/database.js';
import type { MergedAsset } from '../mergeAssets.js';
import { writeAssets, writeBehind } from '../snapshotWriter.js';
import type { DeviceLinks } from '../software/deviceLinks.js';
import { firstText, inventoryAssetId, observations, type ObservationWarnings } from '../software/observations.js';
import { customCertificateSightings, type CertificateSighting } from './customCertificateSource.js';

// The certificate inventory of a snapshot. Every source's certificate records (the TLS scanner's chains, certificate
// managers' lists, uploaded custom certificates) are sightings of certificates: the same certificate is one asset,
// keyed by its SHA-256 fingerprint (or, when a source gives no bytes nor fingerprint, its SHA-1 thumbprint or its
// serial), and each endpoint a sighting names is one row of `snapshot_certificate_places` with the device behind it.

/** The stream entity of certificate records. */
export const certificateEntity = 'certificate';

const rowsPerWrite = 1000;
// Bounds on what one certificate lists, so a wildcard served on every host stays one readable row; counts stay exact.
const keptEndpoints = 200;
const keptHostnames = 200;

export type { CertificateSighting } from './customCertificateSource.js';

type Entry = {
  facts: CertificateFacts;
  /** Whether the facts were read from the certificate itself (they then win over any source's description). */
  parsed: boolean;
  chain: string[];
  chainVerified: boolean | null;
  verificationError: string | null;
  endpoints: Set<string>;
  endpointCount: number;
  devices: Set<string>;
  hostnames: Set<string>;
  adapters: Set<string>;
  connections: Set<number>;
};

type PlaceRow = { c: string; h: string; p: number | null; s: string | null; d: string | null; ch: string[]; v: boolean | null; e: string | null; t: string | null; a: string; n: number; i: boolean };

function writePlaces(db: Queryable, discoveryId: number, rows: PlaceRow[]): Promise<unknown> {
  return db.query(
    `insert into snapshot_certificate_places (discovery_id, certificate_asset, host, port, sni, device_asset, chain, chain_verified, verification_error, tls_version, adapter, connection_id, installed)
     select $1, c, h, p, s, d, coalesce(ch, '{}'), v, e, t, a, n, i from json_to_recordset($2::json) as batch(c text, h text, p int, s text, d text, ch text[], v boolean, e text, t text, a text, n int, i boolean)`,
    [discoveryId, JSON.stringify(rows)],
  );
}

/** The identity of a certificate: its SHA-256 fingerprint, else its SHA-1 thumbprint, else issuer and serial. */
function identityOf(facts: CertificateFacts): string | null {
  if (facts.fingerprintSha256) return `sha256:${facts.fingerprintSha256}`;
  if (facts.fingerprintSha1) return `sha1:${facts.fingerprintSha1}`;
  if (facts.serialNumber) return `serial:${(facts.issuerCommonName ?? facts.issuer ?? '').toLowerCase()}|${facts.serialNumber}`;
  return null;
}

const flag = (values: unknown[] | undefined): boolean | null => (typeof values?.[0] === 'boolean' ? (values[0] as boolean) : null);

/** Reads a sighting's certificate: from its bytes when it carries them (`Pem`), else from what the source says. */
function readFacts(sighting: CertificateSighting, warnings: ObservationWarnings): { facts: CertificateFacts; parsed: boolean } {
  const der = derOfReported(firstText(sighting.fields.Pem) ?? firstText(sighting.fields.Certificate));
  if (der) {
    try {
      return { facts: factsOfDer(der), parsed: true };
    } catch (error) {
      warnings.add(sighting.connectionId, 'certificates could not be read and are kept as the source describes them', (error as Error).message);
    }
  } else if (sighting.fields.Pem?.length) {
    warnings.add(sighting.connectionId, 'certificates could not be read and are kept as the source describes them', sighting.key);
  }
  return { facts: factsOfReported(sighting.fields), parsed: false };
}

/** Where a sighting says the certificate is served: `Host` (or `Endpoint`, `host:port`), `Port`, `Sni`. */
function placeOf(fields: Record<string, unknown[]>): { host: string; port: number | null; sni: string | null } | null {
  let host = firstText(fields.Host);
  let port = Number(firstText(fields.Port)) || null;
  const endpoint = firstText(fields.Endpoint);
  if (!host && endpoint) {
    const match = /^\[?([^\]]+?)\]?(?::(\d{1,5}))?$/.exec(endpoint);
    host = match?.[1] ?? null;
    port ??= Number(match?.[2]) || null;
  }
  if (!host) return null;
  return { host: host.toLowerCase(), port, sni: firstText(fields.Sni)?.toLowerCase() ?? null };
}

function certificateAsset(id: string, entry: Entry, now: Date): MergedAsset {
  const facts = entry.facts;
  const weaknesses = weaknessesOf(facts);
  const status = expiryStatus(facts.notAfter, now);
  const adapters = [...entry.adapters].sort();
  const value = <T>(item: T | null | undefined): T[] | undefined => (item === null || item === undefined || item === '' ? undefined : [item]);
  const fields: Record<string, unknown[] | undefined> = {
    Name: [facts.commonName ?? facts.subject ?? facts.serialNumber ?? id],
    CommonName: value(facts.commonName),
    Subject: value(facts.subject),
    Issuer: value(facts.issuer ?? facts.issuerCommonName),
    IssuerCommonName: value(facts.issuerCommonName),
    SubjectAltNames: facts.subjectAltNames.length ? facts.subjectAltNames : undefined,
    SerialNumber: value(facts.serialNumber),
    NotBefore: value(facts.notBefore),
    NotAfter: value(facts.notAfter),
    DaysToExpiry: value(facts.notAfter ? daysToExpiry(facts.notAfter, now) : null),
    ExpiryStatus: value(status),
    KeyAlgorithm: value(facts.keyAlgorithm),
    KeySize: value(facts.keySize),
    KeyCurve: value(facts.keyCurve),
    SignatureAlgorithm: value(facts.signatureAlgorithm),
    Weaknesses: weaknesses.length ? weaknesses : undefined,
    Weak: [weaknesses.length > 0],
    FingerprintSha256: value(facts.fingerprintSha256),
    FingerprintSha1: value(facts.fingerprintSha1),
    SelfSigned: value(facts.selfSigned),
    IsCa: value(facts.isCa),
    ChainVerified: value(entry.chainVerified),
    VerificationError: value(entry.chainVerified ? null : entry.verificationError),
    ChainFingerprints: entry.chain.length ? entry.chain : undefined,
    Endpoints: entry.endpoints.size ? [...entry.endpoints].sort() : undefined,
    EndpointCount: [entry.endpointCount],
    DeviceCount: [entry.devices.size],
    Hostnames: entry.hostnames.size ? [...entry.hostnames].sort() : undefined,
    Adapters: adapters,
    AdapterCount: [adapters.length],
    Connections: [...entry.connections].filter((connection) => connection > 0).sort((left, right) => left - right),
    PrimaryKey: [id],
  };
  const defined = Object.fromEntries(Object.entries(fields).filter(([, values]) => values !== undefined)) as MergedAsset['fields'];
  return { id, fields: defined, specifics: {}, preferred: {}, recordKeys: [], adapters, reasons: [] };
}

/** Fills what `into` lacks from `from` (a source without the certificate's bytes may still know its chain status). */
function mergeEntries(into: Entry, from: Entry): void {
  if (from.parsed && !into.parsed) [into.facts, into.parsed] = [from.facts, true];
  if (!into.chain.length) into.chain = from.chain;
  if (from.chainVerified !== null) into.chainVerified = into.chainVerified || from.chainVerified;
  into.verificationError ??= from.verificationError;
  for (const endpoint of from.endpoints) if (into.endpoints.size < keptEndpoints) into.endpoints.add(endpoint);
  into.endpointCount += from.endpointCount;
  for (const key of ['devices', 'hostnames', 'adapters', 'connections'] as const) for (const item of from[key] as Set<never>) (into[key] as Set<never>).add(item);
}

/**
 * Builds the certificate inventory of a snapshot: reads every certificate record (and the company's custom
 * certificates), folds the sightings of one certificate into one asset, writes one place per endpoint served with
 * its device, and answers how many certificates it wrote. `now` is the moment expiry statuses are computed for.
 */
export async function buildCertificateInventory(db: Queryable, discoveryId: number, devices: DeviceLinks, warnings: ObservationWarnings, now = new Date()): Promise<number> {
  const entries = new Map<string, Entry>();
  const writer = writeBehind();
  let batch: PlaceRow[] = [];
  const push = async (row: PlaceRow) => {
    batch.push(row);
    if (batch.length >= rowsPerWrite) {
      const rows = batch;
      batch = [];
      await writer.push(() => writePlaces(db, discoveryId, rows));
    }
  };
  // A certificate reported on a device (its identifiers, no endpoint) is installed there: a place named after the
  // device, counted among the certificate's devices but not its endpoints.
  const installedOn = async (sighting: CertificateSighting, key: string, entry: Entry, chain: string[], verified: boolean | null) => {
    const named = firstText(sighting.fields.Hostname) ?? firstText(sighting.fields.IpAddresses);
    if (!named) return;
    const device = devices.link(sighting.connectionId, sighting.fields);
    if (!device) return;
    entry.devices.add(device.asset);
    await push({
      c: inventoryAssetId(certificateEntity, key), h: named.toLowerCase(), p: null, s: null, d: device.asset, ch: chain, v: verified,
      e: firstText(sighting.fields.VerificationError), t: null, a: sighting.adapter, n: sighting.connectionId, i: true,
    });
  };
  const read = async (sighting: CertificateSighting) => {
    const { facts, parsed } = readFacts(sighting, warnings);
    const key = identityOf(facts);
    if (!key) {
      warnings.add(sighting.connectionId, 'certificate records without a fingerprint nor a serial number were skipped', sighting.key);
      return;
    }
    let entry = entries.get(key);
    if (!entry) {
      entry = { facts, parsed, chain: [], chainVerified: null, verificationError: null, endpoints: new Set(), endpointCount: 0, devices: new Set(), hostnames: new Set(), adapters: new Set(), connections: new Set() };
      entries.set(key, entry);
    } else if (parsed && !entry.parsed) [entry.facts, entry.parsed] = [facts, true];
    entry.adapters.add(sighting.adapter);
    entry.connections.add(sighting.connectionId);
    const chain = (sighting.fields.ChainFingerprints ?? []).filter((fingerprint): fingerprint is string => typeof fingerprint === 'string');
    if (!entry.chain.length && chain.length) entry.chain = chain;
    const verified = flag(sighting.fields.ChainVerified);
    if (verified !== null) entry.chainVerified = entry.chainVerified || verified;
    entry.verificationError ??= firstText(sighting.fields.VerificationError);
    // Issuers the scanner saw above a leaf are certificates of the inventory, not served on their own.
    const position = Number(firstText(sighting.fields.ChainPosition) ?? 0);
    const place = position === 0 ? placeOf(sighting.fields) : null;
    if (!place) {
      if (position === 0) await installedOn(sighting, key, entry, chain, verified);
      return;
    }
    const label = `${place.host}${place.port ? `:${place.port}` : ''}${place.sni && place.sni !== place.host ? ` (SNI ${place.sni})` : ''}`;
    if (entry.endpoints.size < keptEndpoints) entry.endpoints.add(label);
    entry.endpointCount += 1;
    const named = isIP(place.host) ? place.sni : place.host;
    if (named && entry.hostnames.size < keptHostnames) entry.hostnames.add(named);
    const device = devices.link(sighting.connectionId, {
      ...sighting.fields,
      Hostname: sighting.fields.Hostname ?? (isIP(place.host) ? [] : [place.host]),
      IpAddresses: sighting.fields.IpAddresses ?? (isIP(place.host) ? [place.host] : []),
    });
    if (device) entry.devices.add(device.asset);
    await push({
      c: inventoryAssetId(certificateEntity, key), h: place.host, p: place.port, s: place.sni, d: device?.asset ?? null, ch: chain, v: verified,
      e: firstText(sighting.fields.VerificationError), t: firstText(sighting.fields.TlsVersion), a: sighting.adapter, n: sighting.connectionId, i: false,
    });
  };
  for await (const record of observations(db, discoveryId, [certificateEntity])) await read(record);
  for (const sighting of await customCertificateSightings(db, discoveryId)) await read(sighting);
  if (batch.length) await writer.push(() => writePlaces(db, discoveryId, batch));
  await writer.drain();

  // A source that knows only a thumbprint or a serial names the same certificate as one that read its bytes: fold
  // it into that entry when exactly one entry has that thumbprint (or serial), and move its places along.
  const bySha1 = new Map<string, string | null>();
  const bySerial = new Map<string, string | null>();
  for (const [key, entry] of entries) {
    if (!key.startsWith('sha256:')) continue;
    if (entry.facts.fingerprintSha1) bySha1.set(entry.facts.fingerprintSha1, bySha1.has(entry.facts.fingerprintSha1) ? null : key);
    const serial = normalizeSerial(entry.facts.serialNumber);
    if (serial) bySerial.set(serial, bySerial.has(serial) ? null : key);
  }
  for (const [key, entry] of [...entries]) {
    const target = key.startsWith('sha1:') ? bySha1.get(key.slice(5)) : key.startsWith('serial:') ? bySerial.get(key.slice(key.indexOf('|') + 1)) : null;
    if (!target) continue;
    mergeEntries(entries.get(target)!, entry);
    entries.delete(key);
    await db.query('update snapshot_certificate_places set certificate_asset = $3 where discovery_id = $1 and certificate_asset = $2', [discoveryId, inventoryAssetId(certificateEntity, key), inventoryAssetId(certificateEntity, target)]);
  }
  const assets = [...entries].map(([key, entry]) => certificateAsset(inventoryAssetId(certificateEntity, key), entry, now));
  await writeAssets(db, discoveryId, certificateEntity, assets);
  return assets.length;
}
