import { beforeEach, describe, expect, it } from 'vitest';
import { dialogs, useDialogs } from './dialogs.js';

beforeEach(() => useDialogs.setState({ stack: [] }));

describe('dialog stack', () => {
  it('opens on top, closes by id and by kind', () => {
    const a = dialogs.open({ kind: 'message', message: 'one' });
    dialogs.open({ kind: 'tooManyFiles' });
    dialogs.open({ kind: 'message', message: 'two' });
    expect(useDialogs.getState().stack.map((e) => e.dialog.kind)).toEqual(['message', 'tooManyFiles', 'message']);
    useDialogs.getState().close(a);
    expect(useDialogs.getState().stack.map((e) => ('message' in e.dialog ? e.dialog.message : e.dialog.kind))).toEqual([
      'tooManyFiles',
      'two',
    ]);
    useDialogs.getState().closeKind('message');
    expect(useDialogs.getState().stack.map((e) => e.dialog.kind)).toEqual(['tooManyFiles']);
  });
});
