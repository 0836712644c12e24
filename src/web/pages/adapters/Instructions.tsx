import { t } from '../../app/i18n/messages';
import { Link, useParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { inlineText, parseMarkdown } from '../../../core/markdown/parseMarkdown';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { hasPermission, useSession } from '../../app/session/session';
import { NotFound } from '../system/NotFound';
import { EmptyState, PageHeader, Spinner } from '../../ui';
import { AdapterCapability, canFetch } from './AdapterCapability';
import { adapterImage } from './adapterSearch';
import { Markdown } from './Markdown';
import './adapters.css';

// Each adapter's instructions are their own chunk, fetched only when that page opens.
const instructionFiles = import.meta.glob<string>('../../../../schemas/adapters/*/instructions.md', { query: '?raw', import: 'default' });

export const instructionsOf = (tool: string) => instructionFiles[`../../../../schemas/adapters/${tool}/instructions.md`];

/** `/adapters/connections/components/instructions/{tool}`: how to connect one adapter, rendered from its Markdown. */
export function Instructions() {
  const { tool } = useParams({ strict: false }) as { tool: string };
  const adapter = useSession().adapters.find((candidate) => candidate.slug === tool);
  const load = instructionsOf(tool);
  const markdown = useQuery({ queryKey: ['adapter-instructions', tool], queryFn: () => load?.() ?? null, enabled: Boolean(load), staleTime: Infinity });
  useEffect(() => setBreadcrumb([{ label: t('adapters.adapters'), to: '/adapters' }, { label: adapter?.name ?? tool }, { label: t('adapters.instructions') }]), [adapter, tool]);

  if (!load) return <NotFound />;
  if (markdown.isPending) return <Spinner label={t('adapters.loadingInstructions')} />;
  if (!markdown.data) return <EmptyState title={t('adapters.noInstructions')} />;
  const blocks = parseMarkdown(markdown.data);
  const titled = blocks[0]?.kind === 'heading';
  const title = blocks[0]?.kind === 'heading' ? inlineText(blocks[0].inlines) : (adapter?.name ?? tool);
  // Until the session's catalogue says otherwise the adapter is taken as available, as the server has the last word.
  const available = (!adapter || canFetch(adapter)) && hasPermission('adapters.add_connection');
  return (
    <article className="adapter-instructions">
      <PageHeader
        title={<><img src={adapterImage(tool)} alt="" width={32} height={32} /> {title}</>}
        description={adapter ? <AdapterCapability adapter={adapter} /> : undefined}
        actions={available ? <Link className="ui-button ui-button--success ui-button--medium" to="/adapters/connection/create/$id" params={{ id: tool }}>{t('adapters.addConnection')}</Link> : undefined}
      />
      {available ? null : <p className="adapter-unavailable" role="note">{t('adapters.cannotFetchYetNoConnection', { name: adapter?.name ?? tool })}</p>}
      <Markdown blocks={titled ? blocks.slice(1) : blocks} />
    </article>
  );
}
