import { passwordAuth, tokenAuth } from '../auth.js';
import { flag, text, type AdapterSource } from '../model.js';
import { baseUrl, port } from './shared.js';

/** Hypervisors and their managers: every virtual machine, whether or not an agent runs in it. */
export const virtualization: AdapterSource[] = [
  {
    slug: 'vmware-vcenter', name: 'VMware vCenter Server', vendor: 'Broadcom (VMware)', website: 'https://www.vmware.com/products/vcenter.html', docs_url: 'https://developer.broadcom.com/xapis/vsphere-automation-api/latest/',
    description: 'Virtual machines (with guest identity) and ESXi hosts from vCenter Server through the vSphere Automation REST API.',
    groups: ['vm'], categories: ['device'], engine: 'http',
    location: [baseUrl('The vCenter Server URL.', 'https://vcenter.corp.example.com', 'vCenter URL')],
    auth: [passwordAuth({ type: 'session_login', title: 'vSphere user', description: 'HTTP Basic on POST /api/session; the session id is sent as vmware-api-session-id.', userDescription: 'A vSphere SSO user, e.g. svc-cartograph@vsphere.local or CORP\\svc-cartograph.', userExample: 'svc-cartograph@vsphere.local', passwordDescription: 'That user\'s password.' })],
    options: [flag('fetch_guest_identity', 'Fetch guest identity', 'Read /guest/identity of every powered-on VM (host name, IP, guest OS); needs VMware Tools running, one call per VM.', true), flag('fetch_hosts', 'Fetch ESXi hosts', 'Also list the ESXi hosts (/api/vcenter/host).', true)],
    guide: {
      prerequisites: ['vCenter Server 7.0 Update 2 or later (the /api endpoints); older 6.5–7.0 servers answer only under /rest.', 'vCenter uses its VMCA certificate by default: download the root CA from https://<vcenter>/certs/download.zip and paste it into the `Custom CA certificate (PEM)` field.'],
      grant: ['In the vSphere Client open Administration → Single Sign On → Users and Groups and create svc-cartograph in vsphere.local (or use a directory account).', 'Open Administration → Access Control → Global Permissions → Add, role Read-only, tick Propagate to children.'],
      collects: ['VMs from /api/vcenter/vm and /api/vcenter/vm/{vm}: name, power state, CPU count, memory, BIOS and instance UUIDs, guest OS, NICs (MAC addresses), hardware version; guest identity (host name, IP, full OS name) when VMware Tools runs.', 'ESXi hosts: name, connection and power state.'],
      troubleshooting: [['401 on /api/session', 'The account name needs its domain (user@vsphere.local).'], ['503 on guest/identity', 'VMware Tools is not running in that VM; the VM is still listed without guest data.'], ['"Too many results"', 'The list call returns at most 4000 VMs; Cartograph lists per host above that.']],
    },
  },
  {
    slug: 'vmwareesxi', name: 'VMware ESXi', vendor: 'Broadcom (VMware)', website: 'https://www.vmware.com/products/esxi-and-esx.html', docs_url: 'https://developer.broadcom.com/xapis/vsphere-web-services-api/latest/',
    description: 'Virtual machines of a standalone ESXi host (not managed by vCenter).',
    groups: ['vm'], categories: ['device'], engine: 'http',
    location: [baseUrl('The ESXi host URL.', 'https://esxi01.corp.example.com', 'ESXi host URL')],
    auth: [passwordAuth({ type: 'soap_login', title: 'Local user', description: 'SessionManager.Login over the vSphere Web Services (SOAP) API.', userDescription: 'A local ESXi user with the Read-only role.', userExample: 'cartograph', passwordDescription: 'That user\'s password.' })],
    guide: {
      prerequisites: ['ESXi 7.0 Update 3 or 8. Standalone ESXi has no REST API: Cartograph reads it through the SOAP Web Services API at /sdk.', 'ESXi uses a self-signed certificate; paste it into the `Custom CA certificate (PEM)` field.'],
      grant: ['In the ESXi Host Client open Host → Manage → Security & users → Users → Add user, then Actions → Permissions on the host: assign the Read-only role.'],
      collects: ['VMs through a container view and the PropertyCollector: name, BIOS and instance UUIDs, guest host name, IPs and MAC addresses (VMware Tools), guest OS.', 'The host itself: name, vendor, model, serial number, hardware UUID, ESXi version, VMkernel IPs and MACs.'],
      troubleshooting: [['"Cannot complete login due to an incorrect user name or password"', 'The user is locked out after failed attempts (Security.AccountLockFailures).']],
    },
  },
  {
    slug: 'vmware-cloud-director', name: 'VMware Cloud Director', vendor: 'Broadcom (VMware)', website: 'https://www.vmware.com/products/cloud-director.html', docs_url: 'https://developer.broadcom.com/xapis/vmware-cloud-director-openapi/latest/', beta: true,
    description: 'vApps and virtual machines of a Cloud Director organisation.',
    groups: ['vm', 'cloud'], categories: ['device'], engine: 'http',
    location: [baseUrl('The Cloud Director URL.', 'https://vcd.cloud.example.com', 'Cloud Director URL'), text('organization', 'Organization', 'The organisation name (System for provider administrators).', ['acme'])],
    auth: [tokenAuth({ type: 'api_token', title: 'API token', description: 'A refresh token exchanged at /oauth/tenant/{org}/token.', fieldTitle: 'API token', fieldDescription: 'An API token from User preferences → Access Tokens.', example: 'Xy9Zw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0F' })],
    guide: {
      prerequisites: ['Cloud Director 10.3.1 or later for API tokens.'],
      grant: ['Use a user with the Organization Auditor (or vApp User) role and generate an API token under User preferences → Access Tokens.'],
      collects: ['VMs from the query service (type=vm): name, status, guest OS, IPs, network, vApp, VDC, hardware version.'],
      troubleshooting: [['401', 'The token was revoked or the `Organization` field is wrong.']],
    },
  },
  {
    slug: 'hyper-v', name: 'Microsoft Hyper-V', vendor: 'Microsoft', website: 'https://learn.microsoft.com/windows-server/virtualization/hyper-v/hyper-v-overview',
    description: 'Virtual machines of Hyper-V hosts, read over WinRM (the Msvm_ WMI classes).',
    groups: ['vm'], categories: ['device'], engine: null,
    location: [text('host', 'Hyper-V host', 'The host name of the Hyper-V host or cluster node.', ['hv01.corp.example.com']), port(5986, 'WinRM HTTPS port (5986).')],
    auth: [passwordAuth({ type: 'windows_integrated', title: 'Windows account', description: 'WinRM with Negotiate (Kerberos/NTLM).', userDescription: 'A domain account in the Hyper-V Administrators or Remote Management Users group with WMI read on root\\virtualization\\v2.', userExample: 'CORP\\svc-cartograph', passwordDescription: 'That account\'s password.' })],
    network: 'tls',
    guide: {
      prerequisites: ['WinRM over HTTPS enabled on the host (winrm quickconfig -transport:https).', 'WinRM is not yet available in Cartograph\'s engines: this adapter can be configured but not fetched yet.'],
      grant: ['Add the account to Remote Management Users, and grant it Enable Account and Remote Enable on the WMI namespace root\\virtualization\\v2 (wmimgmt.msc).'],
      collects: ['VMs (Msvm_ComputerSystem, Msvm_KvpExchangeComponent for guest FQDN and OS, synthetic NICs for MAC addresses): name, VM id (BIOS GUID), state, guest host name, OS, IPs.'],
      troubleshooting: [['Access denied on WMI', 'Grant Remote Enable on root\\virtualization\\v2.']],
    },
  },
  {
    slug: 'nutanix', name: 'Nutanix Prism Central', vendor: 'Nutanix', website: 'https://www.nutanix.com/products/prism', docs_url: 'https://www.nutanix.dev/api-reference-v3/',
    description: 'VMs and hosts of Nutanix AHV clusters through Prism Central (API v3).',
    groups: ['vm'], categories: ['device'], engine: 'http',
    location: [baseUrl('The Prism Central URL (port 9440).', 'https://prism-central.corp.example.com:9440', 'Prism Central URL')],
    auth: [passwordAuth({ title: 'Prism user', description: 'HTTP Basic.', userDescription: 'A local or directory user with the Viewer role.', userExample: 'svc-cartograph', passwordDescription: 'That user\'s password.' })],
    guide: {
      prerequisites: ['Prism Central pc.2022 or later.'],
      grant: ['Create a local user (Admin Center → IAM → Users) or map a directory user, and assign the Prism Viewer role.'],
      collects: ['VMs from POST /api/nutanix/v3/vms/list: name, UUID, power state, cluster, host, NICs (MAC, IPs), guest OS and tools, vCPUs, memory; hosts from /hosts/list.'],
      troubleshooting: [['TLS error', 'Prism uses a self-signed certificate by default; paste it into the `Custom CA certificate (PEM)` field.']],
    },
  },
  {
    slug: 'proxmox', name: 'Proxmox Virtual Environment', vendor: 'Proxmox Server Solutions', website: 'https://www.proxmox.com/proxmox-virtual-environment', docs_url: 'https://pve.proxmox.com/pve-docs/api-viewer/',
    description: 'QEMU VMs, LXC containers and nodes of a Proxmox VE cluster.',
    groups: ['vm'], categories: ['device'], engine: 'http',
    location: [baseUrl('The URL of any cluster node (port 8006).', 'https://pve01.corp.example.com:8006', 'Node URL')],
    auth: [{ type: 'api_token', title: 'API token', description: 'Sent as "Authorization: PVEAPIToken=<token id>=<secret>".', fields: [text('token_id', 'Token ID', 'The full token id user@realm!tokenname.', ['cartograph@pve!inventory']), { name: 'token_secret', required: true, secretExample: '3f8c1a2b-4d5e-4f60-8a9b-0c1d2e3f4a5b', schema: { type: 'string', minLength: 1, title: 'Token secret', description: 'The secret shown once when the token was added.', 'x-secret': true } }] }],
    guide: {
      prerequisites: ['Proxmox VE 6.2 or later (API tokens).'],
      grant: ['Datacenter → Permissions → Users → Add cartograph@pve; then API Tokens → Add (untick Privilege Separation, or give the token its own permission).', 'Datacenter → Permissions → Add → User (or API Token) Permission: path /, role PVEAuditor, Propagate.'],
      collects: ['Resources from /api2/json/cluster/resources: VMs and containers (vmid, name, node, status, CPU, memory), nodes; guest agent network interfaces (IPs, MACs) and OS info for running QEMU VMs.'],
      troubleshooting: [['401 "invalid token value"', 'The `Token ID` field needs the full user@realm!tokenname.'], ['Empty guest data', 'Install and enable the QEMU guest agent in the VM.']],
    },
  },
];
