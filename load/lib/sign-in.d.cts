/** Types of sign-in.cjs for the TypeScript load scripts. */
export interface SignedIn {
  /** The user as `POST /api/login` answers it. */
  user: { id: number; username: string; role: string; [field: string]: unknown };
  /** The `Cookie` header that carries the session. */
  cookie: string;
  cookies: { name: string; value: string }[];
}
export function signIn(base: string, username: string, password: string, portal?: string): Promise<SignedIn>;
export function signOut(base: string, cookie: string): Promise<void>;
