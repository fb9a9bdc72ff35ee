import { DEFAULT_FEATURES, PRODUCT_TYPES } from '@qm/contracts/rest';
import { AppError, GrpcStatus } from '@qm/platform';
import {
  builtinDescription,
  cleanModelText,
  featureList,
  joinList,
  validDescriptionInput,
} from '../src/domain/description';

const sentences = (text: string) => text.split(/(?<=\.)\s+/).filter(Boolean);

describe('built-in description generator', () => {
  it.each(PRODUCT_TYPES)('writes several sentences for a %s from the name and features', (type) => {
    const text = builtinDescription({
      name: 'Falcon X',
      category: type,
      features: 'Thermal imaging, GPS tracking',
    });
    expect(text.startsWith('Falcon X is ')).toBe(true);
    expect(text).toContain('thermal imaging and GPS tracking');
    expect(sentences(text).length).toBeGreaterThanOrEqual(4);
    expect(text).not.toMatch(/[*#\n]|\d+%|certified|NATO|ISO|guarantee/i);
    expect(text.length).toBeLessThan(5000);
  });

  it('is the same for the same input and different per type', () => {
    const input = { name: 'Falcon X', category: 'Vehicle', features: 'armour' };
    expect(builtinDescription(input)).toBe(builtinDescription({ ...input }));
    const texts = new Set(PRODUCT_TYPES.map((category) => builtinDescription({ ...input, category })));
    expect(texts.size).toBe(PRODUCT_TYPES.length);
  });

  it('uses the product reference default when no features are given', () => {
    const input = validDescriptionInput({ name: ' Rifle ', category: 'Weapon', features: '  ' });
    expect(input).toEqual({ name: 'Rifle', category: 'Weapon', features: DEFAULT_FEATURES });
    expect(builtinDescription(input)).toBe(
      'Rifle is a weapon system offering military-grade performance and advanced capabilities. ' +
        'It is intended for trained and authorised personnel, and suits units that need dependable performance in demanding conditions. ' +
        "Handle, store and transport it in line with your unit's regulations and the manufacturer's guidance. " +
        'Contact the manufacturer for full specifications, compatible accessories and support.',
    );
  });

  it('parses features from commas, semicolons, lines and bullets, without repeats', () => {
    expect(
      featureList('Night vision; GPS\n- Rugged casing.\n• night vision, 24h battery\n2) Modular rail'),
    ).toEqual(['night vision', 'GPS', 'rugged casing', '24h battery', 'modular rail']);
    expect(joinList(['a'])).toBe('a');
    expect(joinList(['a', 'b', 'c'])).toBe('a, b and c');
    const many = builtinDescription({ name: 'Kit', category: 'equipment', features: 'a, b, c, d, e' });
    expect(many).toContain('provides a, b and c. It also brings d and e.');
  });

  it('handles a category outside the five types', () => {
    expect(builtinDescription({ name: 'Drone', category: 'Aerial', features: 'long endurance' })).toMatch(
      /^Drone is an aerial product offering long endurance\./,
    );
  });

  it('needs a name and a type: "Missing information"', () => {
    for (const req of [
      { name: '', category: 'Weapon', features: '' },
      { name: 'Rifle', category: ' ', features: '' },
    ]) {
      expect(() => validDescriptionInput(req)).toThrow(AppError);
      try {
        validDescriptionInput(req);
      } catch (err) {
        expect(err).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT, message: 'Missing information' });
      }
    }
  });

  it('cleans model answers into plain text within the description limit', () => {
    expect(cleanModelText('  "**Falcon** is good."  ')).toBe('Falcon is good.');
    expect(cleanModelText('## Title\nText.')).toBe('Title\nText.');
    const long = cleanModelText('Sentence one. '.repeat(600));
    expect(long.length).toBeLessThanOrEqual(5000);
    expect(long.endsWith('.')).toBe(true);
  });
});
