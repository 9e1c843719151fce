// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import { api } from '../api/client.js';
import { ACCOUNT_TEXT } from '../shared/domain/account.js';
import { i18n } from '../i18n/index.js';
import { ModalActions } from '../components/ModalActions.js';
import { FactTable } from './content/FactTable.js';
import { PasswordForm, ProfileForm } from './ProfileForms.js';

// The real API client, watched: which calls the forms make. Each is stopped there, so nothing leaves the test.
let sent: string[] = [];
let watch: number;
beforeEach(() => {
  sent = [];
  watch = api.interceptors.request.use((config) => {
    sent.push(config.url ?? '');
    return Promise.reject(new Error('offline in unit tests'));
  });
});
afterEach(() => {
  api.interceptors.request.eject(watch);
  cleanup();
});

const wrap = (node: React.ReactNode) => render(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);
const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
/** Lets a submit that would send run as far as it goes. */
const settle = () => act(async () => undefined);

describe('account forms check their fields before they send', () => {
  it('profile: each empty field says so under itself; "other" asks for its text', async () => {
    wrap(<ProfileForm />);
    // the form loads the profile once
    await waitFor(() => expect(sent).toEqual(['/api/account/me']));
    fireEvent.click(screen.getByTestId('profile-save'));
    for (const id of ['profile-first', 'profile-last', 'profile-occupation']) {
      expect(screen.getByTestId(`${id}-error`).textContent, id).toBe(ACCOUNT_TEXT.required);
      expect(screen.getByTestId(id).getAttribute('aria-invalid'), id).toBe('true');
    }
    type('profile-first', 'Ada');
    type('profile-last', 'Lovelace');
    fireEvent.change(screen.getByTestId('profile-occupation'), { target: { value: 'other' } });
    fireEvent.click(screen.getByTestId('profile-save'));
    expect(screen.queryByTestId('profile-first-error')).toBeNull();
    expect(screen.getByTestId('profile-other-error').textContent).toBe(ACCOUNT_TEXT.required);
    expect((screen.getByTestId('profile-first') as HTMLInputElement).value).toBe('Ada');
    await settle();
    expect(screen.queryByTestId('profile-status')).toBeNull();
    expect(sent).toEqual(['/api/account/me']);
  });

  it('password: a new password equal to the old one is refused under the new one and nothing is sent', async () => {
    wrap(<PasswordForm />);
    type('pw-old', 'account123');
    type('pw-new', 'account123');
    type('pw-confirm', 'account123');
    fireEvent.click(screen.getByTestId('password-save'));
    expect(screen.getByTestId('pw-new-error').textContent).toBe('The new password must differ from the old password.');
    expect(screen.queryByTestId('pw-old-error')).toBeNull();
    expect(screen.getByTestId('pw-old').getAttribute('type')).toBe('password');
    expect(screen.getByTestId('pw-old').getAttribute('autocomplete')).toBe('current-password');
    expect(screen.getByTestId('pw-new').getAttribute('autocomplete')).toBe('new-password');
    await settle();
    expect(sent).toEqual([]);
    // A valid change is sent; the failed call's text goes on the status line, the fields keep what was typed.
    type('pw-new', 'account456');
    type('pw-confirm', 'account456');
    fireEvent.click(screen.getByTestId('password-save'));
    await waitFor(() => expect(sent).toEqual(['/api/account/password']));
    await waitFor(() => expect(screen.getByTestId('password-status').textContent).not.toBe(''));
    expect(screen.queryByTestId('pw-new-error')).toBeNull();
    expect((screen.getByTestId('pw-new') as HTMLInputElement).value).toBe('account456');
  });
});

describe('shared pieces', () => {
  it('a dialog dismissed from inside a form does not submit it', () => {
    let dismissed = 0;
    let submitted = 0;
    wrap(
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submitted++;
        }}
      >
        <ModalActions dismiss="Cancel" onDismiss={() => dismissed++} dismissTestId="cancel">
          <button type="submit">Save</button>
        </ModalActions>
      </form>,
    );
    fireEvent.click(screen.getByTestId('cancel'));
    expect([dismissed, submitted]).toEqual([1, 0]);
    fireEvent.click(screen.getByText('Save'));
    expect([dismissed, submitted]).toEqual([1, 1]);
    // the dismiss button comes first in the row
    expect([...screen.getByTestId('cancel').parentElement!.children].map((b) => b.textContent)).toEqual([
      'Cancel',
      'Save',
    ]);
  });

  it('a fact table has its header row and one row a fact, cell by cell', () => {
    wrap(
      <FactTable
        head={['Feature', 'Download']}
        rows={[
          ['Enlarge', '1.5 MB'],
          ['Compress', 'nothing'],
        ]}
        testId="facts"
      />,
    );
    const table = screen.getByTestId('facts');
    expect([...table.querySelectorAll('th')].map((c) => c.textContent)).toEqual(['Feature', 'Download']);
    expect(
      [...table.querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)),
    ).toEqual([
      ['Enlarge', '1.5 MB'],
      ['Compress', 'nothing'],
    ]);
    expect(table.parentElement!.className).toBe('table-scroll');
  });
});
