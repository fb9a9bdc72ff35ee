import { useCurrentUser } from '@qm/ui';
import { lazy, Suspense } from 'react';

const AssistantWidget = lazy(() => import('./AssistantWidget'));

/**
 * The AI assistant (docs/product.md §2): a floating button on every page while someone is signed in, and its panel.
 * Nothing for visitors. Keyed by the user, so signing in as someone else starts from scratch.
 */
export function Assistant() {
  const { user } = useCurrentUser();
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <AssistantWidget key={user.id} user={user} />
    </Suspense>
  );
}
