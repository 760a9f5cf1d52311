/** An error, said as soon as it shows (`role="alert"`); nothing while there is none. */
export const ErrorAlert = ({
  className,
  id,
  message,
}: {
  className: string;
  id?: string;
  message: string | null | undefined;
}) =>
  message ? (
    <p className={className} id={id} role="alert">
      {message}
    </p>
  ) : null;
