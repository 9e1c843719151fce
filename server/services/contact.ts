/** The contact form: validated messages stored for the operator; the contact address from configuration. */
import { paramError } from '../errors.js';
import { ContactRepository, type ContactMessage } from '../repositories/contactRepository.js';
import type { Deps } from './index.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const CONTACT_LIMITS = { name: 100, email: 254, message: 5000 } as const;

export class ContactService {
  constructor(private readonly deps: Deps) {}

  private get repo() {
    return new ContactRepository(this.deps.db);
  }

  info(): { email: string } {
    return { email: this.deps.config.contactEmail };
  }

  async send(input: { name?: string; email?: string; message?: string; locale?: string }, now = Date.now()): Promise<{ id: number }> {
    const name = (input.name ?? '').trim();
    const email = (input.email ?? '').trim();
    const message = (input.message ?? '').trim();
    if (!name || !email || !message) throw paramError('This field is required.');
    if (!EMAIL.test(email) || email.length > CONTACT_LIMITS.email) throw paramError('Email must be a valid format');
    if (name.length > CONTACT_LIMITS.name || message.length > CONTACT_LIMITS.message) throw paramError('The message is too long');
    const locale = /^(en|de|fr|ja)$/.test(input.locale ?? '') ? input.locale! : 'en';
    return { id: await this.repo.insert({ name, email, message, locale, created_at: now }) };
  }

  latest(limit = 50): Promise<ContactMessage[]> {
    return this.repo.latest(limit);
  }
}
