CREATE TABLE "whatsapp_number_checks" (
	"company_id" integer NOT NULL,
	"number" text NOT NULL,
	"jid" text,
	"checked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "whatsapp_number_checks_company_id_number_pk" PRIMARY KEY("company_id","number")
);
--> statement-breakpoint
ALTER TABLE "whatsapp_number_checks" ADD CONSTRAINT "whatsapp_number_checks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_number_checks_checked_idx" ON "whatsapp_number_checks" USING btree ("company_id","checked_at");