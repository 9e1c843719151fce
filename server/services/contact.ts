/** The contact form: validated messages stored for the operator; the contact address from configuration. */
import { paramError } from '../errors.js';
import { ContactRepository, type ContactMessage } from '../repositories/contactRepository.js';
import type { ServiceBase } from './base.js';

/**
 * `local@domain.tld`: one '@', no blanks, a dot inside the domain with text on both sides. Checked by
 * a scan, never a backtracking regex: `/^[^\s@]+@[^\s@]+\.[^\s@]+$/` took quadratic time on
 * `a@` + 60 000 dots and stalled every client for 11 s.
 */
function isContactEmail(email: string): boolean {
  if (email.length > CONTACT_LIMITS.email || /\s/.test(email)) return false;
  const at = email.indexOf('@');
  if (at < 1 || at !== email.lastIndexOf('@')) return false;
  const domain = email.slice(at + 1);
  const dot = domain.indexOf('.', 1);
  return dot > 0 && dot < domain.length - 1 && domain.lastIndexOf('.') < domain.length - 1;
}
const CONTACT_LIMITS = { name: 100, email: 254, message: 5000 } as const;

export class ContactService {
  constructor(private readonly deps: ServiceBase) {}

  private get repo() {
    return new ContactRepository(this.deps.db);
  }

  info(): { email: string } {
    return { email: this.deps.config.contactEmail };
  }

  async send(
    input: { name?: string; email?: string; message?: string; locale?: string },
    now = Date.now(),
  ): Promise<{ id: number }> {
    const name = (input.name ?? '').trim();
    const email = (input.email ?? '').trim();
    const message = (input.message ?? '').trim();
    const missing = !name ? 'name' : !email ? 'email' : !message ? 'message' : null;
    if (missing) throw paramError('fieldRequired', { field: missing });
    // Lengths first: nothing below runs on a text longer than its field allows.
    if (name.length > CONTACT_LIMITS.name)
      throw paramError('messageTooLong', { field: 'name', max: CONTACT_LIMITS.name });
    if (message.length > CONTACT_LIMITS.message)
      throw paramError('messageTooLong', { field: 'message', max: CONTACT_LIMITS.message });
    if (!isContactEmail(email)) throw paramError('emailInvalid', { field: 'email' });
    const locale = /^(en|de|fr|ja)$/.test(input.locale ?? '') ? input.locale! : 'en';
    return { id: await this.repo.insert({ name, email, message, locale, created_at: now }) };
  }

  latest(limit = 50): Promise<ContactMessage[]> {
    return this.repo.latest(limit);
  }
}
