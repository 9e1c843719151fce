/** The ONNX model files the PWA runs on the device. */
import { Type } from 'typebox';
import { AUTH, defineRoute } from './common.js';

export const ModelFile = defineRoute({
  method: 'GET',
  url: '/models/:name',
  tag: 'misc',
  summary: 'An on-device model file (immutable under its name)',
  auth: AUTH.none,
  params: Type.Object({ name: Type.String({ maxLength: 100, description: 'the file name, e.g. isnet-small.onnx' }) }),
  file: { types: ['application/octet-stream'], description: 'The ONNX file' },
});
