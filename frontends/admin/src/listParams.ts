import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { pageParam } from './wallets';

/**
 * An admin list's state (search, filters, page) in the URL's search parameters, so that it survives a
 * reload and Back returns to it. Setting a filter goes back to page 1; an empty value removes it.
 */
export function useListParams<K extends string>() {
  const [params, setParams] = useSearchParams();
  const get = useCallback((key: K) => params.get(key) ?? '', [params]);
  const set = useCallback(
    (changes: Partial<Record<K | 'page', string | number>>, { replace = false } = {}) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (!('page' in changes)) next.delete('page');
          for (const [key, value] of Object.entries(changes)) {
            if (value === '' || value === undefined || (key === 'page' && value === 1)) next.delete(key);
            else next.set(key, String(value));
          }
          return next;
        },
        // Typing in a search box replaces the entry (one per keystroke would fill the history).
        { replace },
      ),
    [setParams],
  );
  return { get, set, page: pageParam(params.get('page')) };
}
