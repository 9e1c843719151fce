/** The content site's calls: samples, the contact form, the site ajax endpoint, mail settings, the sitemap. */
import { Type, type Static } from 'typebox';
import type { SampleEntry as SampleEntryType } from '../../domain/work.js';
import { AUTH, FormText, defineRoute, type Same } from './common.js';


export const SampleEntry = Type.Object({
  name: Type.String(),
  original: Type.String({ description: 'URL path under /samples/' }),
  processed: Type.String({ description: 'URL path under /samples/; may hold the literal {scale} placeholder' }),
  w: Type.Integer(),
  h: Type.Integer(),
});
export const sampleEntryIsTheDomainType: Same<Static<typeof SampleEntry>, SampleEntryType> = true;

export const SampleInfo = defineRoute({
  method: 'GET',
  url: '/api/v2/sample/info',
  tag: 'site',
  summary: 'Sample images, by feature type',
  auth: AUTH.none,
  data: Type.Record(Type.String(), Type.Array(SampleEntry)),
});

export const SampleDownload = defineRoute({
  method: 'GET',
  url: '/api/v2/sample/download',
  tag: 'site',
  summary: 'One sample image, before or after',
  auth: AUTH.none,
  fields: Type.Object({
    job: Type.String({ minLength: 1, maxLength: 40, description: 'the feature type (a key of sample/info)' }),
    type: Type.Enum(['original', 'processed']),
    num: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 0, description: 'the sample’s index' })),
    rate: Type.Optional(Type.String({ pattern: '^[0-9]{1,2}[xX]?$', description: 'the scale of an enlarge sample: 1, 2, 4, 6 or 8 (a trailing x is allowed)' })),
  }),
  file: { types: ['image/jpeg', 'image/png', 'image/webp'], description: 'The sample image' },
  example: { job: 'enlarge', type: 'processed', num: 0, rate: '4' },
});

export const SampleFile = defineRoute({
  method: 'GET',
  url: '/api/job_utils/download/sample',
  tag: 'site',
  summary: 'A sample file by its /samples/… path',
  auth: AUTH.none,
  fields: Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'the path (or `path`)' })), path: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })) }),
  file: { types: ['image/jpeg', 'image/png', 'image/webp'], description: 'The sample image' },
  example: { name: '/samples/enlarge/1-original.jpg' },
});

export const ContactInfo = defineRoute({
  method: 'GET',
  url: '/api/contact/info',
  tag: 'site',
  summary: 'The contact address',
  auth: AUTH.none,
  data: Type.Object({ email: Type.String() }),
});

export const ContactSend = defineRoute({
  method: 'POST',
  url: '/api/contact/send',
  tag: 'site',
  summary: 'Sends the contact form',
  auth: AUTH.none,
  fields: Type.Object({ name: FormText('your name'), email: FormText('your address'), message: FormText('the message'), locale: Type.Optional(Type.String({ maxLength: 8, description: 'en, de, fr or ja' })) }),
  data: Type.Object({ id: Type.Integer() }),
  example: { name: 'Ada', email: 'ada@example.com', message: 'Hello!', locale: 'en' },
});

/** The site ajax endpoint's actions, in both spellings the content site sends. */
export const SITE_AJAX_ACTIONS = [
  'nonce',
  'get_user_token',
  'get-user-token',
  'credit_transform',
  'credit-transform',
  'credit_upload',
  'credit-upload',
  'credit_download',
  'credit-download',
] as const;

export const Nonce = defineRoute({
  method: 'GET',
  url: '/site-ajax/nonce',
  tag: 'site',
  summary: 'A nonce for the site ajax endpoint, bound to the session',
  auth: AUTH.optionalSession,
  data: Type.Object({ nonce: Type.String() }),
});

export const SiteAjax = defineRoute({
  method: 'POST',
  url: '/site-ajax',
  tag: 'site',
  summary: 'The site ajax endpoint: a user token for the session, or a credit notification',
  description: 'action nonce answers a nonce; get_user_token a new user token for the signed-in session; credit_transform, credit_upload and credit_download record the workspace’s notifications.',
  auth: AUTH.optionalSession,
  from: 'body',
  fields: Type.Object({
    action: Type.Enum(SITE_AJAX_ACTIONS, { description: 'what to do (either spelling)' }),
    nonce: Type.Optional(Type.String({ maxLength: 200, description: 'from /site-ajax/nonce (every action but nonce)' })),
    pid: Type.Optional(Type.String({ maxLength: 64 })),
    trans_id: Type.Optional(Type.String({ maxLength: 64 })),
    uid: Type.Optional(Type.String({ maxLength: 64 })),
  }),
  data: Type.Union([Type.Object({ nonce: Type.String() }), Type.Object({ user_token: Type.String() }), Type.Object({ event_id: Type.Integer() })]),
  example: { action: 'get_user_token', nonce: '…', pid: '0' },
});

export const Sitemap = defineRoute({
  method: 'GET',
  url: '/sitemap.xml',
  tag: 'misc',
  summary: 'Every site page in en and its /de/, /fr/, /ja/ alternates',
  auth: AUTH.none,
  file: { types: ['application/xml'], description: 'The sitemap' },
});

export const MailUnsubscribe = defineRoute({
  method: 'POST',
  url: '/api/mail/unsubscribe',
  tag: 'site',
  summary: 'Stops mail to an address (the link in every mail, or the signed-in owner)',
  auth: AUTH.optionalToken,
  fields: Type.Object({ email: FormText('the address'), sig: Type.Optional(Type.String({ maxLength: 200, description: 'the signature from the mail’s link' })) }),
  data: Type.Object({ email: Type.String(), unsubscribed: Type.Literal(true) }),
  example: { email: 'ada@example.com', sig: '…' },
});

export const EmailStatus = defineRoute({
  method: 'POST',
  url: '/api/v2/common/email_status',
  tag: 'site',
  summary: 'Whether an address has an account and still receives mail (its owner, or with the mail link’s signature)',
  auth: AUTH.optionalToken,
  fields: Type.Object({ email: FormText('the address'), sig: Type.Optional(Type.String({ maxLength: 200 })) }),
  data: Type.Object({ email: Type.String(), registered: Type.Literal(true), mail_subscribed: Type.Boolean() }),
  example: { email: 'ada@example.com' },
});
