/** The content site's calls: samples, the contact form, the site ajax endpoint, mail settings, the sitemap. */
import { Type, type Static } from 'typebox';
import type { SampleEntry as SampleEntryType } from '../domain/work.js';
import { AUTH, EventRecorded, FormText, routeGroup, type Same } from './common.js';

export const SampleEntry = Type.Object({
  name: Type.String(),
  original: Type.String({ description: 'URL path under /samples/' }),
  processed: Type.String({ description: 'URL path under /samples/; may hold the literal {scale} placeholder' }),
  w: Type.Integer(),
  h: Type.Integer(),
});
export const sampleEntryIsTheDomainType: Same<Static<typeof SampleEntry>, SampleEntryType> = true;

const site = routeGroup('site', AUTH.none);
const SAMPLE_IMAGE = { types: ['image/jpeg', 'image/png', 'image/webp'], description: 'The sample image' };

export const SampleInfo = site.get('/api/v2/sample/info', 'Sample images, by feature type', {
  data: Type.Record(Type.String(), Type.Array(SampleEntry)),
});

export const SampleDownload = site.get('/api/v2/sample/download', 'One sample image, before or after', {
  statuses: { 404: { description: 'No such sample, or no image of that kind or scale (reason sampleNotFound)' } },
  fields: Type.Object({
    job: Type.String({ minLength: 1, maxLength: 40, description: 'the feature type (a key of sample/info)' }),
    type: Type.Enum(['original', 'processed']),
    num: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 0, description: 'the sample’s index' })),
    rate: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,2}[xX]?$',
        description: 'the scale of an enlarge sample: 1, 2, 4, 6 or 8 (a trailing x is allowed)',
      }),
    ),
  }),
  file: SAMPLE_IMAGE,
  example: { job: 'enlarge', type: 'processed', num: 0, rate: '4' },
});

export const SampleFile = site.get('/api/job_utils/download/sample', 'A sample file by its /samples/… path', {
  statuses: { 404: { description: 'No sample by that name (reason sampleNotFound)' } },
  fields: Type.Object({
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'the path (or `path`)' })),
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  }),
  file: SAMPLE_IMAGE,
  example: { name: '/samples/enlarge/1-original.jpg' },
});

export const ContactInfo = site.get('/api/contact/info', 'The contact address', {
  data: Type.Object({ email: Type.String() }),
});

export const ContactSend = site.post('/api/contact/send', 'Sends the contact form', {
  fields: Type.Object({
    name: FormText('your name'),
    email: FormText('your address'),
    message: FormText('the message'),
    locale: Type.Optional(Type.String({ maxLength: 8, description: 'en, de, fr or ja' })),
  }),
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

const NonceData = Type.Object({ nonce: Type.String() });

export const Nonce = site.get('/site-ajax/nonce', 'A nonce for the site ajax endpoint, bound to the session', {
  auth: AUTH.optionalSession,
  data: NonceData,
});

export const SiteAjax = site.post(
  '/site-ajax',
  'The site ajax endpoint: a user token for the session, or a credit notification',
  {
    description:
      'action nonce answers a nonce; get_user_token a new user token for the signed-in session; credit_transform, credit_upload and credit_download record the workspace’s notifications.',
    auth: AUTH.optionalSession,
    from: 'body',
    fields: Type.Object({
      action: Type.Enum(SITE_AJAX_ACTIONS, { description: 'what to do (either spelling)' }),
      nonce: Type.Optional(
        Type.String({ maxLength: 200, description: 'from /site-ajax/nonce (every action but nonce)' }),
      ),
      pid: Type.Optional(Type.String({ maxLength: 64 })),
      trans_id: Type.Optional(Type.String({ maxLength: 64 })),
      uid: Type.Optional(Type.String({ maxLength: 64 })),
    }),
    data: Type.Union([NonceData, Type.Object({ user_token: Type.String() }), EventRecorded]),
    example: { action: 'get_user_token', nonce: '…', pid: '0' },
  },
);

export const Sitemap = routeGroup('misc', AUTH.none).get(
  '/sitemap.xml',
  'Every site page in en and its /de/, /fr/, /ja/ alternates',
  {
    file: { types: ['application/xml'], description: 'The sitemap' },
  },
);

export const Robots = routeGroup('misc', AUTH.none).get(
  '/robots.txt',
  'What crawlers may visit (everything but the API) and where the sitemap is',
  {
    file: { types: ['text/plain'], description: 'The robots.txt file' },
  },
);

export const MailUnsubscribe = site.post(
  '/api/mail/unsubscribe',
  'Stops mail to an address (the link in every mail, or the signed-in owner)',
  {
    auth: AUTH.optionalToken,
    fields: Type.Object({
      email: FormText('the address'),
      sig: Type.Optional(Type.String({ maxLength: 200, description: 'the signature from the mail’s link' })),
    }),
    data: Type.Object({ email: Type.String(), unsubscribed: Type.Literal(true) }),
    example: { email: 'ada@example.com', sig: '…' },
  },
);

export const EmailStatus = site.post(
  '/api/v2/common/email_status',
  'Whether an address has an account and still receives mail (its owner, or with the mail link’s signature)',
  {
    auth: AUTH.optionalToken,
    fields: Type.Object({ email: FormText('the address'), sig: Type.Optional(Type.String({ maxLength: 200 })) }),
    data: Type.Object({ email: Type.String(), registered: Type.Literal(true), mail_subscribed: Type.Boolean() }),
    example: { email: 'ada@example.com' },
  },
);
