import { ADMIN_CHAT_CHIPS, CHAT_CHIPS, chatChipsFor, SELLER_CHAT_CHIPS } from '@qm/contracts/rest';
import { divisionOf, greetingFor } from '../src/assistant/greeting';

describe('greetingFor (docs/product.md §2: greeting by role)', () => {
  it('asks a Manufacturer about operations, products and sales', () => {
    const text = greetingFor({ firstName: 'Ishaan', role: 'Manufacturer' });
    expect(text).toMatch(/^Hello Ishaan!/);
    expect(text).toMatch(/operations/);
    expect(text).toMatch(/products/);
    expect(text).toMatch(/sales/);
  });

  it.each(['Army', 'Navy', 'Airforce'])(
    'offers %s equipment procurement and order tracking for that division',
    (role) => {
      const text = greetingFor({ firstName: 'Rohan', role });
      expect(text).toContain(`for the ${role}`);
      expect(text).toMatch(/equipment procurement/);
      expect(text).toMatch(/tracking your orders/);
    },
  );

  it('offers an administrator platform stats and admin tasks', () => {
    for (const user of [
      { firstName: 'System', role: 'Admin' },
      { firstName: 'Root', role: 'Army', isAdmin: true },
    ]) {
      const text = greetingFor(user);
      expect(text).toMatch(/platform stats/);
      expect(text).toMatch(/admin tasks/);
      expect(text).not.toMatch(/procurement/);
      // Greeted by role: the seeded administrator's first name is "System".
      expect(text).toMatch(/^Hello Administrator!/);
      expect(text).not.toContain('System');
    }
  });

  it('offers chips by role: no wallet chip for an administrator, sales for a Manufacturer', () => {
    expect(chatChipsFor({ firstName: 'System', role: 'Admin', isAdmin: true })).toEqual(ADMIN_CHAT_CHIPS);
    expect(chatChipsFor({ role: 'Army', isAdmin: true })).not.toContain('Check wallet balance');
    expect(chatChipsFor({ role: 'Manufacturer' })).toEqual(SELLER_CHAT_CHIPS);
    expect(chatChipsFor({ role: 'Army' })).toEqual(CHAT_CHIPS);
  });

  it('greets anyone else generally', () => {
    const text = greetingFor({ firstName: 'Kim', role: 'Observer' });
    expect(text).toMatch(/^Hello Kim!/);
    expect(text).not.toMatch(/procurement|admin tasks|sales/);
  });

  it('does without a name', () => {
    expect(greetingFor({ role: 'Army' })).toMatch(/^Hello! /);
    expect(greetingFor({ firstName: '  ', role: 'Army' })).toMatch(/^Hello! /);
  });
});

describe('divisionOf', () => {
  it('is the role when the role is a division', () => {
    expect(divisionOf({ role: 'Navy', division: 'Army' })).toBe('Navy');
  });

  it("falls back to the profile's division, in any letter case", () => {
    expect(divisionOf({ role: 'Observer', division: ' airforce ' })).toBe('Airforce');
  });

  it('is undefined for a Manufacturer without a division', () => {
    expect(divisionOf({ role: 'Manufacturer' })).toBeUndefined();
  });
});
