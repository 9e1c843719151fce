/** Marketing mail preferences (spec §7 Misc): signed unsubscribe links and the email status check. */
import { ACCOUNT_TEXT, emailError, normalizeEmail } from '../../src/shared/domain/account.js';
import { paramError } from '../errors.js';
import { AccountRepository } from '../repositories/accountRepository.js';
import { formError } from './forms.js';
import type { ServiceBase } from './base.js';
import { sameSignature, serverSignature } from './nonces.js';
import type { Principal } from './tokens.js';

export class MailService {
  private readonly accounts: AccountRepository;

  constructor(private readonly deps: ServiceBase) {
    this.accounts = new AccountRepository(deps.db);
  }

  /** The signature a mail's unsubscribe link carries, so nobody can unsubscribe someone else. */
  unsubscribeSignature(email: string): string {
    return serverSignature(this.deps.config.dataDir, `unsubscribe|${normalizeEmail(email)}`);
  }

  /** POST /api/mail/unsubscribe: with the link's sig, or for the logged-in caller's own address. */
  async unsubscribe(
    email: string | undefined,
    sig: string | undefined,
    caller: Principal | null,
  ): Promise<{ email: string; unsubscribed: true }> {
    const e = validEmail(email);
    const own = caller?.logged && caller.account.email === e;
    if (!own && !sameSignature(sig, this.unsubscribeSignature(e)))
      throw paramError('validationInvalid', { field: 'sig' });
    await this.accounts.optOut(e, Date.now());
    return { email: e, unsubscribed: true };
  }

  /**
   * POST /api/v2/common/email_status: whether an address has an account and still receives mail.
   * Answered for the signed-in owner of the address, or with the address's unsubscribe signature (the
   * link in every mail); anyone else gets code 5, as unsubscribe does (it once told anyone who
   * has an account).
   */
  async emailStatus(
    email: string | undefined,
    sig: string | undefined,
    caller: Principal | null,
  ): Promise<{ email: string; registered: true; mail_subscribed: boolean }> {
    const e = validEmail(email);
    const own = caller?.logged && caller.account.email === e;
    if (!own && !sameSignature(sig, this.unsubscribeSignature(e)))
      throw paramError('validationInvalid', { field: 'sig' });
    const a = await this.accounts.byEmail(e);
    if (!a || a.kind !== 'user') throw formError({ email: ACCOUNT_TEXT.emailMissing });
    return { email: e, registered: true, mail_subscribed: !(await this.accounts.isOptedOut(e)) };
  }
}

/** The normalised address, or the form refusal. */
function validEmail(email: unknown): string {
  const err = emailError(email);
  if (err) throw formError({ email: err });
  return normalizeEmail(String(email));
}
