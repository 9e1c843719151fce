/** "Process on this device": the user's remembered choice (IndexedDB, src/db) for new works. */
import { create } from 'zustand';

interface DeviceChoiceState {
  on: boolean;
  loaded: boolean;
  load(): Promise<void>;
  set(on: boolean): void;
}

export const useDeviceChoice = create<DeviceChoiceState>((set, get) => ({
  on: false,
  loaded: false,
  async load() {
    if (get().loaded) return;
    // The choice lives in the local database, which loads only when asked (the workspace's first JS stays small).
    const on = await import('../db/index.js').then((db) => db.getOnDeviceChoice()).catch(() => false);
    // a choice the user made while the database loaded is newer than the stored one
    if (get().loaded) return;
    set({ on, loaded: true });
  },
  set(on) {
    set({ on, loaded: true });
    void import('../db/index.js')
      .then((db) => db.setOnDeviceChoice(on))
      .catch((e) => console.warn('the on-device choice was not saved', e));
  },
}));
