/**
 * The delivery address fields of docs/product.md §5.9 inside a remix-validated-form (deliveryFormSchema):
 * the order page's form, and the local test checkout's stand-in for Stripe's address form.
 */
import { COUNTRY_NAMES } from "~/lib/customer-copy";
import { DELIVERY_COUNTRIES } from "~/lib/shop-rules";
import { SelectField, TextField } from "./form-field";

const COUNTRY_OPTIONS = DELIVERY_COUNTRIES.map((code) => ({ value: code, label: COUNTRY_NAMES[code] }));

export function DeliveryFields({
  onZipCodeChange,
  onCountryChange,
}: {
  onZipCodeChange?: (zipCode: string) => void;
  onCountryChange?: (country: string) => void;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField name="firstName" label="First name" autoComplete="given-name" />
      <TextField name="lastName" label="Last name" autoComplete="family-name" />
      <TextField name="email" label="Email" type="email" autoComplete="email" placeholder="you@example.com" />
      <TextField name="phone" label="Phone" type="tel" autoComplete="tel" placeholder="For the carrier" />
      <div className="sm:col-span-2">
        <TextField name="address1" label="Address line 1" autoComplete="address-line1" />
      </div>
      <div className="sm:col-span-2">
        <TextField name="address2" label="Address line 2" autoComplete="address-line2" optional />
      </div>
      <TextField name="city" label="City" autoComplete="address-level2" />
      <TextField name="stateCode" label="State or province" autoComplete="address-level1" placeholder="US and Canada: e.g. NY or ON" />
      <TextField name="zipCode" label="ZIP code" autoComplete="postal-code" onValueChange={onZipCodeChange} />
      <div className="sm:col-span-2">
        <SelectField
          name="country"
          label="Country"
          placeholder="Select a country"
          options={COUNTRY_OPTIONS}
          autoComplete="country"
          onValueChange={onCountryChange}
        />
      </div>
    </div>
  );
}
