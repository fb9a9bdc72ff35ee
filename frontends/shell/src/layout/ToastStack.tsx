import { Notifications } from '@mantine/notifications';

/**
 * One toast visible at a time; the library default of 5 s applies unless a toast sets its own. At the
 * bottom centre (styles.css), so that it hides neither the header's buttons, nor a page's primary
 * action at the right of its heading (Create Item), nor the assistant's button at the bottom right.
 * A toast closes when the user moves to another page (useToastsFollowPage).
 */
export default function ToastStack() {
  return (
    <Notifications
      limit={1}
      autoClose={5000}
      position="bottom-center"
      classNames={{ root: 'qm-notifications' }}
    />
  );
}
