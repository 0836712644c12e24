import { entraAppAuth, googleServiceAccountAuth, keyPairAuth, microsoftCloud, tokenAuth } from '../auth.js';
import { flag, list, optionalText, secret, text, url, type AdapterSource } from '../model.js';
import { apiHost, apiUrl, baseUrl, microsoftHosts } from './shared.js';

/** Public clouds, cloud security posture and container platforms. */
export const cloud: AdapterSource[] = [
  {
    slug: 'aws', name: 'Amazon Web Services (AWS)', vendor: 'Amazon', website: 'https://aws.amazon.com', docs_url: 'https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstances.html',
    description: 'EC2 instances (with their network interfaces and tags), IAM users and AWS Certificate Manager certificates from one or more AWS accounts and regions.',
    groups: ['cloud'], categories: ['device', 'user', 'certificate'], engine: 'http',
    location: [
      list('regions', 'Regions', 'Regions to read, e.g. us-east-1; empty means every region enabled for the account (from DescribeRegions).', ['us-east-1', 'eu-west-1']),
      url('endpoint_url', 'Endpoint URL', 'Optional: send every request to this URL instead of the AWS endpoints (LocalStack, or a proxy that forwards to AWS); requests are still signed for their region and service.', 'http://localstack.corp.example.com:4566', { required: false }),
    ],
    options: [flag('fetch_certificates', 'Certificates', 'Read AWS Certificate Manager certificates (needs acm:ListCertificates, acm:DescribeCertificate and acm:GetCertificate).', true)],
    auth: [
      {
        type: 'access_key', title: 'Access key', description: 'An IAM user\'s access key; every request is signed with Signature Version 4.',
        fields: [
          text('access_key_id', 'Access key ID', 'The access key ID (AKIA…).', ['AKIAIOSFODNN7EXAMPLE'], { pattern: '^(AKIA|ASIA)[A-Z0-9]{16}$' }),
          secret('secret_access_key', 'Secret access key', 'The secret access key shown once when the key was created.', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'),
          optionalText('role_arn', 'Role to assume', 'Optional role ARN assumed with sts:AssumeRole, e.g. for an organisation member account.', ['arn:aws:iam::123456789012:role/CartographReadOnly']),
          optionalText('external_id', 'External ID', 'The external ID the role\'s trust policy requires, if any.', ['cartograph-7f3a']),
        ],
      },
    ],
    guide: {
      prerequisites: ['An IAM user (or a role it can assume in each account) dedicated to Cartograph.', 'The Cartograph host clock within 5 minutes of the real time (requests are signed with Signature Version 4).'],
      grant: ['Attach the AWS managed policy ReadOnlyAccess, or a narrower policy allowing ec2:DescribeInstances, ec2:DescribeRegions, ec2:DescribeNetworkInterfaces, iam:ListUsers, acm:ListCertificates, acm:DescribeCertificate and acm:GetCertificate.', 'For several accounts, create a role (e.g. CartographReadOnly) with that policy in each account, trusting the Cartograph user, and set the `Role to assume` field.', 'Create an access key for the user (IAM → Users → Security credentials → Create access key, use case "Third-party service").'],
      collects: ['EC2 instances: instance id, name tag, type, state, private and public IPs and DNS names, MAC addresses of the interfaces, platform details, image id, VPC and subnet, availability zone, launch time, tags.', 'IAM users: user name, ARN, user id, account, path, created, password last used.', 'ACM certificates of every key type in each region: the certificate itself (PEM) when issued, domain names, serial, issuer, validity, key and signature algorithms, status, type and the resources using it (never the private key).'],
      troubleshooting: [['AuthFailure or SignatureDoesNotMatch', 'The secret key is wrong or the Cartograph host clock is skewed.'], ['UnauthorizedOperation', 'The policy lacks ec2:DescribeInstances in that region (check SCPs in AWS Organizations).'], ['OptInRequired', 'The region is not enabled for the account; remove it from the `Regions` field.'], ['AccessDeniedException from ACM', 'The policy lacks acm:ListCertificates (or turn off `Certificates`).']],
    },
  },
  {
    slug: 'azure', name: 'Microsoft Azure', vendor: 'Microsoft', website: 'https://azure.microsoft.com', docs_url: 'https://learn.microsoft.com/rest/api/compute/virtual-machines/list-all',
    description: 'Virtual machines with their network interfaces from Azure subscriptions through Azure Resource Manager, and optionally the Entra ID devices through Microsoft Graph.',
    groups: ['cloud'], categories: ['device'], engine: 'http',
    location: [
      microsoftCloud(),
      list('subscription_ids', 'Subscriptions', 'Subscription IDs to read; empty means every subscription the app can see.', ['1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b']),
      ...microsoftHosts(),
      url('arm_url', 'Resource Manager host', 'Only for a custom environment or a gateway: the Azure Resource Manager root, e.g. https://management.azure.com. Leave empty to use the host of the chosen cloud.', 'https://management.azure.com', { required: false }),
    ],
    auth: [entraAppAuth('Tokens are requested for Azure Resource Manager (scope https://management.azure.com/.default) and, for Entra ID devices, Microsoft Graph (scope https://graph.microsoft.com/.default).')],
    options: [flag('fetch_entra_devices', 'Fetch Entra ID devices', 'Also read the devices registered in Entra ID from Microsoft Graph (needs the Device.Read.All application permission).', false)],
    guide: {
      prerequisites: ['An Entra ID app registration, and Owner or User Access Administrator on the subscriptions (or management group) to assign a role.'],
      grant: ['Register an app in Entra ID (App registrations → New registration) and create a client secret.', 'In the Azure portal open the management group or subscription → Access control (IAM) → Add role assignment, role Reader, members: the app.', 'For Entra ID devices: API permissions → Add a permission → Microsoft Graph → Application permissions → Device.Read.All, then Grant admin consent.'],
      collects: ['Virtual machines from Microsoft.Compute/virtualMachines: VM id, name, computer name, size, OS type and image, location, resource group, tags, provisioning state.', 'Network interfaces (MAC, private IPs) joined to their VMs.', 'Optionally Entra ID devices from Microsoft Graph /devices: display name, OS and version, device id, trust type, last sign-in.'],
      troubleshooting: [['AuthorizationFailed', 'The app has no Reader assignment on that subscription.'], ['AADSTS7000215', 'Paste the secret Value (not its ID) into the `Client secret` field.'], ['Authorization_RequestDenied', 'The app lacks the Device.Read.All application permission or its admin consent.']],
    },
  },
  {
    slug: 'azure-key-vault', name: 'Azure Key Vault certificates', vendor: 'Microsoft', website: 'https://azure.microsoft.com/products/key-vault', docs_url: 'https://learn.microsoft.com/rest/api/keyvault/certificates/get-certificates/get-certificates',
    description: 'The certificates kept in Azure Key Vaults (the current version of each), read from their DER bytes.',
    groups: ['cloud', 'certificate_management'], categories: ['certificate'], engine: 'http',
    location: [
      microsoftCloud(),
      { ...list('vault_urls', 'Key vaults', 'The vault URLs to read (Overview → Vault URI), e.g. https://contoso-prod.vault.azure.net.', ['https://contoso-prod.vault.azure.net']), required: true },
      url('login_url', 'Sign-in host', 'Only for a custom environment or a gateway: the Entra sign-in root, e.g. https://login.microsoftonline.com. Leave empty to use the host of the chosen cloud.', 'https://login.microsoftonline.com', { required: false }),
    ],
    auth: [entraAppAuth('Tokens are requested for Key Vault (scope https://vault.azure.net/.default).')],
    guide: {
      prerequisites: ['An Entra ID app registration, and the right to grant it access to each vault (Key Vault Administrator, or Owner of the vault).'],
      grant: ['Register an app in Entra ID (App registrations → New registration) and create a client secret.', 'On each vault: Access control (IAM) → Add role assignment, role Key Vault Certificate User (or, on a vault using access policies, an access policy with the Get and List certificate permissions) for the app.'],
      collects: ['Certificates from GET /certificates and, for each, GET /certificates/{name}: the DER certificate (cer), thumbprint, validity, key type and size, subject and alternative names of its policy, enabled flag. Private keys and secrets are never read.'],
      troubleshooting: [['403 Forbidden "does not have certificates list permission"', 'Give the app the Key Vault Certificate User role (or an access policy with List and Get on certificates).'], ['AADSTS7000215', 'Paste the secret Value (not its ID) into the `Client secret` field.']],
    },
  },
  {
    slug: 'gcp', name: 'Google Cloud Platform', vendor: 'Google', website: 'https://cloud.google.com', docs_url: 'https://cloud.google.com/asset-inventory/docs/reference/rest/v1/assets/list',
    description: 'Compute Engine instances of one or more Google Cloud projects, read from Cloud Asset Inventory.',
    groups: ['cloud'], categories: ['device'], engine: 'http',
    location: [list('project_ids', 'Projects', 'Project IDs to read; empty means the service account\'s own project.', ['acme-prod', 'acme-staging']), apiUrl('https://cloudasset.googleapis.com', 'The Cloud Asset Inventory API root.')],
    auth: [googleServiceAccountAuth({ description: 'A service account JSON key; Cartograph signs a JWT for the cloud-platform scope (what the Cloud Asset API accepts) and reads with the roles the account holds.', impersonate: false })],
    guide: {
      prerequisites: ['The Cloud Asset API (cloudasset.googleapis.com) enabled in the project of the service account.'],
      grant: ['Create a service account (IAM & Admin → Service accounts) and a JSON key for it.', 'Grant it Cloud Asset Viewer (roles/cloudasset.viewer) on each project, or on the folder or organisation.'],
      collects: ['Compute Engine instances from Cloud Asset Inventory (asset type compute.googleapis.com/Instance, content RESOURCE): id, name, zone, machine type, status, internal and external IPs, boot disk licences (OS), labels, creation and last start time.'],
      troubleshooting: [['403 "Cloud Asset API has not been used in project"', 'Enable the Cloud Asset API in the service account\'s project.'], ['403 "The caller does not have permission"', 'Grant Cloud Asset Viewer on the project.']],
    },
  },
  {
    slug: 'oracle-cloud', name: 'Oracle Cloud Infrastructure', vendor: 'Oracle', website: 'https://www.oracle.com/cloud/', docs_url: 'https://docs.oracle.com/iaas/api/#/en/iaas/20160918/Instance/ListInstances',
    description: 'Compute instances and IAM users from Oracle Cloud Infrastructure.',
    groups: ['cloud'], categories: ['device', 'user'], engine: 'http',
    location: [text('tenancy_ocid', 'Tenancy OCID', 'The tenancy OCID (Profile → Tenancy).', ['ocid1.tenancy.oc1..aaaaaaaaexample']), text('region', 'Region', 'The region identifier, e.g. eu-frankfurt-1 (instances are read in this region; users in the identity domain of it).', ['eu-frankfurt-1'], { pattern: '^[a-z]+(-[a-z]+)+-[0-9]+$' }), url('compute_url', 'Core Services URL', 'Only through an API gateway: the root that answers /20160918/instances. Leave empty for https://iaas.<region>.oraclecloud.com.', 'https://iaas.eu-frankfurt-1.oraclecloud.com', { required: false }), url('identity_url', 'Identity URL', 'Only through an API gateway: the root that answers /20160918/users. Leave empty for https://identity.<region>.oraclecloud.com.', 'https://identity.eu-frankfurt-1.oraclecloud.com', { required: false })],
    auth: [{ type: 'api_signing_key', title: 'API signing key', description: 'Requests are signed with the user\'s API key (draft-cavage HTTP signatures).', fields: [text('user_ocid', 'User OCID', 'The OCID of the API user.', ['ocid1.user.oc1..aaaaaaaaexample']), text('fingerprint', 'Key fingerprint', 'The fingerprint of the uploaded public key.', ['12:34:56:78:9a:bc:de:f0:12:34:56:78:9a:bc:de:f0']), { name: 'private_key', required: true, secretExample: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg...\n-----END PRIVATE KEY-----', schema: { type: 'string', minLength: 1, title: 'Private key (PEM)', description: 'The private key matching the uploaded public key.', 'x-secret': true, 'x-widget': 'textarea' } }] }],
    guide: {
      prerequisites: ['An OCI user with an API signing key; Cartograph signs every request with it (signature version 1).'],
      grant: ['Create a group CartographReaders with the user, and a policy: Allow group CartographReaders to inspect all-resources in tenancy (or read instance-family).', 'Under the user → API Keys → Add API Key, upload or generate a key pair.'],
      collects: ['Compute instances of the tenancy and every active compartment under it: OCID, display name, shape, image OS and version, free-form tags, creation time.', 'Their attached VNICs: host name label, private and public IPs, MAC address.', 'IAM users: name, e-mail, description, created, last successful login.'],
      troubleshooting: [['401 NotAuthenticated', 'The fingerprint does not match the key, or the clock is skewed.']],
    },
  },
  {
    slug: 'alibaba-cloud', name: 'Alibaba Cloud', vendor: 'Alibaba Cloud', website: 'https://www.alibabacloud.com', docs_url: 'https://www.alibabacloud.com/help/en/ecs/developer-reference/api-ecs-2014-05-26-describeinstances', beta: true,
    description: 'ECS instances from Alibaba Cloud.',
    groups: ['cloud'], categories: ['device'], engine: 'http',
    location: [{ name: 'regions', required: true, schema: { type: 'array', title: 'Regions', description: 'Region IDs to read, e.g. cn-hangzhou, eu-central-1.', items: { type: 'string', pattern: '^[a-z]{2}(-[a-z0-9]+)+$' }, minItems: 1, uniqueItems: true, examples: [['eu-central-1']] } }, url('base_url', 'API URL', 'Only through an API gateway: the root that answers the ECS RPC API for every region. Leave empty for https://ecs.<region>.aliyuncs.com.', 'https://ecs.eu-central-1.aliyuncs.com', { required: false })],
    auth: [keyPairAuth({ type: 'access_key', title: 'RAM user AccessKey', description: 'Requests are signed with the AccessKey secret.', idName: 'access_key_id', idTitle: 'AccessKey ID', idDescription: 'The AccessKey ID of a RAM user.', idExample: 'LTAI5tExampleKeyId', secretName: 'access_key_secret', secretTitle: 'AccessKey secret', secretDescription: 'The AccessKey secret.' })],
    guide: {
      prerequisites: ['A RAM user with an AccessKey; Cartograph signs every request with it (RPC signature 1.0, HMAC-SHA1).'],
      grant: ['In RAM create a user with programmatic access and attach AliyunECSReadOnlyAccess.'],
      collects: ['ECS instances: instance id and name, hostname, status, private and public IPs, MACs of its network interfaces, serial number, OS name and type, zone, instance type, tags, creation time.'],
      troubleshooting: [['InvalidAccessKeyId.NotFound', 'The key was disabled or deleted.']],
    },
  },
  {
    slug: 'digitalocean', name: 'DigitalOcean', vendor: 'DigitalOcean', website: 'https://www.digitalocean.com', docs_url: 'https://docs.digitalocean.com/reference/api/api-reference/#operation/droplets_list',
    description: 'Droplets of a DigitalOcean team.',
    groups: ['cloud'], categories: ['device'], engine: 'http',
    location: [],
    auth: [tokenAuth({ title: 'Personal access token', description: 'Sent as a Bearer token to https://api.digitalocean.com/v2.', fieldTitle: 'Personal access token', field: 'access_token', fieldDescription: 'A token with read scope (API → Tokens → Generate New Token).', example: 'dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' })],
    guide: {
      prerequisites: ['A DigitalOcean team member who can create tokens.'],
      grant: ['Open API → Tokens → Generate New Token, choose Read scope only (or Custom Scopes: droplet:read).'],
      collects: ['Droplets from /v2/droplets: id, name, status, size, region, image (OS), public and private IPv4/IPv6, tags, created.'],
      troubleshooting: [['401 "Unable to authenticate you"', 'The token expired or was revoked.']],
    },
  },
  {
    slug: 'hetzner-cloud', name: 'Hetzner Cloud', vendor: 'Hetzner', website: 'https://www.hetzner.com/cloud', docs_url: 'https://docs.hetzner.cloud/',
    description: 'Servers of a Hetzner Cloud project.',
    groups: ['cloud'], categories: ['device'], engine: 'http',
    location: [],
    auth: [tokenAuth({ title: 'API token', description: 'Sent as a Bearer token to https://api.hetzner.cloud/v1.', fieldTitle: 'API token', fieldDescription: 'A project API token with Read permission.', example: 'jEheVytlAoFl7F8MqUQ7jAo2hOXASztX' })],
    guide: {
      prerequisites: ['A Hetzner Cloud project.'],
      grant: ['In the Cloud Console open the project → Security → API tokens → Generate API token, permission Read.'],
      collects: ['Servers from /v1/servers: id, name, status, server type, datacenter, public IPv4/IPv6, private networks, image (OS), labels, created.'],
      troubleshooting: [['401', 'Tokens belong to one project; create one per project.']],
    },
  },
  {
    slug: 'openstack', name: 'OpenStack', vendor: 'OpenInfra Foundation', website: 'https://www.openstack.org', docs_url: 'https://docs.openstack.org/api-ref/compute/',
    description: 'Nova servers of an OpenStack cloud (Keystone v3).',
    groups: ['cloud', 'vm'], categories: ['device'], engine: 'http',
    location: [baseUrl('The Keystone v3 identity URL.', 'https://keystone.cloud.example.com:5000/v3', 'Identity (Keystone) URL'), text('project_name', 'Project', 'The project to read.', ['acme-prod']), text('domain_name', 'Domain', 'The Keystone domain of the user and project.', ['Default'], { default: 'Default' })],
    auth: [
      { type: 'application_credential', title: 'Application credential', description: 'A Keystone application credential (openstack application credential create).', fields: [text('application_credential_id', 'Application credential ID', 'The ID of the application credential.', ['21dced0fd20347869b93710d2b98aae0']), secret('application_credential_secret', 'Application credential secret', 'The secret of the application credential.', 'example-app-credential-secret')] },
      { type: 'password', title: 'User and password', description: 'Keystone password authentication.', fields: [text('username', 'Username', 'A user with the reader role on the project.', ['svc-cartograph']), secret('password', 'Password', 'That user\'s password.', 'correct-horse-battery-staple')] },
    ],
    guide: {
      prerequisites: ['Keystone v3 and a Nova API reachable from Cartograph.'],
      grant: ['Give the user the reader role on the project: openstack role add --user svc-cartograph --project acme-prod reader.', 'Optionally create an application credential with only the reader role.'],
      collects: ['Servers from /servers/detail: id, name, status, flavour, image, addresses (IPs and MACs from OS-EXT-IPS-MAC), availability zone, hypervisor host, metadata, created.'],
      troubleshooting: [['401 from Keystone', 'Wrong domain: check the `Domain` field.']],
    },
  },
  {
    slug: 'kubernetes', name: 'Kubernetes', vendor: 'Cloud Native Computing Foundation', website: 'https://kubernetes.io', docs_url: 'https://kubernetes.io/docs/reference/kubernetes-api/',
    description: 'Nodes, pods, services and TLS certificates (kubernetes.io/tls secrets) of a Kubernetes cluster.',
    groups: ['container'], categories: ['device', 'service', 'application', 'certificate'], engine: 'http',
    location: [baseUrl('The API server URL (kubectl config view --minify -o jsonpath=\'{.clusters[0].cluster.server}\').', 'https://k8s-api.corp.example.com:6443', 'API server URL')],
    auth: [tokenAuth({ type: 'service_account_token', title: 'Service account token', description: 'Sent as a Bearer token.', field: 'token', fieldTitle: 'Service account token', fieldDescription: 'A token of a service account bound to a read-only ClusterRole (kubectl create token cartograph -n cartograph --duration=8760h, or a long-lived token Secret).', example: 'eyJhbGciOiJSUzI1NiIsImtpZCI6IkV4YW1wbGUifQ.example' })],
    options: [
      list('namespaces', 'Namespaces', 'Namespaces whose pods, services and TLS secrets are read; empty means all.', ['default', 'production']),
      flag('fetch_tls_certificates', 'TLS certificates', 'Read the certificates (tls.crt) of kubernetes.io/tls secrets. Needs list on secrets; the private key the API also answers is dropped at once and never stored.', false),
    ],
    guide: {
      prerequisites: ['Network access to the API server; its CA (certificate-authority-data of your kubeconfig) for the `Custom CA certificate (PEM)` field.'],
      grant: ['kubectl create namespace cartograph && kubectl create serviceaccount cartograph -n cartograph.', 'Create a ClusterRole with get and list on nodes, pods, services and namespaces, (and on secrets for `TLS certificates`), and bind it: kubectl create clusterrolebinding cartograph-read --clusterrole=cartograph-read --serviceaccount=cartograph:cartograph.', 'Issue a token: kubectl create token cartograph -n cartograph --duration=8760h.'],
      collects: ['Nodes: name, UID, internal and external IPs, hostname, provider ID (the cloud instance), OS image, kernel, kubelet and container runtime versions, architecture, labels, Ready condition.', 'Pods (namespace, node, IPs, phase, container images) and services (type, cluster and external IPs, ports).', 'With `TLS certificates`: the certificate of each kubernetes.io/tls secret (tls.crt), with its namespace and name; the secret\'s data is not kept.'],
      troubleshooting: [['401 Unauthorized', 'Tokens from kubectl create token expire; issue a new one or use a token Secret.'], ['403 "cannot list resource nodes"', 'The ClusterRoleBinding is missing or names another service account.'], ['410 Gone during paging', 'A continue token expired; Cartograph restarts the list.'], ['403 "cannot list resource secrets"', 'The ClusterRole lacks list on secrets; add it or turn off `TLS certificates`.']],
    },
  },
  {
    slug: 'rancher', name: 'Rancher', vendor: 'SUSE', website: 'https://www.rancher.com', docs_url: 'https://ranchermanager.docs.rancher.com/api/quickstart',
    description: 'Clusters and nodes managed by a Rancher server.',
    groups: ['container'], categories: ['device'], engine: 'http',
    location: [baseUrl('The Rancher server URL.', 'https://rancher.corp.example.com', 'Rancher URL')],
    auth: [tokenAuth({ title: 'API key', description: 'Sent as a Bearer token (access key:secret key).', fieldTitle: 'Bearer token', field: 'bearer_token', fieldDescription: 'The Bearer Token shown when the API key was created (token-xxxxx:secret).', example: 'token-abc12:0123456789abcdef0123456789abcdef0123456789abcdef0123' })],
    guide: {
      prerequisites: ['Rancher 2.6 or later.'],
      grant: ['Create a user with the global role User-Base and the cluster role Cluster Member (read) on the clusters, or use Restricted Admin for all.', 'Signed in as that user: avatar → Account & API Keys → Create API Key, scope No Scope, and an expiry.'],
      collects: ['Nodes from /v3/nodes: hostname, IPs, roles, OS, kernel, container runtime, kubelet version, cluster, state.'],
      troubleshooting: [['401', 'The API key expired.']],
    },
  },
  {
    slug: 'openshift', name: 'Red Hat OpenShift', vendor: 'Red Hat', website: 'https://www.redhat.com/technologies/cloud-computing/openshift', docs_url: 'https://docs.openshift.com/container-platform/latest/rest_api/index.html',
    description: 'Nodes, pods and routes of an OpenShift cluster.',
    groups: ['container'], categories: ['device', 'service'], engine: 'http',
    location: [baseUrl('The API server URL (oc whoami --show-server).', 'https://api.ocp.corp.example.com:6443', 'API server URL')],
    auth: [tokenAuth({ type: 'service_account_token', title: 'Service account token', description: 'Sent as a Bearer token.', field: 'token', fieldTitle: 'Service account token', fieldDescription: 'A token of a service account with the cluster-reader role (oc create token cartograph -n cartograph --duration=8760h).', example: 'sha256~exampleTokenValue' })],
    guide: {
      prerequisites: ['OpenShift 4.x; the ingress CA for the `Custom CA certificate (PEM)` field if it is not public.'],
      grant: ['oc create sa cartograph -n cartograph && oc adm policy add-cluster-role-to-user cluster-reader -z cartograph -n cartograph.'],
      collects: ['Nodes (IPs, OS image, kernel, versions, provider ID), pods (namespace, IPs, images) and routes (host, service, TLS).'],
      troubleshooting: [['403', 'cluster-reader is not bound to the service account.']],
    },
  },
  {
    slug: 'prisma-cloud', name: 'Palo Alto Networks Prisma Cloud', vendor: 'Palo Alto Networks', website: 'https://www.paloaltonetworks.com/prisma/cloud', docs_url: 'https://pan.dev/prisma-cloud/api/cspm/',
    description: 'Cloud resources and their posture from Prisma Cloud (CSPM) through the resource inventory API.',
    groups: ['cloud'], categories: ['device'], engine: 'http',
    location: [apiHost('The API URL of your Prisma Cloud stack (app2 → api2.prismacloud.io, app.eu → api.eu.prismacloud.io…).', ['https://api.prismacloud.io', 'https://api2.prismacloud.io', 'https://api3.prismacloud.io', 'https://api4.prismacloud.io', 'https://api.eu.prismacloud.io', 'https://api2.eu.prismacloud.io', 'https://api.anz.prismacloud.io', 'https://api.ca.prismacloud.io', 'https://api.sg.prismacloud.io', 'https://api.uk.prismacloud.io', 'https://api.ind.prismacloud.io', 'https://api.jp.prismacloud.io', 'https://api.fr.prismacloud.io'], 'Stack')],
    auth: [keyPairAuth({ title: 'Access key', description: 'POST /login with the access key; the JWT is sent in x-redlock-auth.', idName: 'access_key_id', idTitle: 'Access key ID', idDescription: 'The Access Key ID.', idExample: '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f', secretName: 'secret_key', secretTitle: 'Secret key', secretDescription: 'The Secret Key shown once.' })],
    guide: {
      prerequisites: ['Prisma Cloud Enterprise; the Cartograph IP in the login IP allow list if one is set.'],
      grant: ['Create a permission group (or use the System Admin-free Account Group Read Only role) scoped to the account groups, then a service account with it (Settings → Access Control → Add → Service Account) and its access key.'],
      collects: ['Resources from /v2/resource/scan_info (or the asset inventory): resource id and name, cloud type, account, region, resource type, tags; EC2/VM details from the resource JSON.'],
      troubleshooting: [['401 on /login', 'The `Stack` field does not match the console URL (app2 → api2).']],
    },
  },
];
