import { useId, type ReactNode } from "react";
import { isFormFailure, useFormErrors } from "~/components/form";
import type { FieldErrors, FormValues } from "~/lib/schemas";

/** The errors and typed values an action sent back for the form with this `intent` (or none). */
export function formState(result: unknown, intent?: string): { errors: FieldErrors; values: FormValues } {
  if (isFormFailure(result) && (intent === undefined || result.intent === intent))
    return { errors: result.errors, values: result.values };
  return { errors: {}, values: {} };
}

interface BaseProps {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  /** the value the server sent back (what was typed), else the saved one */
  value?: string;
}

function describedBy(id: string, error?: string, hint?: ReactNode) {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
}

function Extras({ id, error, hint }: { id: string; error?: string; hint?: ReactNode }) {
  return (
    <>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

/** Plain text with line breaks kept (never HTML). */
export function TextAreaField({
  name,
  label,
  error: sent,
  hint,
  value,
  rows = 5,
  maxLength,
}: BaseProps & { rows?: number; maxLength?: number }) {
  const id = useId();
  const error = useFormErrors()[name] ?? sent;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        maxLength={maxLength}
        key={value}
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      />
      <Extras id={id} error={error} hint={hint} />
    </div>
  );
}

export function SelectField({
  name,
  label,
  error: sent,
  hint,
  value,
  options,
}: BaseProps & { options: ReadonlyArray<{ value: string; label: string }> }) {
  const id = useId();
  const error = useFormErrors()[name] ?? sent;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        key={value}
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Extras id={id} error={error} hint={hint} />
    </div>
  );
}

/** An <input> with explicit state, for forms whose values don't come from ValidatedForm's context. */
export function InputField({
  name,
  label,
  error: sent,
  hint,
  value,
  type = "text",
  maxLength,
  min,
  max,
  inputMode,
  list,
}: BaseProps & {
  type?: string;
  maxLength?: number;
  min?: string;
  max?: string;
  inputMode?: "numeric" | "text";
  /** the id of a <datalist> of suggestions */
  list?: string;
}) {
  const id = useId();
  const error = useFormErrors()[name] ?? sent;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        key={value}
        defaultValue={value}
        maxLength={maxLength}
        min={min}
        max={max}
        inputMode={inputMode}
        list={list}
        autoComplete={list ? "off" : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      />
      <Extras id={id} error={error} hint={hint} />
    </div>
  );
}
