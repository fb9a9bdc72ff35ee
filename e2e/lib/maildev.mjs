// The journeys' view of maildev's inbox (its REST API): the mails a journey's actions sent.
import { assert } from './steps.mjs';

export const MAILDEV_URL = (process.env.MAILDEV_URL ?? 'http://localhost:1080').replace(/\/$/, '');

/** Every mail in the inbox, oldest first. */
export async function mails() {
  const res = await fetch(`${MAILDEV_URL}/email`);
  assert(res.ok, `maildev GET /email: HTTP ${res.status}`);
  return res.json();
}

/** Ids of the mails already in the inbox: `waitForMail` then looks only at mails that arrive after them. */
export const mailIds = async () => new Set((await mails()).map((mail) => mail.id));

/** Whether `mail` went to the address `to` (any letter case). */
export const sentTo = (mail, to) =>
  (mail.to ?? []).some((recipient) => recipient.address.toLowerCase() === to.toLowerCase());

export const mailsTo = async (to) => (await mails()).filter((mail) => sentTo(mail, to));

/** A string is contained in the value, a RegExp matches it. */
const fits = (value, pattern) =>
  pattern === undefined ||
  (typeof pattern === 'string' ? (value ?? '').includes(pattern) : pattern.test(value ?? ''));

/** The newest mail to `to` whose subject and text fit, not among `seen`, once it arrives (polled). */
export async function waitForMail({ to, subject, text, seen = new Set(), timeoutMs = 30_000 }) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = (await mailsTo(to)).filter(
      (mail) => !seen.has(mail.id) && fits(mail.subject, subject) && fits(mail.text, text),
    );
    if (found.length > 0) return found[found.length - 1];
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const what = [subject && `subject ${subject}`, text && `text ${text}`].filter(Boolean).join(' and ');
  throw new Error(`no mail to ${to}${what ? ` with ${what}` : ''} within ${timeoutMs} ms`);
}

/** The 6-digit code of the newest such mail. */
export async function codeIn(query) {
  const mail = await waitForMail({ text: /\b\d{6}\b/, ...query });
  return /\b(\d{6})\b/.exec(mail.text)[1];
}

/**
 * The one mail to `to` whose subject fits, once it has arrived and `settleMs` more have passed without
 * a second: what a mail sent once per event must look like.
 */
export async function onlyMail({ to, subject, timeoutMs = 30_000, settleMs = 1500 }) {
  await waitForMail({ to, subject, timeoutMs });
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const found = (await mailsTo(to)).filter((mail) => fits(mail.subject, subject));
  assert(found.length === 1, `${found.length} mails to ${to} with subject ${subject}, not 1`);
  assert(/<p>/.test(found[0].html ?? ''), `the mail "${found[0].subject}" has no HTML part`);
  return found[0];
}

/** Fails naming the first of `lines` the mail's text lacks. */
export function assertLines(mail, lines) {
  for (const line of lines)
    assert(mail.text.includes(line), `"${mail.subject}" lacks "${line}": ${mail.text}`);
}
