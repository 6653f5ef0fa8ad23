import type { RefObject } from "react";
import type { FieldErrors } from "~/lib/schemas";

/**
 * The top of a form with two wrong fields or more (GOV.UK's error summary):
 * one alert, focused on arrival — with `autofocus` a page the server sends
 * back lands here without JavaScript — saying there is a problem, with the
 * form's own message and a link to each wrong field. A form with one wrong
 * field has none: its field, message beside it, takes focus, and the same
 * message isn't said twice.
 */
export function ErrorSummary({
  formId,
  errors,
  fields,
  form,
}: {
  formId: string;
  errors: FieldErrors;
  fields: string[];
  form: RefObject<HTMLFormElement>;
}) {
  const titleId = `${formId}-summary-title`;
  return (
    <div
      className="alert alert-error error-summary"
      role="alert"
      aria-labelledby={titleId}
      tabIndex={-1}
      autoFocus
      data-error-summary
    >
      <p className="error-summary-title" id={titleId}>
        There is a problem
      </p>
      <ul>
        {errors.form ? <li id={`${formId}-form-error`}>{errors.form}</li> : null}
        {fields.map((name) => (
          <li key={name}>
            <a
              href={`#${formId}-${name}`}
              onClick={(event) => {
                // the field itself, focused (the link alone only scrolls); a field drawn by its own component is found by name
                const control = form.current?.elements.namedItem(name);
                const target = control instanceof RadioNodeList ? control[0] : control;
                if (!(target instanceof HTMLElement)) return;
                event.preventDefault();
                target.focus();
              }}
            >
              {errors[name]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
