/** The armed-forces divisions the greeting names (spec §1, §2). */
export const DIVISIONS = ['Army', 'Navy', 'Airforce'] as const;
export type Division = (typeof DIVISIONS)[number];

export interface GreetingUser {
  firstName?: string | null;
  role?: string | null;
  isAdmin?: boolean;
  /** The profile's division, when the role itself is not one. */
  division?: string | null;
}

const asDivision = (value: string | null | undefined): Division | undefined =>
  DIVISIONS.find((division) => division.toLowerCase() === value?.trim().toLowerCase());

/** The user's division: the role when it is one (Army, Navy, Airforce), else the profile's division. */
export function divisionOf(user: GreetingUser): Division | undefined {
  return asDivision(user.role) ?? asDivision(user.division);
}

/**
 * The greeting of an empty chat, by role (spec §2): a Manufacturer is asked about operations, products
 * and sales; Army, Navy and Airforce about equipment procurement and order tracking for that division;
 * an administrator is offered platform stats and admin tasks; anyone else gets a general greeting.
 */
export function greetingFor(user: GreetingUser): string {
  const name = user.firstName?.trim();
  const hello = name ? `Hello ${name}!` : 'Hello!';
  if (user.isAdmin || user.role === 'Admin') {
    return `${hello} I'm your Military Inventory Assistant. I can give you platform stats (users, orders, products and transactions) and help with your admin tasks. What would you like to check?`;
  }
  if (user.role === 'Manufacturer') {
    return `${hello} I'm your Military Inventory Assistant. How can I help with your operations today? Ask me about your products, your stock or your sales.`;
  }
  const division = divisionOf(user);
  if (division) {
    return `${hello} I'm your Military Inventory Assistant for the ${division}. I can help with equipment procurement for your division and with tracking your orders. What do you need?`;
  }
  return `${hello} I'm your Military Inventory Assistant. Ask me about your orders, your wallet or our products.`;
}
