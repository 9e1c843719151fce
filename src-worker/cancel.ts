/**
 * Runs the UI can cancel (issue 50 point 7): an AbortSignal cannot cross to the worker, so each
 * cancellable call names a run id, and `cancelRun(id)` aborts that run's signal here. The work checks
 * the signal between its steps, and a run's progress callback stops it at its next report (the models
 * report per downloaded chunk and per tile), so a cancelled card stops using the worker within a tile.
 */
const runs = new Map<number, AbortController>();

export async function cancellable<T>(id: number | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctrl = new AbortController();
  if (id !== undefined) runs.set(id, ctrl);
  try {
    return await work(ctrl.signal);
  } finally {
    if (id !== undefined) runs.delete(id);
  }
}

export function cancelRun(id: number): void {
  runs.get(id)?.abort(new DOMException('Cancelled', 'AbortError'));
}

/** A progress callback that ends the run (throws its abort reason) at the next report once it is cancelled. */
export function stopAtNextReport<P>(signal: AbortSignal, onProgress?: (p: P) => void): (p: P) => void {
  return (p) => {
    signal.throwIfAborted();
    onProgress?.(p);
  };
}
