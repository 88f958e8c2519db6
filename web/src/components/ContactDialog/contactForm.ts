import { contactCreateSchema, type ContactCreateInput, type ContactDTO } from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import type { Resolver } from "react-hook-form";

export interface ContactFormValues {
  name: string;
  number: string;
  email: string;
  extraInfo: { name: string; value: string }[];
}

export function initialValues(contact: ContactDTO | null): ContactFormValues {
  return {
    name: contact?.name ?? "",
    number: contact?.number ?? "",
    email: contact?.email ?? "",
    extraInfo: contact?.extraInfo.map(({ name, value }) => ({ name, value })) ?? [],
  };
}

/** The contracts' schema, the same the server applies: name 2-50, number 8-50, email when given. */
export const contactFormResolver = zodResolver(contactCreateSchema) as unknown as Resolver<
  ContactFormValues,
  unknown,
  ContactCreateInput
>;

type FieldPath = "name" | "number" | "email" | `extraInfo.${number}.name` | `extraInfo.${number}.value`;

/** Maps the server's field paths ("extraInfo.0.name") onto the form's fields. */
export function formFieldOf(path: string): FieldPath | undefined {
  if (path === "name" || path === "number" || path === "email") return path;
  const extra = /^extraInfo\.(\d+)\.(name|value)$/.exec(path);
  return extra ? (`extraInfo.${Number(extra[1])}.${extra[2] as "name" | "value"}` as FieldPath) : undefined;
}
