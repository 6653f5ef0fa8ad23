import { Form, useNavigation, type FormProps } from "@remix-run/react";
import { createContext, useContext, useEffect, useId, useRef, useState, type ReactNode } from "react";
import type * as Schemas from "~/lib/schemas";
import type { FieldErrors, FormValues } from "~/lib/schemas";

type SchemaName = {
  [K in keyof typeof Schemas]: (typeof Schemas)[K] extends import("zod").ZodTypeAny ? K : never;
}[keyof typeof Schemas];

/**
 * The schemas (and Zod, ~14 KB gzip) reach the browser after hydration, like
 * the backend client: until they have, the server checks alone.
 */
let schemasModule: typeof Schemas | null = null;
let schemasLoading: Promise<typeof Schemas> | null = null;
function loadSchemas(): Promise<typeof Schemas> {
  schemasLoading ??= import("~/lib/schemas").then((m) => (schemasModule = m));
  return schemasLoading;
}

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
  /** the field (or "form") that gets focus: the first one with a message */
  firstError: string | undefined;
}

const FormStateContext = createContext<FormState>({ errors: {}, values: {}, formId: "", firstError: undefined });

/**
 * The messages of the ValidatedForm around a field: the browser's check, or
 * the server's answer for this form. Fields given their own `error` (from
 * the route's action data) show the browser's message first, so a form
 * stopped before sending still says why.
 */
export function useFormErrors(): FieldErrors {
  return useContext(FormStateContext).errors;
}

export function isFormFailure(value: unknown): value is FormFailure {
  return typeof value === "object" && value !== null && "errors" in value && "values" in value;
}

type ValidatedFormProps = Omit<FormProps, "onSubmit"> & {
  /** the name of the form's Zod schema in lib/schemas.ts: checked in the browser before sending, and by the action always */
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
  // whether the browser checks this form before sending (the schemas have arrived)
  const [checksInBrowser, setChecksInBrowser] = useState(false);

  // A new answer from the server replaces what the browser found.
  useEffect(() => setClientErrors(null), [result]);
  useEffect(() => {
    if (!schema) return;
    let live = true;
    void loadSchemas().then(() => live && setChecksInBrowser(true));
    return () => {
      live = false;
    };
  }, [schema]);

  const errors = clientErrors ?? serverResult?.errors ?? {};
  const values = serverResult?.values ?? {};
  // Messages come in the schema's order, which is the form's; a field's message goes before the form's.
  const firstError = Object.keys(errors).find((name) => name !== "form") ?? (errors.form ? "form" : undefined);

  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const form = formRef.current;
    const target =
      form?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      form?.querySelector<HTMLElement>("[data-form-alert]");
    target?.focus();
  }, [errors]);

  return (
    <FormStateContext.Provider value={{ errors, values, formId, firstError }}>
      <Form
        ref={formRef}
        method={method}
        noValidate
        {...props}
        aria-describedby={errors.form ? `${formId}-form-error` : undefined}
        data-checks={checksInBrowser ? "browser" : undefined}
        onSubmit={(event) => {
          if (!schema || !schemasModule) return;
          const parsed = schemasModule.parseForm(schemasModule[schema], new FormData(event.currentTarget));
          if (!parsed.success) {
            event.preventDefault();
            setClientErrors(parsed.errors);
          } else {
            setClientErrors(null);
          }
        }}
      >
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        {errors.form ? (
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

type FieldProps = {
  name: string;
  label: string;
  type?: string;
  autoComplete?: string;
  defaultValue?: string;
  hint?: ReactNode;
  required?: boolean;
  inputMode?: "numeric" | "email" | "text";
  /** phones: "none" for names, addresses and codes that aren't words; "characters" for keys */
  autoCapitalize?: "none" | "characters" | "words" | "sentences";
  spellCheck?: boolean;
  maxLength?: number;
  /** file inputs: the types the picker offers */
  accept?: string;
  multiple?: boolean;
  autoFocus?: boolean;
  /** something to show below the message (e.g. a resend button) */
  after?: ReactNode;
};

export function Field({ name, label, type = "text", defaultValue, hint, after, ...input }: FieldProps) {
  const { errors, values, formId, firstError } = useContext(FormStateContext);
  const id = `${formId}-${name}`;
  const error = errors[name];
  const secret = type === "password";
  const value = secret ? undefined : (values[name] ?? defaultValue);
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type={type}
        // keyed by the server's value so a re-rendered form shows what was sent back
        key={value}
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
        // without JavaScript, the page the server sends back focuses its first wrong field
        autoFocus={input.autoFocus || firstError === name || undefined}
      />
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {after}
    </div>
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
  return (
    <button type="submit" className={className} name={name} value={value} aria-disabled={pending || undefined}>
      {pending && pendingText ? pendingText : children}
    </button>
  );
}

export function HiddenNext({ next }: { next: string | null | undefined }) {
  return next ? <input type="hidden" name="next" value={next} /> : null;
}
