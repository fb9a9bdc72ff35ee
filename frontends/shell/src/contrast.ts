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

const toHex = (rgb: Rgb) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** `top` at opacity `alpha` over `bottom`, rounded to whole channel values as a hex colour would be. */
const composite = (top: Rgb, alpha: number, bottom: Rgb): Rgb =>
  [0, 1, 2].map((i) => Math.round(top[i]! * alpha + bottom[i]! * (1 - alpha))) as Rgb;

/** `top` at opacity `alpha` over `bottom` (both opaque hex colours), as the browser composites it. */
export function over(top: string, alpha: number, bottom: string): string {
  return toHex(composite(parseHex(top), alpha, parseHex(bottom)));
}

const channelLuminance = (v: number) => {
  const c = v / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

const luminance = ([r, g, b]: Rgb) =>
  0.2126 * channelLuminance(r) + 0.7152 * channelLuminance(g) + 0.0722 * channelLuminance(b);

const ratioOfLuminances = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** The WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  return ratioOfLuminances(luminance(parseHex(a)), luminance(parseHex(b)));
}

/**
 * `color` itself when it reads at `ratio` on every one of `backgrounds`, otherwise the nearest colour
 * of its hue moved towards black (light surfaces) or white (dark surfaces) that does. In numbers, not
 * hex strings: the theme's resolver runs this about a hundred times on every page load.
 */
export function readableOn(
  color: string,
  backgrounds: string[],
  { ratio = AA_TEXT, towards = 'black' }: { ratio?: number; towards?: 'black' | 'white' } = {},
): string {
  const target: Rgb = towards === 'black' ? [0, 0, 0] : [255, 255, 255];
  const base = parseHex(color);
  const surfaces = backgrounds.map((bg) => luminance(parseHex(bg)));
  for (let step = 0; step <= 40; step += 1) {
    const candidate = composite(target, step / 40, base);
    const lum = luminance(candidate);
    if (surfaces.every((surface) => ratioOfLuminances(lum, surface) >= ratio)) return toHex(candidate);
  }
  return toHex(target);
}
