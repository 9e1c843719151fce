/**
 * Every route schema, by its name: the server registers each from its group's file; the browser
 * client's types (src/api/callRoute.ts, type-only) and the route table (src/shared/routeTable.ts,
 * written by `npm run api-docs`) come from here.
 */
export * from './accounts.js';
export * from './apiTokens.js';
export * from './downloads.js';
export * from './estimates.js';
export * from './history.js';
export * from './misc.js';
export * from './models.js';
export * from './payments.js';
export * from './processing.js';
export * from './promotions.js';
export * from './site.js';
export * from './tokens.js';
export * from './uploads.js';
export * from './workflows.js';
