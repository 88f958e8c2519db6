CREATE TABLE "ticket_bot_states" (
	"ticket_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"stage" text,
	"option_id" integer,
	"invalid_sent" boolean DEFAULT false NOT NULL,
	"menu_sent_at" timestamp with time zone,
	"out_of_hours_key" text,
	"rating_asks" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_tracking" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"whatsapp_id" integer,
	"queue_id" integer,
	"user_id" integer,
	"queued_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"first_agent_reply_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"rating_at" timestamp with time zone,
	"rated_at" timestamp with time zone,
	"rating" smallint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_ratings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"user_id" integer,
	"rate" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket_bot_states" ADD CONSTRAINT "ticket_bot_states_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_bot_states" ADD CONSTRAINT "ticket_bot_states_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_bot_states" ADD CONSTRAINT "ticket_bot_states_option_id_queue_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."queue_options"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_tracking" ADD CONSTRAINT "ticket_tracking_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_tracking" ADD CONSTRAINT "ticket_tracking_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_tracking" ADD CONSTRAINT "ticket_tracking_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_tracking" ADD CONSTRAINT "ticket_tracking_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_tracking" ADD CONSTRAINT "ticket_tracking_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_ratings" ADD CONSTRAINT "user_ratings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_ratings" ADD CONSTRAINT "user_ratings_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_ratings" ADD CONSTRAINT "user_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_bot_states_company_idx" ON "ticket_bot_states" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_tracking_ticket_uq" ON "ticket_tracking" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "ticket_tracking_company_idx" ON "ticket_tracking" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "ticket_tracking_user_idx" ON "ticket_tracking" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_ratings_ticket_uq" ON "user_ratings" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "user_ratings_company_user_idx" ON "user_ratings" USING btree ("company_id","user_id");