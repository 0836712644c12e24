/**
 * What the demo's machines run and what scanners find on them: software titles per platform with the version
 * variants seen in a real estate (some of them vulnerable), and the vulnerabilities those versions carry — real CVE
 * ids with their NVD CVSS v3.1 vectors. `kev` marks the CVEs on CISA's Known Exploited Vulnerabilities catalogue.
 */

export type Platform = 'windows' | 'macos' | 'ubuntu' | 'rhel';

/** One version a title is found at, and the CVEs that version carries. */
export type VersionVariant = { version: string; cves?: string[] };

export type SoftwareTitle = {
  /** Name and vendor as the EDR reports them. */
  name: string; vendor: string;
  /** Name and vendor as the MDM reports the same product (they fold into one software entry); apps only. */
  mdm?: { name: string; vendor: string };
  versions: VersionVariant[];
  /** Installed on every machine of the platform (otherwise on some). */
  base?: boolean;
  /** The chance a machine has this title when it is not a base one (the default suits most titles). */
  chance?: number;
  /** Where a program outside the package manager lies (a jar, a binary built by hand): no package identity. */
  path?: string;
  /** A Linux package's source package, when its name is not the binary's (openssh-server is built from openssh). */
  source?: string;
};

export type DemoVulnerability = {
  cve: string | null; qid: string; title: string; vector: string | null; score: number | null; kev: boolean; published: string;
  /** Seen by the network scanner (a port it probes), not only from the installed version. */
  port?: [number, 'tcp' | 'udp'];
  solution: string;
};

const microsoft = { vendor: 'Microsoft Corporation' };
const ms = (name: string) => ({ name, vendor: 'Microsoft' });

const windows: SoftwareTitle[] = [
  { name: 'Microsoft Edge', ...microsoft, mdm: ms('Microsoft Edge'), base: true, versions: [{ version: '120.0.2210.91' }, { version: '119.0.2151.97' }, { version: '120.0.2210.121' }] },
  {
    name: 'Microsoft 365 Apps for enterprise - en-us', ...microsoft, mdm: ms('Microsoft 365 Apps for enterprise'), base: true,
    versions: [{ version: '16.0.17126.20132', cves: ['CVE-2024-21413'] }, { version: '16.0.17328.20184' }, { version: '16.0.17328.20184' }],
  },
  { name: 'Microsoft OneDrive', ...microsoft, mdm: ms('OneDrive'), base: true, versions: [{ version: '23.246.1127.0002' }, { version: '24.010.0114.0003' }] },
  { name: 'Microsoft Teams', ...microsoft, mdm: ms('Microsoft Teams (work or school)'), base: true, versions: [{ version: '24004.1307.2669.7070' }, { version: '23335.232.2637.4844' }] },
  { name: 'Microsoft Visual C++ 2015-2022 Redistributable (x64) - 14.38.33130', ...microsoft, base: true, versions: [{ version: '14.38.33130.0' }] },
  { name: 'Microsoft Visual C++ 2015-2022 Redistributable (x86) - 14.38.33130', ...microsoft, base: true, versions: [{ version: '14.38.33130.0' }] },
  { name: 'Microsoft Update Health Tools', ...microsoft, base: true, versions: [{ version: '3.74.0.0' }, { version: '5.72.0.0' }] },
  { name: 'Microsoft Intune Management Extension', ...microsoft, base: true, versions: [{ version: '1.72.106.0' }] },
  { name: 'Teams Machine-Wide Installer', ...microsoft, base: true, versions: [{ version: '1.6.0.33567' }] },
  {
    name: 'Google Chrome', vendor: 'Google LLC', mdm: { name: 'Google Chrome', vendor: 'Google' }, base: true, path: 'C:\\Program Files\\Google\\Chrome\\Application',
    versions: [{ version: '116.0.5845.141', cves: ['CVE-2023-4863'] }, { version: '120.0.6099.130' }, { version: '120.0.6099.217' }, { version: '120.0.6099.217' }],
  },
  { name: 'CrowdStrike Windows Sensor', vendor: 'CrowdStrike, Inc.', base: true, versions: [{ version: '7.10.17706.0' }, { version: '7.09.17606.0' }] },
  { name: 'Cisco Secure Client - AnyConnect VPN', vendor: 'Cisco Systems, Inc.', mdm: { name: 'Cisco Secure Client', vendor: 'Cisco' }, base: true, versions: [{ version: '5.0.05040' }, { version: '5.1.0.136' }] },
  {
    name: 'Mozilla Firefox (x64 en-US)', vendor: 'Mozilla', mdm: { name: 'Mozilla Firefox', vendor: 'Mozilla Corporation' }, path: 'C:\\Program Files\\Mozilla Firefox',
    versions: [{ version: '128.2.0', cves: ['CVE-2024-9680'] }, { version: '131.0.3' }, { version: '132.0.1' }],
  },
  { name: '7-Zip 24.07 (x64)', vendor: 'Igor Pavlov', chance: 0.15, versions: [{ version: '24.07', cves: ['CVE-2025-0411'] }] },
  { name: '7-Zip 24.09 (x64)', vendor: 'Igor Pavlov', versions: [{ version: '24.09' }] },
  { name: 'WinRAR 6.22 (64-bit)', vendor: 'win.rar GmbH', chance: 0.12, versions: [{ version: '6.22.0', cves: ['CVE-2023-38831'] }] },
  { name: 'WinRAR 7.01 (64-bit)', vendor: 'win.rar GmbH', versions: [{ version: '7.01.0' }] },
  { name: 'Adobe Acrobat (64-bit)', vendor: 'Adobe', mdm: { name: 'Adobe Acrobat Reader', vendor: 'Adobe Inc.' }, versions: [{ version: '23.008.20470' }, { version: '24.001.20604' }] },
  { name: 'Zoom Workplace (64-bit)', vendor: 'Zoom Video Communications, Inc.', mdm: { name: 'Zoom', vendor: 'Zoom' }, versions: [{ version: '5.17.5.31030' }, { version: '6.0.2.33403' }] },
  { name: 'Notepad++ (64-bit x64)', vendor: 'Notepad++ Team', versions: [{ version: '8.6' }, { version: '8.6.2' }] },
  { name: 'Java 8 Update 391 (64-bit)', vendor: 'Oracle Corporation', versions: [{ version: '8.0.3910.13' }] },
  { name: 'Git', vendor: 'The Git Development Community', versions: [{ version: '2.43.0' }, { version: '2.44.0' }] },
  { name: 'Python 3.11.7 (64-bit)', vendor: 'Python Software Foundation', versions: [{ version: '3.11.7150.0' }] },
  { name: 'Microsoft Visual Studio Code (User)', ...microsoft, mdm: ms('Visual Studio Code'), versions: [{ version: '1.85.1' }, { version: '1.86.2' }] },
  { name: 'Slack', vendor: 'Slack Technologies Inc.', mdm: { name: 'Slack', vendor: 'Slack Technologies, LLC' }, versions: [{ version: '4.35.131' }, { version: '4.36.140' }] },
  { name: 'PuTTY release 0.81 (64-bit)', vendor: 'Simon Tatham', versions: [{ version: '0.81.0.0' }] },
  { name: 'KeePass Password Safe 2.55', vendor: 'Dominik Reichl', versions: [{ version: '2.55' }] },
  { name: 'VLC media player', vendor: 'VideoLAN', versions: [{ version: '3.0.20' }] },
  { name: 'Microsoft Visio - en-us', ...microsoft, versions: [{ version: '16.0.17328.20184' }] },
  { name: 'Postman x64', vendor: 'Postman', versions: [{ version: '10.21.0' }] },
  { name: 'Docker Desktop', vendor: 'Docker Inc.', versions: [{ version: '4.26.1' }] },
  { name: 'Node.js', vendor: 'Node.js Foundation', versions: [{ version: '20.10.0' }, { version: '18.19.0' }] },
  { name: 'Wireshark 4.2.0 x64', vendor: 'The Wireshark developer community, https://www.wireshark.org', versions: [{ version: '4.2.0' }] },
  { name: 'Microsoft Power BI Desktop (x64)', ...microsoft, versions: [{ version: '2.124.2028.0' }] },
];

/** macOS apps: versions carry their build in parentheses, as Finder and MDMs show them. */
const macos: SoftwareTitle[] = [
  { name: 'Safari', vendor: 'Apple Inc.', mdm: { name: 'Safari', vendor: 'Apple' }, base: true, versions: [{ version: '17.2.1 (19617.1.17.11.12)' }, { version: '17.3 (19617.2.4.11.8)' }] },
  { name: 'Google Chrome', vendor: 'Google LLC', mdm: { name: 'Google Chrome', vendor: 'Google' }, base: true, versions: [{ version: '116.0.5845.140', cves: ['CVE-2023-4863'] }, { version: '120.0.6099.216' }] },
  { name: 'Microsoft Outlook', ...microsoft, mdm: ms('Microsoft Outlook'), base: true, versions: [{ version: '16.80 (23121017)' }, { version: '16.81 (24011420)' }] },
  { name: 'Microsoft Word', ...microsoft, mdm: ms('Microsoft Word'), base: true, versions: [{ version: '16.80 (23121017)' }, { version: '16.81 (24011420)' }] },
  { name: 'Microsoft Teams (work or school)', ...microsoft, mdm: ms('Microsoft Teams'), base: true, versions: [{ version: '24004.1307.2669.7070' }] },
  { name: 'Microsoft Excel', ...microsoft, mdm: ms('Microsoft Excel'), base: true, versions: [{ version: '16.80 (23121017)' }, { version: '16.81 (24011420)' }] },
  { name: 'Microsoft PowerPoint', ...microsoft, mdm: ms('Microsoft PowerPoint'), base: true, versions: [{ version: '16.80 (23121017)' }, { version: '16.81 (24011420)' }] },
  { name: 'OneDrive', ...microsoft, mdm: ms('OneDrive'), base: true, versions: [{ version: '23.246.1127 (23.246.1127.0002)' }] },
  { name: 'Company Portal', ...microsoft, mdm: ms('Company Portal'), base: true, versions: [{ version: '5.2312.1 (5.2312.1)' }] },
  { name: 'Falcon', vendor: 'CrowdStrike, Inc.', base: true, versions: [{ version: '7.10.17706.0 (17706)' }] },
  { name: 'zoom.us', vendor: 'Zoom Video Communications, Inc.', mdm: { name: 'Zoom', vendor: 'Zoom' }, base: true, versions: [{ version: '5.17.5 (29101)' }, { version: '6.0.2 (33403)' }] },
  { name: 'Xcode', vendor: 'Apple Inc.', mdm: { name: 'Xcode', vendor: 'Apple' }, versions: [{ version: '15.1 (15C65)' }, { version: '15.2 (15C500b)' }] },
  { name: 'Slack', vendor: 'Slack Technologies Inc.', mdm: { name: 'Slack', vendor: 'Slack Technologies, LLC' }, versions: [{ version: '4.36.140' }] },
  { name: 'Firefox', vendor: 'Mozilla', mdm: { name: 'Firefox', vendor: 'Mozilla Corporation' }, versions: [{ version: '130.0.1', cves: ['CVE-2024-9680'] }, { version: '132.0.1' }] },
  { name: 'Visual Studio Code', ...microsoft, mdm: ms('Visual Studio Code'), versions: [{ version: '1.85.1' }] },
  { name: 'iTerm2', vendor: 'George Nachman', versions: [{ version: '3.4.23' }] },
  { name: 'Docker', vendor: 'Docker Inc.', versions: [{ version: '4.26.1 (131620)' }] },
  { name: '1Password 8', vendor: 'AgileBits Inc.', mdm: { name: '1Password', vendor: 'AgileBits' }, versions: [{ version: '8.10.24' }] },
  { name: 'Keynote', vendor: 'Apple Inc.', base: true, versions: [{ version: '13.2 (7038.0.87)' }] },
  { name: 'Numbers', vendor: 'Apple Inc.', base: true, versions: [{ version: '13.2 (7038.0.87)' }] },
  { name: 'Pages', vendor: 'Apple Inc.', base: true, versions: [{ version: '13.2 (7038.0.87)' }] },
];

/** Ubuntu 22.04 packages (dpkg: epochs, Debian revisions, `~` backports). */
const ubuntu: SoftwareTitle[] = [
  { name: 'openssl', vendor: 'Ubuntu', base: true, versions: [{ version: '3.0.2-0ubuntu1.10', cves: ['CVE-2023-5678'] }, { version: '3.0.2-0ubuntu1.15' }] },
  { name: 'libssl3', vendor: 'Ubuntu', source: 'openssl', base: true, versions: [{ version: '3.0.2-0ubuntu1.10' }, { version: '3.0.2-0ubuntu1.15' }] },
  {
    name: 'openssh-server', vendor: 'Ubuntu', source: 'openssh', base: true,
    versions: [{ version: '1:8.9p1-3ubuntu0.4', cves: ['CVE-2024-6387', 'CVE-2023-48795'] }, { version: '1:8.9p1-3ubuntu0.6', cves: ['CVE-2024-6387'] }, { version: '1:8.9p1-3ubuntu0.10' }, { version: '1:8.9p1-3ubuntu0.10' }],
  },
  { name: 'curl', vendor: 'Ubuntu', base: true, versions: [{ version: '7.81.0-1ubuntu1.13', cves: ['CVE-2023-38546'] }, { version: '7.81.0-1ubuntu1.15' }] },
  { name: 'sudo', vendor: 'Ubuntu', base: true, versions: [{ version: '1.9.9-1ubuntu2.4' }] },
  { name: 'bash', vendor: 'Ubuntu', base: true, versions: [{ version: '5.1-6ubuntu1.1' }] },
  { name: 'libc6', vendor: 'Ubuntu', source: 'glibc', base: true, versions: [{ version: '2.35-0ubuntu3.5' }, { version: '2.35-0ubuntu3.6' }] },
  { name: 'systemd', vendor: 'Ubuntu', base: true, versions: [{ version: '249.11-0ubuntu3.11' }, { version: '249.11-0ubuntu3.12' }] },
  { name: 'xz-utils', vendor: 'Ubuntu', base: true, versions: [{ version: '5.2.5-2ubuntu1' }] },
  { name: 'python3.10', vendor: 'Ubuntu', base: true, versions: [{ version: '3.10.12-1~22.04.3' }] },
  { name: 'linux-image-generic', vendor: 'Ubuntu', source: 'linux-meta', base: true, versions: [{ version: '5.15.0.91.88' }, { version: '5.15.0.94.91' }] },
  { name: 'apt', vendor: 'Ubuntu', base: true, versions: [{ version: '2.4.11' }] },
  { name: 'snapd', vendor: 'Ubuntu', base: true, versions: [{ version: '2.58+22.04.1' }] },
  { name: 'zlib1g', vendor: 'Ubuntu', source: 'zlib', base: true, versions: [{ version: '1:1.2.11.dfsg-2ubuntu9.2' }] },
  { name: 'ca-certificates', vendor: 'Ubuntu', base: true, versions: [{ version: '20230311ubuntu0.22.04.1' }] },
  { name: 'falcon-sensor', vendor: 'CrowdStrike, Inc.', base: true, versions: [{ version: '7.10.0-16303' }] },
  { name: 'rsyslog', vendor: 'Ubuntu', base: true, versions: [{ version: '8.2112.0-2ubuntu2.2' }] },
  { name: 'vim', vendor: 'Ubuntu', base: true, versions: [{ version: '2:8.2.3995-1ubuntu2.15' }] },
  { name: 'nginx', vendor: 'Ubuntu', versions: [{ version: '1.18.0-6ubuntu14.3', cves: ['CVE-2023-44487'] }, { version: '1.18.0-6ubuntu14.4' }] },
  { name: 'apache2', vendor: 'Ubuntu', versions: [{ version: '2.4.52-1ubuntu4.7' }] },
  { name: 'postgresql-14', vendor: 'Ubuntu', versions: [{ version: '14.10-0ubuntu0.22.04.1' }] },
  { name: 'docker-ce', vendor: 'Docker Inc.', versions: [{ version: '5:24.0.7-1~ubuntu.22.04~jammy' }] },
  { name: 'openjdk-17-jre-headless', vendor: 'Ubuntu', source: 'openjdk-17', versions: [{ version: '17.0.9+9-1~22.04' }] },
  {
    name: 'Apache Log4j', vendor: 'Apache Software Foundation', path: '/opt/reporting/lib/log4j-core.jar',
    versions: [{ version: '2.14.1', cves: ['CVE-2021-44228', 'CVE-2021-45046'] }, { version: '2.15.0', cves: ['CVE-2021-45046'] }, { version: '2.17.1' }],
  },
  { name: 'git', vendor: 'Ubuntu', versions: [{ version: '1:2.34.1-1ubuntu1.10' }] },
  { name: 'nodejs', vendor: 'Ubuntu', versions: [{ version: '12.22.9~dfsg-1ubuntu3.3' }] },
  { name: 'redis-server', vendor: 'Ubuntu', source: 'redis', versions: [{ version: '5:6.0.16-1ubuntu1' }] },
];

/** RHEL 9 packages (rpm: epochs, release tags such as `el9_3`). */
const rhel: SoftwareTitle[] = [
  { name: 'openssl', vendor: 'Red Hat, Inc.', base: true, versions: [{ version: '1:3.0.7-24.el9', cves: ['CVE-2023-5678'] }, { version: '1:3.0.7-27.el9' }] },
  { name: 'openssh-server', vendor: 'Red Hat, Inc.', source: 'openssh', base: true, versions: [{ version: '8.7p1-34.el9', cves: ['CVE-2024-6387', 'CVE-2023-48795'] }, { version: '8.7p1-38.el9_4.1' }] },
  { name: 'glibc', vendor: 'Red Hat, Inc.', base: true, versions: [{ version: '2.34-83.el9_3.7' }, { version: '2.34-100.el9_4.2' }] },
  { name: 'kernel', vendor: 'Red Hat, Inc.', base: true, versions: [{ version: '5.14.0-362.13.1.el9_3' }, { version: '5.14.0-427.22.1.el9_4' }] },
  { name: 'bash', vendor: 'Red Hat, Inc.', base: true, versions: [{ version: '5.1.8-6.el9_1' }] },
  { name: 'curl', vendor: 'Red Hat, Inc.', base: true, versions: [{ version: '7.76.1-26.el9_3.2' }] },
  { name: 'sudo', vendor: 'Red Hat, Inc.', base: true, versions: [{ version: '1.9.5p2-9.el9' }] },
  { name: 'polkit', vendor: 'Red Hat, Inc.', base: true, versions: [{ version: '0.117-11.el9' }] },
  { name: 'systemd', vendor: 'Red Hat, Inc.', base: true, versions: [{ version: '252-18.el9' }] },
  { name: 'python3', vendor: 'Red Hat, Inc.', source: 'python3.9', base: true, versions: [{ version: '3.9.18-1.el9_3' }] },
  { name: 'xz', vendor: 'Red Hat, Inc.', base: true, versions: [{ version: '5.2.5-8.el9_0' }] },
  { name: 'rpm', vendor: 'Red Hat, Inc.', base: true, versions: [{ version: '4.16.1.3-25.el9' }] },
  { name: 'dnf', vendor: 'Red Hat, Inc.', base: true, versions: [{ version: '4.14.0-8.el9' }] },
  { name: 'open-vm-tools', vendor: 'Red Hat, Inc.', base: true, versions: [{ version: '12.2.5-3.el9_3' }] },
  { name: 'falcon-sensor', vendor: 'CrowdStrike, Inc.', base: true, versions: [{ version: '7.10.0-16303.el9' }] },
  { name: 'nginx', vendor: 'Red Hat, Inc.', versions: [{ version: '1:1.20.1-14.el9', cves: ['CVE-2023-44487'] }, { version: '1:1.20.1-14.el9_2.1' }] },
  { name: 'httpd', vendor: 'Red Hat, Inc.', versions: [{ version: '2.4.57-5.el9' }] },
  { name: 'postgresql-server', vendor: 'Red Hat, Inc.', source: 'postgresql', versions: [{ version: '13.11-1.el9' }] },
  { name: 'java-17-openjdk-headless', vendor: 'Red Hat, Inc.', source: 'java-17-openjdk', versions: [{ version: '1:17.0.9.0.9-2.el9' }] },
  {
    name: 'Apache Log4j', vendor: 'The Apache Software Foundation', path: '/opt/app/lib/log4j-core.jar',
    versions: [{ version: '2.14.1', cves: ['CVE-2021-44228', 'CVE-2021-45046'] }, { version: '2.17.1' }, { version: '2.17.1' }],
  },
  { name: 'xz-utils', vendor: 'Tukaani', path: '/usr/local/bin/xz', versions: [{ version: '5.6.0', cves: ['CVE-2024-3094'] }, { version: '5.4.6' }, { version: '5.4.6' }, { version: '5.4.6' }] },
  { name: 'podman', vendor: 'Red Hat, Inc.', versions: [{ version: '4:4.6.1-7.el9_3' }] },
  { name: 'git', vendor: 'Red Hat, Inc.', versions: [{ version: '2.39.3-1.el9_2' }] },
];

export const softwareByPlatform: Record<Platform, SoftwareTitle[]> = { windows, macos, ubuntu, rhel };

const network = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N';
/** The vulnerabilities of the demo, by CVE (or the scanner's id for checks without one). NVD base vectors. */
export const demoVulnerabilities: DemoVulnerability[] = [
  { cve: 'CVE-2021-44228', qid: '730297', title: 'Apache Log4j Remote Code Execution (Log4Shell)', vector: `${network}/S:C/C:H/I:H/A:H`, score: 10, kev: true, published: '2021-12-10', port: [8080, 'tcp'], solution: 'Upgrade Log4j to 2.17.1 or later.' },
  { cve: 'CVE-2021-45046', qid: '730302', title: 'Apache Log4j Thread Context Lookup Remote Code Execution', vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:C/C:H/I:H/A:H', score: 9, kev: true, published: '2021-12-14', solution: 'Upgrade Log4j to 2.17.1 or later.' },
  { cve: 'CVE-2024-3094', qid: '379548', title: 'XZ Utils liblzma Backdoor', vector: `${network}/S:C/C:H/I:H/A:H`, score: 10, kev: false, published: '2024-03-29', solution: 'Downgrade xz to 5.4.6 or upgrade to a fixed build.' },
  { cve: 'CVE-2024-9680', qid: '380621', title: 'Mozilla Firefox Animation Timeline Use-After-Free', vector: `${network}/S:U/C:H/I:H/A:H`, score: 9.8, kev: true, published: '2024-10-09', solution: 'Update Firefox to 131.0.2 (ESR 128.3.1) or later.' },
  { cve: 'CVE-2024-21413', qid: '110460', title: 'Microsoft Outlook Remote Code Execution (MonikerLink)', vector: `${network}/S:U/C:H/I:H/A:H`, score: 9.8, kev: true, published: '2024-02-13', solution: 'Install the February 2024 Microsoft 365 Apps update.' },
  { cve: 'CVE-2023-4863', qid: '378839', title: 'Google Chrome libwebp Heap Buffer Overflow', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H', score: 8.8, kev: true, published: '2023-09-12', solution: 'Update Chrome to 116.0.5845.187 or later.' },
  { cve: 'CVE-2024-6387', qid: '42046', title: 'OpenSSH Signal Handler Race Condition (regreSSHion)', vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 8.1, kev: false, published: '2024-07-01', port: [22, 'tcp'], solution: 'Update openssh-server to the distribution\'s fixed package.' },
  { cve: 'CVE-2023-38831', qid: '380011', title: 'RARLAB WinRAR Code Execution via Crafted Archive', vector: 'CVSS:3.1/AV:L/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H', score: 7.8, kev: true, published: '2023-08-23', solution: 'Update WinRAR to 6.23 or later.' },
  { cve: 'CVE-2023-44487', qid: '38906', title: 'HTTP/2 Rapid Reset Denial of Service', vector: `${network}/S:U/C:N/I:N/A:H`, score: 7.5, kev: true, published: '2023-10-10', port: [443, 'tcp'], solution: 'Update nginx to the distribution\'s fixed package.' },
  { cve: 'CVE-2016-2183', qid: '38657', title: 'Birthday attacks against TLS ciphers with 64-bit block size (SWEET32)', vector: `${network}/S:U/C:H/I:N/A:N`, score: 7.5, kev: false, published: '2016-09-01', port: [443, 'tcp'], solution: 'Disable 3DES and other 64-bit block ciphers.' },
  { cve: 'CVE-2024-38063', qid: '92155', title: 'Windows TCP/IP IPv6 Remote Code Execution', vector: `${network}/S:U/C:H/I:H/A:H`, score: 9.8, kev: false, published: '2024-08-13', solution: 'Install the August 2024 cumulative update.' },
  { cve: 'CVE-2025-0411', qid: '380960', title: '7-Zip Mark-of-the-Web Bypass', vector: 'CVSS:3.1/AV:L/AC:H/PR:N/UI:R/S:U/C:H/I:H/A:H', score: 7, kev: true, published: '2025-01-25', solution: 'Update 7-Zip to 24.09 or later.' },
  { cve: 'CVE-2023-48795', qid: '38913', title: 'SSH Prefix Truncation (Terrapin)', vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:H/A:N', score: 5.9, kev: false, published: '2023-12-18', port: [22, 'tcp'], solution: 'Update OpenSSH; disable ChaCha20-Poly1305 and EtM MACs meanwhile.' },
  { cve: 'CVE-2023-5678', qid: '380010', title: 'OpenSSL Excessive Time Generating DH Keys', vector: `${network}/S:U/C:N/I:N/A:L`, score: 5.3, kev: false, published: '2023-11-06', solution: 'Update openssl to the distribution\'s fixed package.' },
  { cve: 'CVE-2023-38546', qid: '379102', title: 'curl Cookie Injection with None File', vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:L/A:N', score: 3.7, kev: false, published: '2023-10-18', solution: 'Update curl to the distribution\'s fixed package.' },
  { cve: null, qid: '38169', title: 'SSL Certificate - Self-Signed Certificate', vector: null, score: null, kev: false, published: '2010-01-01', port: [8443, 'tcp'], solution: 'Replace the certificate with one signed by a trusted CA.' },
];

export const vulnerabilityByCve = new Map(demoVulnerabilities.filter((entry) => entry.cve).map((entry) => [entry.cve as string, entry]));
