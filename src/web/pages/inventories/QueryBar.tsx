import { t } from '../../app/i18n/messages';
import { useEffect, useState, type FormEvent } from 'react';
import { Button, Select, TextInput } from '../../ui';
import { builderModelOf, builderOperators, builderText, querySyntaxError, type BuilderCondition, type BuilderModel, type BuilderOperator } from './queryBuilderModel';

type QueryBarProps = {
  query: string;
  onQueryChange: (query: string) => void;
  /** The field keys the builder offers, with their labels. */
  fields: { value: string; label: string }[];
  /** An error the server found in the applied query. */
  serverError?: string | null;
  /** Applies the text as it is typed whenever it parses (a form's field, as in the report builder), not only on Search. */
  live?: boolean;
};

function ConditionRow({ condition, fields, onChange, onRemove }: { condition: BuilderCondition; fields: QueryBarProps['fields']; onChange: (next: BuilderCondition) => void; onRemove: () => void }) {
  const takesValue = builderOperators.find((operator) => operator.value === condition.operator)?.takesValue ?? true;
  return (
    <li className="query-builder__row">
      <Select label={t('inventories.field')} options={fields} value={condition.field} placeholder={t('inventories.chooseAField')} onValueChange={(field) => onChange({ ...condition, field })} />
      <Select label={t('inventories.condition')} options={builderOperators} value={condition.operator} onValueChange={(operator) => onChange({ ...condition, operator: operator as BuilderOperator })} />
      {takesValue && <TextInput label={t('inventories.value')} value={condition.value} onValueChange={(value) => onChange({ ...condition, value })} />}
      <Button variant="ghost" onClick={onRemove} aria-label={condition.field ? t('inventories.removeConditionOnField', { field: condition.field }) : t('inventories.removeConditionOnNoField')}>{t('inventories.remove')}</Button>
    </li>
  );
}

/** The builder: a list of conditions joined by AND or OR, kept in step with the query text. */
function QueryBuilder({ model, fields, onApply }: { model: BuilderModel; fields: QueryBarProps['fields']; onApply: (text: string) => void }) {
  const [draft, setDraft] = useState(model);
  const [problem, setProblem] = useState<string | null>(null);
  const update = (conditions: BuilderCondition[]) => setDraft({ ...draft, conditions });
  const apply = () => {
    try {
      onApply(builderText(draft));
      setProblem(null);
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  return (
    <div className="query-builder">
      <Select label={t('inventories.match')} value={draft.connective} onValueChange={(connective) => setDraft({ ...draft, connective: connective as BuilderModel['connective'] })} options={[{ value: 'and', label: t('inventories.allConditionsAnd') }, { value: 'or', label: t('inventories.anyConditionOr') }]} />
      <ol className="query-builder__rows">
        {draft.conditions.map((condition, index) => (
          <ConditionRow key={index} condition={condition} fields={fields} onChange={(next) => update(draft.conditions.map((old, at) => (at === index ? next : old)))} onRemove={() => update(draft.conditions.filter((_, at) => at !== index))} />
        ))}
      </ol>
      {problem && <p className="inventory-error" role="alert">{problem}</p>}
      <div className="query-builder__actions">
        <Button variant="secondary" onClick={() => update([...draft.conditions, { field: '', operator: '=', value: '' }])}>{t('inventories.addCondition')}</Button>
        <Button onClick={apply}>{t('inventories.apply')}</Button>
      </div>
    </div>
  );
}

/** The query bar of an inventory list: query text checked as typed (with the error's position), and a builder. */
export function QueryBar({ query, onQueryChange, fields, serverError, live = false }: QueryBarProps) {
  const [text, setText] = useState(query);
  const [building, setBuilding] = useState(false);
  useEffect(() => setText(query), [query]);
  const syntax = querySyntaxError(text);
  const model = builderModelOf(text);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!syntax) onQueryChange(text.trim());
  };
  return (
    <div className="query-bar">
      <form className="query-bar__text" onSubmit={submit} role="search">
        <TextInput
          label={t('inventories.query')}
          value={text}
          onValueChange={(next) => {
            setText(next);
            if (live && !querySyntaxError(next)) onQueryChange(next);
          }}
          placeholder={t('inventories.hostnameWebLastseenLast')}
          error={syntax ? `${syntax.message}` : serverError ?? undefined}
          className="query-bar__input"
        />
        <Button type="submit" disabled={Boolean(syntax)}>{t('inventories.search')}</Button>
        {query && <Button variant="ghost" onClick={() => onQueryChange('')}>{t('inventories.clear')}</Button>}
        <Button variant="secondary" aria-expanded={building} onClick={() => setBuilding(!building)}>{building ? t('inventories.hideBuilder') : t('inventories.queryBuilder')}</Button>
      </form>
      {building && (model ? (
        <QueryBuilder key={text} model={model} fields={fields} onApply={(next) => { setText(next); onQueryChange(next); }} />
      ) : (
        <p className="inventory-muted">{t('inventories.queryMixesUsesParentheses')}</p>
      ))}
    </div>
  );
}
