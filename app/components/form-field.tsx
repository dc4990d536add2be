/**
 * Labelled inputs for remix-validated-form: the validator's message shows under the field in
 * red (docs/product.md §8) and is tied to the input for screen readers.
 */
import type { ChangeEvent, ReactNode } from "react";
import { useField } from "remix-validated-form";

const inputClass = (invalid: boolean) =>
  `block w-full rounded-lg border bg-white px-3 py-2 text-gray-900 shadow-sm placeholder:text-gray-400 focus:outline-none focus:ring-2 ${
    invalid ? "border-red-500 focus:border-red-500 focus:ring-red-200" : "border-gray-300 focus:border-brand-500 focus:ring-brand-100"
  }`;

interface FieldShellProps {
  name: string;
  label: string;
  optional?: boolean;
  error?: string;
  help?: ReactNode;
  children: ReactNode;
}

function FieldShell({ name, label, optional, error, help, children }: FieldShellProps) {
  return (
    <div>
      <label htmlFor={name} className="mb-1 block text-sm font-medium text-gray-800">
        {label}
        {optional ? <span className="ml-1 font-normal text-gray-500">(optional)</span> : null}
      </label>
      {children}
      {help && !error ? <div className="mt-1 text-xs text-gray-500">{help}</div> : null}
      {error ? (
        <p id={`${name}-error`} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface TextFieldProps {
  name: string;
  label: string;
  type?: "text" | "email" | "tel";
  autoComplete?: string;
  placeholder?: string;
  optional?: boolean;
  onValueChange?: (value: string) => void;
}

export function TextField({ name, label, type = "text", autoComplete, placeholder, optional, onValueChange }: TextFieldProps) {
  const { error, getInputProps } = useField(name);
  return (
    <FieldShell name={name} label={label} optional={optional} error={error}>
      <input
        {...getInputProps({
          id: name,
          type,
          autoComplete,
          placeholder,
          onChange: (event: ChangeEvent<HTMLInputElement>) => onValueChange?.(event.target.value),
        })}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
        className={inputClass(Boolean(error))}
      />
    </FieldShell>
  );
}

interface TextAreaFieldProps {
  name: string;
  label: string;
  rows?: number;
  placeholder?: string;
  optional?: boolean;
  help?: ReactNode;
  onValueChange?: (value: string) => void;
}

export function TextAreaField({ name, label, rows = 4, placeholder, optional, help, onValueChange }: TextAreaFieldProps) {
  const { error, getInputProps } = useField(name);
  return (
    <FieldShell name={name} label={label} optional={optional} error={error} help={help}>
      <textarea
        {...getInputProps({
          id: name,
          rows,
          placeholder,
          onChange: (event: ChangeEvent<HTMLTextAreaElement>) => onValueChange?.(event.target.value),
        })}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
        className={inputClass(Boolean(error))}
      />
    </FieldShell>
  );
}

interface SelectFieldProps {
  name: string;
  label: string;
  placeholder: string;
  options: { value: string; label: string }[];
  autoComplete?: string;
  onValueChange?: (value: string) => void;
}

export function SelectField({ name, label, placeholder, options, autoComplete, onValueChange }: SelectFieldProps) {
  const { error, getInputProps } = useField(name);
  return (
    <FieldShell name={name} label={label} error={error}>
      <select
        {...getInputProps({
          id: name,
          autoComplete,
          onChange: (event: ChangeEvent<HTMLSelectElement>) => onValueChange?.(event.target.value),
        })}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
        className={inputClass(Boolean(error))}
      >
        {/* Not disabled: an empty choice must stay selectable so "Country is required" can show. */}
        <option value="">
          {placeholder}
        </option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}
