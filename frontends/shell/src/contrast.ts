/**
 * WCAG 2.x colour contrast for the theme: the text colours are derived from the palette so that they
 * read at AA on the surfaces they are drawn on, instead of being checked page by page.
 */

/** WCAG AA for normal text is 4.5:1; a little above, so that rounding in a browser never drops below. */
export const AA_TEXT = 4.6;

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new Error(`not a #rgb or #rrggbb colour: ${hex}`);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** `top` at opacity `alpha` over `bottom` (both opaque hex colours), as the browser composites it. */
export function over(top: string, alpha: number, bottom: string): string {
  const a = parseHex(top);
  const b = parseHex(bottom);
  return toHex([0, 1, 2].map((i) => a[i]! * alpha + b[i]! * (1 - alpha)) as Rgb);
}

function relativeLuminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * `color` itself when it reads at `ratio` on every one of `backgrounds`, otherwise the nearest colour
 * of its hue moved towards black (light surfaces) or white (dark surfaces) that does.
 */
export function readableOn(
  color: string,
  backgrounds: string[],
  { ratio = AA_TEXT, towards = 'black' }: { ratio?: number; towards?: 'black' | 'white' } = {},
): string {
  const target = towards === 'black' ? '#000000' : '#ffffff';
  const reads = (c: string) => backgrounds.every((bg) => contrastRatio(c, bg) >= ratio);
  for (let step = 0; step <= 40; step += 1) {
    const candidate = over(target, step / 40, color);
    if (reads(candidate)) return candidate;
  }
  return target;
}
