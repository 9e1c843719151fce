// The loader hooks of loadedModules.mjs (they run on the loader's own thread).
import fs from 'node:fs';

let out;

export function initialize(data) {
  out = data.out;
}

export async function load(url, context, nextLoad) {
  if (out) fs.appendFileSync(out, `${url}\n`);
  return nextLoad(url, context);
}
