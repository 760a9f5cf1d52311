import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/error-alert.js';
import type { SignInError } from '../api/login.js';

interface LoginFormProps {
  pending: boolean;
  error: SignInError | null;
  onSubmit: (email: string, password: string) => void;
}

/** What the browser may fill each field with. */
const AUTOCOMPLETE = { email: 'username', password: 'current-password' } as const;

/** A labelled field of the form (its label names the input; `name` is its type too). */
const Field = ({
  name,
  value,
  onChange,
}: {
  name: keyof typeof AUTOCOMPLETE;
  value: string;
  onChange: (value: string) => void;
}) => {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {t(`login.${name}`)}
      </label>
      <input
        id={id}
        className="input"
        type={name}
        name={name}
        autoComplete={AUTOCOMPLETE[name]}
        required
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
};

export const LoginForm = ({ pending, error, onSubmit }: LoginFormProps) => {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const errorId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) onSubmit(email, password);
  };

  return (
    <form
      className="login-form"
      onSubmit={submit}
      noValidate={false}
      aria-describedby={error ? errorId : undefined}
    >
      <ErrorAlert
        className="form-error"
        id={errorId}
        message={error ? t(`login.errors.${error}`) : null}
      />
      <Field name="email" value={email} onChange={setEmail} />
      <Field name="password" value={password} onChange={setPassword} />
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={pending}
        aria-busy={pending}
      >
        {t('login.signIn')}
      </button>
    </form>
  );
};
