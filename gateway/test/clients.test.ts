import { audienceOf } from '@qm/platform';
import { SERVICES } from '@qm/roster';
import { DEFINITIONS } from '../src/clients';

/** The gateway's clients are keyed by roster names and speak the roster's proto service. */
describe('gateway clients', () => {
  it.each(Object.entries(DEFINITIONS))(
    '%s is a built service of the roster with its contract',
    (name, def) => {
      const entry = SERVICES.find((s) => s.name === name);
      expect(entry).toMatchObject({ name });
      expect(entry?.planned).toBeFalsy();
      for (const method of Object.values(def))
        expect(method.path.startsWith(`/${entry?.protoService}/`)).toBe(true);
      // The audience its caller assertions name is the service's own name (docs/adr/021).
      expect(audienceOf(def)).toBe(name);
    },
  );
});
