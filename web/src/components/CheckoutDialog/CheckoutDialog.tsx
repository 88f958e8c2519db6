import type { InvoiceDTO, PixChargeDTO, SubscriptionInfoDTO } from "@atende/contracts";
import { Alert, Box, Button, Skeleton, Stack, Step, StepLabel, Stepper } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { createSubscription, fetchSubscriptionInfo, subscriptionKeys } from "../../api/billing";
import { errorText, toast } from "../../api/toast";
import { useSessionUser } from "../../auth/AuthContext";
import { formatBRL } from "../../i18n/format";
import { FormDialog } from "../FormDialog";
import { applyServerErrors } from "../formFields";
import { CheckoutDataStep } from "./CheckoutDataStep";
import {
  CHECKOUT_FIELDS,
  checkoutDefaults,
  checkoutPayload,
  checkoutResolver,
  type CheckoutFormValues,
} from "./checkoutForm";
import { CheckoutPlanStep } from "./CheckoutPlanStep";
import { CheckoutReviewStep } from "./CheckoutReviewStep";
import { PixPayment } from "./PixPayment";

const STEPS = ["data", "customize", "review"] as const;
/** After the three steps: the Pix screen. */
const PIX_STEP = STEPS.length;

interface CheckoutDialogProps {
  /** The invoice to pay (PAGAR in /financeiro); without one, the company's open invoice. */
  invoice?: InvoiceDTO | null;
  onClose(): void;
}

/**
 * 'Falta pouco!': Dados (who pays), Personalizar (the plan), Revisar (price per month, users,
 * connections, total), then PAGAR asks POST /subscription for the Pix charge and the Pix screen
 * shows it. The payment's confirmation arrives live (PaymentWatcher).
 */
export function CheckoutDialog({ invoice: given = null, onClose }: CheckoutDialogProps) {
  const info = useQuery({
    queryKey: subscriptionKeys.info(),
    queryFn: ({ signal }) => fetchSubscriptionInfo(signal),
    // The dialog says it itself.
    meta: { silent: true },
  });
  if (!info.data) {
    return (
      <FormDialog title={<CheckoutTitle />} onClose={onClose} onSubmit={(e) => e.preventDefault()} readOnly>
        {info.isError ? (
          <Alert severity="error">{errorText(info.error)}</Alert>
        ) : (
          <Stack spacing={2}>
            <Skeleton variant="rounded" height={56} />
            <Skeleton variant="rounded" height={56} />
            <Skeleton variant="rounded" height={56} />
          </Stack>
        )}
      </FormDialog>
    );
  }
  return <Checkout info={info.data} invoice={given ?? info.data.openInvoice} onClose={onClose} />;
}

function CheckoutTitle() {
  const { t } = useTranslation();
  return t("billing.checkout.title");
}

interface CheckoutProps {
  info: SubscriptionInfoDTO;
  invoice: InvoiceDTO | null;
  onClose(): void;
}

function Checkout({ info, invoice, onClose }: CheckoutProps) {
  const { t, i18n } = useTranslation();
  const user = useSessionUser();
  const [step, setStep] = useState(0);
  const [charge, setCharge] = useState<PixChargeDTO | null>(null);
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CheckoutFormValues>({
    defaultValues: checkoutDefaults(info, user.name),
    resolver: checkoutResolver(info.requiresCpfCnpj),
  });
  const plan = info.plan;
  const blocked = !plan
    ? t("errors.ERR_COMPANY_WITHOUT_PLAN")
    : info.gateway === null
      ? t("errors.ERR_PAYMENT_GATEWAY_NOT_CONFIGURED")
      : null;

  async function next(values: CheckoutFormValues) {
    if (step < STEPS.length - 1) {
      setStep(step + 1);
      return;
    }
    try {
      const answer = await createSubscription(checkoutPayload(values, plan, invoice));
      setCharge(answer);
      setStep(PIX_STEP);
      toast(t("billing.checkout.success"), "success");
    } catch (error) {
      const placed = applyServerErrors(error, setError, {
        fieldOf: (path) => CHECKOUT_FIELDS.find((field) => field === path),
      });
      // A field the server refused is on the first step: back there to show it.
      if (placed !== undefined) setStep(0);
    }
  }

  const onPix = step === PIX_STEP && charge !== null;
  return (
    <FormDialog
      title={t("billing.checkout.title")}
      subtitle={
        invoice
          ? `${t("billing.checkout.invoice", { id: invoice.id, detail: invoice.detail })} · ${formatBRL(invoice.value, i18n.language)}`
          : undefined
      }
      onClose={onClose}
      onSubmit={(event) => void handleSubmit(next)(event)}
      submitting={isSubmitting}
      submitLabel={step === STEPS.length - 1 ? t("billing.checkout.pay") : t("billing.checkout.next")}
      readOnly={onPix || blocked !== null}
      closeLabel={t("billing.checkout.close")}
      maxWidth="md"
      header={
        <Box sx={{ px: 3, pb: 2 }}>
          <Stepper activeStep={step} alternativeLabel>
            {STEPS.map((key) => (
              <Step key={key}>
                <StepLabel>{t(`billing.checkout.steps.${key}`)}</StepLabel>
              </Step>
            ))}
          </Stepper>
        </Box>
      }
      extraActions={
        step > 0 &&
        !onPix && (
          <Button onClick={() => setStep(step - 1)} sx={{ mr: "auto" }}>
            {t("billing.checkout.back")}
          </Button>
        )
      }
    >
      {blocked !== null && <Alert severity="warning">{blocked}</Alert>}
      {blocked === null && plan && (
        <>
          {step === 0 && (
            <CheckoutDataStep
              register={register}
              control={control}
              errors={errors}
              requiresCpfCnpj={info.requiresCpfCnpj}
            />
          )}
          {step === 1 && <CheckoutPlanStep plan={plan} />}
          {step === 2 && <CheckoutReviewStep plan={plan} invoice={invoice} values={getValues()} />}
          {onPix && <PixPayment charge={charge} />}
        </>
      )}
    </FormDialog>
  );
}
