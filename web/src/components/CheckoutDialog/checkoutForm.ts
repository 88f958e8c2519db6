import {
  isValidCpfCnpj,
  subscriptionCheckoutSchema,
  type InvoiceDTO,
  type SubscriptionCheckoutInput,
  type SubscriptionInfoDTO,
} from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import type { Resolver } from "react-hook-form";
import { z } from "zod";

/** The Dados step's fields, as typed. */
export interface CheckoutFormValues {
  firstName: string;
  cpfCnpj: string;
  address2: string;
  city: string;
  zipcode: string;
  country: string;
  email: string;
}
export const CHECKOUT_FIELDS = [
  "firstName",
  "cpfCnpj",
  "address2",
  "city",
  "zipcode",
  "country",
  "email",
] as const;

export function checkoutDefaults(info: SubscriptionInfoDTO | undefined, name: string): CheckoutFormValues {
  return {
    firstName: name,
    cpfCnpj: "",
    address2: "",
    city: "",
    zipcode: "",
    country: "BR",
    email: info?.company.email ?? "",
  };
}

/**
 * POST /subscription's schema (the spec's messages for the five required fields); the payer's CPF or
 * CNPJ is required too, checked by its digits, when the gateway needs one (Asaas).
 */
export function checkoutResolver(requiresCpfCnpj: boolean): Resolver<CheckoutFormValues> {
  const schema = requiresCpfCnpj
    ? subscriptionCheckoutSchema.extend({
        cpfCnpj: z
          .string()
          .trim()
          .min(1, { error: "validation.cpfCnpjRequired", abort: true })
          .refine(isValidCpfCnpj, "validation.invalidCpfCnpj"),
      })
    : subscriptionCheckoutSchema;
  return zodResolver(schema) as unknown as Resolver<CheckoutFormValues>;
}

/** CPF 000.000.000-00 up to 11 digits, CNPJ 00.000.000/0000-00 beyond; what is not a digit is dropped. */
export function maskCpfCnpj(input: string): string {
  const d = input.replace(/\D/g, "").slice(0, 14);
  if (d.length <= 11) {
    return (
      [d.slice(0, 3), d.slice(3, 6), d.slice(6, 9)].filter(Boolean).join(".") +
      (d.length > 9 ? `-${d.slice(9)}` : "")
    );
  }
  return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}${d.length > 12 ? `-${d.slice(12)}` : ""}`;
}

/** What POST /subscription gets: the data, the plan shown (as Whaticket clients send it) and the invoice. */
export function checkoutPayload(
  values: CheckoutFormValues,
  plan: SubscriptionInfoDTO["plan"],
  invoice: InvoiceDTO | null,
): SubscriptionCheckoutInput {
  return {
    firstName: values.firstName.trim(),
    address2: values.address2.trim(),
    city: values.city.trim(),
    zipcode: values.zipcode.trim(),
    country: values.country,
    email: values.email.trim() || null,
    cpfCnpj: values.cpfCnpj.replace(/\D/g, "") || null,
    plan: plan
      ? JSON.stringify({
          id: plan.id,
          title: plan.name,
          price: plan.value,
          users: plan.users,
          connections: plan.connections,
        })
      : undefined,
    price: plan?.value ?? null,
    users: plan?.users ?? null,
    connections: plan?.connections ?? null,
    invoiceId: invoice?.id ?? null,
  };
}
