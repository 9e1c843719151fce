// The remembered "Process on this device" choice (real Dexie on fake-indexeddb, as src/db's tests).
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { useDeviceChoice } from './deviceChoice.js';

describe('device choice', () => {
  it('a choice made while the stored one is still loading is kept (the load does not overwrite it)', async () => {
    const loading = useDeviceChoice.getState().load();
    useDeviceChoice.getState().set(true);
    await loading;
    expect(useDeviceChoice.getState().on).toBe(true);
  });
});
