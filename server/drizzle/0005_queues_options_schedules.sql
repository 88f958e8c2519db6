CREATE TABLE "queue_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	"parent_id" integer,
	"title" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"option" integer DEFAULT 1 NOT NULL,
	"media_path" text,
	"media_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "schedules" jsonb DEFAULT '[{"weekday":"Segunda-feira","weekdayEn":"monday","startTime":"08:00","endTime":"18:00"},{"weekday":"Terça-feira","weekdayEn":"tuesday","startTime":"08:00","endTime":"18:00"},{"weekday":"Quarta-feira","weekdayEn":"wednesday","startTime":"08:00","endTime":"18:00"},{"weekday":"Quinta-feira","weekdayEn":"thursday","startTime":"08:00","endTime":"18:00"},{"weekday":"Sexta-feira","weekdayEn":"friday","startTime":"08:00","endTime":"18:00"},{"weekday":"Sábado","weekdayEn":"saturday","startTime":"08:00","endTime":"12:00"},{"weekday":"Domingo","weekdayEn":"sunday","startTime":"00:00","endTime":"00:00"}]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "order_queue" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "greeting_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "out_of_hours_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "integration_id" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "prompt_id" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "schedules" jsonb DEFAULT '[{"weekday":"Segunda-feira","weekdayEn":"monday","startTime":"08:00","endTime":"18:00"},{"weekday":"Terça-feira","weekdayEn":"tuesday","startTime":"08:00","endTime":"18:00"},{"weekday":"Quarta-feira","weekdayEn":"wednesday","startTime":"08:00","endTime":"18:00"},{"weekday":"Quinta-feira","weekdayEn":"thursday","startTime":"08:00","endTime":"18:00"},{"weekday":"Sexta-feira","weekdayEn":"friday","startTime":"08:00","endTime":"18:00"},{"weekday":"Sábado","weekdayEn":"saturday","startTime":"08:00","endTime":"12:00"},{"weekday":"Domingo","weekdayEn":"sunday","startTime":"00:00","endTime":"00:00"}]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "media_path" text;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "media_name" text;--> statement-breakpoint
ALTER TABLE "queue_options" ADD CONSTRAINT "queue_options_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_options" ADD CONSTRAINT "queue_options_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_options" ADD CONSTRAINT "queue_options_parent_id_queue_options_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."queue_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queue_options_company_idx" ON "queue_options" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "queue_options_queue_idx" ON "queue_options" USING btree ("queue_id","parent_id");--> statement-breakpoint
CREATE INDEX "queue_options_parent_idx" ON "queue_options" USING btree ("parent_id");