/** What a user tells about themselves: profile names and occupation, the survey, language and currency. */
import { ACCOUNT_TEXT, NAME_MAX, profileErrors, surveyChoices, surveyErrors } from '../../src/shared/domain/account.js';
import type { FieldsOf } from '../../src/shared/schemas/common.js';
import { CURRENCIES, type ProfileSet, type SurveySet, type UserInfoUpdate } from '../../src/shared/schemas/accounts.js';
import { LANGUAGES } from '../../src/shared/domain/locale.js';
import { paramError, unauthorized } from '../errors.js';
import { AccountRepository } from '../repositories/accountRepository.js';
import type { Account } from '../repositories/schema.js';
import { formError } from './forms.js';
import type { ServiceBase } from './base.js';
import type { Principal } from './tokens.js';

/** Price currencies (spec §3 Products). */
export { CURRENCIES };
export type Currency = (typeof CURRENCIES)[number];

export const isLanguage = (v: unknown): v is (typeof LANGUAGES)[number] =>
  (LANGUAGES as readonly unknown[]).includes(v);
export const isCurrency = (v: unknown): v is Currency => (CURRENCIES as readonly unknown[]).includes(v);

export function parseSurvey(raw: string): string[] {
  try {
    const v = JSON.parse(raw || '[]') as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

export class ProfileService {
  private readonly accounts: AccountRepository;

  constructor(deps: ServiceBase) {
    this.accounts = new AccountRepository(deps.db);
  }

  /**
   * POST /api/v2/survey/set: the occupation survey (one or more occupations, 'other' with its text).
   * The first answer becomes the profile's occupation when none is set yet.
   */
  async setSurvey(
    accountId: number,
    f: FieldsOf<typeof SurveySet>,
  ): Promise<{ survey: string[]; occupation: string; occupation_other: string }> {
    const errors = surveyErrors(f);
    if (Object.keys(errors).length) throw formError(errors);
    const choices = surveyChoices(f.occupations);
    const a = await this.accounts.byIdOrThrow(accountId);
    const other = choices.includes('other') ? String(f.occupation_other).trim() : a.occupation_other;
    const occupation = a.occupation || choices[0]!;
    await this.accounts.update(accountId, {
      survey_json: JSON.stringify(choices),
      occupation,
      occupation_other: occupation === 'other' ? other : a.occupation_other,
      updated_at: Date.now(),
    });
    const b = await this.accounts.byIdOrThrow(accountId);
    return { survey: parseSurvey(b.survey_json), occupation: b.occupation, occupation_other: b.occupation_other };
  }

  /** POST /api/v2/profile/set (spec §5: names and occupation required; 'other' needs its free text). */
  async setProfile(accountId: number, f: FieldsOf<typeof ProfileSet>): Promise<Account> {
    const errors = profileErrors(f);
    if (Object.keys(errors).length) throw formError(errors);
    await this.accounts.update(accountId, {
      first_name: String(f.first_name).trim(),
      last_name: String(f.last_name).trim(),
      occupation: String(f.occupation),
      occupation_other: f.occupation === 'other' ? String(f.occupation_other).trim() : '',
      updated_at: Date.now(),
    });
    return this.accounts.byIdOrThrow(accountId);
  }

  /**
   * POST /api/v2/user_info/update: locale and currency for anyone; first_name/last_name only for
   * a logged-in user. Only the fields sent change.
   */
  async updateUserInfo(p: Principal, f: FieldsOf<typeof UserInfoUpdate>) {
    const set: { locale?: string; currency?: string; first_name?: string; last_name?: string } = {};
    if (f.locale !== undefined) set.locale = f.locale;
    if (f.currency !== undefined) set.currency = f.currency;
    for (const k of ['first_name', 'last_name'] as const) {
      const sent = f[k];
      if (sent === undefined) continue;
      if (!p.logged) throw unauthorized();
      const v = sent.trim();
      if (!v) throw formError({ [k]: ACCOUNT_TEXT.required });
      if (v.length > NAME_MAX) throw formError({ [k]: ACCOUNT_TEXT.nameTooLong });
      set[k] = v;
    }
    if (Object.keys(set).length === 0) throw paramError('nothingToUpdate');
    await this.accounts.update(p.accountId, { ...set, updated_at: Date.now() });
    const a = await this.accounts.byIdOrThrow(p.accountId);
    return { locale: a.locale, currency: a.currency, first_name: a.first_name, last_name: a.last_name };
  }
}
