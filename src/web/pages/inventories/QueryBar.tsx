import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { fieldValuesQuery } from './inventoryApi';
import { Button, Select, TextInput } from '../../ui';
import { formatNumber } from '../../../core/format/numbers';
import { useLiveCount } from './liveCount';
import { QueryHelp } from './QueryHelp';
import { QuerySuggestionList, useSuggestionKeys } from './QuerySuggestionList';
import { querySuggestions, valueSuggestions, type SuggestedField, type Suggestion } from './querySuggestions';
import { builderModelOf, builderOperators, builderText, querySyntaxError, type BuilderCondition, type BuilderModel, type BuilderOperator } from './queryBuilderModel';

type QueryBarProps = {
  query: string;
  /** An example query with the inventory's own fields (queryExample); the device example when left out. */
  example?: string;
  onQueryChange: (query: string) => void;
  /** The field keys the builder and the suggestions offer, with their labels (and value types, for the operators). */
  fields: SuggestedField[];
  /** An error the server found in the applied query. */
  serverError?: string | null;
  /** Applies the text as it is typed whenever it parses (a form's field, as in the report builder), not only on Search. */
  live?: boolean;
  /** Told whether the typed text parses, so the list can mark its rows as the applied query's while it does not. */
  onDraftParsesChange?: (parses: boolean) => void;
  /** Where the inventory answers a field's frequent values (`/devices/values`), for value suggestions; none without it. */
  valuesPath?: string;
  /** The inventory's search (`/devices/devices`): the bar counts the typed query's matches there as it parses. */
  countPath?: string;
  /** What the count counts, lower-case plural ("devices"). */
  countTitle?: string;
  /** The inventory (`device`): the "?" beside the bar opens the syntax with its examples. */
  entity?: string;
};

function ConditionRow({ condition, fields, onChange, onRemove }: { condition: BuilderCondition; fields: QueryBarProps['fields']; onChange: (next: BuilderCondition) => void; onRemove: () => void }) {
  const takesValue = builderOperators.find((operator) => operator.value === condition.operator)?.takesValue ?? true;
  return (
    <li className="query-builder__row">
      {condition.operator !== 'search' && <Select label={t('inventories.field')} options={fields} value={condition.field} placeholder={t('inventories.chooseAField')} onValueChange={(field) => onChange({ ...condition, field })} />}
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
export function QueryBar({ query, example, onQueryChange, fields, serverError, live = false, onDraftParsesChange, valuesPath, countPath, countTitle = '', entity }: QueryBarProps) {
  const [text, setText] = useState(query);
  const [building, setBuilding] = useState(false);
  useEffect(() => setText(query), [query]);
  const syntax = querySyntaxError(text);
  const parses = !syntax;
  useEffect(() => onDraftParsesChange?.(parses), [parses, onDraftParsesChange]);
  // The server's refusal names the applied query: shown while the bar still holds that text, not over a new draft.
  const liveCount = useLiveCount(countPath, text, query);
  // The applied query's refusal, or the typed one's as soon as the count is refused (a typo named before running).
  const refusal = (text.trim() === query.trim() ? serverError : null) ?? liveCount.refusal ?? undefined;
  const model = builderModelOf(text);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!syntax) onQueryChange(text.trim());
  };
  const edit = (next: string) => {
    setText(next);
    if (live && !querySyntaxError(next)) onQueryChange(next);
  };
  // Suggestions are for the word at the caret; the caret is tracked as the input reports selection changes.
  const inputId = useId();
  const [caret, setCaret] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  const at = Math.min(caret ?? text.length, text.length);
  const typed = focused ? querySuggestions(text.slice(0, at), fields) : { from: at, items: [] };
  const wanted = valuesPath ? typed.values : undefined;
  const values = useQuery({ ...fieldValuesQuery(valuesPath ?? '', wanted?.field ?? '', wanted?.search ?? ''), enabled: Boolean(wanted) });
  const suggestions = { from: typed.from, items: wanted ? valueSuggestions(values.data?.values ?? [], wanted.inList) : typed.items };
  const accept = (item: Suggestion) => {
    const next = text.slice(0, suggestions.from) + item.insert + text.slice(at);
    const placed = suggestions.from + item.insert.length;
    edit(next);
    setCaret(placed);
    requestAnimationFrame(() => (document.getElementById(inputId) as HTMLInputElement | null)?.setSelectionRange(placed, placed));
  };
  const keys = useSuggestionKeys(suggestions.items, accept);
  const listId = `${inputId}-suggestions`;
  return (
    <div className="query-bar">
      <form className="query-bar__text" onSubmit={submit} role="search">
        <div className="query-bar__field">
          <TextInput
            id={inputId}
            label={t('inventories.query')}
            value={text}
            onValueChange={(next) => {
              edit(next);
              setCaret(null);
              keys.reset();
            }}
            onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
            onFocus={() => setFocused(true)}
            onBlur={() => setFocused(false)}
            onKeyDown={keys.onKeyDown}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={keys.open}
            aria-controls={keys.open ? listId : undefined}
            aria-activedescendant={keys.active >= 0 ? `${listId}-${keys.active}` : undefined}
            autoComplete="off"
            placeholder={example || t('inventories.hostnameWebLastseenLast')}
            error={syntax ? syntax.message : refusal}
          />
          {keys.open && <QuerySuggestionList id={listId} items={suggestions.items} active={keys.active} onPick={keys.take} />}
        </div>
        <Button type="submit" disabled={Boolean(syntax)}>{t('inventories.search')}</Button>
        {query && <Button variant="ghost" onClick={() => onQueryChange('')}>{t('inventories.clear')}</Button>}
        <Button variant="secondary" aria-expanded={building} onClick={() => setBuilding(!building)}>{building ? t('inventories.hideBuilder') : t('inventories.queryBuilder')}</Button>
        {entity && <QueryHelp entity={entity} onRun={(next) => { setText(next); onQueryChange(next); }} />}
      </form>
      {/* Announced politely as it changes; not a `status` role, which the list's stale-answer notice holds. */}
      {(liveCount.count !== undefined || liveCount.counting) && (
        <p className="query-bar__count" aria-live="polite">
          {liveCount.count !== undefined ? t('inventories.liveCount', { count: formatNumber(liveCount.count), title: countTitle }) : t('inventories.liveCounting')}
        </p>
      )}
      {building && (model ? (
        <QueryBuilder key={text} model={model} fields={fields} onApply={(next) => { setText(next); onQueryChange(next); }} />
      ) : (
        <p className="inventory-muted">{t('inventories.queryMixesUsesParentheses')}</p>
      ))}
    </div>
  );
}
