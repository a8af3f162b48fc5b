import type { Logger } from 'pino';
import { createTransport, type Transporter } from 'nodemailer';

export interface MailMessage {
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

const FROM = 'cms@localhost';

/** Sends over SMTP (SMTP_URL, e.g. `smtp://host:587`). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(url: string) {
    this.transport = createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: FROM, to: [...message.to], subject: message.subject, text: message.text });
  }

  close(): void {
    this.transport.close();
  }
}

/** Without SMTP_URL: the message is logged (recipients and subject, at warn level) and not sent. */
export class LoggingMailer implements Mailer {
  constructor(private readonly logger: Logger) {}

  async send(message: MailMessage): Promise<void> {
    this.logger.warn({ to: message.to, subject: message.subject }, 'e-mail not sent: SMTP_URL is not set');
  }

  close(): void {}
}
