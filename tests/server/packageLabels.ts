import { nvdRecord } from './avmFixtures.js';

// The labelled set of package matching: one device per case, each with one installation as its source reports it
// (osquery/Fleet's package tables with the device's OS, or a purl), labelled with what the advisories imported by the
// test (tests/fixtures/osv, each named in its README with where it was published) say of it: `expected`, the CVEs it
// is affected by; `fixed`, the CVEs an advisory names for its package with a fix it already has. The labels are the
// advisories' verdicts worked out by hand from their published fixed versions, not every CVE a package has.

export type Installed = { name: string; version?: string; type?: string; source?: string; purl?: string; vendor?: string };
export type LabelledCase = { hostname: string; os: string; installed: Installed; expected: string[]; fixed: string[]; why: string };

const alma9 = 'AlmaLinux 9.4 (Seafoam Ocelot)';
const rhel9 = 'Red Hat Enterprise Linux 9.4 (Plow)';
const jammy = 'Ubuntu 22.04.4 LTS';
const noble = 'Ubuntu 24.04.1 LTS';
const alpine = 'Alpine Linux v3.18';
const rpm = (name: string, version: string, source: string) => ({ name, version, type: 'rpm_packages', source: `${source}-${version}.src.rpm` });
const deb = (name: string, version: string, source: string) => ({ name, version, type: 'deb_packages', source });
const apk = (name: string, version: string, source?: string) => ({ name, version, type: 'apk_packages', ...(source && { source }) });

const regreSSHion = ['CVE-2024-6387'];
const openssl0310 = ['CVE-2023-5363'];
const openssl2447 = ['CVE-2023-2975', 'CVE-2023-3446', 'CVE-2023-3817', 'CVE-2023-5678', 'CVE-2023-6129', 'CVE-2023-6237', 'CVE-2024-0727'];
const glibc5453 = ['CVE-2023-4911', 'CVE-2023-4527', 'CVE-2023-4806', 'CVE-2023-4813'];
const glibc3339 = ['CVE-2024-2961', 'CVE-2024-33599', 'CVE-2024-33600', 'CVE-2024-33601', 'CVE-2024-33602'];
const php = ['CVE-2025-1220', 'CVE-2025-1735', 'CVE-2025-6491'];
const log4shell = 'CVE-2021-44228';
const log4j45046 = 'CVE-2021-45046';
const log4j45105 = 'CVE-2021-45105';
const log4jMaven = (version: string, qualifiers = '') => ({ name: 'log4j-core', purl: `pkg:maven/org.apache.logging.log4j/log4j-core@${version}${qualifiers}`, vendor: 'Apache Software Foundation' });

export const labelledCases: LabelledCase[] = [
  // AlmaLinux 9 (RHEL's rebuild, the same NEVRAs): ALSA-2024:4312, 2024:1129, 2024:0310, 2024:2447, 2023:5453, 2024:3339.
  { hostname: 'alma9-ssh-old', os: alma9, installed: rpm('openssh-server', '8.7p1-34.el9', 'openssh'), expected: regreSSHion, fixed: [], why: 'RHEL backport: before the fix' },
  { hostname: 'alma9-ssh-fixed', os: alma9, installed: rpm('openssh-server', '8.7p1-38.el9_4.1', 'openssh'), expected: [], fixed: regreSSHion, why: 'RHEL backport: 8.7p1 patched (NVD: < 9.8p1)' },
  { hostname: 'alma9-curl-old', os: alma9, installed: rpm('curl', '7.76.1-26.el9_3.2', 'curl'), expected: ['CVE-2023-46218'], fixed: [], why: 'RHEL backport: one release before the fix' },
  { hostname: 'alma9-curl-fixed', os: alma9, installed: rpm('curl', '7.76.1-26.el9_3.3', 'curl'), expected: [], fixed: ['CVE-2023-46218'], why: 'RHEL backport: 7.76.1 patched (NVD: < 8.5.0)' },
  { hostname: 'alma9-openssl-old', os: alma9, installed: rpm('openssl', '3.0.7-24.el9', 'openssl'), expected: [...openssl0310, ...openssl2447], fixed: [], why: 'epoch: reported without it, the advisories fix 1:3.0.7' },
  { hostname: 'alma9-openssl-purl', os: alma9, installed: { name: 'openssl', purl: 'pkg:rpm/almalinux/openssl@3.0.7-27.el9?arch=x86_64&epoch=1&distro=almalinux-9.4' }, expected: [], fixed: [...openssl0310, ...openssl2447], why: 'epoch: from the purl qualifier' },
  { hostname: 'alma9-openssl-mid', os: alma9, installed: { name: 'openssl-libs', version: '1:3.0.7-25.el9_3', type: 'rpm_packages', source: 'openssl-3.0.7-25.el9_3.src.rpm' }, expected: openssl2447, fixed: openssl0310, why: 'epoch: written in the version' },
  { hostname: 'alma9-glibc-old', os: alma9, installed: rpm('glibc', '2.34-60.el9', 'glibc'), expected: [...glibc5453, ...glibc3339], fixed: [], why: 'RHEL release order: 60.el9 before 60.el9_2.7' },
  { hostname: 'alma9-glibc-mid', os: alma9, installed: rpm('glibc', '2.34-83.el9_3.7', 'glibc'), expected: glibc3339, fixed: glibc5453, why: 'RHEL backport between two advisories' },
  { hostname: 'alma9-glibc-fixed', os: alma9, installed: rpm('glibc-common', '2.34-100.el9_4.2', 'glibc'), expected: [], fixed: [...glibc5453, ...glibc3339], why: 'binary package named by the advisory' },
  { hostname: 'alma9-bash', os: alma9, installed: rpm('bash', '5.1.8-6.el9_1', 'bash'), expected: [], fixed: [], why: 'no advisory' },
  // No AlmaLinux 8 advisory is imported: NVD's CPE configuration decides for that release (curl 7.46.0 to 8.5.0), not el9's fix.
  { hostname: 'alma8-curl', os: 'AlmaLinux 8.9 (Midnight Oncilla)', installed: rpm('curl', '7.61.1-33.el8', 'curl'), expected: ['CVE-2023-46218'], fixed: [], why: 'release without advisories: CPE decides' },
  // RHEL 9: RHSA-2024:4312 in Red Hat's OSV shape, naming the source package on the BaseOS stream with an explicit epoch 0.
  { hostname: 'rhel9-ssh-old', os: rhel9, installed: rpm('openssh-server', '8.7p1-34.el9', 'openssh'), expected: regreSSHion, fixed: [], why: 'RHEL: source package, repository stream' },
  { hostname: 'rhel9-ssh-fixed', os: rhel9, installed: rpm('openssh-server', '8.7p1-38.el9_4.1', 'openssh'), expected: [], fixed: regreSSHion, why: 'RHEL backport, fix written 0:8.7p1-38.el9_4.1' },
  // Ubuntu: USN-6859-1 (openssh), USN-7648-1 (PHP, no subscription), USN-7648-2 (PHP on ESM, Ubuntu Pro).
  { hostname: 'jammy-ssh-old', os: jammy, installed: deb('openssh-server', '1:8.9p1-3ubuntu0.6', 'openssh'), expected: regreSSHion, fixed: [], why: 'Ubuntu: epoch, source package' },
  { hostname: 'jammy-ssh-fixed', os: jammy, installed: deb('openssh-server', '1:8.9p1-3ubuntu0.10', 'openssh'), expected: [], fixed: regreSSHion, why: 'Ubuntu backport: 8.9p1 patched (NVD: < 9.8p1)' },
  { hostname: 'noble-ssh-old', os: noble, installed: deb('openssh-server', '1:9.6p1-3ubuntu13', 'openssh'), expected: regreSSHion, fixed: [], why: 'Ubuntu 24.04' },
  { hostname: 'noble-ssh-fixed', os: noble, installed: { name: 'openssh-server', purl: 'pkg:deb/ubuntu/openssh-server@1:9.6p1-3ubuntu13.3?arch=amd64&distro=ubuntu-24.04&upstream=openssh' }, expected: [], fixed: regreSSHion, why: 'Ubuntu: purl with distro and upstream' },
  { hostname: 'jammy-php-old', os: jammy, installed: deb('php8.1-cli', '8.1.2-1ubuntu2.21', 'php8.1'), expected: php, fixed: [], why: 'Ubuntu: one notice, three CVEs' },
  { hostname: 'jammy-php-fixed', os: jammy, installed: deb('php8.1-cli', '8.1.2-1ubuntu2.22', 'php8.1'), expected: [], fixed: php, why: 'Ubuntu backport' },
  { hostname: 'jammy-php-rc', os: jammy, installed: deb('php8.1-cli', '8.1.0~rc4-1ubuntu2', 'php8.1'), expected: php, fixed: [], why: '~ pre-release sorts before the release' },
  { hostname: 'noble-php-old', os: noble, installed: deb('php8.3-cli', '8.3.6-0ubuntu0.24.04.4', 'php8.3'), expected: php, fixed: [], why: 'Ubuntu 24.04' },
  { hostname: 'bionic-php-noesm', os: 'Ubuntu 18.04.6 LTS', installed: deb('php7.2-cli', '7.2.24-0ubuntu0.18.04.17', 'php7.2'), expected: php, fixed: [], why: 'ESM-less host: the fix is only in Ubuntu Pro' },
  { hostname: 'bionic-php-esm', os: 'Ubuntu 18.04.6 LTS', installed: deb('php7.2-cli', '7.2.24-0ubuntu0.18.04.17+esm9', 'php7.2'), expected: [], fixed: php, why: 'ESM host: +esm9 is the fix' },
  { hostname: 'focal-php-noesm', os: 'Ubuntu 20.04.6 LTS', installed: deb('php7.4-cli', '7.4.3-4ubuntu2.29', 'php7.4'), expected: php, fixed: [], why: 'ESM-less host' },
  { hostname: 'focal-ssh', os: 'Ubuntu 20.04.6 LTS', installed: deb('openssh-server', '1:8.2p1-4ubuntu0.11', 'openssh'), expected: [], fixed: [], why: 'release the notice does not name' },
  { hostname: 'jammy-bash', os: jammy, installed: deb('bash', '5.1-6ubuntu1.1', 'bash'), expected: [], fixed: [], why: 'no advisory' },
  // Debian: DSA-5020-1, 5022-1, 5024-1 (apache-log4j2 on bullseye and buster, ~debNuN backports), DSA-3029-1 (nginx on wheezy).
  { hostname: 'deb11-a', os: 'Debian GNU/Linux 11 (bullseye)', installed: deb('liblog4j2-java', '2.15.0-1~deb11u1', 'apache-log4j2'), expected: [log4j45046, log4j45105], fixed: [log4shell], why: 'Debian backport: ~deb11u1' },
  { hostname: 'deb11-b', os: 'Debian GNU/Linux 11 (bullseye)', installed: deb('liblog4j2-java', '2.17.0-1~deb11u1', 'apache-log4j2'), expected: [], fixed: [log4shell, log4j45046, log4j45105], why: 'Debian backport, fixed' },
  { hostname: 'deb11-c', os: 'Debian GNU/Linux 11 (bullseye)', installed: { name: 'liblog4j2-java', purl: 'pkg:deb/debian/liblog4j2-java@2.11.1-2?arch=all&distro=debian-11&upstream=apache-log4j2' }, expected: [log4shell, log4j45046, log4j45105], fixed: [], why: 'Debian: purl with upstream' },
  { hostname: 'deb10-a', os: 'Debian GNU/Linux 10 (buster)', installed: deb('liblog4j2-java', '2.16.0-1~deb10u1', 'apache-log4j2'), expected: [log4j45105], fixed: [log4shell, log4j45046], why: 'Debian: buster has fixes of its own' },
  { hostname: 'deb7-nginx-old', os: 'Debian GNU/Linux 7 (wheezy)', installed: deb('nginx', '1.2.1-2.2+wheezy2', 'nginx'), expected: ['CVE-2014-3616'], fixed: [], why: 'Debian: +wheezyN revisions' },
  { hostname: 'deb7-nginx-fixed', os: 'Debian GNU/Linux 7 (wheezy)', installed: deb('nginx-full', '1.2.1-2.2+wheezy3', 'nginx'), expected: [], fixed: ['CVE-2014-3616'], why: 'Debian backport: 1.2.1 patched' },
  // Alpine 3.18: ALPINE-CVE-2023-5363, ALPINE-CVE-2023-5678, ALPINE-CVE-2022-48174 (from Alpine's secdb).
  { hostname: 'alpine-openssl-old', os: alpine, installed: apk('openssl', '3.1.3-r0'), expected: ['CVE-2023-5363', 'CVE-2023-5678'], fixed: [], why: 'Alpine' },
  { hostname: 'alpine-openssl-mid', os: alpine, installed: apk('openssl', '3.1.4-r0'), expected: ['CVE-2023-5678'], fixed: ['CVE-2023-5363'], why: 'Alpine: -rN package releases' },
  { hostname: 'alpine-libcrypto', os: alpine, installed: apk('libcrypto3', '3.1.4-r1', 'openssl'), expected: [], fixed: ['CVE-2023-5363', 'CVE-2023-5678'], why: 'Alpine: origin package' },
  { hostname: 'alpine-busybox-old', os: alpine, installed: apk('busybox', '1.36.1-r0'), expected: ['CVE-2022-48174'], fixed: [], why: 'Alpine' },
  { hostname: 'alpine-busybox-purl', os: alpine, installed: { name: 'busybox', purl: 'pkg:apk/alpine/busybox@1.36.1-r7?arch=x86_64&distro=3.18.4' }, expected: [], fixed: ['CVE-2022-48174'], why: 'Alpine: purl, release from the device' },
  // Maven: GHSA-jfh8-c2jp-5v3q, GHSA-7rjr-3q55-vv33, GHSA-p6xc-xr62-6r2g (log4j-core, with the 2.12.x line for Java 7).
  { hostname: 'jar-01', os: jammy, installed: log4jMaven('2.14.1'), expected: [log4shell, log4j45046, log4j45105], fixed: [], why: 'Maven' },
  { hostname: 'jar-02', os: jammy, installed: log4jMaven('2.15.0'), expected: [log4j45046, log4j45105], fixed: [log4shell], why: 'Maven' },
  { hostname: 'jar-03', os: jammy, installed: log4jMaven('2.16.0'), expected: [log4j45105], fixed: [log4shell, log4j45046], why: 'Maven' },
  { hostname: 'jar-04', os: jammy, installed: log4jMaven('2.17.1'), expected: [], fixed: [log4shell, log4j45046, log4j45105], why: 'Maven' },
  { hostname: 'jar-05', os: jammy, installed: log4jMaven('2.12.1', '?classifier=tests&type=test-jar'), expected: [log4shell, log4j45046, log4j45105], fixed: [], why: 'Maven classifier' },
  { hostname: 'jar-06', os: jammy, installed: log4jMaven('2.12.2', '?type=jar'), expected: [log4j45105], fixed: [log4shell, log4j45046], why: 'Maven: the 2.12.x line fixed apart' },
  // npm: GHSA-67hx-6x53-jw92 (a scoped package, a pre-release range of the next major, a package with no fix).
  { hostname: 'node-01', os: jammy, installed: { name: '@babel/traverse', purl: 'pkg:npm/%40babel/traverse@7.22.5' }, expected: ['CVE-2023-45133'], fixed: [], why: 'npm scoped' },
  { hostname: 'node-02', os: jammy, installed: { name: '@babel/traverse', purl: 'pkg:npm/%40babel/traverse@7.23.2' }, expected: [], fixed: ['CVE-2023-45133'], why: 'npm scoped, fixed' },
  { hostname: 'node-03', os: jammy, installed: { name: '@babel/traverse', version: '8.0.0-alpha.2', type: 'npm_packages' }, expected: ['CVE-2023-45133'], fixed: [], why: 'npm pre-release range' },
  { hostname: 'node-04', os: jammy, installed: { name: 'babel-traverse', version: '6.26.0', type: 'npm_packages' }, expected: ['CVE-2023-45133'], fixed: [], why: 'npm: no fixed version' },
  { hostname: 'node-05', os: jammy, installed: { name: 'left-pad', version: '1.3.0', type: 'npm_packages' }, expected: [], fixed: [], why: 'no advisory' },
  // PyPI: GHSA-h5c8-rqwp-cp95 (Jinja2), GHSA-2jv5-9r88-3w3p (python-multipart), GHSA-4pmp-38hf-rmwj (withdrawn).
  { hostname: 'py-01', os: 'Debian GNU/Linux 12 (bookworm)', installed: { name: 'Jinja2', version: '3.1.2', type: 'python_packages' }, expected: ['CVE-2024-22195'], fixed: [], why: 'PyPI normalized name' },
  { hostname: 'py-02', os: 'Debian GNU/Linux 12 (bookworm)', installed: { name: 'Jinja2', version: '3.1.3', type: 'python_packages' }, expected: [], fixed: ['CVE-2024-22195'], why: 'PyPI' },
  { hostname: 'py-03', os: jammy, installed: { name: 'Python_Multipart', version: '0.0.6', type: 'python_packages' }, expected: ['CVE-2024-24762'], fixed: [], why: 'PyPI normalized name (PEP 503)' },
  { hostname: 'py-04', os: jammy, installed: { name: 'python-multipart', purl: 'pkg:pypi/python-multipart@0.0.7' }, expected: [], fixed: ['CVE-2024-24762'], why: 'PyPI purl' },
  { hostname: 'py-05', os: jammy, installed: { name: 'neutron', version: '2014.1.1', type: 'python_packages' }, expected: [], fixed: [], why: 'withdrawn advisory' },
  // No package identity: the NVD CPE matcher decides, as before the OSV feed.
  { hostname: 'app-01', os: jammy, installed: { name: 'log4j-core', version: '2.16.0', vendor: 'Apache Software Foundation' }, expected: ['CVE-2021-45105', 'CVE-2021-44832'], fixed: [], why: 'no package identity: CPE' },
];

const cpe = (vendor: string, product: string) => `cpe:2.3:a:${vendor}:${product}:*:*:*:*:*:*:*:*`;

/** NVD's records of the labelled CVEs the NVD-only comparison needs (configurations of the upstream products, as NVD lists them). */
export const labelledNvdRecords = [
  nvdRecord('CVE-2024-6387', '2024-07-01T13:15:10.017', 'A security regression (CVE-2006-5051) was discovered in OpenSSH\'s server (sshd): a signal handler race condition.',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H', ['CWE-364'], [{ criteria: cpe('openbsd', 'openssh'), endExcl: '4.4' }, { criteria: cpe('openbsd', 'openssh'), start: '8.5', endExcl: '9.8' }]),
  nvdRecord('CVE-2023-46218', '2023-12-07T01:15:07.157', 'This flaw allows a malicious HTTP server to set "super cookies" in curl that are then passed back to more origins than what is otherwise allowed or possible.',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:L/A:N', ['CWE-20'], [{ criteria: cpe('haxx', 'curl'), start: '7.46.0', endExcl: '8.5.0' }]),
  nvdRecord('CVE-2023-5363', '2023-10-25T18:17:43.613', 'A bug has been identified in the processing of key and initialisation vector (IV) lengths in OpenSSL.',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', ['CWE-325'], [{ criteria: cpe('openssl', 'openssl'), start: '3.0.0', endExcl: '3.0.12' }, { criteria: cpe('openssl', 'openssl'), start: '3.1.0', endExcl: '3.1.4' }]),
  nvdRecord('CVE-2024-22195', '2024-01-11T03:15:11.200', 'Jinja is an extensible templating engine. The `xmlattr` filter in affected versions of Jinja accepts keys containing spaces.',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', ['CWE-79'], [{ criteria: cpe('palletsprojects', 'jinja'), endExcl: '3.1.3' }]),
];
