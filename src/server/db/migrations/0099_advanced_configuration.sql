-- The field precedence (`ordering`) moves from the discovery-settings document to the advanced-configuration
-- document, beside the other settings of how a discovery merges. A company that had saved one keeps it.
update resources advanced set document = advanced.document || jsonb_build_object('ordering', settings.document->'ordering')
from resources settings
where advanced.kind = 'cartograph:settings/advanced-configuration' and settings.kind = 'cartograph:settings/discovery-settings'
  and settings.company_id = advanced.company_id and settings.document ? 'ordering' and not advanced.document ? 'ordering';

insert into resources (kind, company_id, document)
select 'cartograph:settings/advanced-configuration', company_id, jsonb_build_object('ordering', document->'ordering')
from resources
where kind = 'cartograph:settings/discovery-settings' and document ? 'ordering'
  and not exists (select 1 from resources advanced where advanced.kind = 'cartograph:settings/advanced-configuration' and advanced.company_id = resources.company_id);

update resources set document = document - 'ordering' where kind = 'cartograph:settings/discovery-settings';
