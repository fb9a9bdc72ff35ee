import { eventually, INFRA } from './infra';

/** A mail as maildev's REST API (GET /email) lists it. */
export interface Mail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: { address: string }[];
  time: string;
}

const to = (m: Mail, address: string) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase());

export async function mailsTo(address: string): Promise<Mail[]> {
  const all = (await (await fetch(`${INFRA.MAILDEV_URL}/email`)).json()) as Mail[];
  return all.filter((m) => to(m, address));
}

/** Waits for a mail to `address` whose subject matches, sent at `after` or later; the newest. */
export async function waitForMail(address: string, subject: RegExp, after = 0): Promise<Mail> {
  return eventually(async () => {
    const list = (await mailsTo(address)).filter(
      (m) => subject.test(m.subject) && Date.parse(m.time) >= after,
    );
    return list.sort((a, b) => Date.parse(b.time) - Date.parse(a.time))[0];
  });
}

/** The six-digit code in a mail. */
export const codeIn = (mail: Mail) => /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';

/** The code of the newest matching mail, waiting for one that has a code. */
export async function latestCode(address: string, subject: RegExp, after = 0): Promise<string> {
  return eventually(async () => codeIn(await waitForMail(address, subject, after)) || undefined);
}

export async function deleteMailsTo(addresses: string | string[]): Promise<void> {
  for (const address of [addresses].flat())
    for (const m of await mailsTo(address))
      await fetch(`${INFRA.MAILDEV_URL}/email/${m.id}`, { method: 'DELETE' }).catch(() => undefined);
}
