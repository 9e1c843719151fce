/** A labelled input with its error text (aria-invalid, aria-describedby) for the account forms. */
import type { ReactNode } from 'react';

interface Props {
  id: string;
  label: string;
  value: string;
  onChange(v: string): void;
  type?: string;
  error?: string;
  autoComplete?: string;
  hint?: ReactNode;
  maxLength?: number;
}

export function Field({ id, label, value, onChange, type = 'text', error, autoComplete, hint, maxLength }: Props) {
  return (
    <label className="field" htmlFor={id}>
      <span>{label}</span>
      <input
        id={id}
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-err` : undefined}
        autoComplete={autoComplete}
        maxLength={maxLength}
        data-testid={id}
      />
      {hint && <span className="muted small">{hint}</span>}
      {error && (
        <span id={`${id}-err`} className="field-error" data-testid={`${id}-error`}>
          {error}
        </span>
      )}
    </label>
  );
}

export function FormStatus({
  message,
  tone,
  testId,
}: {
  message: string | null;
  tone: 'error' | 'success';
  testId: string;
}) {
  if (!message) return null;
  return (
    <p
      className={tone === 'error' ? 'field-error' : 'acct-success'}
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid={testId}
    >
      {message}
    </p>
  );
}
