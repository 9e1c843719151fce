/** Service health, this document, analytics reports and the other calls that serve no one feature. */
import { Type } from 'typebox';
import { AUTH, defineRoute } from './common.js';

export const Health = defineRoute({
  method: 'GET',
  url: '/api/health',
  tag: 'misc',
  summary: 'Answers while the server is up',
  auth: AUTH.none,
  data: Type.Object({ status: Type.Literal('up') }),
});

export const OpenApiDocument = defineRoute({
  method: 'GET',
  url: '/api-docs/openapi.json',
  tag: 'misc',
  summary: 'This API’s OpenAPI 3.1 document',
  description: 'Generated from the route schemas the server validates requests with.',
  auth: AUTH.none,
  file: { types: ['application/json'], description: 'The OpenAPI document (not wrapped in the envelope)' },
});
