import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Checkbox, TextInput } from '../../ui';
import { tagListQuery } from './deviceActionsApi';
import { TagChip } from './TagFields';
import './deviceActions.css';

/** Names typed as a comma-separated list, trimmed, without blanks or repeats (case-insensitive, as the server compares). */
export function typedTags(text: string): string[] {
  const names = text.split(',').map((name) => name.trim()).filter(Boolean);
  return names.filter((name, index) => names.findIndex((other) => other.toLowerCase() === name.toLowerCase()) === index);
}

/** Every chosen tag once: the ticked existing tags, then the typed ones that are not among them. */
export function chosenTags(ticked: string[], typed: string): string[] {
  return [...ticked, ...typedTags(typed).filter((name) => !ticked.some((tag) => tag.toLowerCase() === name.toLowerCase()))];
}

type TagPickerProps = {
  ticked: string[];
  onTickedChange: (ticked: string[]) => void;
  typed: string;
  onTypedChange: (typed: string) => void;
  /** Offer typing new tags (the caller may create tags and the action adds them). */
  allowNew: boolean;
  error?: string[] | string;
};

/** Chooses existing tags (searched on the server) and, when allowed, types new ones. */
export function TagPicker({ ticked, onTickedChange, typed, onTypedChange, allowNew, error }: TagPickerProps) {
  const [search, setSearch] = useState('');
  const tags = useQuery(tagListQuery({ page: 1, size: 100, search, ordering: 'name' }));
  const found = tags.data?.results ?? [];
  return (
    <div className="tag-picker">
      <TextInput label={t('inventories.searchTags')} type="search" value={search} debounce={300} onValueChange={setSearch} />
      <ul className="tag-picker__list" aria-label={t('inventories.existingTags')}>
        {found.map((tag) => (
          <li key={tag.id}>
            <Checkbox
              label={<TagChip name={tag.name} color={tag.color} />}
              checked={ticked.includes(tag.name)}
              onCheckedChange={(on) => onTickedChange(on ? [...ticked, tag.name] : ticked.filter((name) => name !== tag.name))}
            />
          </li>
        ))}
        {tags.isSuccess && !found.length && <li className="inventory-muted">{search ? t('inventories.noTagsMatchSentence') : t('inventories.noTagsYetSentence')}</li>}
      </ul>
      {allowNew && <TextInput label={t('inventories.newTagsCommaSeparated')} value={typed} maxLength={2000} onValueChange={onTypedChange} message={t('inventories.tagsDoNotExist')} error={error} />}
      {!allowNew && error && <p className="inventory-error" role="alert">{Array.isArray(error) ? error.join(' ') : error}</p>}
    </div>
  );
}
