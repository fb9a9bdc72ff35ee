import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { eligibilityQuery } from '../api';
import { ELIGIBILITY_DEBOUNCE_MS, eligibilityOf, type Eligibility } from './eligibility';

/** GET /api/check-username-eligibility/{name}, 500 ms after typing stops. */
export function useEligibility(receiver: string): Eligibility {
  const [checked] = useDebouncedValue(receiver.trim(), ELIGIBILITY_DEBOUNCE_MS);
  const query = useQuery({ ...eligibilityQuery(checked), enabled: checked !== '' });
  return eligibilityOf(receiver, checked, query);
}
