/** The characters a regular expression gives a meaning, escaped: user text matched literally. */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A case-insensitive "contains" filter on a text field for an administrator's search box; undefined
 * when the search is blank (matches everything).
 */
export function containsText(search: string | undefined): { $regex: string; $options: 'i' } | undefined {
  const text = search?.trim();
  return text ? { $regex: escapeRegex(text), $options: 'i' } : undefined;
}
