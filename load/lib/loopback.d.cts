/** Types of loopback.cjs for the TypeScript load scripts. */
export const LOOPBACK: RegExp;
export function loopbackOnly(...urls: (string | undefined | null)[]): void;
