/** Starting the first image (kept apart from firstUse.ts so dialogs can use it without the upload manager). */
import { TAB_SWITCH_AFTER_START_MS } from '../../shared/domain/constants.js';
import { currentJobConfig, usePanel } from '../../stores/panel.js';
import { startProcessing } from '../../stores/processing.js';
import { useWorks } from '../../stores/works.js';

/** Starts the selected first image with the panel's job; Processing shows after 1 s (spec §4). */
export function startFirstUse(): void {
  if (startProcessing(currentJobConfig(usePanel.getState())) === 'started') {
    setTimeout(
      () => useWorks.getState().tab === 'uploaded' && useWorks.getState().setTab('processing'),
      TAB_SWITCH_AFTER_START_MS,
    );
  }
}

/** The features offered when the first image came without one (the /upload/ and /batch-process/ pages). */
export const FIRST_USE_CHOICES = [
  'enlarge',
  'denoise',
  'sharpen',
  'matting',
  'colorize',
  'portrait',
  'cartoonize',
  'perfect',
] as const;
