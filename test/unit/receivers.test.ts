import { createTransport } from 'nodemailer';
import { startMailServer } from '../support/receivers';

describe('test mail server', () => {
  it('receives a message sent over SMTP', async () => {
    const mail = await startMailServer();
    const transport = createTransport(mail.url);
    try {
      await transport.sendMail({ from: 'cms@example.test', to: ['editor@example.test', 'admin@example.test'], subject: 'Published', text: 'Entry 42 is live.' });
      const [message] = await mail.waitFor(1);
      expect(message).toMatchObject({ from: 'cms@example.test', to: ['editor@example.test', 'admin@example.test'] });
      expect(message!.raw).toContain('Subject: Published');
      expect(message!.raw).toContain('Entry 42 is live.');
    } finally {
      transport.close();
      await mail.close();
    }
  });
});
