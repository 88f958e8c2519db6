import { CHECKOUT_COUNTRIES } from "@atende/contracts";
import { Box, MenuItem, TextField } from "@mui/material";
import { Controller, type Control, type FieldErrors, type UseFormRegister } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { fieldErrorText, textFieldRegister } from "../formFields";
import { maskCpfCnpj, type CheckoutFormValues } from "./checkoutForm";

interface CheckoutDataStepProps {
  register: UseFormRegister<CheckoutFormValues>;
  control: Control<CheckoutFormValues>;
  errors: FieldErrors<CheckoutFormValues>;
  /** The gateway needs the payer's CPF or CNPJ (Asaas). */
  requiresCpfCnpj: boolean;
}

/** Dados: who pays and where (full name, address, city, CEP, country required), the billing e-mail. */
export function CheckoutDataStep({ register, control, errors, requiresCpfCnpj }: CheckoutDataStepProps) {
  const { t } = useTranslation();
  const field = (name: keyof CheckoutFormValues) => ({
    ...textFieldRegister(register(name)),
    id: `checkout-${name}`,
    label: t(`billing.checkout.form.${name}`),
    error: Boolean(errors[name]),
    helperText: fieldErrorText(errors[name]),
  });

  return (
    <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
      <TextField
        {...field("firstName")}
        required
        autoFocus
        autoComplete="name"
        sx={{ gridColumn: "1 / -1" }}
      />
      {requiresCpfCnpj && (
        <Controller
          control={control}
          name="cpfCnpj"
          render={({ field: { ref, onChange, ...rest } }) => (
            <TextField
              {...rest}
              inputRef={ref}
              onChange={(event) => onChange(maskCpfCnpj(event.target.value))}
              id="checkout-cpfCnpj"
              label={t("billing.checkout.form.cpfCnpj")}
              required
              inputMode="numeric"
              error={Boolean(errors.cpfCnpj)}
              helperText={fieldErrorText(errors.cpfCnpj)}
            />
          )}
        />
      )}
      <TextField {...field("email")} type="email" autoComplete="email" />
      <TextField
        {...field("address2")}
        required
        autoComplete="street-address"
        sx={{ gridColumn: "1 / -1" }}
      />
      <TextField {...field("city")} required autoComplete="address-level2" />
      <TextField {...field("zipcode")} required autoComplete="postal-code" />
      <Controller
        control={control}
        name="country"
        render={({ field: { ref, ...rest } }) => (
          <TextField
            {...rest}
            inputRef={ref}
            select
            id="checkout-country"
            label={t("billing.checkout.form.country")}
            required
            error={Boolean(errors.country)}
            helperText={fieldErrorText(errors.country)}
          >
            {CHECKOUT_COUNTRIES.map((country) => (
              <MenuItem key={country.value} value={country.value}>
                {country.label}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
    </Box>
  );
}
