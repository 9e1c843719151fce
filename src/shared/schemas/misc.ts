/** Service health, this document, analytics reports and the other calls that serve no one feature. */
import { Type } from 'typebox';
import { AUTH, routeGroup } from './common.js';

const misc = routeGroup('misc', AUTH.none);

export const Health = misc.get('/api/health', 'Answers while the server is up', {
  data: Type.Object({ status: Type.Literal('up') }),
});

export const OpenApiDocument = misc.get('/api-docs/openapi.json', 'This API’s OpenAPI 3.1 document', {
  description: 'Generated from the route schemas the server validates requests with.',
  file: { types: ['application/json'], description: 'The OpenAPI document (not wrapped in the envelope)' },
});
