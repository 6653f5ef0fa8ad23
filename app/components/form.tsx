import { Form, useNavigation, type FormProps } from "@remix-run/react";
import { createContext, useContext, useEffect, useId, useRef, useState, type ReactNode } from "react";
import type { FieldErrors, FormValues } from "~/lib/schemas";
import { ErrorSummary } from "~/components/error-summary";
import { loadSchema, type BrowserCheck, type SchemaName } from "~/components/form-schemas.client";
import { ConfirmationBeside, useConfirmationHere } from "~/components/flash-message";
import type { Flash } from "~/lib/flash.server";

/** What an action sends back when a form is rejected. */
export interface FormFailure<I extends string = string> {
  intent?: I;
  errors: FieldErrors;
  values: FormValues;
}

interface FormState {
  errors: FieldErrors;
  values: FormValues;
  formId: string;
  /** the field (or "form") that gets focus: the first one with a message, unless a summary does */
  firstError: string | undefined;
  /** with JavaScript, the success message of this form, for its button to show beside it */
  confirmation: Flash | null;
}

const FormStateContext = createContext<FormState>({
  errors: {},
  values: {},
  formId: "",
  firstError: undefined,
  confirmation: null,
});

/**
 * The messages of the ValidatedForm around a field: the browser's check, or
 * the server's answer for this form. Fields given their own `error` (from
 * the route's action data) show the browser's message first, so a form
 * stopped before sending still says why.
 */
export function useFormErrors(): FieldErrors {
  return useContext(FormStateContext).errors;
}

/** The id the form's error summary links a field by (`${formId}-${name}`), for fields drawn by their own component. */
export function useFormId(): string {
  return useContext(FormStateContext).formId;
}

export function isFormFailure(value: unknown): value is FormFailure {
  return typeof value === "object" && value !== null && "errors" in value && "values" in value;
}

type ValidatedFormProps = Omit<FormProps, "onSubmit"> & {
  /** the name of the form's Zod schema (components/form-schemas.client): checked in the browser before sending, and by the action always */
  schema?: SchemaName;
  /** the action's answer, when it is about this form */
  result?: unknown;
  /** tells several forms of one page apart (sent as `intent`) */
  intent?: string;
  children: ReactNode;
};

/**
 * A Remix <Form> that works without JavaScript (a plain POST) and, with it,
 * checks the schema first, puts each message beside its field and moves focus
 * to the first wrong field (without it, the server's answer marks that field
 * `autofocus`).
 */
export function ValidatedForm({ schema, result, intent, children, method = "post", ...props }: ValidatedFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const formId = useId();
  const serverResult = isFormFailure(result) && (intent === undefined || result.intent === intent) ? result : null;
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  // whether the browser checks this form before sending (its schema has arrived)
  const [check, setCheck] = useState<BrowserCheck | null>(null);
  // whether the navigation under way is this form's submission
  const sent = useRef(false);
  const confirmation = useConfirmationHere(() => sent.current);
  const idle = useNavigation().state === "idle";
  useEffect(() => {
    if (idle) sent.current = false;
  }, [idle]);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  const startChecking = () => {
    if (!schema || check) return;
    void loadSchema(schema).then((loadedCheck) => live.current && setCheck(loadedCheck));
  };

  // A new answer from the server replaces what the browser found.
  useEffect(() => setClientErrors(null), [result]);
  const errors = clientErrors ?? serverResult?.errors ?? {};
  const values = serverResult?.values ?? {};
  // Messages come in the schema's order, which is the form's; a field's message goes before the form's.
  const wrongFields = Object.keys(errors).filter((name) => name !== "form");
  // two wrong fields or more: a summary at the top lists them, and it takes focus (no field does)
  const summary = wrongFields.length > 1;
  const firstError = summary ? undefined : (wrongFields[0] ?? (errors.form ? "form" : undefined));

  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const form = formRef.current;
    const target =
      form?.querySelector<HTMLElement>("[data-error-summary]") ??
      form?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      form?.querySelector<HTMLElement>("[data-form-alert]");
    target?.focus();
  }, [errors]);

  return (
    <FormStateContext.Provider value={{ errors, values, formId, firstError, confirmation }}>
      <Form
        ref={formRef}
        method={method}
        noValidate
        {...props}
        aria-describedby={errors.form ? `${formId}-form-error` : undefined}
        data-checks={check ? "browser" : undefined}
        // someone starts on the form: focuses or touches it, or types into a field focused on arrival
        onFocus={startChecking}
        onPointerDown={startChecking}
        onKeyDown={startChecking}
        onSubmit={(event) => {
          sent.current = true;
          if (!check) return;
          const parsed = check.parseForm(check.schema, new FormData(event.currentTarget));
          if (!parsed.success) {
            event.preventDefault();
            sent.current = false;
            setClientErrors(parsed.errors);
          } else {
            setClientErrors(null);
          }
        }}
      >
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        {summary ? (
          <ErrorSummary formId={formId} errors={errors} fields={wrongFields} form={formRef} />
        ) : errors.form ? (
          <FormAlert id={`${formId}-form-error`} autoFocus={firstError === "form"}>
            {errors.form}
          </FormAlert>
        ) : null}
        {children}
      </Form>
    </FormStateContext.Provider>
  );
}

/** `autoFocus` renders the attribute, so a page the server sends back focuses it without JavaScript. */
export function FormAlert({ id, autoFocus, children }: { id?: string; autoFocus?: boolean; children: ReactNode }) {
  return (
    <div
      id={id}
      className="alert alert-error"
      role="alert"
      tabIndex={-1}
      autoFocus={autoFocus || undefined}
      data-form-alert
    >
      {children}
    </div>
  );
}

/** The errors and typed values an action sent back for the form with this `intent` (or none). */
export function formState(result: unknown, intent?: string): { errors: FieldErrors; values: FormValues } {
  if (isFormFailure(result) && (intent === undefined || result.intent === intent))
    return { errors: result.errors, values: result.values };
  return { errors: {}, values: {} };
}

/**
 * What every labelled field takes. Inside a ValidatedForm a field finds its
 * message and the value sent back by itself; `error` and `value` are for
 * forms whose answer the route reads (`formState`), and give way to the
 * browser's own check.
 */
interface LabelledProps {
  name: string;
  label: string;
  hint?: ReactNode;
  /** the message from the route's action data, when the form has none of its own */
  error?: string;
  /** the value to show, when the route decides it (what was sent back, else the saved one) */
  value?: string;
  /** the saved value, shown unless the form sent another back */
  defaultValue?: string;
  autoFocus?: boolean;
  /** something to show below the message (e.g. a resend button) */
  after?: ReactNode;
}

interface ControlProps {
  id: string;
  name: string;
  /** keyed by the shown value, so a re-rendered form shows what was sent back */
  key: string | undefined;
  defaultValue: string | undefined;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  autoFocus: true | undefined;
}

/**
 * The one labelled field: label, hint, the control `render` draws with the
 * props it is given (id, name, value, aria), the message. A wrong field is
 * `aria-invalid` and described by its message; the first wrong one of a
 * ValidatedForm gets `autofocus`, so a page the server sends back focuses it
 * without JavaScript.
 */
function LabelledField({
  name,
  label,
  hint,
  error: sent,
  value,
  defaultValue,
  autoFocus,
  after,
  secret = false,
  render,
}: LabelledProps & { secret?: boolean; render: (control: ControlProps) => ReactNode }) {
  const { errors, values, formId, firstError } = useContext(FormStateContext);
  const ownId = useId();
  const id = formId ? `${formId}-${name}` : ownId;
  const error = errors[name] ?? sent;
  const shown = secret ? undefined : (value ?? values[name] ?? defaultValue);
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {render({
        id,
        name,
        key: shown,
        defaultValue: shown,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
        autoFocus: autoFocus || (firstError !== undefined && firstError === name) || undefined,
      })}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {after}
    </div>
  );
}

type InputProps = {
  type?: string;
  autoComplete?: string;
  required?: boolean;
  inputMode?: "numeric" | "email" | "text";
  /** phones: "none" for names, addresses and codes that aren't words; "characters" for keys */
  autoCapitalize?: "none" | "characters" | "words" | "sentences";
  spellCheck?: boolean;
  maxLength?: number;
  min?: string;
  max?: string;
  /** file inputs: the types the picker offers */
  accept?: string;
  multiple?: boolean;
  /** the id of a <datalist> of suggestions */
  list?: string;
};

/** A labelled <input>; a password's value is never shown again. */
export function Field({ type = "text", ...props }: LabelledProps & InputProps) {
  const { name, label, hint, error, value, defaultValue, autoFocus, after, ...input } = props;
  return (
    <LabelledField
      {...{ name, label, hint, error, value, defaultValue, autoFocus, after }}
      secret={type === "password"}
      render={({ key, ...control }) => <input key={key} type={type} {...input} {...control} />}
    />
  );
}

/** A labelled <textarea>: plain text with line breaks kept (never HTML). */
export function TextAreaField({
  rows = 5,
  maxLength,
  ...props
}: LabelledProps & { rows?: number; maxLength?: number }) {
  return (
    <LabelledField
      {...props}
      render={({ key, ...control }) => <textarea key={key} rows={rows} maxLength={maxLength} {...control} />}
    />
  );
}

/** A labelled <select>. */
export function SelectField({
  options,
  ...props
}: LabelledProps & { options: ReadonlyArray<{ value: string; label: string }> }) {
  return (
    <LabelledField
      {...props}
      render={({ key, ...control }) => (
        <select key={key} {...control}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

export function SubmitButton({
  children,
  pendingText,
  className = "button",
  name,
  value,
}: {
  children: ReactNode;
  pendingText?: string;
  className?: string;
  name?: string;
  value?: string;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const { confirmation } = useContext(FormStateContext);
  return (
    <>
      <button type="submit" className={className} name={name} value={value} aria-disabled={pending || undefined}>
        {pending && pendingText ? pendingText : children}
      </button>
      <ConfirmationBeside flash={confirmation} />
    </>
  );
}

export function HiddenNext({ next }: { next: string | null | undefined }) {
  return next ? <input type="hidden" name="next" value={next} /> : null;
}
