-- Starter policies that asked "which tool reports it" of vendor slugs (Adapters = crowdstrike OR ...) or of AdapterCount
-- now ask it of the source categories and ConnectionCount (src/server/security/starterPolicies.ts), so a file export
-- that names its system, and any product of a kind, counts. Policies an administrator changed keep their condition.
update resources set document = document || jsonb_build_object('query', 'ConnectionCount >= 2'::text, 'description', 'The device is reported by at least two sources (connections), so the inventory does not rest on one tool.'::text)
 where kind = 'cartograph:entities/security-policy' and document->>'starter_id' = 'cis-1.1-several-sources'
   and document->>'query' = 'AdapterCount >= 2';
update resources set document = document || jsonb_build_object('query', 'SourceCategories = cmdb OR SourceCategories = itam'::text)
 where kind = 'cartograph:entities/security-policy' and document->>'starter_id' = 'cis-1.1-cmdb'
   and document->>'query' = 'Adapters = servicenow OR Adapters = bmc-helix-cmdb OR Adapters = device42 OR Adapters = freshservice OR Adapters = jira-assets OR Adapters = itop OR Adapters = glpi OR Adapters = snipe-it OR Adapters = topdesk OR Adapters = cherwell OR Adapters = netbox OR Adapters = lansweeper';
update resources set document = document || jsonb_build_object('query', 'SourceCategories = ad OR SourceCategories = identity'::text)
 where kind = 'cartograph:entities/security-policy' and document->>'starter_id' = 'cis-1.2-directory'
   and document->>'query' = 'Adapters = active-directory OR Adapters = azure-entra OR Adapters = openldap OR Adapters = freeipa OR Adapters = jumpcloud OR Adapters = google-workspace OR Adapters = okta';
update resources set document = document || jsonb_build_object('query', 'SourceCategories = mdm OR SourceCategories = software_deployment OR SourceCategories = configuration_management'::text)
 where kind = 'cartograph:entities/security-policy' and document->>'starter_id' = 'cis-4.1-managed'
   and document->>'query' = 'Adapters = microsoft-intune OR Adapters = jamfpro OR Adapters = sccm OR Adapters = kandji OR Adapters = vmware-mdm-airwatch OR Adapters = maas360 OR Adapters = hexnode OR Adapters = ivanti-epmm OR Adapters = soti-mobicontrol OR Adapters = manage-engine-dc OR Adapters = tanium OR Adapters = ninjaone OR Adapters = datto-rmm OR Adapters = kaseya-vsa OR Adapters = quest-kace OR Adapters = pdq';
update resources set document = document || jsonb_build_object('query', 'SourceCategories = software_deployment OR SourceCategories = mdm'::text)
 where kind = 'cartograph:entities/security-policy' and document->>'starter_id' = 'cis-7.3-os-patching'
   and document->>'query' = 'Adapters = microsoft-intune OR Adapters = sccm OR Adapters = wsus OR Adapters = automox OR Adapters = bigfix OR Adapters = manage-engine-dc OR Adapters = ninjaone OR Adapters = tanium OR Adapters = jamfpro OR Adapters = kandji OR Adapters = red-hat-satellite OR Adapters = foreman';
update resources set document = document || jsonb_build_object('query', 'SourceCategories = vulnerability_management OR SourceCategories = attack_surface'::text)
 where kind = 'cartograph:entities/security-policy' and document->>'starter_id' = 'cis-7.5-scanned'
   and document->>'query' = 'Adapters = qualys OR Adapters = tenable-io OR Adapters = tenable-sc OR Adapters = nessus OR Adapters = nexpose OR Adapters = greenbone OR Adapters = edgescan OR Adapters = runzero OR Adapters = network-scanner';
update resources set document = document || jsonb_build_object('query', 'SourceCategories = siem'::text)
 where kind = 'cartograph:entities/security-policy' and document->>'starter_id' = 'cis-8.2-audit-logs'
   and document->>'query' = 'Adapters = splunk OR Adapters = elasticsearch OR Adapters = graylog OR Adapters = sumo-logic OR Adapters = ibm-qradar OR Adapters = datadog OR Adapters = wazuh';
update resources set document = document || jsonb_build_object('query', 'SourceCategories = edr OR SourceCategories = epp OR SourceCategories = antivirus'::text)
 where kind = 'cartograph:entities/security-policy' and document->>'starter_id' = 'cis-10.1-anti-malware'
   and document->>'query' = 'Adapters = crowdstrike OR Adapters = sentinelone OR Adapters = microsoft-defender-endpoint OR Adapters = carbon-black-cloud OR Adapters = cortex-xdr OR Adapters = cybereason OR Adapters = symantec-edr OR Adapters = sophos-ep OR Adapters = trend-micro OR Adapters = eset-protect OR Adapters = fireeye-hx OR Adapters = cisco-secure-endpoint OR Adapters = bitdefender-gravityzone OR Adapters = malwarebytes-nebula OR Adapters = trellix-epo OR Adapters = kaspersky-security-center';
