/** The ONNX model files the PWA runs on the device. */
import { Type } from 'typebox';
import { AUTH, routeGroup } from './common.js';

export const ModelFile = routeGroup('misc', AUTH.none).get(
  '/models/:name',
  'An on-device model file (immutable under its name)',
  {
    params: Type.Object({ name: Type.String({ maxLength: 100, description: 'the file name, e.g. isnet-small.onnx' }) }),
    file: { types: ['application/octet-stream'], description: 'The ONNX file' },
  },
);
