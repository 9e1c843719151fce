/** "Process on this device" (issue 17): the user's remembered choice (IndexedDB, src/db) for new works. */
import { create } from 'zustand';
import { getOnDeviceChoice, setOnDeviceChoice } from '../db/index.js';

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
    const on = await getOnDeviceChoice().catch(() => false);
    set({ on, loaded: true });
  },
  set(on) {
    set({ on, loaded: true });
    void setOnDeviceChoice(on).catch((e) => console.warn('the on-device choice was not saved', e));
  },
}));
