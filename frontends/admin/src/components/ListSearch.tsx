import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';

/**
 * A server-side list's search box: what is typed shows at once, the list is asked 300 ms after the
 * last keystroke. `value` is the search in force (the URL's), so Back and a reload show it.
 */
export function ListSearch({
  label,
  placeholder,
  value,
  onSearch,
  maxLength = 100,
}: {
  label: string;
  placeholder: string;
  value: string;
  onSearch: (search: string) => void;
  maxLength?: number;
}) {
  const [text, setText] = useState(value);
  // The search in force changed elsewhere (Back, a link): show it (React's "adjust state on a prop change").
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    if (text.trim() !== value) setText(value);
  }
  const search = useDebouncedCallback((next: string) => onSearch(next.trim()), 300);
  return (
    <TextInput
      aria-label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={text}
      maxLength={maxLength}
      onChange={(event) => {
        setText(event.currentTarget.value);
        search(event.currentTarget.value);
      }}
      type="search"
      w={{ base: '100%', sm: 320 }}
    />
  );
}
