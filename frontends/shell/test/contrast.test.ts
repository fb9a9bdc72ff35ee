import { DEFAULT_THEME } from '@mantine/core';
import { AA_TEXT, contrastRatio, over, readableOn } from '../src/contrast';
import { cssVariablesResolver, theme } from '../src/theme';

describe('contrastRatio', () => {
  it('follows WCAG 2.x', () => {
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#fff')).toBeCloseTo(1, 5);
    // The grey that fell short: Mantine's dimmed text on white.
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
  });
});

describe('over', () => {
  it('composites a colour at an opacity over another', () => {
    expect(over('#000000', 0.5, '#ffffff')).toBe('#808080');
    expect(over('#2f9e44', 0, '#ffffff')).toBe('#ffffff');
    expect(over('#2f9e44', 1, '#ffffff')).toBe('#2f9e44');
  });
});

describe('readableOn', () => {
  it('keeps a colour that reads already', () => {
    expect(readableOn('#495057', ['#ffffff'])).toBe('#495057');
  });
  it('darkens on light surfaces and lightens on dark ones until every surface reads', () => {
    const light = readableOn('#868e96', ['#ffffff', '#f1f3f5']);
    expect(contrastRatio(light, '#f1f3f5')).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(light, '#000000')).toBeGreaterThan(4); // still a grey, not black
    const dark = readableOn('#828282', ['#242424', '#3b3b3b'], { towards: 'white' });
    expect(contrastRatio(dark, '#3b3b3b')).toBeGreaterThanOrEqual(AA_TEXT);
  });
});

describe('cssVariablesResolver', () => {
  const merged = { ...DEFAULT_THEME, ...theme, colors: { ...DEFAULT_THEME.colors, ...theme.colors } };
  const { light, dark } = cssVariablesResolver(merged as typeof DEFAULT_THEME);

  it('works the variables out once per theme (Mantine asks on each render of its provider)', () => {
    const again = { ...merged } as typeof DEFAULT_THEME;
    expect(cssVariablesResolver(merged as typeof DEFAULT_THEME).light).toBe(light);
    expect(cssVariablesResolver(again)).toEqual(cssVariablesResolver(merged as typeof DEFAULT_THEME));
    expect(cssVariablesResolver(again).light).not.toBe(light);
  });
  const gray = DEFAULT_THEME.colors.gray;
  const darks = DEFAULT_THEME.colors.dark;

  it('gives dimmed text AA contrast on every surface in both schemes', () => {
    for (const surface of ['#ffffff', gray[0], gray[1], gray[2]])
      expect(contrastRatio(light['--mantine-color-dimmed']!, surface)).toBeGreaterThanOrEqual(AA_TEXT);
    for (const surface of [darks[8], darks[7], darks[6], darks[5]])
      expect(contrastRatio(dark['--mantine-color-dimmed']!, surface)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('makes a disabled button readable in dark mode, on a colour other than the card', () => {
    expect(dark['--mantine-color-disabled']).not.toBe(darks[6]);
    expect(
      contrastRatio(dark['--mantine-color-disabled-color']!, dark['--mantine-color-disabled']!),
    ).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('gives form errors AA contrast on every surface in both schemes', () => {
    for (const surface of ['#ffffff', gray[0], gray[1], gray[2]])
      expect(contrastRatio(light['--mantine-color-error']!, surface)).toBeGreaterThanOrEqual(AA_TEXT);
    for (const surface of [darks[8], darks[7], darks[6], darks[5]])
      expect(contrastRatio(dark['--mantine-color-error']!, surface)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('gives every colour readable text, light badges and white-on-filled buttons', () => {
    for (const name of ['army', 'green', 'yellow', 'orange', 'teal', 'red', 'gray']) {
      const tint = over(merged.colors[name]![8], 0.12, gray[1]);
      expect(contrastRatio(light[`--mantine-color-${name}-light-color`]!, tint)).toBeGreaterThanOrEqual(
        AA_TEXT,
      );
      expect(contrastRatio(light[`--mantine-color-${name}-text`]!, '#ffffff')).toBeGreaterThanOrEqual(
        AA_TEXT,
      );
      for (const vars of [light, dark])
        expect(contrastRatio('#ffffff', vars[`--mantine-color-${name}-filled`]!)).toBeGreaterThanOrEqual(
          AA_TEXT,
        );
      expect(contrastRatio(dark[`--mantine-color-${name}-text`]!, darks[6])).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });
});
