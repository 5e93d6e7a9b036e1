import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Suggestion } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import type { TagSuggestion } from '../../ui/tag-input';
import { toTag, type RecipientTag } from './addresses';

/** How long typing pauses before the server is asked: a request per pause, not per key. */
export const SUGGEST_DELAY_MS = 100;
const SUGGEST_LIMIT = 10;

/**
 * Suggestions for what is being typed in a recipient field (GET contacts/suggest: contacts, groups and people the
 * user has written to, best first). Asked ~100 ms after typing stops; a request for older text is cancelled when
 * the text changes (the query's signal). `enabled` is false for alias-only sessions (SPEC §6).
 */
export function useRecipientSuggestions(text: string, enabled: boolean): readonly Suggestion[] {
  const typed = text.trim();
  const [asked, setAsked] = useState(typed);
  useEffect(() => {
    const timer = window.setTimeout(() => setAsked(typed), SUGGEST_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [typed]);
  const found = useQuery<{ q: string; suggestions: Suggestion[] }>({
    queryKey: ['compose', 'suggest', asked],
    queryFn: ({ signal }) =>
      call(routes.suggestContacts, { query: { q: asked, limit: SUGGEST_LIMIT }, signal }).then(
        (response) => ({
          q: asked,
          suggestions: response.suggestions,
        }),
      ),
    enabled: enabled && asked !== '',
    // While the next answer comes the list keeps what of the last one still fits the text, rather than blinking
    // out at each key; what no longer fits is not offered, so Enter never picks it over the typed address.
    placeholderData: keepPreviousData,
  });
  if (!enabled || typed === '' || !found.data) return [];
  const { q, suggestions } = found.data;
  return q === typed ? suggestions : suggestions.filter((suggestion) => stillFits(suggestion, typed));
}

/** Whether every word of the text is in the suggestion's name or address (or a member's), in any case. */
function stillFits(suggestion: Suggestion, text: string): boolean {
  const people = suggestion.kind === 'group' ? [suggestion, ...suggestion.members] : [suggestion];
  const haystack = people
    .map((person) => `${person.name} ${'email' in person ? person.email : ''}`)
    .join(' ')
    .toLowerCase();
  return text
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

export interface SuggestionTexts {
  group(count: number): string;
  recent: string;
}

/** A suggestion as the list shows it: the name first and the address under it, a group with its size. */
export function suggestionItem(suggestion: Suggestion, index: number, texts: SuggestionTexts): TagSuggestion {
  const key = `${index}:${suggestion.kind}`;
  if (suggestion.kind === 'group')
    return { key, label: suggestion.name, detail: texts.group(suggestion.members.length) };
  const label = suggestion.name || suggestion.email;
  const address = suggestion.name ? suggestion.email : '';
  if (suggestion.kind === 'recent')
    return { key, label, detail: address ? `${address} · ${texts.recent}` : texts.recent };
  return { key, label, detail: address || undefined };
}

/** The tags a picked suggestion adds: the contact or correspondent, or every member of a group. */
export function suggestionTags(suggestion: Suggestion): RecipientTag[] {
  if (suggestion.kind === 'group') return suggestion.members.map(toTag);
  return [toTag({ name: suggestion.name, email: suggestion.email })];
}
