import { createServer, type Server, type Socket } from 'node:net';
import { createMailer, createLogger, mailMessage } from '../src';

/**
 * A minimal SMTP server on loopback: enough of RFC 5321 for nodemailer, counting the connections it
 * is given and keeping every message it receives.
 */
function smtpSink() {
  const messages: string[] = [];
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffer = '';
    let inData = false;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          reply('250 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const command = buffer.slice(0, eol).toUpperCase();
        buffer = buffer.slice(eol + 2);
        if (command.startsWith('EHLO')) reply('250 sink');
        else if (command === 'DATA') {
          inData = true;
          reply('354 go on');
        } else if (command === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 ok');
      }
    });
  });
  return {
    messages,
    connections: () => connections,
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
      ),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('createMailer', () => {
  const log = createLogger('mail-test', 'silent');

  it('sends every mail whole, over one kept connection', async () => {
    const sink = smtpSink();
    const port = await sink.listen();
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'qm@test.local', log });
    try {
      for (const n of [1, 2, 3])
        await mailer.send(
          `buyer${n}@test.local`,
          mailMessage(`Order #${n} ₹1,250.00`, [`Hello <${n}> — thanks`]),
        );
      expect(sink.connections()).toBe(1);
      expect(sink.messages).toHaveLength(3);
      const [first] = sink.messages;
      expect(first).toMatch(/^To: buyer1@test\.local$/m);
      expect(first).toMatch(/^From: qm@test\.local$/m);
      // The subject is encoded (it is not ASCII); both parts are there, the HTML escaped.
      expect(first).toMatch(/^Subject: =\?UTF-8\?/m);
      expect(first).toContain('Content-Type: text/plain; charset=utf-8');
      expect(first).toContain('Content-Type: text/html; charset=utf-8');
      expect(first).toContain('&lt;1&gt;');
    } finally {
      mailer.close();
      await sink.close();
    }
  });
});
