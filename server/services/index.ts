/**
 * Composition of the services. Each service receives the same Deps object and reaches the
 * others through deps.services (resolved lazily, so construction order does not matter); each
 * service's file types only the part it uses (base.ts), so no service imports this file.
 * Services never import Fastify.
 */
import type { ServiceBase } from './base.js';
import type { Processing } from '../jobs/processing.js';
import { TokenService } from './tokens.js';
import { LicenseService } from './license.js';
import { CreditService } from './credits.js';
import { UploadService } from './uploads.js';
import { JobService } from './jobs.js';
import { WorkflowService } from './workflows.js';
import { SampleService } from './samples.js';
import { EstimateService } from './estimates.js';
import { EventService } from './events.js';
import { SubscriptionService } from './subscription.js';
import { AccountService } from './accounts.js';
import { PromotionService } from './promotions.js';
import { PaymentService } from './payments.js';
import { SessionService } from './sessions.js';
import { PlanService } from './plans.js';
import { ProfileService } from './profile.js';
import { NonceService } from './nonces.js';
import { MailService } from './mail.js';
import { LoginThrottleService } from './loginThrottle.js';
import { DownloadService } from './downloads.js';
import { RetentionService } from './retention.js';
import { ContactService } from './contact.js';
import { ApiTokenService } from './apiTokens.js';
import { WebhookService } from './webhooks.js';
import { ProcessService } from './process.js';

/** The one object every service is handed: the base and all the services (each service's own Deps type names the ones it calls). */
export interface Deps extends ServiceBase {
  services: Services;
}

export interface Services {
  tokens: TokenService;
  license: LicenseService;
  credits: CreditService;
  uploads: UploadService;
  jobs: JobService;
  workflows: WorkflowService;
  samples: SampleService;
  estimates: EstimateService;
  events: EventService;
  subscription: SubscriptionService;
  accounts: AccountService;
  promotions: PromotionService;
  payments: PaymentService;
  sessions: SessionService;
  plans: PlanService;
  profile: ProfileService;
  nonces: NonceService;
  mail: MailService;
  contact: ContactService;
  loginThrottle: LoginThrottleService;
  downloads: DownloadService;
  retention: RetentionService;
  apiTokens: ApiTokenService;
  webhooks: WebhookService;
  process: ProcessService;
}

/** `processing`: the job queue and runner, built by the composition root (server/bootstrap.ts) for JobService. */
export function createServices(base: ServiceBase, processing: Processing): Services {
  const deps = { ...base } as Deps;
  const services: Services = {
    tokens: new TokenService(deps),
    license: new LicenseService(deps),
    credits: new CreditService(deps),
    uploads: new UploadService(deps),
    jobs: new JobService(deps, processing),
    workflows: new WorkflowService(deps),
    samples: new SampleService(deps),
    estimates: new EstimateService(deps),
    events: new EventService(deps),
    subscription: new SubscriptionService(deps),
    accounts: new AccountService(deps),
    promotions: new PromotionService(deps),
    payments: new PaymentService(deps),
    sessions: new SessionService(deps),
    plans: new PlanService(deps),
    profile: new ProfileService(deps),
    nonces: new NonceService(deps),
    mail: new MailService(deps),
    contact: new ContactService(deps),
    loginThrottle: new LoginThrottleService(deps),
    downloads: new DownloadService(deps),
    retention: new RetentionService(deps),
    apiTokens: new ApiTokenService(deps),
    webhooks: new WebhookService(deps),
    process: new ProcessService(deps),
  };
  deps.services = services;
  return services;
}
