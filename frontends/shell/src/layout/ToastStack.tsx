import { Notifications } from '@mantine/notifications';

/**
 * One toast visible at a time; the library default of 5 s applies unless a toast sets its own. Top
 * right below the header (styles.css), so that it hides neither the header's buttons nor the
 * assistant's button at the bottom right.
 */
export default function ToastStack() {
  return (
    <Notifications
      limit={1}
      autoClose={5000}
      position="top-right"
      classNames={{ root: 'qm-notifications' }}
    />
  );
}
