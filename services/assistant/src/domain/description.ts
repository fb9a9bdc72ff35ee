import {
  DEFAULT_FEATURES,
  DESCRIPTION_LIMITS,
  MISSING_INFORMATION,
  PRODUCT_LIMITS,
  PRODUCT_TYPES,
  type ProductTypeName,
} from '@qm/contracts/rest';
import { type Caller, forbidden, hasRole, invalid } from '@qm/platform';

/** Product description drafting (docs/product.md §5, §7, §8 AI description). Rules and templates; no I/O. */

export interface DescriptionInput {
  name: string;
  /** The product type as sent (normally one of the five). */
  category: string;
  /** Free text; DEFAULT_FEATURES when none was given. */
  features: string;
}

/**
 * Drafting a description is part of creating and editing products, which only Manufacturers do (docs/product.md §6);
 * each draft may cost the operator a model call.
 */
export function mayDraftDescriptions(caller: Caller): void {
  if (!hasRole(caller, 'Manufacturer'))
    throw forbidden('Only manufacturers can generate product descriptions');
}

export function validDescriptionInput(req: {
  name: string;
  category: string;
  features: string;
}): DescriptionInput {
  const name = req.name.trim();
  const category = req.category.trim();
  if (!name || !category) throw invalid(MISSING_INFORMATION);
  if (name.length > DESCRIPTION_LIMITS.nameMaxChars)
    throw invalid('Product name must be at most 200 characters');
  if (category.length > DESCRIPTION_LIMITS.categoryMaxChars)
    throw invalid('Category must be at most 50 characters');
  const features = req.features.trim();
  if (features.length > DESCRIPTION_LIMITS.featuresMaxChars)
    throw invalid('Features must be at most 2,000 characters');
  return { name, category, features: features || DEFAULT_FEATURES };
}

/** The product type a category names, whatever its letter case; undefined for anything else. */
export function typeOf(category: string): ProductTypeName | undefined {
  const c = category.trim().toLowerCase();
  return PRODUCT_TYPES.find((t) => t.toLowerCase() === c);
}

/** "Thermal imaging, GPS; night mode." → ["thermal imaging", "GPS", "night mode"] (at most 8, no repeats). */
export function featureList(features: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of features.split(/[,;\n\r•]+|\s+-\s+/)) {
    let f = raw
      .trim()
      .replace(/^(?:[-*]|\d+[.)])\s+/, '')
      .replace(/[.!?:]+$/, '')
      .trim();
    if (!f) continue;
    // "Thermal imaging" reads as "thermal imaging" mid-sentence; "GPS" and "MIL-STD" stay.
    if (/^[A-Z][a-z]/.test(f)) f = f[0]!.toLowerCase() + f.slice(1);
    const key = f.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
    if (out.length === 8) break;
  }
  return out.length ? out : featureList(DEFAULT_FEATURES);
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/** "a", "a and b", "a, b and c". */
export function joinList(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

interface Template {
  /** First sentence: the product and its leading features. */
  lead(name: string, features: string): string;
  /** What it is for, how to look after it, where to get more: no claims beyond the input. */
  rest: string[];
}

const TEMPLATES: Record<ProductTypeName, Template> = {
  Weapon: {
    lead: (n, f) => `${n} is a weapon system offering ${f}.`,
    rest: [
      'It is intended for trained and authorised personnel, and suits units that need dependable performance in demanding conditions.',
      "Handle, store and transport it in line with your unit's regulations and the manufacturer's guidance.",
      'Contact the manufacturer for full specifications, compatible accessories and support.',
    ],
  },
  Vehicle: {
    lead: (n, f) => `${n} is a military vehicle featuring ${f}.`,
    rest: [
      'It is built for transport and operational roles where mobility and reliability matter.',
      'Crew training and scheduled maintenance keep it mission-ready.',
      'Contact the manufacturer for configuration options, spare parts and servicing.',
    ],
  },
  Equipment: {
    lead: (n, f) => `${n} is field equipment that provides ${f}.`,
    rest: [
      'It is designed to support personnel in daily operations as well as in demanding environments.',
      "Check compatibility with your existing kit and follow the manufacturer's care instructions to extend its service life.",
      'Contact the manufacturer for detailed specifications and availability.',
    ],
  },
  Ammunition: {
    lead: (n, f) => `${n} is ammunition offering ${f}.`,
    rest: [
      'Confirm the calibre and compatibility with your weapon systems before ordering.',
      "Store and handle it according to your unit's munitions safety regulations.",
      'Contact the manufacturer for lot details and handling documentation.',
    ],
  },
  Other: {
    lead: (n, f) => `${n} is a military supply item offering ${f}.`,
    rest: [
      'It suits a wide range of operational and logistical needs.',
      'Review the details with the manufacturer to make sure it fits your requirements.',
      'Contact the manufacturer for specifications, availability and support.',
    ],
  },
};

/**
 * The built-in generator: a few sentences from the name, type and features alone, the same every
 * time for the same input, and claiming nothing the input does not say.
 */
export function builtinDescription(input: DescriptionInput): string {
  const type = typeOf(input.category);
  const features = featureList(input.features);
  const t = TEMPLATES[type ?? 'Other'];
  const lead =
    type || input.category.toLowerCase() === 'other'
      ? t.lead(input.name, joinList(features.slice(0, 3)))
      : `${input.name} is ${article(input.category)} ${input.category.toLowerCase()} product offering ${joinList(features.slice(0, 3))}.`;
  const sentences = [lead];
  if (features.length > 3) sentences.push(`It also brings ${joinList(features.slice(3))}.`);
  sentences.push(...t.rest);
  return sentences.join(' ');
}

/** A model's answer made fit for a product: plain text, within the description limit. */
export function cleanModelText(text: string): string {
  let t = text
    .trim()
    .replace(/^["'“]+|["'”]+$/g, '')
    .replace(/^#+\s*/gm, '')
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .trim();
  const max = PRODUCT_LIMITS.descriptionMaxChars;
  if (t.length > max) {
    const cut = t.slice(0, max);
    const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'));
    t = end > max / 2 ? cut.slice(0, end + 1) : cut;
  }
  return t;
}

/** What the model is asked (OpenAI chat completions). */
export function modelPrompt(input: DescriptionInput): { system: string; user: string } {
  return {
    system:
      'You write product descriptions for Quartermaster, a marketplace where manufacturers sell military ' +
      'equipment to armed forces. Write 3 to 5 sentences of plain prose, under 120 words, with no headings, ' +
      'lists or markdown. Use only the facts given: do not invent specifications, figures, certifications, ' +
      'standards, awards or customers. Keep a professional, factual tone.',
    user: `Product name: ${input.name}\nProduct type: ${input.category}\nKey features: ${input.features}\n\nWrite the product description.`,
  };
}
