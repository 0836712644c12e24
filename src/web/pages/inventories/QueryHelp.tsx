import { t } from '../../app/i18n/messages';
import { useState } from 'react';
import { Button, Dialog } from '../../ui';
import { queryHelpExamples } from './queryHelpExamples';

// The query language at a glance, each form with what it means, then runnable examples of the inventory.
const syntax: { form: string; explains: string }[] = [
  { form: 'lt-0017   "web server"', explains: 'queryHelp.freeText' },
  { form: 'Field = value   Field != value', explains: 'queryHelp.equals' },
  { form: 'Field > 10   Field <= 2026-11-15', explains: 'queryHelp.compare' },
  { form: 'Field in [a, b, 10.1.0.0/16]', explains: 'queryHelp.inList' },
  { form: 'Field contains text', explains: 'queryHelp.contains' },
  { form: 'Field exists   NOT Field exists', explains: 'queryHelp.exists' },
  { form: 'Field last now-7d', explains: 'queryHelp.last' },
  { form: 'A AND (B OR NOT C)', explains: 'queryHelp.combine' },
  { form: 'Query is 12', explains: 'queryHelp.savedQuery' },
];

/** The "?" beside the query bar: opens the syntax and the inventory's examples; "Run" puts one in the bar and runs it. */
export function QueryHelp({ entity, onRun }: { entity: string; onRun: (query: string) => void }) {
  const [open, setOpen] = useState(false);
  const examples = queryHelpExamples[entity] ?? [];
  return (
    <>
      <Button variant="ghost" aria-label={t('queryHelp.open')} aria-haspopup="dialog" onClick={() => setOpen(true)}>?</Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={t('queryHelp.title')} size="large">
        <h3 className="query-help__heading">{t('queryHelp.syntax')}</h3>
        <dl className="query-help__syntax">
          {syntax.map((row) => (
            <div key={row.form} className="query-help__row">
              <dt><code>{row.form}</code></dt>
              <dd>{t(row.explains)}</dd>
            </div>
          ))}
        </dl>
        <p className="inventory-muted">{t('queryHelp.tabCompletes')}</p>
        {examples.length > 0 && (
          <>
            <h3 className="query-help__heading">{t('queryHelp.examples')}</h3>
            <ul className="query-help__examples">
              {examples.map((example) => (
                <li key={example.query} className="query-help__row">
                  <code>{example.query}</code>
                  <span>{t(example.explains)}</span>
                  <Button size="small" variant="secondary" aria-label={t('queryHelp.runExample', { query: example.query })} onClick={() => { setOpen(false); onRun(example.query); }}>
                    {t('queryHelp.run')}
                  </Button>
                </li>
              ))}
            </ul>
          </>
        )}
      </Dialog>
    </>
  );
}
