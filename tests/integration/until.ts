/**
 * A bounded poll on real state, for the few places where no event tells a test that something
 * happened: reads `probe` every `intervalMs` until `done` accepts its value or `timeoutMs` passes,
 * and returns the last value read either way, so the test's assertion is on the outcome.
 */
export async function until<T>(
  probe: () => T | Promise<T>,
  done: (v: T) => boolean,
  { timeoutMs = 30_000, intervalMs = 20 } = {},
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let v = await probe();
  while (!done(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, intervalMs));
    v = await probe();
  }
  return v;
}
