import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignInError } from '../api/login.js';

interface LoginFormProps {
  pending: boolean;
  error: SignInError | null;
  onSubmit: (email: string, password: string) => void;
}

export const LoginForm = ({ pending, error, onSubmit }: LoginFormProps) => {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const emailId = useId();
  const passwordId = useId();
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
      {error ? (
        <p className="form-error" id={errorId} role="alert">
          {t(`login.errors.${error}`)}
        </p>
      ) : null}
      <div className="field">
        <label className="field__label" htmlFor={emailId}>
          {t('login.email')}
        </label>
        <input
          id={emailId}
          className="input"
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={passwordId}>
          {t('login.password')}
        </label>
        <input
          id={passwordId}
          className="input"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
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
