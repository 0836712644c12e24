import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';
import { addLabelledEstate, epssCsv, labelledDevices, nvdFeed, nvdRecords } from './avmFixtures.js';

// Cartograph's own vulnerability source on a labelled estate: the feeds imported through the API, a discovery run,
// and the findings of `cartograph-avm` compared with the CVEs NVD's records say each device has (precision and
// recall printed), merged with a scanner's, every vulnerability enriched from NVD, KEV and EPSS.

const kevFile = readFileSync(new URL('../fixtures/avm/known_exploited_vulnerabilities.json.gz', import.meta.url));
const boundary = '----cartograph-avm-boundary';
const multipart = (name: string, content: Buffer | string) => ({
  body: Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]),
  headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
});

type Finding = { hostname: string; cve_id: string; adapters: string[]; sources: { adapter: string; evidence: string | null }[] };

describe.each(engines)('software → CVE matching and enrichment on %s', (engine) => {
  let server: TestServer;
  let findings: Finding[];
  const search = (query: string, fields = ['CveId']) => server.request('POST', '/avm/vulnerabilities', { token: server.adminToken, body: { query, fields, size: 100, ordering: [{ field: 'CveId', order: 'asc' }] } });

  beforeAll(async () => {
    server = await startTestServer(engine);
    for (const [slug, name, content] of [['cisa-kev', 'kev.json.gz', kevFile], ['nvd-cve', 'nvd.json', JSON.stringify(nvdFeed(nvdRecords))], ['first-epss', 'epss.csv', epssCsv]] as const) {
      const answer = await server.request('POST', `/avm/enrichments/${slug}/upload`, { token: server.adminToken, ...multipart(name, content) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    await addLabelledEstate(server.context.db);
    const discovery = await runDiscoveryAndWait(server);
    findings = await server.context.db.query<Finding>(
      `select d.fields->'Hostname'->>0 as hostname, f.cve_id, f.adapters, f.sources from snapshot_findings f
         join snapshot_assets d on d.discovery_id = f.discovery_id and d.entity = 'device' and d.asset_id = f.device_asset
        where f.discovery_id = $1 order by 1, 2`,
      [discovery.id],
    );
    // Three imports and a discovery: more than one hook's default time on a machine the other suites share.
  }, 600_000);
  afterAll(() => server?.stop());

  it('finds exactly the CVEs NVD gives the labelled installations (precision and recall printed)', () => {
    const expected = new Set(labelledDevices.flatMap((device) => device.expected.map((cve) => `${device.hostname} ${cve}`)));
    const predicted = new Set(findings.filter((finding) => finding.adapters.includes('cartograph-avm')).map((finding) => `${finding.hostname} ${finding.cve_id}`));
    const truePositives = [...predicted].filter((pair) => expected.has(pair));
    const precision = truePositives.length / predicted.size;
    const recall = truePositives.length / expected.size;
    console.log(`AVM matching on the labelled set (${engine}): ${expected.size} true findings, ${predicted.size} predicted, precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`);
    expect([...predicted].filter((pair) => !expected.has(pair)), 'false positives').toEqual([]);
    expect([...expected].filter((pair) => !predicted.has(pair)), 'missed').toEqual([]);
    expect(precision).toBe(1);
    expect(recall).toBe(1);
  });

  it('says why each finding matched: the installation, its version, the criterion and its bounds, the mapping', () => {
    const evidence = (hostname: string, cve: string) => findings.find((finding) => finding.hostname === hostname && finding.cve_id === cve)?.sources.find((source) => source.adapter === 'cartograph-avm')?.evidence;
    expect(evidence('app-01', 'CVE-2021-44228')).toBe(
      'log4j-core 2.14.1 matches cpe:2.3:a:apache:log4j:*:*:*:*:*:*:*:* (version 2.14.1 is ≥ 2.13.0 and < 2.15.0); mapped to apache:log4j because built-in alias: log4j-core is apache:log4j.',
    );
    expect(evidence('deb-01', 'CVE-2023-38408')).toMatch(/^openssh-client 1:9\.2p1-2\+deb12u1 matches cpe:2\.3:a:openbsd:openssh:\*.* \(version 1:9\.2p1-2\+deb12u1 \(upstream 9\.2p1\) is < 9\.3\)/);
    expect(evidence('app-04', 'CVE-2021-44228')).toMatch(/log4j-api 2\.0-beta9 matches cpe:2\.3:a:apache:log4j:2\.0:beta9:.* \(version 2\.0-beta9 is 2\.0-beta9\)/);
    expect(evidence('ws-03', 'CVE-2024-21412')).toMatch(/Windows 11 Pro 23H2 10\.0\.22631\.3007 matches cpe:2\.3:o:microsoft:windows_11_23h2:.*< 10\.0\.22631\.3155.*vendor and product as NVD names them \(microsoft:windows_11_23h2\)/);
    expect(evidence('web-01', 'CVE-2022-3602')).toMatch(/vendor and product as NVD names them \(openssl:openssl\)/);
  });

  it("merges the matcher's finding with a scanner's finding of the same CVE on the same device", () => {
    const log4shell = findings.find((finding) => finding.hostname === 'app-01' && finding.cve_id === 'CVE-2021-44228')!;
    expect(log4shell.adapters).toEqual(['cartograph-avm', 'jsonfile']);
    expect(log4shell.sources.map((source) => source.adapter).sort()).toEqual(['cartograph-avm', 'jsonfile']);
    expect(findings.filter((finding) => finding.cve_id === 'CVE-2024-0001').map((finding) => finding.adapters)).toEqual([['jsonfile']]);
  });

  it('enriches every vulnerability from NVD, KEV and EPSS, and says where each value came from', async () => {
    const fields = ['CveId', 'Score', 'Severity', 'ScoreSource', 'Kev', 'KevDateAdded', 'KevDueDate', 'KevRansomwareUse', 'KevRequiredAction', 'EpssScore', 'EpssPercentile', 'EpssDate', 'ExploitKnown', 'Description', 'Cwe', 'ValueSources', 'Adapters'];
    const all = await search('', fields);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const byCve = Object.fromEntries(all.body.results.map((row: { CveId: string[] }) => [row.CveId[0], row]));
    expect(byCve['CVE-2021-44228']).toMatchObject({
      Score: [10], Severity: ['Critical'], ScoreSource: ['scanner (jsonfile)'], Kev: [true], KevDateAdded: ['2021-12-10'], KevDueDate: ['2021-12-24'], KevRansomwareUse: ['Known'],
      EpssScore: [0.94358], EpssPercentile: [0.99957], EpssDate: ['2026-11-24'], ExploitKnown: [true], Adapters: ['cartograph-avm', 'jsonfile'],
    });
    expect(byCve['CVE-2021-44228'].KevRequiredAction[0]).toMatch(/updates/i);
    expect(byCve['CVE-2021-44228'].ValueSources).toEqual(['Score: scanner (jsonfile)', 'Severity: scanner (jsonfile)', 'Description: NVD', 'PublishedDate: NVD', 'Cwe: NVD', 'Kev: CISA KEV', 'EpssScore: FIRST EPSS']);
    // The scanner gave no score: NVD's vector scores it.
    expect(byCve['CVE-2023-7024']).toMatchObject({ Score: [8.8], Severity: ['High'], ScoreSource: ['NVD'], Kev: [true], EpssScore: [0.17], Cwe: ['CWE-787'] });
    expect(byCve['CVE-2023-7024'].ValueSources).toEqual(expect.arrayContaining(['Score: NVD', 'Severity: NVD', 'Kev: CISA KEV']));
    // Found by the matcher alone: everything but the finding comes from the feeds.
    expect(byCve['CVE-2021-45105']).toMatchObject({ Score: [5.9], Severity: ['Medium'], ScoreSource: ['NVD'], Kev: [false], ExploitKnown: [false], Adapters: ['cartograph-avm'] });
    expect(byCve['CVE-2021-45105'].Description[0]).toMatch(/uncontrolled recursion/);
    expect(byCve['CVE-2021-45105'].EpssScore).toEqual([]);
    // Unknown to every feed: as the scanner reported it, and not in KEV.
    expect(byCve['CVE-2024-0001']).toMatchObject({ Kev: [false], Adapters: ['jsonfile'] });
    expect(byCve['CVE-2024-0001'].Score).toEqual([]);
  });

  it('titles a CVE no source titles: by its KEV name, else by the first sentence of its NVD description', async () => {
    const rows = (await search('', ['CveId', 'Title', 'KevName', 'ValueSources'])).body.results as Record<string, unknown[]>[];
    const byCve = Object.fromEntries(rows.map((row) => [row.CveId[0], row]));
    expect(byCve['CVE-2024-21412'].KevName?.length).toBe(1);
    expect(byCve['CVE-2024-21412']).toMatchObject({ Title: byCve['CVE-2024-21412'].KevName });
    expect(byCve['CVE-2024-21412'].ValueSources).toContain('Title: CISA KEV');
    expect(byCve['CVE-2023-38408']).toMatchObject({ Title: ['The PKCS#11 feature in ssh-agent in OpenSSH before 9.3p2 has an insufficiently trustworthy search path'] });
    expect(byCve['CVE-2023-38408'].ValueSources).toContain('Title: first sentence of the description');
    // A scanner's own title stays.
    expect(byCve['CVE-2021-44228'].ValueSources).not.toContain('Title: CISA KEV');
    // Every vulnerability has a title, and the findings list carries it.
    expect(rows.filter((row) => !row.Title?.length).map((row) => row.CveId[0])).toEqual([]);
    const listed = await server.request('GET', '/avm/findings?search=CVE-2023-38408', { token: server.adminToken });
    expect(listed.body.results.map((row: { title: string }) => row.title)).toContain('The PKCS#11 feature in ssh-agent in OpenSSH before 9.3p2 has an insufficiently trustworthy search path');
  });

  it('lets queries filter on KEV and EPSS', async () => {
    const kev = await search('Kev = true');
    expect(kev.status, JSON.stringify(kev.body)).toBe(200);
    expect(kev.body.results.map((row: { CveId: string[] }) => row.CveId[0])).toEqual(['CVE-2019-0708', 'CVE-2021-44228', 'CVE-2021-45046', 'CVE-2023-6345', 'CVE-2023-7024', 'CVE-2024-21412']);
    const likely = await search('EpssScore >= 0.5');
    expect(likely.body.results.map((row: { CveId: string[] }) => row.CveId[0])).toEqual(['CVE-2021-44228', 'CVE-2021-45046', 'CVE-2022-3602']);
    const ransomware = await search('KevRansomwareUse = Known AND EpssPercentile > 0.99');
    expect(ransomware.body.results.map((row: { CveId: string[] }) => row.CveId[0])).toEqual(['CVE-2021-44228', 'CVE-2021-45046']);
  });

  it('badges KEV findings and dates the matcher\'s findings by the snapshots that hold them: first seen in the first, last seen in the latest', async () => {
    type Listed = { cve_id: string; hostname: string; kev: boolean; adapters: string[]; first_seen: string | null; last_seen: string | null };
    const list = async () => {
      const answer = await server.request('GET', '/avm/findings?size=500', { token: server.adminToken });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.results as Listed[];
    };
    const startOf = async (id: number) => new Date((await server.context.db.query<{ start_time: Date }>('select start_time from discoveries where id = $1', [id]))[0].start_time).toISOString();
    const [first] = await server.context.db.query<{ id: number }>("select id from discoveries where status = 'done' order by id desc limit 1");
    const before = await list();
    expect(before.filter((row) => row.cve_id === 'CVE-2021-44228').every((row) => row.kev)).toBe(true);
    expect(before.filter((row) => row.cve_id === 'CVE-2024-0001').map((row) => row.kev)).toEqual([false]);
    const matcherOnly = before.filter((row) => row.adapters.join() === 'cartograph-avm');
    expect(matcherOnly.length).toBeGreaterThan(0);
    const firstStart = await startOf(first.id);
    for (const row of matcherOnly) expect([row.first_seen, row.last_seen], `${row.hostname} ${row.cve_id}`).toEqual([firstStart, firstStart]);

    const second = await runDiscoveryAndWait(server);
    const [latest] = await server.context.db.query<{ id: number }>("select id from discoveries where status = 'done' order by id desc limit 1");
    expect(latest.id, JSON.stringify(second)).not.toBe(first.id);
    const secondStart = await startOf(latest.id);
    const after = new Map((await list()).map((row) => [`${row.hostname} ${row.cve_id}`, row]));
    for (const row of matcherOnly) expect(after.get(`${row.hostname} ${row.cve_id}`), `${row.hostname} ${row.cve_id}`).toMatchObject({ first_seen: firstStart, last_seen: secondStart });
    // Queries read the same first-seen date: every matcher finding was first seen before the second discovery began.
    const seenSince = await server.request('POST', '/avm/vulnerabilities', { token: server.adminToken, body: { query: `Finding.FirstSeen >= "${secondStart}"`, fields: ['CveId'], size: 100 } });
    expect(seenSince.status, JSON.stringify(seenSince.body)).toBe(200);
    const matcherCves = new Set(matcherOnly.map((row) => row.cve_id));
    expect(seenSince.body.results.filter((row: { CveId: string[] }) => matcherCves.has(row.CveId[0]))).toEqual([]);
  });

  it('follows the settings pages: mappings, enrichments off, severity bands, retention of fixed findings, sources left out', async () => {
    const token = server.adminToken;
    const put = (page: string, body: object) => server.request('PUT', `/configurations/${page}`, { token, body });
    expect((await server.request('GET', '/configurations/avm-configuration', { token })).body).toEqual({
      software_matching: true, enrich_from_nvd: true, enrich_from_kev: true, enrich_from_epss: true, assume_unmatched_platforms: true, cpe_mappings: [],
    });
    expect((await server.request('GET', '/configurations/vulnerability-inventory-configuration', { token })).body).toEqual({ critical_from_score: 9, high_from_score: 7, medium_from_score: 4, excluded_sources: [] });
    const crossed = await put('vulnerability-inventory-configuration', { critical_from_score: 9, high_from_score: 9.5, medium_from_score: 4, excluded_sources: [] });
    expect(crossed).toMatchObject({ status: 400, body: { high_from_score: ['High must start below Critical.'] } });
    expect((await put('avm-configuration', { software_matching: true, cpe_mappings: [{ software: 'x', cpe: 'not a cpe' }] })).status).toBe(400);
    const viewer = await server.request('PUT', '/configurations/avm-configuration', { token: 'not a token', body: {} });
    expect(viewer.status).toBe(401);

    const avm = { software_matching: true, enrich_from_nvd: true, enrich_from_kev: false, enrich_from_epss: true, assume_unmatched_platforms: true, cpe_mappings: [{ software: 'mozilla|firefox', cpe: 'google:chrome' }] };
    expect((await put('avm-configuration', avm)).body).toEqual(avm);
    expect((await put('vulnerability-inventory-configuration', { critical_from_score: 9.5, high_from_score: 5, medium_from_score: 2, excluded_sources: [], fixed_findings_retention_days: 30 })).status).toBe(200);
    const before = (await search('CveId = CVE-2019-0708')).body.count;
    expect(before).toBe(1);
    await runDiscoveryAndWait(server);
    expect((await search('CveId = CVE-2019-0708')).body.count).toBe(0);
    const rows = (await search('', ['CveId', 'Severity', 'Kev'])).body.results as Record<string, unknown[]>[];
    const byCve = Object.fromEntries(rows.map((row) => [row.CveId[0], row]));
    expect(byCve['CVE-2021-45105']).toMatchObject({ Severity: ['High'] });
    expect(byCve['CVE-2021-44228'].Kev).toEqual([]);
    const [latest] = await server.context.db.query<{ id: number }>("select id from discoveries where status = 'done' order by id desc limit 1");
    const [mapped] = await server.context.db.query<{ sources: { evidence: string }[] }>(
      "select sources from snapshot_findings where discovery_id = $1 and cve_id = 'CVE-2023-6345' and sources::text like '%Firefox%'", [latest.id],
    );
    expect(mapped.sources[0].evidence).toMatch(/^Mozilla Firefox \(x64 en-US\) 115\.0 matches .*because the administrator maps Mozilla Firefox to google:chrome\.$/);

    expect((await put('vulnerability-inventory-configuration', { critical_from_score: 9, high_from_score: 7, medium_from_score: 4, excluded_sources: ['cartograph-avm'] })).status).toBe(200);
    await runDiscoveryAndWait(server);
    const adapters = (await search('', ['Adapters'])).body.results.map((row: { Adapters: string[] }) => row.Adapters.join(','));
    expect(new Set(adapters)).toEqual(new Set(['jsonfile']));
  });
});
