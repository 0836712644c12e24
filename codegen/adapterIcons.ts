import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as simpleIcons from 'simple-icons';
import type { SimpleIcon } from 'simple-icons';
import { escapeXml, monogramSvg } from './adapterMonogram.js';

/**
 * One-off writer: `npx tsx codegen/adapterIcons.ts` writes schemas/adapters/<slug>/icon.svg for every adapter
 * folder: the brand mark from the simple-icons package (CC0) in its brand colour when the package has that
 * brand, otherwise a monogram (the name's initials on a colour derived from the slug).
 */

const adaptersFolder = fileURLToPath(new URL('../schemas/adapters', import.meta.url));

// Adapter slug → simple-icons slug, where the brand is in the package under another name. Only exact brands:
// a product of a vendor gets the vendor's mark only when the product carries that mark itself.
const brandOf: Record<string, string> = {
  'crowdstrike': 'crowdstrike', 'sentinelone': 'sentinelone', 'sophos-ep': 'sophos', 'trend-micro': 'trendmicro', 'cortex-xdr': 'paloaltonetworks',
  'carbon-black-cloud': 'vmware', 'kaspersky-security-center': 'kaspersky', 'bitdefender-gravityzone': 'bitdefender', 'eset-protect': 'eset',
  'trellix-epo': 'trellix', 'fireeye-hx': 'trellix', 'symantec-ep': 'broadcom', 'symantec-edr': 'broadcom', 'symantec-dcs': 'broadcom', 'symantec-dlp': 'broadcom',
  'cisco-secure-endpoint': 'cisco', 'malwarebytes-nebula': 'malwarebytes', 'wazuh': 'wazuh',
  'okta': 'okta', 'onelogin': 'onelogin', 'jumpcloud': 'jumpcloud', 'google-workspace': 'google', 'keycloak': 'keycloak', 'auth0': 'auth0', 'duo': 'cisco',
  'ping-identity': 'pingidentity', 'cyberark': 'cyberark', 'bamboohr': 'bamboohr', 'workday': 'workday', '1password': '1password', 'bitwarden': 'bitwarden',
  'jamfpro': 'jamf', 'kandji': 'kandji', 'vmware-vcenter': 'vmware', 'vmwareesxi': 'vmware', 'vmware-cloud-director': 'vmware',
  'aws': 'amazonwebservices', 'gcp': 'googlecloud', 'oracle-cloud': 'oracle', 'alibaba-cloud': 'alibabacloud', 'ibm-cloud': 'ibmcloud', 'digitalocean': 'digitalocean',
  'openstack': 'openstack', 'kubernetes': 'kubernetes', 'rancher': 'rancher', 'proxmox': 'proxmox', 'nutanix': 'nutanix', 'openshift': 'redhatopenshift', 'hetzner-cloud': 'hetzner',
  'linode': 'akamai', 'cloudflare': 'cloudflare', 'prisma-cloud': 'paloaltonetworks', 'wiz': 'wiz',
  'servicenow': 'servicenow', 'jira': 'jira', 'jira-assets': 'jira', 'glpi': 'glpi', 'freshservice': 'freshworks', 'zendesk': 'zendesk', 'topdesk': 'topdesk',
  'netbox': 'netbox', 'snipe-it': 'snipeit', 'lansweeper': 'lansweeper', 'itop': 'combodo',
  'zabbix': 'zabbix', 'datadog': 'datadog', 'dynatrace': 'dynatrace', 'prtg': 'paessler', 'icinga': 'icinga', 'librenms': 'librenms', 'checkmk': 'checkmk',
  'grafana': 'grafana', 'newrelic': 'newrelic', 'nagios': 'nagios', 'logicmonitor': 'logicmonitor', 'solarwinds-npm': 'solarwinds',
  'cisco-meraki': 'cisco', 'cisco-ise': 'cisco', 'cisco-umbrella': 'cisco', 'cisco-dna-center': 'cisco', 'fortigate': 'fortinet', 'palo-alto-panorama': 'paloaltonetworks',
  'check-point': 'checkpoint', 'ubiquiti-unifi': 'ubiquiti', 'aruba-central': 'arubanetworks', 'aruba-clearpass': 'arubanetworks', 'juniper-mist': 'junipernetworks',
  'f5-bigip': 'f5', 'infoblox': 'infoblox', 'opnsense': 'opnsense', 'pfsense': 'pfsense', 'mikrotik': 'mikrotik', 'sophos-firewall': 'sophos',
  'qualys': 'qualys', 'nessus': 'tenable', 'tenable-io': 'tenable', 'tenable-sc': 'tenable', 'nexpose': 'rapid7', 'greenbone': 'greenbone', 'snyk': 'snyk',
  'splunk': 'splunk', 'elasticsearch': 'elasticsearch', 'ibm-qradar': 'ibm', 'sumo-logic': 'sumologic', 'graylog': 'graylog', 'microsoft-sentinel': 'microsoft',
  'slack': 'slack', 'box': 'box', 'aha': 'aha', 'zoom': 'zoom', 'dropbox': 'dropbox', 'github': 'github', 'gitlab': 'gitlab', 'bitbucket': 'bitbucket',
  'confluence': 'confluence', 'atlassian-admin': 'atlassian', 'salesforce': 'salesforce', 'miro': 'miro', 'notion': 'notion', 'asana': 'asana', 'webex': 'webex',
  'chef': 'chef', 'puppet': 'puppet', 'saltstack': 'salt', 'ansible-tower': 'ansible', 'red-hat-satellite': 'redhat', 'foreman': 'theforeman',
  'fleetdm': 'fleetdm', 'osquery': 'osquery', 'shodan': 'shodan', 'censys': 'censys', 'letsencrypt': 'letsencrypt', 'digicert': 'digicert',
  'hashicorp-vault': 'vault', 'hashicorp-consul': 'consul', 'nomad': 'nomad', 'docker': 'docker', 'portainer': 'portainer', 'harbor': 'harbor',
  'mysql': 'mysql', 'postgresql': 'postgresql', 'mongodb-atlas': 'mongodb',
  'zscaler': 'zscaler', 'netskope': 'netskope', 'knowbe4': 'knowbe4', 'veeam': 'veeam', 'druva': 'druva', 'backblaze': 'backblaze',
  'hp-ilo': 'hp', 'dell-openmanage': 'dell', 'lenovo-xclarity': 'lenovo', 'nutanix-prism': 'nutanix', 'automox': 'automox', 'ninjaone': 'ninjaone',
  'manage-engine-dc': 'manageengine', 'manageengine-servicedesk': 'manageengine', 'microsoft-intune': 'microsoft', 'azure-entra': 'microsoft',
  'microsoft-defender-endpoint': 'microsoft', 'sccm': 'microsoft', 'mbam-sccm': 'microsoft', 'azure': 'microsoftazure', 'azure-key-vault': 'microsoftazure', 'active-directory': 'microsoft',
  'hyper-v': 'microsoft', 'wsus': 'microsoft', 'cyberx': 'microsoft', 'microsoft-365': 'microsoft', 'teams': 'microsoftteams',
};

const iconsBySlug = new Map<string, SimpleIcon>(
  Object.values(simpleIcons as Record<string, unknown>)
    .filter((value): value is SimpleIcon => typeof value === 'object' && value !== null && 'svg' in value && 'slug' in value)
    .map((icon) => [icon.slug, icon]),
);

/** The brand mark, filled with its brand colour. */
function brandSvg(icon: SimpleIcon): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" role="img" fill="#${icon.hex}"><title>${escapeXml(icon.title)}</title><path d="${icon.path}"/></svg>\n`;
}

let brands = 0;
const folders = readdirSync(adaptersFolder).filter((name) => statSync(`${adaptersFolder}/${name}`).isDirectory());
for (const slug of folders) {
  const { name } = JSON.parse(readFileSync(`${adaptersFolder}/${slug}/adapter.json`, 'utf8')) as { name: string };
  const icon = iconsBySlug.get(brandOf[slug] ?? slug);
  if (icon) brands += 1;
  writeFileSync(`${adaptersFolder}/${slug}/icon.svg`, icon ? brandSvg(icon) : monogramSvg(slug, name));
}
console.log(`adapter icons: ${brands} brand marks, ${folders.length - brands} monograms`);
